"""The crisis check's own folded copy of a request (routing never sees it: it keeps what
folding destroys, such as the superscripts of m·s⁻¹).

Each character is folded on its own: its NFKC form (full-width letters, compatibility
ideographs, ligatures, 𝐬𝐮𝐢𝐜𝐢𝐝𝐞; the full-width punctuation the patterns allow stays),
then lower case, apostrophes dropped ("don't" is "dont"). Never a sequence: NFKC of a
run composes a mark with the letter before it ("ｌ" + U+0341 would read "ĺ", hiding
"kill"); a combining mark folds to nothing (strikethrough over every letter, 想̶死,
hides no word), and so does an emoji (我想😭😭死). A character NFKC makes longer than
one character becomes a space unless it becomes at most ``LONGEST`` ASCII ones (ﬃ,
㎏): U+FDFA is 18 characters and
U+1D160 three symbols of 4 bytes, so a text of them would read as 1.8 million
characters or 1.2 MB (a space still separates words). A lone surrogate becomes U+FFFD
(it cannot be encoded), and a format character (zero-width, bidi controls) a space.
A run of separators (the gap's punctuation and spaces, clause and sentence ends) is one
of them, the first of the highest rank: a run longer than the gap (想～～～～～死, 想 . . . 死)
hides no phrase, and a run that holds a sentence end still ends the sentence.

One pass of numpy over the code points, with a table of the first three planes (NFKC
changes nothing beyond): about a millisecond for 100,000 characters, whatever they are.
"""

from __future__ import annotations

import unicodedata

import numpy as np

