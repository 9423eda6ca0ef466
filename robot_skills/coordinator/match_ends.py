r"""Where a pattern can end in a text, found for every offset at once, in time set by the
text's length and the pattern's size alone.

Why: a span (``…{0,16}``) keeps one partial match alive per opening word of the last 16
characters. An automaton (RE2's DFA) tracks each such set of openings as a state of its
own; text dense in opening words reaches new sets without end (100-300 ms for 100,000
characters), however the patterns are grouped. Here the partial matches of a step are the
bits of one integer (bit ``i``: a partial match ends at offset ``i``), so a step costs a
few shifts and masks of a ``n``-bit integer whatever the text holds (the Shift-And way of
reading a pattern, extended to groups, alternatives and bounded repeats).

The patterns are the crisis lexicon's: literal characters (each with its traditional
forms), non-capturing groups, alternatives, ``?``/``*``/``+``/``{m,n}``, classes of
characters (``[...]``, ``\w``, ``\W``, ``\s``, ``\p{Cf}``), ``\b`` and the lexicon's
macros (``~``, ``…``). Anything else is refused by name at load, so a pattern the reader
cannot read exactly never starts the node.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NoReturn

import numpy as np
import re2

WORD = frozenset('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_')
SPACE = frozenset('\t\n\f\r ')      # RE2's \s
UNICODE = 0x110000


class PatternError(ValueError):
    """A pattern uses syntax this reader does not read."""


@dataclass(frozen=True)
class Chars:
    """One character of a class (``negated``: any character but these)."""

    members: frozenset[str]
    negated: bool = False


@dataclass(frozen=True)
class Seq:
    parts: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    options: tuple[Node, ...]


@dataclass(frozen=True)
class Repeat:
    node: Node
    low: int
    high: int | None     # None: no bound


@dataclass(frozen=True)
class Boundary:
    r"""``\b``: a word character on one side only (RE2's ASCII words)."""


Node = Chars | Seq | Alt | Repeat | Boundary


@functools.cache
def _format_characters() -> frozenset[str]:
    r"""``\p{Cf}`` as RE2 reads it (its Unicode tables, not Python's, which may be older)."""
    codes = np.arange(UNICODE, dtype=np.uint32)
    every = codes[(codes < 0xD800) | (codes > 0xDFFF)].tobytes().decode('utf-32-le')
    return frozenset(re2.findall(r'\p{Cf}', every))     # (one string: a list of 1.1 M cost 96 MB)


class _Parser:
    """A recursive-descent reader of the syntax above (``macros``: character -> node)."""

    def __init__(self, source: str, macros: dict[str, Node], variants: dict[str, str]) -> None:
        self.source, self.at = source, 0
        self.macros, self.variants = macros, variants

    def parse(self) -> Node:
        node = self._alternatives()
        if self.at != len(self.source):
            self._refuse('an unmatched )')
        return node

    def _refuse(self, what: str) -> NoReturn:
        raise PatternError(f'{what} at {self.at} of {self.source!r}')

    def _peek(self) -> str:
        return self.source[self.at] if self.at < len(self.source) else ''

    def _take(self) -> str:
        char = self._peek()
        if not char:
            self._refuse('an unfinished pattern')
        self.at += 1
        return char

    def _alternatives(self) -> Node:
        options = [self._sequence()]
        while self._peek() == '|':
            self.at += 1
            options.append(self._sequence())
        return options[0] if len(options) == 1 else Alt(tuple(options))

    def _sequence(self) -> Node:
        parts = []
        while self._peek() not in ('', '|', ')'):
            parts.append(self._quantified(self._atom()))
        return parts[0] if len(parts) == 1 else Seq(tuple(parts))

    def _quantified(self, node: Node) -> Node:
        while self._peek() in ('?', '*', '+', '{'):
            char = self._take()
            if char == '{':
                close = self.source.find('}', self.at)
                low, comma, high = self.source[self.at:close].partition(',')
                if close < 0 or not _digits(low) or (high and not _digits(high)):
                    self._refuse('a repeat other than {m}, {m,} or {m,n}')
                self.at = close + 1
                bounds = int(low), int(high) if high else (None if comma else int(low))
            else:
                bounds = int(char == '+'), 1 if char == '?' else None
            if self._peek() in ('?', '+'):
                self._refuse('a lazy or possessive repeat')
            if bounds[1] is None and not isinstance(node, Chars):
                self._refuse('a repeat without a bound of more than one character')
            node = Repeat(node, *bounds)
        return node

    def _atom(self) -> Node:
        char = self._take()
        if char in self.macros:
            return self.macros[char]
        if char == '(':
            if not self.source.startswith('?:', self.at):
                self._refuse('a group other than (?:...)')
            self.at += 2
            node = self._alternatives()
            if self._peek() != ')':
                self._refuse('an unclosed group')
            self.at += 1
            return node
        if char == '[':
            return self._class()
        if char == '\\':
            return self._escape(in_class=False)
        if char in '.^$)':
            self._refuse(f'{char!r}')
        return Chars(frozenset(char + self.variants.get(char, '')))

    def _escape(self, in_class: bool) -> Node:
        char = self._take()
        named: dict[str, Node] = {'w': Chars(WORD), 'W': Chars(WORD, True), 's': Chars(SPACE)}
        if char == 'b' and not in_class:
            return Boundary()
        if char in named:
            return named[char]
        if char == 'p':
            if not self.source.startswith('{Cf}', self.at):
                self._refuse('a Unicode class other than \\p{Cf}')
            self.at += 4
            return Chars(_format_characters())
        if char.isalnum():
            self._refuse(f'the escape \\{char}')
        return Chars(frozenset(char))

    def _class(self) -> Node:
        negated = self._peek() == '^'
        self.at += negated
        members: set[str] = set()
        while not members or self._peek() != ']':
            char = self._take()
            if char == '[':
                self._refuse("a '[' inside a class (a POSIX class such as [:digit:])")
            if char == '\\':
                node = self._escape(in_class=True)
                if not isinstance(node, Chars) or node.negated:
                    self._refuse('a negated class inside a class')
                members |= node.members
            elif self._peek() == '-' and self.source[self.at + 1:self.at + 2] not in ('', ']'):
                last = self.source[self.at + 1]
                self.at += 2
                members |= {chr(c) for c in range(ord(char), ord(last) + 1)}
            else:
                members |= set(char + self.variants.get(char, ''))
        self.at += 1
        return Chars(frozenset(members), negated)


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def parse(source: str, macros: dict[str, Node], variants: dict[str, str]) -> Node:
    """``source`` as a tree; every simplified character also reads its traditional forms."""
    return _Parser(source, macros, variants).parse()


def classes(node: Node) -> set[Chars]:
    r"""Every class of characters ``node`` reads (``\b`` reads the word class)."""
    if isinstance(node, Chars):
        return {node}
    if isinstance(node, Boundary):
        return {Chars(WORD)}
    if isinstance(node, Repeat):
        return classes(node.node)
    children = node.parts if isinstance(node, Seq) else node.options
    return set().union(*(classes(child) for child in children))


def width(node: Node) -> int | None:
    """The most characters a match of ``node`` spans (None: no bound)."""
    if isinstance(node, Chars):
        return 1
    if isinstance(node, Boundary):
        return 0
    if isinstance(node, Repeat):
        inner = width(node.node)
        return None if inner is None or node.high is None else inner * node.high
    widths = [width(child) for child in (node.parts if isinstance(node, Seq) else node.options)]
    if None in widths:
        return None
    known = [w for w in widths if w is not None]
    return sum(known) if isinstance(node, Seq) else max(known)


class Alphabet:
    """The characters some class names, each mapped to its atom (the characters every class
    treats alike share one), so a text's classes are masks of one array of atom numbers."""

    def __init__(self, all_classes: set[Chars]) -> None:
        ordered = sorted(all_classes, key=lambda c: (sorted(c.members), c.negated))
        named = sorted({ch for c in ordered for ch in c.members})
        signatures: dict[tuple[bool, ...], int] = {}
        self.lookup = np.zeros(UNICODE, dtype=np.uint16)     # 0: a character no class names
        for ch in named:
            signature = tuple(ch in c.members for c in ordered)
            self.lookup[ord(ch)] = signatures.setdefault(signature, len(signatures) + 1)
        self.atoms: dict[Chars, tuple[int, ...]] = {}
        for c in ordered:
            self.atoms[c] = tuple(sorted({int(self.lookup[ord(ch)]) for ch in c.members}))
        self.count = len(signatures) + 1                        # atom numbers 0..count-1
        if self.count > 0xFFFF:
            raise PatternError('more kinds of characters than an atom number holds')


class Text:
    """One text as the patterns read it: the atom of each character, and the masks of the
    classes read so far (bit ``i``: character ``i`` is of the class)."""

    def __init__(self, text: str, alphabet: Alphabet) -> None:
        codes = np.frombuffer(text.encode('utf-32-le'), dtype=np.uint32)
        self.codes = codes                                  # the code point of each character
        self.length = len(codes)
        self.everywhere = (1 << (self.length + 1)) - 1       # every offset 0..length
        self._alphabet = alphabet
        self._atoms = alphabet.lookup[codes]
        self._masks: dict[Chars, int] = {}
        self._steps: dict[tuple[Chars, int], int] = {}

    @functools.cached_property
    def byte_offsets(self) -> np.ndarray:
        """Offset ``i`` of the text (in characters) -> its offset in the UTF-8 text."""
        codes = self.codes
        sizes = 1 + (codes >= 0x80).astype(np.int64) + (codes >= 0x800) + (codes >= 0x10000)
        return np.concatenate(([0], np.cumsum(sizes)))

    def mask(self, chars: Chars) -> int:
        mask = self._masks.get(chars)
        if mask is None:
            mask = self._mask_of(self._alphabet.atoms[chars])
            if chars.negated:
                mask ^= (1 << self.length) - 1
            self._masks[chars] = mask
        return mask

    def steps(self, chars: Chars, count: int) -> int:
        """Bit ``i``: characters ``i`` to ``i + count - 1`` are all of ``chars`` (``count`` a
        power of two, each built from the half before it)."""
        if count == 1:
            return self.mask(chars)
        key = (chars, count)
        mask = self._steps.get(key)
        if mask is None:
            half = self.steps(chars, count // 2)
            mask = self._steps[key] = half & (half >> (count // 2))
        return mask

    def _mask_of(self, atoms: tuple[int, ...]) -> int:
        """The characters of ``atoms``, as bits."""
        found = self._atoms == atoms[0]
        for atom in atoms[1:]:
            found |= self._atoms == atom
        return int.from_bytes(np.packbits(found, bitorder='little').tobytes(), 'little')


def ends(node: Node, text: Text) -> int:
    """The offsets where a match of ``node`` can end (bit ``i``: offset ``i``)."""
    return _reach(node, text.everywhere, text)



def offsets(bits: int) -> np.ndarray:
    """The set bits of ``bits``, lowest first."""
    raw = np.frombuffer(bits.to_bytes((bits.bit_length() + 7) // 8, 'little'), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder='little'))


def _reach(node: Node, starts: int, text: Text) -> int:
    """The offsets where ``node`` can end when it starts at the offsets ``starts``."""
    if not starts:
        return 0
    if isinstance(node, Chars):
        return (starts & text.mask(node)) << 1
    if isinstance(node, Boundary):
        words = text.mask(Chars(WORD))
        return starts & (words ^ (words << 1))
    if isinstance(node, Seq):
        for part in node.parts:
            starts = _reach(part, starts, text)
        return starts
    if isinstance(node, Alt):
        reached = 0
        for option in node.options:
            reached |= _reach(option, starts, text)
        return reached
    return _repeat(node, starts, text)


def _repeat(node: Repeat, starts: int, text: Text) -> int:
    """A bounded repeat, step by step (the parser gives a repeat without a bound only to a
    class of characters: a run, read at once); a class's, in doubling steps."""
    if node.high is None:
        assert isinstance(node.node, Chars)
        return _run(node.node, node.low, starts, text)
    if isinstance(node.node, Chars):
        return _bounded_run(node.node, node.low, node.high, starts, text)
    reached = starts if node.low == 0 else 0
    current = starts
    for count in range(1, node.high + 1):
        current = _reach(node.node, current, text)
        if not current:
            break
        if count >= node.low:
            reached |= current
    return reached


def _bounded_run(chars: Chars, low: int, high: int, starts: int, text: Text) -> int:
    """``chars`` repeated ``low`` to ``high`` times in about log2(``high``) steps, not
    ``high`` (``…{0,16}``, the span, is most of the patterns' reading): ``low`` steps are
    taken as its powers of two, each over ``Text.steps``; then what is reached within
    ``have`` more steps doubles (a path of up to ``2 * have`` is one of up to ``have``, then
    one of exactly ``have``) and the rest is added a power of two at a time (each no more
    than ``have``, so every length in between is still reached)."""
    for power in _powers(low):
        starts = (starts & text.steps(chars, power)) << power
    more = high - low
    if not starts or not more:
        return starts
    reached = starts | ((starts & text.mask(chars)) << 1)
    have = 1
    while 2 * have <= more:
        reached |= (reached & text.steps(chars, have)) << have
        have *= 2
    for power in _powers(more - have):
        reached |= (reached & text.steps(chars, power)) << power
    return reached


def _powers(count: int) -> list[int]:
    """The powers of two that sum to ``count``, largest first."""
    return [1 << bit for bit in reversed(range(count.bit_length())) if count >> bit & 1]


def _run(chars: Chars, low: int, starts: int, text: Text) -> int:
    """``chars`` repeated ``low`` or more times, through whole runs at once: adding the class
    mask to the starts inside it carries each start to its run's end, and the XOR keeps
    every offset it passed (the starts themselves are added back)."""
    mask = text.mask(chars)
    for _ in range(low):
        starts = (starts & mask) << 1
    inside = starts & mask
    return (((inside + mask) ^ mask) | starts) if inside else starts
