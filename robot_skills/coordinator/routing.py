"""Routing a learning request: the subject first, then the stage, then the SKILL.

Subject rules, in this order (三、路由规则 3.1):

1. image tags beat text: a circuit diagram is physics, a coordinate system math;
   tags of two subjects are settled by a unit, else the learner is asked;
2. units beat keywords: N, Pa, Ω, A, V, J, W, m·s⁻¹ ... after a number or a
   question word (10N, 多少Pa), or on its own when it is not just letters (Ω,
   m·s⁻¹: "N" alone may be a word, an option) is physics whatever else is said;
   cm, cm², ° is math (physics units win over math ones). Units are matched on
   a copy folded the same way as the unit list (NFKC, one minus sign, one middle
   dot), so the document's own m·s⁻¹ is found however it was typed;
3. cross-subject themes (丝绸之路, 气候变化, "这两科好像有关系") go to the
   cross-subject skill;
4. the subject named outright (物理的计算题: physics, whatever the exercise type);
5. keywords: the subject with the most keyword hits; a tie is unsure;
6. continuous English sentences -> English; a long Chinese passage or a
   classical text (scored by its particles, ``chinese_passage``) -> Chinese;
7. otherwise unsure: ask exactly "这题是数学还是物理的？", never guess.

Then the stage (3.2): 错了但不知道为什么 -> the correction notebook, 以为懂了但说
不清 -> Feynman, 没沉淀 -> Cornell notes, 该做没做 -> the study plan, 执行不下来
-> time and focus, 到期回看 -> a reminder, the weekly review -> its own SKILL; a
request about the problem at hand goes to the subject's SKILL for the need it
is about (writing, grammar, vocabulary, reading), else the subject's coach.
Errors reach subject skills only through the correction notebook's handover,
never directly.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace

from robot_skills.coordinator.lexicon import Routing, together
from robot_skills.language.text import hanzi

PHYSICS, MATH = 'physics', 'math'
CROSS = 'cross_subject'
LEARNING_WORDS = ('题', '作业', '考试', '错', '学', '课', '复习', '公式', '知识点', '懂', '背')
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
# Before a unit: a number, or a question word asking for one (多少Pa, 几N).
BEFORE_UNIT = r'(?:\d|多少|几|多大|多长|多重|多高|多快)\s*'
UNIT_FOLD = str.maketrans({'\u2212': '-', '\u2010': '-', '\u2011': '-', '\u2012': '-',
                           '\u2013': '-', '\u2014': '-', '\u22c5': '·', '\u2219': '·',
                           '\u2022': '·', '\u30fb': '·', '\u2027': '·'})
SHORT_CLAUSE = 8        # a plain clause this short does not end a run of classical ones
CLAUSE = re.compile(r'[^\s，。！？；：、,.!?;:“”"「」『』《》()（）]+')


def fold_units(text: str) -> str:
    """The copy units are matched on: NFKC (⁻¹ -> −1, ² -> 2, Ω -> Ω), then one minus
    sign and one middle dot, so m·s⁻¹, m⋅s−1 and m·s-1 read alike."""
    return unicodedata.normalize('NFKC', text).translate(UNIT_FOLD)


@dataclass(frozen=True)
class SubjectReading:
    subject: str | None            # None: unsure
    rule: str                      # which rule decided, for traces
    evidence: str = ''             # the unit, tag, name or keyword
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True)
class StageReading:
    stage: str
    skill: str
    phrase: str


class Router:
    def __init__(self, routing: Routing) -> None:
        self.routing = routing
        self._units = {name: _unit_pattern(subject.units)
                       for name, subject in routing.subjects.items() if subject.units}
        self.image_tags = frozenset(tag for subject in routing.subjects.values()
                                    for tag in subject.image_tags)
        passage = routing.chinese_passage
        self._modern = sorted(passage.modern_words, key=len, reverse=True)
        self._weights = {**{c: 1 for c in passage.classical_markers},
                         **{c: 2 for c in passage.classical_strong}}
        # most requests are no privacy request: one look at every phrase and one RE2 search
        # over every pattern say so before the requests are tried one by one, in order
        self._privacy_phrases = tuple(p for r in routing.privacy for p in r.phrases)
        self._privacy_any = together([p for r in routing.privacy for p in r.patterns])
        self._prefiltered = self._privacy_any is not None or not any(r.patterns
                                                                for r in routing.privacy)

    # ---- subject ------------------------------------------------------------------------

    def subject(self, text: str, image_tags: tuple[str, ...] = ()) -> SubjectReading:
        text = unicodedata.normalize('NFKC', text)
        tagged = {name: tag for tag in image_tags for name, subject in
                  self.routing.subjects.items() if tag in subject.image_tags}
        unit = self._unit(text)
        if len(tagged) == 1:
            (name, tag), = tagged.items()
            return SubjectReading(name, 'image tag', tag)
        if tagged:          # tags of two subjects: a unit settles it, else ask
            if unit and unit.subject in tagged:
                return replace(unit, rule='unit, between conflicting image tags')
            return SubjectReading(None, 'conflicting image tags', ', '.join(tagged.values()),
                                  tuple(tagged))
        if unit:
            return unit
        cross = self.routing.cross_subject
        theme = next((w for w in [*cross.themes, *cross.phrases] if w in text), None)
        if theme:
            return SubjectReading(CROSS, 'cross-subject theme', theme)
        named = {name: word for name, subject in self.routing.subjects.items()
                 for word in subject.names if word in text}
        if len(named) == 1:
            (name, word), = named.items()
            return SubjectReading(name, 'subject named', word)
        hits = {name: [k for k in subject.keywords if k in text]
                for name, subject in self.routing.subjects.items()}
        best = max((len(h) for h in hits.values()), default=0)
        leaders = tuple(name for name, h in hits.items() if h and len(h) == best)
        if len(leaders) == 1:
            return SubjectReading(leaders[0], 'keyword', hits[leaders[0]][0])
        if self._english_sentences(text):
            return SubjectReading('english', 'continuous English sentences')
        if self._chinese_passage(text):
            return SubjectReading('chinese', 'a long Chinese passage or a classical text')
        return SubjectReading(None, 'unsure', candidates=tuple(named) or leaders or (MATH, PHYSICS))

    def _unit(self, text: str) -> SubjectReading | None:
        folded = fold_units(text)
        for name in sorted(self._units, key=lambda n: n != PHYSICS):
            found = self._units[name].search(folded)
            if found:
                return SubjectReading(name, 'unit', found.group(1) or found.group(2))
        return None

    def _english_sentences(self, text: str) -> bool:
        run = longest = 0
        for token in re.split(r'\s+', text):
            run = run + 1 if LATIN_WORD.fullmatch(token.strip('.,!?;:"')) else 0
            longest = max(longest, run)
        return longest >= self.routing.english_sentence.min_words

    def _chinese_passage(self, text: str) -> bool:
        return hanzi(text) >= self.routing.chinese_passage.min_hanzi or self._classical(text)

    def _classical(self, text: str) -> bool:
        """Classical Chinese without a keyword: enough particles in all, or a run of clauses
        dense with them (a short quote, even with the learner's question after it; one short
        plain clause does not end the run: 知之为知之，不知为不知，是知也). Linear: each
        clause is scored once."""
        passage = self.routing.chinese_passage
        for word in self._modern:
            text = text.replace(word, '~')
        found = self._particles(text)
        if self._weight(found) >= passage.classical_min_score and self._kinds(found) >= 2:
            return True
        run: Counter[str] = Counter()
        run_hanzi = 0
        for clause in CLAUSE.findall(text):
            particles = self._particles(clause)
            if not particles and (not run or hanzi(clause) > SHORT_CLAUSE):
                run, run_hanzi = Counter(), 0
                continue
            run += particles
            run_hanzi += hanzi(clause)
            score = self._weight(run)
            if score >= 2 and self._kinds(run) >= 2 and \
                    score >= passage.classical_min_density * run_hanzi:
                return True
        return False

    def _particles(self, text: str) -> Counter[str]:
        return Counter({c: text.count(c) for c in self._weights if c in text})

    def _weight(self, particles: Counter[str]) -> int:
        return sum(self._weights[c] * n for c, n in particles.items())

    def _kinds(self, particles: Counter[str]) -> int:
        """The weight of the distinct particles (a strong one counts 2)."""
        return sum(self._weights[c] for c in particles)

    # ---- stage and SKILL ----------------------------------------------------------------------

    def stage(self, text: str) -> StageReading | None:
        for stage in self.routing.stages:
            phrase = stage.find(text)
            if phrase:
                return StageReading(stage.stage, stage.skill, phrase)
        return None

    def target(self, subject: str | None, stage: StageReading | None, text: str) -> str:
        """The SKILL that takes over ('' when the subject is needed and unknown)."""
        if subject == CROSS:
            return self.routing.cross_subject.skill
        if stage is None or stage.stage == 'problem':
            if subject is None:
                return ''
            return self.need(subject, text) or self.routing.subjects[subject].skills['problem']
        return stage.skill        # errors: the correction notebook, never the subject DNA

    def need(self, subject: str, text: str) -> str | None:
        """The SKILL for the need the request is about (most phrases; the first on a tie)."""
        needs = self.routing.subjects[subject].needs
        hits = [sum(p in text for p in need.phrases) for need in needs]
        best = max(hits, default=0)
        return needs[hits.index(best)].skill if best else None

    def needs_subject(self, stage: StageReading | None) -> bool:
        return stage is None or stage.stage in ('correction', 'problem')

    def about_learning(self, text: str, image_tags: tuple[str, ...] = ()) -> bool:
        """Whether ``text`` is a study question at all (else it is declined, not clarified)."""
        return any(tag in self.image_tags for tag in image_tags) or any(
            word in text for word in LEARNING_WORDS) or any(
            word in text for subject in self.routing.subjects.values()
            for word in (*subject.keywords, *subject.names))

    def whole_system(self, text: str) -> str | None:
        if any(p in text for p in self.routing.report_phrases):
            return 'report'
        if self.routing.asks_for_health_check(text):
            return 'health_check'
        return None

    def privacy(self, text: str) -> str | None:
        if self._prefiltered and not any(p in text for p in self._privacy_phrases) and (
                self._privacy_any is None or self._privacy_any.search(text) is None):
            return None
        return next((p.action for p in self.routing.privacy if p.find(text)), None)


def _unit_pattern(units: list[str]) -> re.Pattern[str]:
    """One pattern for a subject's units, folded like the text, the longest first: after a
    number or a question word, or alone when the unit is more than letters."""
    folded = sorted({fold_units(unit) for unit in units}, key=len, reverse=True)
    alone = [u for u in folded if not u.isascii() or not u.isalpha()]
    numbered = BEFORE_UNIT + '(' + '|'.join(map(re.escape, folded)) + ')'
    if alone:
        numbered += '|(?<![A-Za-z])(' + '|'.join(map(re.escape, alone)) + ')'
    return re.compile(f'(?:{numbered})(?![A-Za-z])')
