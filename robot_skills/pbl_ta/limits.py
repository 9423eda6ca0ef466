"""The TA's hard frequency limits (003, 强制频率上限 / 强制禁止连续发言), nothing else.

Counted over body turns only, in the order they were spoken:
* the TA's body turns are at most 20% of all body turns, this one included;
* never two TA body turns in a row;
* the TA speaks only when none of the last three body turns already taken was
  its own ("最近 3 个正文回合里你尚未发过言"; "已经发过 1 次，也必须为 false"): after
  it spoke, at least three body turns by others pass before it may speak again
  (TA, x, y, TA is refused; TA, x, y, z, TA is allowed). This also covers
  Decision Policy 11 (quiet for at least 2 body turns after a hint).
No content can override them: the core asks ``may_speak`` last, right before
it commits a TA turn.
"""

from __future__ import annotations

from collections.abc import Sequence

SHARE_PERCENT = 20
WINDOW = 3


def may_speak(ta_turns: Sequence[bool]) -> str:
    """'' when one more TA body turn keeps every limit; otherwise the limit it would break.

    ``ta_turns``: for each body turn so far, whether the TA spoke it.
    """
    return limit(len(ta_turns), sum(ta_turns), ta_turns[-WINDOW:])


def limit(total: int, ta: int, recent: Sequence[bool]) -> str:
    """``may_speak`` from counters: ``total`` body turns, ``ta`` of them the TA's, and the
    flags of the last ``WINDOW`` body turns (a session keeps no longer history)."""
    if recent and recent[-1]:
        return 'consecutive'
    if any(recent[-WINDOW:]):
        return 'window'
    if (ta + 1) * 100 > SHARE_PERCENT * (total + 1):
        return 'share'
    return ''