BMP = 0x10000        # separators are characters below it
PLANES = 0x30000     # NFKC changes characters of the first three planes only (𝐬, 丽)
LONGEST = 3          # characters a folded character may become ("ﬃ" is "ffi")
EMOJI = 0x1F000      # symbols from here on (emoji, their skin tones) fold to nothing: 我想😭死
SURROGATES = dict.fromkeys(range(0xD800, 0xE000), 0xFFFD)   # a lone one cannot be encoded
APOSTROPHES = "'’`´"
# A digit or sign between two letters is the letter it looks like (k1ll, su1cide, d1e).
LETTERS = {'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's'}


def _leet_table() -> np.ndarray:
    """ASCII code -> the code of the letter it stands for (0: none)."""
    table = np.zeros(0x80, dtype=np.uint32)
    for digit, letter in LETTERS.items():
        table[ord(digit)] = ord(letter)
    return table


_LEET = _leet_table()


class Folding:
    """The folding of one lexicon (``kept``: characters its patterns allow as they are).

    Every step is a numpy pass over the code points (each of Python's ``re`` passes over
    100,000 characters cost about a millisecond)."""

    def __init__(self, kept: str, lookalikes: dict[str, str] | None = None,
                 separators: dict[str, int] | None = None) -> None:
        lookalikes = lookalikes or {}
        self._rank = np.full(BMP, -1, dtype=np.int8)       # -1: not a separator
        for char, rank in (separators or {}).items():
            self._rank[ord(char)] = rank
        self._length = np.ones(PLANES, dtype=np.int64)
        self._parts = np.tile(np.arange(PLANES, dtype=np.uint32), (LONGEST, 1))
        self._changes = np.zeros(PLANES + 1, dtype=bool)   # the last: every code past them
        self._changes[PLANES] = True
        for code in range(PLANES):
            char = chr(code)
            if char in kept:
                continue
            folded = lookalikes.get(char) or _fold(char)
            if folded != char:
                self._changes[code] = True
                self._length[code] = len(folded)
                for index, part in enumerate(folded):
                    self._parts[index, code] = ord(part)

    def __call__(self, text: str) -> str:
        codes = _codes(text)
        changed = np.flatnonzero(self._changes[np.minimum(codes, PLANES)])
        if len(changed):
            text = _text(self._each(codes, changed))
        text = text.lower()
        for apostrophe in APOSTROPHES:
            text = text.replace(apostrophe, '')
        return _text(_unspaced(self._collapsed(_leet(_codes(text)))))

    def _each(self, codes: np.ndarray, changed: np.ndarray) -> np.ndarray:
        """``codes`` with the characters at ``changed`` replaced by their folds (none to
        ``LONGEST`` characters); the table is read at those only (a read of it at every
        character cost a millisecond of 100,000)."""
        changed = changed[codes[changed] < PLANES]      # the planes past the table stay
        folded = codes.copy()
        folded[changed] = self._parts[0, codes[changed]]
        lengths = self._length[codes[changed]]
        if (lengths == 1).all():
            return folded
        counts = np.ones(len(codes), np.int64)
        counts[changed] = lengths
        longer = changed[lengths > 1]
        starts = (np.cumsum(counts) - counts)[longer]
        folded = np.repeat(folded, counts)              # a mark's count is 0: it is dropped
        for part in range(1, LONGEST):
            more = self._length[codes[longer]] > part
            folded[starts[more] + part] = self._parts[part, codes[longer[more]]]
        return folded

    def _collapsed(self, codes: np.ndarray) -> np.ndarray:
        """Every run of separators as one of them, the first of the highest rank (a sentence
        end outranks a comma, which outranks a space): 想～～～～～死 and 想 . . . 死 read
        想～死 and 想.死, where a run longer than the gap would hide the phrase."""
        rank = self._rank[np.minimum(codes, BMP - 1)]
        inside = rank >= 0
        if not (inside[1:] & inside[:-1]).any():
            return codes
        at = np.flatnonzero(inside)
        opens = np.r_[True, at[1:] != at[:-1] + 1]             # the first of each run
        run = np.cumsum(opens) - 1
        ranks = rank[at]
        best = ranks == np.maximum.reduceat(ranks, np.flatnonzero(opens))[run]
        first = np.r_[True, np.diff(run[best]) != 0]     # the first best of each run
        keep = ~inside
        keep[at[best][first]] = True
        return codes[keep]


def _codes(text: str) -> np.ndarray:
    """The code points of ``text``, a lone surrogate as itself (its fold is U+FFFD)."""
    try:
        return np.frombuffer(text.encode('utf-32-le'), dtype=np.uint32)
    except UnicodeEncodeError:      # surrogatepass took 13 ms for 100,000 of them, this 3
        return np.frombuffer(text.translate(SURROGATES).encode('utf-32-le'), dtype=np.uint32)


def _text(codes: np.ndarray) -> str:
    return codes.tobytes().decode('utf-32-le')


def _leet(codes: np.ndarray) -> np.ndarray:
    """A digit or sign of ``LETTERS`` between two lower-case ASCII letters is its letter
    (the neighbours as written: "a11a" stays)."""
    letter = (codes >= 0x61) & (codes <= 0x7A)
    ascii_ = np.where(codes < 0x80, codes, 0)
    at = np.flatnonzero((_LEET[ascii_[1:-1]] != 0) & letter[:-2] & letter[2:]) + 1
    if not len(at):
        return codes
    codes = codes.copy()
    codes[at] = _LEET[codes[at]]
    return codes


def _fold(char: str) -> str:
    """One character's fold: a lone surrogate U+FFFD; a combining mark nothing (strikethrough
    and accents written over "k̶i̶l̶l̶" or 想̶死 hide no word); a format character (zero-width,
    a right-to-left override) a space, which separates English words and which runs of
    separators and spaced-out Han characters fold away (想\u200b\u200b死 reads 想死); its
    NFKC, when one character or at most ``LONGEST`` ASCII ones (ﬃ, ㎏), else a space: a text
    never grows by more than half its UTF-8 (U+1D160 is 3 symbols of 4 bytes, U+FDFA 18
    characters)."""
    if 0xD800 <= ord(char) <= 0xDFFF:
        return '\ufffd'
    if unicodedata.category(char) == 'Cf':         # a space, so kill\u200bmyself stays 2 words
        return ' '
    if unicodedata.category(char) in ('Mn', 'Me') or (
            ord(char) >= EMOJI and unicodedata.category(char) in ('So', 'Sk')):
        return ''
    folded = unicodedata.normalize('NFKC', char)
    if len(folded) > 1 and (len(folded) > LONGEST or not folded.isascii()):
        return ' '
    return folded


def _unspaced(codes: np.ndarray) -> np.ndarray:
    """``text`` without the spaces of Han characters spaced out one by one: a space or tab
    between two Han characters when the second is followed by anything but a Han character
    (活 不 下 去。 reads 活不下去。; 不想活了 活着 keeps its space: it ends a clause)."""
    han = np.append((codes >= 0x4E00) & (codes <= 0x9FFF), False)   # past the end: not Han
    space = (codes == 0x20) | (codes == 0x09)
    at = np.flatnonzero(space[1:len(codes) - 1]) + 1
    drop = at[han[at - 1] & han[at + 1] & ~han[at + 2]]
    return np.delete(codes, drop) if len(drop) else codes
