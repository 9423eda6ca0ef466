"""The coordinator's data (``config/coordinator/*.yaml``) as validated models.

Routing words, units and image tags, the crisis lexicon, and every phrase the
coordinator says. Regular expressions are compiled when the file is loaded,
so a bad pattern stops the node with the entry named.
"""

from __future__ import annotations

import re
from typing import Any, cast

import re2
from pydantic import Field, PrivateAttr, field_validator, model_validator

from robot_skills.coordinator import match_ends
from robot_skills.coordinator.confirmation import Confirmation
from robot_skills.model.strict import Strict


class Need(Strict):
    """Within a subject, the SKILL for a need the request is about (writing, vocabulary ...)."""

    skill: str
    phrases: list[str] = Field(min_length=1)


class Subject(Strict):
    names: list[str] = []
    units: list[str] = []
    image_tags: list[str] = []
    keywords: list[str] = []
    skills: dict[str, str] = Field(description='error / problem (and more) -> SKILL')
    needs: list[Need] = []

    @field_validator('skills')
    @classmethod
    def _problem(cls, skills: dict[str, str]) -> dict[str, str]:
        if 'problem' not in skills:
            raise ValueError('skills needs a "problem" entry: the coach for the problem at hand')
        return skills


class CrossSubject(Strict):
    themes: list[str]
    phrases: list[str]
    skill: str


class EnglishSentence(Strict):
    min_words: int = Field(ge=2)


class ChinesePassage(Strict):
    min_hanzi: int = Field(ge=10)
    classical_strong: list[str]
    classical_markers: list[str]
    modern_words: list[str] = []
    classical_min_score: int = Field(ge=2)
    classical_min_density: float = Field(gt=0, le=1)


class Phrased(Strict):
    """Recognised by fixed phrases, or by RE2 patterns (for word order and short forms)."""

    phrases: list[str] = []
    patterns: list[str] = []
    _regex: list[re2._Regexp] = PrivateAttr(default_factory=list)
    _any: re2._Regexp | None = PrivateAttr(default=None)

    @model_validator(mode='after')
    def _compiled(self) -> Phrased:
        if not self.phrases and not self.patterns:
            raise ValueError('needs phrases or patterns')
        self._regex = [_re2(p, 'patterns', p) for p in self.patterns]
        if len(self.patterns) > 1:      # one pass says whether any pattern matches at all
            self._any = together(self.patterns)
        return self

    def find(self, text: str) -> str | None:
        """The phrase or the matched words that recognise ``text``, else None (the first
        pattern in order that matches; most texts match none, which one search tells)."""
        phrase = next((p for p in self.phrases if p in text), None)
        if phrase is not None:
            return phrase
        private = cast(dict[str, Any], self.__pydantic_private__)  # a slot: cheaper than self._any
        together = private['_any']
        if together is not None and together.search(text) is None:
            return None
        return next((m.group(0) for m in (r.search(text) for r in private['_regex']) if m),
                    None)


class Stage(Phrased):
    stage: str
    skill: str


class Privacy(Phrased):
    action: str


class Triggers(Strict):
    """五、扩展联动判断规则 read from the learner's own words (``routing.yaml`` triggers)."""

    error_types: dict[str, list[str]]
    thought_understood: list[str]
    understood_after_answer: list[str]          # RE2 patterns
    repeats: str = Field(description='RE2 with one group per alternative: the count')
    many_times: list[str]
    record_only: list[str]
    _after_answer: list[re2._Regexp] = PrivateAttr(default_factory=list)
    _repeats: re2._Regexp = PrivateAttr()

    @model_validator(mode='after')
    def _compiled(self) -> Triggers:
        self._after_answer = [_re2(p, 'understood_after_answer', p)
                              for p in self.understood_after_answer]
        self._repeats = _re2(self.repeats, 'repeats', self.repeats)
        return self

    def after_answer(self, text: str) -> bool:
        return any(r.search(text) for r in self._after_answer)

    def counts(self, text: str) -> list[str]:
        """Every count the learner gives ("错了三次" -> 三)."""
        return [next(g for g in m.groups() if g) for m in self._repeats.finditer(text)]


