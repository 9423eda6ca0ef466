r"""A text for a set of patterns with each run of the characters they never name cut to one.

Why: an RE2 set reads every byte, and learners' text and random CJK are mostly characters
no Chinese pattern names (题, 数, 的 in most places); the Chinese sets and tails took 15 ms of
100,000 random CJK characters, as long as on text the patterns could match.

Exact for patterns whose every class names its characters (no ``.``, no negated class): a
match is made of named characters only, so it lies inside a run of them, which is kept
whole; a character none of them names ends every partial match, and so does one in its
place. The first character of each run stays as that one: word characters are always
named, so it is never a word character and ``\b`` beside it reads as beside the run; a
stretch keeps its first character, and ends with an unnamed one where the text did, so
``^`` and ``$`` hold where they held.
The sets are filters (each pattern they report is then found in the text itself), so a
shorter text changes what they cost, never what is found.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from robot_skills.coordinator import match_ends

WORTH = 4        # cut a text only when it is at least this many times longer than its cut


@dataclass(frozen=True)
class Named:
    """The characters some pattern names (``table[code]``), or None when a pattern may
    match a character it does not name (then no text is cut)."""

    table: np.ndarray | None

    @classmethod
    def of(cls, trees: list[match_ends.Node]) -> Named:
        chars = set().union(*(match_ends.classes(tree) for tree in trees))
        if any(c.negated for c in chars):
            return cls(None)
        table = np.zeros(match_ends.UNICODE, dtype=bool)
        members = {ch for c in chars for ch in c.members} | match_ends.WORD
        table[np.fromiter(map(ord, members), dtype=np.int64, count=len(members))] = True
        return cls(table)

    def cut(self, reading: match_ends.Text, text: bytes, worth: int = WORTH) -> Cut:
        """``text`` (the UTF-8 of ``reading``) ready to be read in stretches: cut only when
        that makes it ``worth`` times shorter (a cut costs a copy of the text)."""
        if self.table is None:
            return Cut(None, reading, text)
        named = self.table[reading.codes]
        kept = named.copy()
        kept[1:] |= named[:-1]       # the first character of each unnamed run stays
        if len(kept):
            kept[0] = True
        if worth * int(np.count_nonzero(kept)) > len(kept):
            return Cut(None, reading, text)
        return Cut(kept, reading, text)


@dataclass(frozen=True)
class Cut:
    kept: np.ndarray | None      # the characters kept (None: the text is read as it is)
    reading: match_ends.Text
    text: bytes

    def stretch(self, start: int, end: int) -> bytes:
        """The bytes [``start``, ``end``) of the text (each a character's first byte), cut:
        the first character of the stretch always stays, so a stretch reads as it would
        alone."""
        if self.kept is None:
            return self.text if (start, end) == (0, len(self.text)) else self.text[start:end]
        low, high = np.searchsorted(self.reading.byte_offsets, (start, end)).tolist()
        kept = self.kept[low:high].copy()
        if len(kept):
            kept[0] = True
        codes = self.reading.codes[low:high][kept]
        return codes.astype('<u4').tobytes().decode('utf-32-le').encode()
