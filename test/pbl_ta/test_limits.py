"""The hard frequency limits (003 强制频率上限, 强制禁止连续发言), alone and in the core.

The window counts turns already taken: "最近 3 个正文回合里你尚未发过言" and "已经发过 1 次，
也必须为 false" make TA, x, y, TA a breach; TA, x, y, z, TA is allowed.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from limits_oracle import broken
from pbl_ta_talk import Talk

from robot_skills.pbl_ta.limits import may_speak

S, T = False, True


@pytest.mark.parametrize('history, verdict', [
    ([], 'share'),                      # the very first body turn would be 100%
    ([S, S, S], 'share'),               # 1 of 4 = 25%
    ([S, S, S, S], ''),                 # 1 of 5 = 20%: allowed
    ([S, S, S, S, T], 'consecutive'),
    ([S, S, S, S, T, S], 'window'),     # T S + me: two in a window of three
    ([S, S, S, S, T, S, S], 'window'),  # T x y + me: the TA spoke in the last three
    ([S] * 9 + [T, S, S], 'window'),    # 2 of 13 would keep the share: the window forbids
    ([S] * 9 + [T, S, S, S], ''),       # three turns by others since: allowed
    ([S] * 4 + [T] + [S] * 4, ''),      # 2 of 10 = 20%
    ([S] * 9 + [T, S], 'window'),
    ([S] * 20, ''),
])
def test_verdicts(history, verdict):
    assert may_speak(history) == verdict


@given(st.lists(st.booleans(), max_size=300))
def test_may_speak_is_exactly_the_limits(history):
    """Speaking is allowed exactly when the history plus one TA turn breaks nothing new."""
    clean = [False] * len(history)
    for n, wants in enumerate(history):      # a history built only by obeying may_speak
        clean[n] = wants and not may_speak(clean[:n])
    assert broken(clean) == []
    assert (may_speak(clean) == '') == (broken([*clean, True]) == [])


@settings(max_examples=50)
@given(st.lists(st.booleans(), min_size=1, max_size=2000))
def test_obeying_never_breaks_a_limit_over_thousands_of_turns(wishes):
    history: list[bool] = []
    for wants in wishes:
        history.append(wants and not may_speak(history))
    assert broken(history) == []
    assert sum(history) * 5 <= len(history)


@pytest.mark.parametrize('others', [0, 1, 2, 3])
def test_the_window_counts_the_turns_already_taken(others):
    """Exactly three body turns by others must pass after the TA spoke, whatever the share."""
    history = [S] * 30 + [T] + [S] * others
    assert (may_speak(history) == '') is (others >= 3)


def test_a_greedy_orchestrator_never_gets_the_correction_repeated_two_turns_later():
    """Refresh + discuss after every turn, a misreading said again right after the TA
    corrected it: the TA waits three turns by others before it speaks again."""
    talk = Talk()
    talk.say(*[f'第{n}个想法' for n in range(10)])
    fines = '其实罚款就能解决，多罚几次就好了'
    spoken_at = []
    for text in [fines, '嗯', fines, fines, fines, fines, fines]:
        talk.say(text)
        if talk.discuss().utterance:
            spoken_at.append(len(talk.history) - 1)
    assert len(spoken_at) >= 2
    assert all(b - a >= 4 for a, b in zip(spoken_at, spoken_at[1:], strict=False)), spoken_at
    assert broken(talk.history) == []
