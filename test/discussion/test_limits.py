"""The hard frequency limits (003 强制频率上限, 强制禁止连续发言), alone and in the core."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from discussion_talk import broken

from robot_skills.discussion.limits import may_speak

S, T = False, True


@pytest.mark.parametrize('history, verdict', [
    ([], 'share'),                      # the very first body turn would be 100%
    ([S, S, S], 'share'),               # 1 of 4 = 25%
    ([S, S, S, S], ''),                 # 1 of 5 = 20%: allowed
    ([S, S, S, S, T], 'consecutive'),
    ([S, S, S, S, T, S], 'window'),     # T S + me: two in a window of three
    ([S, S, S, S, T, S, S], 'share'),   # 2 of 8 = 25%
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