class Routing(Strict):
    """``config/coordinator/routing.yaml``."""

    subjects: dict[str, Subject]
    cross_subject: CrossSubject
    english_sentence: EnglishSentence
    chinese_passage: ChinesePassage
    unsure_question: str
    max_chars: int = Field(ge=100, description='longer requests are declined (after the crisis '
                                               'check, which reads all of it)')
    stages: list[Stage]
    report_phrases: list[str]
    health_phrases: list[str]
    health_patterns: list[str] = []             # RE2: "联动是不是坏了", "功能有没有在工作"
    privacy: list[Privacy]
    skill_names: dict[str, str]
    triggers: Triggers
    confirmation: Confirmation
    _health: Phrased = PrivateAttr()

    @model_validator(mode='after')
    def _health_check(self) -> Routing:
        self._health = Phrased(phrases=self.health_phrases, patterns=self.health_patterns)
        return self

    def asks_for_health_check(self, text: str) -> bool:
        """A request to check whether the learning system itself works, in any phrasing."""
        return self._health.find(text) is not None


class ScriptPatterns(Strict):
    """RE2 patterns for the Chinese (``zh``, ``~`` = the gap) and the English (``en``) copy."""

    zh: list[str] = []
    en: list[str] = []


class FirstPerson(Strict):
    zh: str
    en: str


class Hyperbole(ScriptPatterns):
    check_in: str


class Regions(Strict):
    names: dict[str, list[str]]
    lines: dict[str, str]

    @field_validator('lines')
    @classmethod
    def _other(cls, lines: dict[str, str]) -> dict[str, str]:
        if 'other' not in lines:
            raise ValueError('lines needs an "other" entry: the local emergency number')
        return lines


class CrisisReply(Strict):
    steady: str
    limits: str
    adult: str
    ask_region: str
    mainland_hint: str
    region_known: str
    stay: str


class Crisis(Strict):
    """``config/coordinator/crisis.yaml`` (what each part means: its header)."""

    gap: str
    sentence_end: str
    topic_sentence_end: str = Field(description='also ends a sentence for the topic rule')
    more_variants: dict[str, str] = Field(default_factory=dict, description=(
        'characters a pattern character also matches beyond its traditional forms'))
    lookalikes: tuple[str, str] = Field(description='letters that look Latin, and the Latin '
                                                    'letters they fold to (the same length)')

    symbols: dict[str, str] = Field(default_factory=dict, description=(
        'symbols that stand for a word, and the characters they fold to (🔪 reads 割)'))

    @field_validator('symbols')
    @classmethod
    def _one_symbol_a_few_characters(cls, symbols: dict[str, str]) -> dict[str, str]:
        for symbol, word in symbols.items():
            if len(symbol) != 1 or not 1 <= len(word) <= 3:
                raise ValueError(f'{symbol!r}: one symbol, read as one to three characters')
        return symbols

    @field_validator('sentence_end', 'topic_sentence_end', 'clause_end')
    @classmethod
    def _characters_of_the_bmp(cls, ends: str) -> str:
        """The topic rule finds the ends with a table of the BMP (``crisis._EndIndex``)."""
        if any(ord(end) >= 0xFFFF for end in ends):
            raise ValueError('characters below U+FFFF')
        return ends

    @field_validator('gap')
    @classmethod
    def _one_class_repeated(cls, gap: str) -> str:
        if re.fullmatch(r'\[.+\]\{0,\d+\}', gap) is None:
            raise ValueError('one class of characters repeated up to a bound, such as '
                             '[了的\\s，]{0,4}')
        return gap

    @field_validator('lookalikes')
    @classmethod
    def _one_for_one(cls, pair: tuple[str, str]) -> tuple[str, str]:
        if len(pair[0]) != len(pair[1]) or not pair[1].isascii():
            raise ValueError('two strings of the same length, the second in ASCII letters')
        return pair
    clause_end: str = Field(description='ends a clause (and not a sentence) for the topic rule')
    categories: dict[str, ScriptPatterns]
    exclusions: ScriptPatterns
    frames: ScriptPatterns
    asks: ScriptPatterns
    first_person: FirstPerson
    requests: ScriptPatterns = Field(default_factory=ScriptPatterns, description=(
        'words that ask for help with school work and so do not say "I" (帮我分析, "help me '
        'with my essay")'))
    hyperbole: Hyperbole
    regions: Regions
    reply: CrisisReply

    @model_validator(mode='after')
    def _patterns(self) -> Crisis:
        """Every pattern is RE2 (linear time: no look-around, no back-references), and a
        signal pattern with a span, and every hyperbole, is one ``match_ends`` reads exactly."""
        groups = {f'categories.{name}': c for name, c in self.categories.items()}
        groups.update(exclusions=self.exclusions, frames=self.frames, asks=self.asks,
                      requests=self.requests, hyperbole=self.hyperbole)
        macros = {'~': _spans(self.gap, 'gap', {}), '…': match_ends.Chars(frozenset())}
        for where, group in groups.items():
            for script in ('zh', 'en'):
                for pattern in getattr(group, script):
                    if any(c.isupper() for c in re.sub(r'\\p\{\w+\}|\\.', '', pattern)):
                        raise ValueError(f'{where}.{script}: {pattern!r} has an upper-case '
                                         'letter, and the text is read in lower case')
                    if '\\~' in pattern or '\\…' in pattern:
                        raise ValueError(f'{where}.{script}: {pattern!r} escapes ~ or …, which '
                                         'are the gap and the span, not characters')
                    _re2(pattern.replace('…', '.').replace('~', self.gap), f'{where}.{script}',
                         pattern)
                    if where == 'hyperbole' or (where.startswith('categories.')
                                                and has_span(pattern)):
                        _spans(pattern, f'{where}.{script}', macros)
        _re2(self.first_person.zh, 'first_person.zh', self.first_person.zh)
        _re2(self.first_person.en, 'first_person.en', self.first_person.en)
        return self


