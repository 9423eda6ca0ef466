"""What a discussion's history says, folded turn by turn.

Detectors and the state card ask the same questions of the history at every
step (which points are covered, which misreadings stand, how many turns
brought nothing new, did anyone propose a concrete action), so the answers
are kept up to date as each turn arrives instead of rescanning thousands of
turns. Only body turns count. Only students and peers ("学生或同伴") cover
points, correct misreadings and propose actions; the TA's own turns record
which gap it raised; teachers and moderators count for the limits only.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from robot_skills.discussion.material import Lexicon, Material
from robot_skills.language.text import fold

ROLES = ('student', 'peer', 'ta', 'teacher', 'moderator')
VOICES = frozenset({'student', 'peer'})
HOW_TO = 'how_to'          # the gap "怎么做", raised like a material item
CONTENT = re.compile(r'[\w\u4e00-\u9fff%]')


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
    ta: list[bool] = field(default_factory=list)        # per body turn: the TA spoke it
    voices: list[int] = field(default_factory=list)     # body indices of student/peer turns
    new: list[bool] = field(default_factory=list)       # per voice: brought new content
    action: list[bool] = field(default_factory=list)    # per voice: proposed a concrete action
    abstract: list[bool] = field(default_factory=list)  # per voice: a value judgement
    covered: dict[str, int] = field(default_factory=dict)
    touched: dict[str, int] = field(default_factory=dict)
    misread: dict[str, Standing] = field(default_factory=dict)
    sides: dict[str, set[int]] = field(default_factory=dict)
    settled: set[str] = field(default_factory=set)
    concrete: list[tuple[int, str]] = field(default_factory=list)
    compared: bool = False
    raised: dict[str, int] = field(default_factory=dict)
    bigrams: set[str] = field(default_factory=set)
    last_ta: int = -1

    @property
    def body(self) -> int:
        return len(self.ta)

    def first_voice_after(self, index: int) -> int:
        """The position in ``voices`` of the first student/peer turn after body turn ``index``."""
        return bisect_right(self.voices, index)

    def voices_after(self, index: int) -> int:
        """How many student/peer turns came after body turn ``index``."""
        return len(self.voices) - self.first_voice_after(index)

    def add(self, turn: Turn) -> None:
        if not turn.is_body:
            return
        index = self.body
        self.ta.append(turn.role == 'ta')
        if turn.role == 'ta':
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
        self._misreadings(index, text)
        comparing = any(cue in text for cue in words.comparison_cues)
        self._conflicts(index, text, comparing)
        acting = any(cue in text for cue in words.action_cues)
        if acting:
            self.concrete.append((index, turn.speaker))
        speakers = {speaker for _, speaker in self.concrete}
        self.compared |= comparing and len(self.concrete) >= 2 and len(speakers) >= 2
        fresh = self._fresh_bigrams(text)
        self.voices.append(index)
        self.new.append(touched_new or fresh >= self.novel_bigrams)
        self.action.append(acting)
        self.abstract.append(any(cue in text for cue in words.abstract_cues))

    def _misreadings(self, index: int, text: str) -> None:
        for reading in self.material.misreadings:
            standing = self.misread.get(reading.id)
            corrects = any(cue in text for cue in reading.corrected_by)
            if standing is not None and standing.corrected is None and corrects:
                standing.corrected = index
            if corrects or not any(_affirmed(text, cue, self.lexicon.negations)
                                   for cue in reading.cues):
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
        fresh = len(grams - self.bigrams)
        self.bigrams |= grams
        return fresh


def _affirmed(text: str, cue: str, negations: list[str]) -> bool:
    """``cue`` occurs in ``text`` at least once without a negation right before it."""
    start = text.find(cue)
    while start >= 0:
        if not any(text[:start].endswith(negation) for negation in negations):
            return True
        start = text.find(cue, start + 1)
    return False
