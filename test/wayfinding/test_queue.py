"""At most ``max_pending`` questions wait: the oldest voice question goes first, and a remote
visitor is never dropped without a reply (issue 12: 929 queued questions from one flood)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from wayfinding_talk import Conversation, Turn

from robot_skills.model.skill import Reply
from robot_skills.model.utterance import Source
from robot_skills.wayfinding.core import WayfindingCore

BUSY = '现在问路的人比较多，请稍后再问我一次。'


@pytest.fixture
def small(building) -> Conversation:
    return Conversation(WayfindingCore(building, 30.0, max_pending=3))


def _dropped(turn) -> list[str]:
    return [t.detail['utterance_id'] for t in turn.traces if t.kind == 'input_dropped']


def test_past_the_limit_the_oldest_voice_question_is_dropped(small):
    small.hear('贝旺路怎么走', settle=False)                     # u1 is being answered
    turns = [small.hear(q, settle=False) for q in ('初心', '天枢', '摇光', '玉衡')]   # u2..u5
    assert [_dropped(t) for t in turns] == [[], [], [], ['u2']]
    assert [u.utterance_id for u in small.state.waiting] == ['u3', 'u4', 'u5']


def test_remote_questions_are_kept_while_a_voice_question_can_go(small):
    small.hear('贝旺路怎么走', settle=False)
    small.hear('初心', remote=True, settle=False)               # u2 remote
    small.hear('天枢', settle=False)                             # u3 voice
    small.hear('摇光', remote=True, settle=False)               # u4 remote
    full = small.hear('玉衡', remote=True, settle=False)        # u5 remote
    assert _dropped(full) == ['u3'] and full.replies == []
    assert [u.source for u in small.state.waiting] == [Source.REMOTE] * 3


def test_when_only_remote_questions_wait_the_oldest_is_answered_busy(small):
    small.hear('贝旺路怎么走', settle=False)
    for question in ('初心', '天枢', '摇光'):
        small.hear(question, remote=True, settle=False)         # u2..u4
    full = small.hear('玉衡', remote=True, settle=False)        # u5
    assert _dropped(full) == ['u2']
    assert full.replies == [Reply('u2', 'visitor', BUSY)]


@given(st.lists(st.booleans(), min_size=1, max_size=60), st.integers(1, 6))
def test_the_queue_never_exceeds_its_limit_and_every_remote_gets_an_answer(building, remotes,
                                                                           limit):
    talk = Conversation(WayfindingCore(building, 30.0, max_pending=limit))
    talk.hear('贝旺路怎么走', settle=False)
    answered, dropped = set(), set()
    for remote in remotes:
        turn = talk.hear('初心怎么走', remote=remote, settle=False)
        assert len(talk.state.waiting) <= limit
        answered |= {r.in_reply_to for r in turn.replies}
        dropped |= set(_dropped(turn))
    remote_ids = {f'u{n + 2}' for n, remote in enumerate(remotes) if remote}
    waiting = {u.utterance_id for u in talk.state.waiting}
    assert remote_ids <= waiting | answered          # kept, or answered "busy"
    assert dropped.isdisjoint(waiting) and len(dropped) == max(0, len(remotes) - limit)
    while talk.in_flight:                             # and everything kept is answered later
        talk.complete(talk.in_flight[0], Turn())
    assert talk.state.waiting == ()
