"""What a discussion's history says, folded turn by turn.

Detectors and the state card ask the same questions of the history at every
step (which points are covered, which misreadings stand, how many turns
brought nothing new, did anyone propose a concrete action), so the answers
are kept up to date as each turn arrives instead of rescanning thousands of
turns. Only body turns count. Only students and peers ("学生或同伴") cover
points, correct misreadings and propose actions; the TA's own turns record
which gap it raised; teachers and moderators count for the limits only.

Memory is bounded whatever the length of a session: what is per turn is kept
for the last ``KEEP`` turns only (``Tail``), and what is summed is a counter
(body turns, TA turns, concrete proposals). No decision changes because of
it: every detector compares a count of recent turns with a threshold of at
most ``MAX_THRESHOLD`` turns (the node's parameter ranges), and ``KEEP`` is
larger, so a count that reaches past the kept window is already past any
threshold. Novelty is judged against the last ``MAX_BIGRAMS`` distinct word
pairs heard.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import OrderedDict, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from robot_skills.discussion.material import Lexicon, Material
from robot_skills.discussion import practice
from robot_skills.discussion.stance import stance
from robot_skills.language.text import fold

ROLES = ('student', 'peer', 'ta', 'teacher', 'moderator')
VOICES = frozenset({'student', 'peer'})
HOW_TO = 'how_to'          # the gap "怎么做", raised like a material item
CONTENT = re.compile(r'[\w\u4e00-\u9fff%]')
MAX_THRESHOLD = 500        # the largest turn count a detector parameter may take
KEEP = 1024                # per-turn facts kept (> MAX_THRESHOLD: decisions stay exact)
MAX_BIGRAMS = 20_000
MAX_PRACTICE_VERBS = 200    # bounded; a lexicon has fewer
T = TypeVar('T')


class Tail(Generic[T]):
    """The last ``keep`` items of a sequence that only grows, with its whole length.

    ``len`` counts every item ever appended; ``since(n)`` gives the kept items
    from absolute position ``n`` on (the oldest kept one when ``n`` is older).
    """

    def __init__(self, keep: int = KEEP) -> None:
        self._items: deque[T] = deque(maxlen=keep)
        self.dropped = 0

    def append(self, item: T) -> None:
        if len(self._items) == self._items.maxlen:
            self.dropped += 1
        self._items.append(item)

    def __len__(self) -> int:
        return self.dropped + len(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __eq__(self, other: object) -> bool:
        return list(self._items) == list(other) if isinstance(other, (list, Tail)) else False

    def since(self, position: int) -> list[T]:
        start = max(position - self.dropped, 0)
        return [self._items[n] for n in range(start, len(self._items))]

    def last(self, count: int) -> list[T]:
        return list(self._items)[-count:] if count > 0 else []

    def bisect(self, value: T) -> int:
        """The absolute position where ``value`` would go (kept items are sorted)."""
        return self.dropped + bisect_right(self._items, value)  # type: ignore[type-var]


@dataclass(frozen=True)
class Turn:
    role: str
    speaker: str
    text: str
    is_body: bool = True
    gap: str = ''          # a TA turn of this core: the id of what it raised


@dataclass
class Standing:
    """A misreading voiced in the discussion: where, how often, and whether it was corrected."""

    first: int
    last: int
    count: int = 1
    corrected: int | None = None


@dataclass
class Digest:
    """The history of one session, as the detectors read it (indices count body turns)."""

    material: Material
    lexicon: Lexicon
    novel_bigrams: int = 3
    ta: Tail[bool] = field(default_factory=Tail)        # per body turn: the TA spoke it
    ta_count: int = 0                                   # TA body turns in the whole session
    voices: Tail[int] = field(default_factory=Tail)     # body indices of student/peer turns
    new: Tail[bool] = field(default_factory=Tail)       # per voice: brought new content
    action: Tail[bool] = field(default_factory=Tail)    # per voice: proposed a concrete practice
    abstract: Tail[bool] = field(default_factory=Tail)  # per voice: a value judgement
    covered: dict[str, int] = field(default_factory=dict)
    touched: dict[str, int] = field(default_factory=dict)
    misread: dict[str, Standing] = field(default_factory=dict)
    sides: dict[str, set[int]] = field(default_factory=dict)
    settled: set[str] = field(default_factory=set)
    concrete: int = 0                                   # concrete proposals heard
    proposers: set[str] = field(default_factory=set)    # who proposed (two are enough)
    compared: bool = False                              # concrete practices compared
    practice_verbs: set[str] = field(default_factory=set)   # actions proposed so far
    raised: dict[str, int] = field(default_factory=dict)
    bigrams: OrderedDict[str, None] = field(default_factory=OrderedDict)
    bigram_limit: int = MAX_BIGRAMS
    last_ta: int = -1

    @property
    def body(self) -> int:
        return len(self.ta)

    def first_voice_after(self, index: int) -> int:
        """The position in ``voices`` of the first student/peer turn after body turn ``index``."""
        return self.voices.bisect(index)

    def voices_after(self, index: int) -> int:
        """How many student/peer turns came after body turn ``index``."""
        return len(self.voices) - self.first_voice_after(index)

    def add(self, turn: Turn) -> None:
        if not turn.is_body:
            return
        index = self.body
        self.ta.append(turn.role == 'ta')
        if turn.role == 'ta':
            self.ta_count += 1
            self.last_ta = index
            if turn.gap:
                self.raised[turn.gap] = index
            return
        if turn.role in VOICES:
            self._voice(index, turn, fold(turn.text))

    def _voice(self, index: int, turn: Turn, text: str) -> None:
        words = self.lexicon
        touched_new = False
        for item in self.material.items:
            if any(cue in text for cue in item.cues):
                touched_new |= item.id not in self.touched
                self.touched[item.id] = index
        for point in self.material.must_discuss:
            if point.id not in self.covered and any(cue in text for cue in point.cues):
                self.covered[point.id] = index
                touched_new = True
        self._misreadings(index, turn.text)
        comparing = any(cue in text for cue in words.comparison_cues)
        self._conflicts(index, text, comparing)
        acting = practice.proposes(turn.text, self.material, words)
        if acting:
            self.concrete += 1
            if len(self.proposers) < 2:
                self.proposers.add(turn.speaker)
        self.compared |= (self.concrete >= 2 and len(self.proposers) >= 2 and
                          practice.compares_practices(turn.text, self.material, words,
                                                      self.practice_verbs, acting))
        if acting and len(self.practice_verbs) < MAX_PRACTICE_VERBS:
            self.practice_verbs |= practice.verbs(turn.text, words)
        fresh = self._fresh_bigrams(text)
        self.voices.append(index)
        self.new.append(touched_new or fresh >= self.novel_bigrams)
        self.action.append(acting)
        self.abstract.append(any(cue in text for cue in words.abstract_cues))

    def _misreadings(self, index: int, raw: str) -> None:
        """A misreading stands when a turn affirms it (negated, doubted, disagreed-with or
        merely reported cues do not: ``stance``); a turn that rejects it, or states what
        corrects it, corrects a standing one."""
        text = fold(raw)
        for reading in self.material.misreadings:
            standing = self.misread.get(reading.id)
            held = stance(raw, reading.cues, self.lexicon)
            corrects = held == 'rejects' or any(cue in text for cue in reading.corrected_by)
            if standing is not None and standing.corrected is None and corrects:
                standing.corrected = index
            if corrects or held != 'affirms':
                continue
            if standing is None or standing.corrected is not None:
                self.misread[reading.id] = Standing(index, index)
            else:
                standing.last, standing.count = index, standing.count + 1

    def _conflicts(self, index: int, text: str, comparing: bool) -> None:
        for conflict in self.material.conflicts:
            voiced = self.sides.setdefault(conflict.id, set())
            was_open = len(voiced) == 2
            voiced.update(n for n, side in enumerate(conflict.sides)
                          if any(cue in text for cue in side.cues))
            if was_open and (comparing or any(cue in text for cue in conflict.resolved_by)):
                self.settled.add(conflict.id)

    def _fresh_bigrams(self, text: str) -> int:
        for filler in self.lexicon.fillers:
            text = text.replace(filler, ' ')
        grams = {text[i:i + 2] for i in range(len(text) - 1)
                 if CONTENT.match(text[i]) and CONTENT.match(text[i + 1])}
        fresh = sum(1 for gram in grams if gram not in self.bigrams)
        for gram in grams:
            self.bigrams[gram] = None
            self.bigrams.move_to_end(gram)
        while len(self.bigrams) > self.bigram_limit:
            self.bigrams.popitem(last=False)
        return fresh

