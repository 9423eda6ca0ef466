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

from robot_skills.language.text import bigram_share, fold
from robot_skills.pbl_ta import practice, topic
from robot_skills.pbl_ta.material import AgendaPoint, Lexicon, Material
from robot_skills.pbl_ta.stance import stance
from robot_skills.pbl_ta.topic import Topic

ROLES = ('student', 'peer', 'ta', 'teacher', 'moderator')
VOICES = frozenset({'student', 'peer'})
HOW_TO = 'how_to'          # the gap "怎么做", raised like a material item
CONTENT = re.compile(r'[\w\u4e00-\u9fff%]')
MAX_THRESHOLD = 500        # the largest turn count a detector parameter may take
KEEP = 1024                # per-turn facts kept (> MAX_THRESHOLD: decisions stay exact)
MAX_BIGRAMS = 20_000
MAX_PRACTICE_VERBS = 200    # bounded; a lexicon has fewer
MAX_QUESTIONS = 16          # students' questions kept (the answered ones go first)
MAX_AGENDA = 50             # the orchestrator's own must-discuss points
AGENDA_SHARE = 0.5          # share of a point's wording that covers it (when it has no cues)
SUMMARY = ''                # the speaker of a question the rolling summary records
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
        return self.dropped + bisect_right(self._items, value)  # type: ignore[call-overload]


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
class Asked:
    """A student's own question (or one the rolling summary records), until answered."""

    text: str
    speaker: str           # SUMMARY for a question of the rolling summary
    index: int             # the body turn it was asked in
    folded: str
    replied: bool = False  # someone else has spoken since (the first reply may answer it)
    answered: bool = False


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
    off: Tail[bool] = field(default_factory=Tail)       # per voice: off the topic
    questions: OrderedDict[str, Asked] = field(default_factory=OrderedDict)
    agenda: dict[str, AgendaPoint] = field(default_factory=dict)   # orchestrator's own points
    summary_practice: bool = False                      # the rolling summary records one
    topic: Topic | None = None

    def __post_init__(self) -> None:
        if self.topic is None:
            self.topic = Topic.of(self.material, self.lexicon)

    @property
    def practised(self) -> bool:
        """A concrete practice was proposed (by a student, or as the summary records)."""
        return bool(self.concrete) or self.summary_practice

    @property
    def points(self) -> list[str]:
        """The ids of every must-discuss point: the pack's, then the orchestrator's."""
        return [p.id for p in self.material.must_discuss] + list(self.agenda)

    def open_questions(self) -> list[tuple[str, Asked]]:
        return [(gap, q) for gap, q in self.questions.items() if not q.answered]

    # ---- the orchestrator's inputs ----------------------------------------------------------

    def set_agenda(self, points: list[AgendaPoint]) -> None:
        """Take the orchestrator's must-discuss points: statuses of pack points, new points."""
        known = {p.id for p in self.material.must_discuss}
        by_text = {fold(p.point): gap for gap, p in self.agenda.items()}
        taken = known | {p.id for p in points if p.id}      # a minted id never takes another's
        for point in points:
            gap = point.id or by_text.get(fold(point.point)) or _fresh(self.agenda, taken)
            if gap not in known and point.point.strip():
                if gap not in self.agenda and len(self.agenda) >= MAX_AGENDA:
                    continue
                self.agenda[gap] = point
                by_text[fold(point.point)] = gap
            if point.covered and (gap in known or gap in self.agenda):
                self.covered.setdefault(gap, self.body - 1)
        self.topic = Topic.of(self.material, self.lexicon,
                              tuple(p.point for p in self.agenda.values()))

    def summarise(self, raw: str) -> None:
        """Read the rolling summary: the points it covers, the practice it records, the
        material it is about (what the TA asks next), the questions it leaves open."""
        text = fold(raw)
        for gap in self.points:
            if gap not in self.covered and self._covers(gap, text):
                self.covered[gap] = self.body - 1
        last = max(((text.rfind(cue), item.id) for item in self.material.items
                    for cue in item.cues if cue in text), default=None)
        if last is not None and self.touched.get(last[1], -2) < self.body - 1:
            self.touched[last[1]] = self.body - 1
        sentences = [s for s in re.split(r'(?<=[。！？!?；;\n])', raw) if s.strip()]
        self.summary_practice |= any(practice.proposes(s, self.material, self.lexicon)
                                     for s in sentences)
        for gap in [g for g, q in self.questions.items() if q.speaker == SUMMARY]:
            if not self.questions[gap].answered:
                del self.questions[gap]
        for n, asked in enumerate(self._asked(raw)):
            self._track(f'summary-{self.body}-{n}', Asked(asked, SUMMARY, self.body - 1,
                                                          fold(asked), replied=True))

    def _covers(self, gap: str, text: str) -> bool:
        point = self.agenda.get(gap)
        if point is None:
            cues = next(p.cues for p in self.material.must_discuss if p.id == gap)
            return any(cue in text for cue in cues)
        if point.cues:
            return any(cue in text for cue in point.cues)
        return bigram_share(fold(point.point), text) >= AGENDA_SHARE

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
        for gap in self.points:
            if gap not in self.covered and self._covers(gap, text):
                self.covered[gap] = index
                touched_new = True
        self._questions(index, turn, text)
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
        assert self.topic is not None
        self.off.append(self.topic.about(text, words) is False)

    def _questions(self, index: int, turn: Turn, text: str) -> None:
        """Answer open questions (see ``topic``), then track the ones this turn asks."""
        assert self.topic is not None
        replying = topic.replies(turn.text, self.lexicon)
        on = self.topic.about(text, self.lexicon)
        for asked in self.questions.values():
            if asked.answered or asked.speaker == turn.speaker:
                continue
            if replying and (self.topic.shares(asked.folded, text) or
                             (not asked.replied and on)):
                asked.answered = True
            asked.replied = True
        for n, question in enumerate(self._asked(turn.text)):
            self._track(f'question-{index}-{n}', Asked(question, turn.speaker, index,
                                                       fold(question)))

    def _asked(self, raw: str) -> list[str]:
        assert self.topic is not None
        cues = [cue for reading in self.material.misreadings for cue in reading.cues]
        return topic.questions(raw, self.topic, self.lexicon, cues)

    def _track(self, gap: str, asked: Asked) -> None:
        self.questions[gap] = asked
        while len(self.questions) > MAX_QUESTIONS:
            answered = next((g for g, q in self.questions.items() if q.answered), None)
            del self.questions[answered if answered is not None else next(iter(self.questions))]

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


def _fresh(agenda: dict[str, AgendaPoint], taken: set[str]) -> str:
    """The next ``agenda-N`` id that no point holds or is about to hold."""
    number = len(agenda) + 1
    while f'agenda-{number}' in agenda or f'agenda-{number}' in taken:
        number += 1
    return f'agenda-{number}'