def has_span(source: str) -> bool:
    """The pattern holds a span (``…``) or a repeat up to a bound: ``match_ends`` reads it."""
    return re.search(r'…|\{\d*,', source) is not None


def _spans(pattern: str, where: str, macros: dict[str, match_ends.Node]) -> match_ends.Node:
    try:
        return match_ends.parse(pattern, macros, {})
    except match_ends.PatternError as error:
        raise ValueError(f'{where}: {pattern!r} cannot be read by its span: {error}') from error


DFA_MEMORY = 64 << 20     # bytes: RE2's default (8 MB) ran out on lazy spans over 5,000 characters


def automaton_room() -> re2.Options:
    """Room for a pattern's (or a set's) automaton, built as text arrives and then kept: out
    of it, RE2 falls back to its NFA (4-5x slower)."""
    options = re2.Options()
    options.max_mem = DFA_MEMORY
    return options


def _re2(pattern: str, where: str, shown: str) -> re2._Regexp:
    try:
        return re2.compile(pattern, automaton_room())
    except re2.error as error:
        why = error.args[0].decode() if error.args and isinstance(error.args[0], bytes) else error
        raise ValueError(f'{where}: {shown!r} is not an RE2 pattern: {why}') from error


def together(patterns: list[str]) -> re2._Regexp | None:
    """One RE2 pattern matching where any of ``patterns`` matches (None when they cannot be
    joined, e.g. two groups of one name: then each is tried alone)."""
    try:
        return (re2.compile('|'.join(f'(?:{p})' for p in patterns), automaton_room())
                if patterns else None)
    except re2.error:
        return None


class PrivacyPhrases(Strict):
    view: str
    correct: str
    delete_confirm: str
    deleted: str
    nothing_to_delete: str
    delete_cancelled: str
    delete_purging: str
    unavailable: str
    paused: str
    resumed: str
    no_memory: str
    no_writeback: str
    no_parent_sharing: str
    no_sharing: str
    export: str


class ReportPhrases(Strict):
    title: str
    dimensions: list[str] = Field(min_length=5, max_length=5)
    no_data: str
    session_said: str
    synthesis: str
    strongest: str
    weakest: str
    not_enough: str
    next: str
    actions: dict[str, str]
    session_action: str


class HealthPhrases(Strict):
    title: str
    indicators: list[str] = Field(min_length=6, max_length=6)
    healthy: str
    unhealthy: str
    no_record: str
    readings: dict[str, str]


class Phrases(Strict):
    """``config/coordinator/phrases.yaml``."""

    route: dict[str, str]
    duplicate: str
    reminder_queued: str
    reminder_needs_consent: str
    reminder_merged: str
    reminder_no_writeback: str
    handover_failed: str
    report_offer: str
    report_session_only: str
    declined_no_subject: str
    too_long: str
    privacy: PrivacyPhrases
    subjects: dict[str, str]
    report: ReportPhrases
    health: HealthPhrases
    feynman_hint: str
    paused_skill: str
    skills: dict[str, str]

    def skill_name(self, skill: str) -> str:
        return self.skills.get(skill, skill)
