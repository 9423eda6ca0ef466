"""An independent reading of the hard limits (003), for the tests: whole histories judged
by counting, without ``limits.may_speak``."""

from __future__ import annotations


def broken(ta_turns: list[bool]) -> list[str]:
    """Every limit a whole history of body turns breaks (True: the TA spoke it).

    * 20%: at each TA turn, the TA's share of the body turns so far (this one included);
    * never two TA turns in a row;
    * "最近 3 个正文回合里你尚未发过言": a TA turn needs the three body turns before it to be
      others', i.e. any four consecutive body turns hold at most one TA turn.
    """
    found = []
    for end in range(1, len(ta_turns) + 1):
        prefix = ta_turns[:end]
        if prefix[-1] and 5 * sum(prefix) > len(prefix):
            found.append(f'share over 20% at body turn {end}')
        if end >= 2 and prefix[-1] and prefix[-2]:
            found.append(f'two TA turns in a row at {end}')
        if prefix[-1] and any(prefix[-4:-1]):
            found.append(f'the TA spoke within the three body turns before {end}')
    return found
