"""The crisis check's own folded copy of a request (routing never sees it: it keeps what
folding destroys, such as the superscripts of m·s⁻¹).

NFKC of the characters that need it (full-width letters, compatibility ideographs,
ligatures, 𝐬𝐮𝐢𝐜𝐢𝐝𝐞; the full-width punctuation the patterns allow stays), lower case,
apostrophes dropped ("don't" is "dont"). A character NFKC makes longer than ``LONGEST``
becomes a space (U+FDFA is 18 characters: a text of them would read as 1.8 million; a
space still separates words), a lone surrogate U+FFFD (it cannot be encoded).

A text with few runs of such characters has each run normalised as a whole (a run keeps
its combining sequences). Past ``RUNS`` runs, each character is folded on its own, in one
pass: a table of 1,114,112 code points for those that fold to one character (numpy, about
a millisecond for 100,000), then the few that fold to two or three.
"""

from __future__ import annotations

import itertools
import re
import unicodedata

import numpy as np

RUNS = 256           # runs of characters normalised one by one, at most
PLANES = 0x30000     # NFKC changes characters of the first three planes only (𝐬, 丽)
LONGEST = 3          # characters a folded character may become ("ﬃ" is "ffi")
UNICODE = 0x110000
APOSTROPHES = "'’`´"


class Folding:
    """The folding of one lexicon (``kept``: characters its patterns allow as they are)."""

    def __init__(self, kept: str) -> None:
        table: dict[int, str] = {}
        for code in range(PLANES):
            char = chr(code)
            if 0xD800 <= code <= 0xDFFF or char in kept:
                continue
            folded = unicodedata.normalize('NFKC', char)
            if folded != char:
                table[code] = folded if len(folded) <= LONGEST else ' '
        table.update((code, '\ufffd') for code in range(0xD800, 0xE000))
        bmp = re.escape(''.join(chr(code) for code in table if code < 0x10000))
        self._runs = re.compile(f'[{bmp}\U00010000-\U0010ffff]+')   # one class: a fast scan
        self._set = {code: folded for code, folded in table.items() if folded in (' ', '\ufffd')}
        self._single = np.arange(UNICODE, dtype=np.uint32)
        for code, folded in table.items():
            if len(folded) == 1:
                self._single[code] = ord(folded)
        self._multiple = {code: folded for code, folded in table.items() if len(folded) > 1}
        self._is_multiple = np.zeros(UNICODE, dtype=bool)
        self._is_multiple[list(self._multiple)] = True
        multiple_bmp = re.escape(''.join(chr(code) for code in self._multiple if code < 0x10000))
        self._multiples = re.compile(f'[{multiple_bmp}\U00010000-\U0002ffff]+')

    def __call__(self, text: str) -> str:
        found = list(itertools.islice(self._runs.finditer(text), RUNS + 1))
        if len(found) > RUNS:
            text = self._each(text)
        elif found:
            text = self._runs.sub(
                lambda run: unicodedata.normalize('NFKC', run.group().translate(self._set)), text)
        text = text.lower()
        for apostrophe in APOSTROPHES:
            text = text.replace(apostrophe, '')
        return text

    def _each(self, text: str) -> str:
        """Every character folded on its own: one table for those that stay one character,
        then the runs of those that become two or three (all at once past ``RUNS`` runs)."""
        codes = np.frombuffer(text.encode('utf-32-le', 'surrogatepass'), dtype=np.uint32)
        text = self._single[codes].tobytes().decode('utf-32-le')
        if not self._is_multiple[codes].any():
            return text
        runs = list(itertools.islice(self._multiples.finditer(text), RUNS + 1))
        if len(runs) > RUNS:
            return text.translate(self._multiple)
        return self._multiples.sub(lambda run: run.group().translate(self._multiple), text)
