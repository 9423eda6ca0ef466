"""The crisis check's own folded copy of a request (routing never sees it: it keeps what
folding destroys, such as the superscripts of m·s⁻¹).

Each character is folded on its own: its NFKC form (full-width letters, compatibility
ideographs, ligatures, 𝐬𝐮𝐢𝐜𝐢𝐝𝐞; the full-width punctuation the patterns allow stays),
then lower case, apostrophes dropped ("don't" is "dont"). Never a sequence: NFKC of a
run composes a mark with the letter before it ("ｌ" + U+0341 would read "ĺ", hiding
"kill"), while a mark on its own is a separator. A character NFKC makes longer than
``LONGEST`` becomes a space (U+FDFA is 18 characters: a text of them would read as 1.8
million; a space still separates words), a lone surrogate U+FFFD (it cannot be encoded).

One pass of numpy over the code points, with a table of the first three planes (NFKC
changes nothing beyond): about a millisecond for 100,000 characters, whatever they are.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

PLANES = 0x30000     # NFKC changes characters of the first three planes only (𝐬, 丽)
LONGEST = 3          # characters a folded character may become ("ﬃ" is "ffi")
APOSTROPHES = "'’`´"


class Folding:
    """The folding of one lexicon (``kept``: characters its patterns allow as they are)."""

    def __init__(self, kept: str) -> None:
        self._length = np.ones(PLANES, dtype=np.int64)
        self._parts = np.tile(np.arange(PLANES, dtype=np.uint32), (LONGEST, 1))
        changed = []
        for code in range(PLANES):
            char = chr(code)
            if char in kept:
                continue
            folded = ('\ufffd' if 0xD800 <= code <= 0xDFFF else
                      unicodedata.normalize('NFKC', char))
            if len(folded) > LONGEST:
                folded = ' '
            if folded != char:
                changed.append(char)
                self._length[code] = len(folded)
                for index, part in enumerate(folded):
                    self._parts[index, code] = ord(part)
        bmp = re.escape(''.join(c for c in changed if ord(c) < 0x10000))
        self._any = re.compile(f'[{bmp}\U00010000-\U0002ffff]')     # one class: a fast scan

    def __call__(self, text: str) -> str:
        if self._any.search(text) is not None:
            text = self._each(text)
        text = text.lower()
        for apostrophe in APOSTROPHES:
            text = text.replace(apostrophe, '')
        return text

    def _each(self, text: str) -> str:
        """Every character replaced by its fold (one to ``LONGEST`` characters)."""
        codes = np.frombuffer(text.encode('utf-32-le', 'surrogatepass'), dtype=np.uint32)
        inside = codes < PLANES
        index = np.where(inside, codes, 0)
        lengths = np.where(inside, self._length[index], 1)
        starts = np.cumsum(lengths) - lengths
        folded = np.empty(int(lengths.sum()), dtype=np.uint32)
        folded[starts] = np.where(inside, self._parts[0, index], codes)
        for part in range(1, LONGEST):
            longer = lengths > part
            folded[starts[longer] + part] = self._parts[part, index[longer]]
        return folded.tobytes().decode('utf-32-le')
