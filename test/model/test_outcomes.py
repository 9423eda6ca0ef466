"""The contract's receipt semantics, judged once for every skill."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robot_skills.model.commands import (
    ArmGesture,
    ArmMovePos,
    Call,
    Control,
    Hand,
    HeadGesture,
    Speak,
)
from robot_skills.model.outcomes import Receipt, Status, failure, judge, not_accepted

WELCOME = ArmGesture('welcome', 'left')
NOD = HeadGesture('nod')
POINT = Hand('point', 'right')
MOVE = ArmMovePos((0.0,) * 7, (0.0,) * 7)
SPEAK = Speak('你好')


@pytest.mark.parametrize('command, receipt, ok', [
    (WELCOME, Receipt('completed', 'welcome', 'a1'), True),
    (WELCOME, Receipt('running', 'welcome', 'a1'), True),
    (WELCOME, Receipt('', '', ''), False),                       # empty receipt
    (WELCOME, Receipt('completed', '', 'a1'), False),            # missing gesture
    (WELCOME, Receipt('completed', 'reset', 'a1'), False),       # different gesture
    (WELCOME, Receipt('error', 'welcome', 'a1', 'estop'), False),
    (WELCOME, Receipt('cancelled', 'welcome', 'a1'), False),
    (NOD, Receipt('completed', 'nod'), True),
    (NOD, Receipt('completed', 'shake'), False),
    (POINT, Receipt('running', 'point'), True),
    (POINT, Receipt('completed', 'victory'), False),
    (MOVE, Receipt('completed', '', 'm1'), True),                # move_pos has no gesture
    (MOVE, Receipt('error', '', 'm1', 'limits'), False),
    (MOVE, Receipt('', '', ''), False),
    (SPEAK, Receipt('completed', '', 't1'), True),
    (SPEAK, Receipt('interrupted', '', 't1'), False),
    (SPEAK, Receipt('error', '', 't1', 'tts down'), False),
    (SPEAK, Receipt('', '', ''), False),
    (SPEAK, Receipt('running', '', 't1'), False),                # speech must complete
    (Call(Control.TTS_PAUSE), Receipt('completed'), True),
    (Call(Control.TTS_PAUSE), Receipt('error', error='nothing is speaking'), False),
])
def test_judge_follows_the_contract(command, receipt, ok):
    outcome = judge(command, receipt)
    assert outcome.ok is ok
    assert outcome.status is (Status.SUCCEEDED if ok else Status.FAILED)
    assert bool(outcome.reason) is not ok


def test_reasons_name_what_was_wrong():
    assert judge(WELCOME, Receipt('completed', 'reset')).reason == \
        "receipt names 'reset', expected 'welcome'"
    assert judge(WELCOME, Receipt('error', 'welcome', error='estop')).reason == 'ended error: estop'
    assert judge(WELCOME, Receipt()).reason == 'empty receipt (no state)'


def test_a_refused_command_fails_with_its_reason():
    refusal = not_accepted(WELCOME, Status.REJECTED, 'goal rejected by the device')
    outcome = failure(refusal)
    assert not outcome.ok and outcome.status is Status.REJECTED
    assert outcome.reason == 'goal rejected by the device'


@given(state=st.text(max_size=12), gesture=st.text(max_size=12))
def test_a_gesture_succeeds_only_on_a_matching_success_receipt(state, gesture):
    ok = judge(WELCOME, Receipt(state, gesture)).ok
    assert ok == (state in ('completed', 'running') and gesture == 'welcome')
