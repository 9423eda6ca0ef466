"""Routing a learning request: the subject first, then the stage, then the SKILL.

Subject rules, in this order (三、路由规则 3.1):

1. image tags beat text: a circuit diagram is physics, a coordinate system math;
2. units beat keywords: a number with N, Pa, Ω, A, V, J, W, m·s⁻¹ ... is physics
   whatever else is said; cm, cm², ° is math (physics units win over math ones);
3. cross-subject themes (丝绸之路, 气候变化, "这两科好像有关系") go to the
   cross-subject skill;
4. keywords: the subject with the most keyword hits; a tie is unsure;
5. continuous English sentences -> English; a long Chinese passage or a
   classical text -> Chinese;
6. otherwise unsure: ask exactly "这题是数学还是物理的？", never guess.

Then the stage (3.2): 错了但不知道为什么 -> the correction notebook, 以为懂了但说
不清 -> Feynman, 没沉淀 -> Cornell notes, 该做没做 -> the study plan, 执行不下来
-> time and focus, 到期回看 -> a reminder; a request about the problem at hand
goes to the subject's coach. Errors reach subject skills only through the
correction notebook's handover, never directly.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from robot_skills.coordinator.lexicon import Routing, Stage
from robot_skills.language.text import hanzi

PHYSICS, MATH = 'physics', 'math'
CROSS = 'cross_subject'
LEARNING_WORDS = ('题', '作业', '考试', '错', '学', '课', '复习', '公式', '知识点', '懂', '背')
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


@dataclass(frozen=True)
class SubjectReading:
    subject: str | None            # None: unsure
    rule: str                      # which rule decided, for traces
    evidence: str = ''             # the unit, tag or keyword
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True)
class StageReading:
    stage: str
    skill: str
    phrase: str


class Router:
    def __init__(self, routing: Routing) -> None:
        self.routing = routing
        self._units = {name: [re.compile(rf'\d\s*{re.escape(unit)}(?![A-Za-z])')
                              for unit in sorted(subject.units, key=len, reverse=True)]
                       for name, subject in routing.subjects.items()}
        self.image_tags = frozenset(tag for subject in routing.subjects.values()
                                    for tag in subject.image_tags)

    # ---- subject ------------------------------------------------------------------------

    def subject(self, text: str, image_tags: tuple[str, ...] = ()) -> SubjectReading:
        text = unicodedata.normalize('NFKC', text)
        for tag in image_tags:
            for name, subject in self.routing.subjects.items():
                if tag in subject.image_tags:
                    return SubjectReading(name, 'image tag', tag)
        for name in (PHYSICS, *[n for n in self._units if n != PHYSICS]):
            unit = next((u.pattern for u in self._units.get(name, ()) if u.search(text)), None)
            if unit:
                return SubjectReading(name, 'unit', unit)
        cross = self.routing.cross_subject
        theme = next((w for w in [*cross.themes, *cross.phrases] if w in text), None)
        if theme:
            return SubjectReading(CROSS, 'cross-subject theme', theme)
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
        return SubjectReading(None, 'unsure', candidates=leaders or (MATH, PHYSICS))

    def _english_sentences(self, text: str) -> bool:
        run = longest = 0
        for token in re.split(r'\s+', text):
            run = run + 1 if LATIN_WORD.fullmatch(token.strip('.,!?;:"')) else 0
            longest = max(longest, run)
        return longest >= self.routing.english_sentence.min_words

    def _chinese_passage(self, text: str) -> bool:
        passage = self.routing.chinese_passage
        markers = sum(text.count(m) for m in passage.classical_markers)
        return hanzi(text) >= passage.min_hanzi or markers >= passage.classical_min_markers

    # ---- stage and SKILL ----------------------------------------------------------------------

    def stage(self, text: str) -> StageReading | None:
        for stage in self.routing.stages:
            phrase = next((p for p in stage.phrases if p in text), None)
            if phrase:
                return StageReading(stage.stage, stage.skill, phrase)
        return None

    def target(self, subject: str | None, stage: StageReading | None) -> str:
        """The SKILL that takes over ('' when the subject is needed and unknown)."""
        if subject == CROSS:
            return self.routing.cross_subject.skill
        if stage is None or stage.stage == 'problem':
            if subject is None:
                return ''
            return self.routing.subjects[subject].skills['problem']
        return stage.skill        # errors: the correction notebook, never the subject DNA

    def needs_subject(self, stage: StageReading | None) -> bool:
        return stage is None or stage.stage in ('correction', 'problem')

    def stage_of(self, name: str) -> Stage:
        return next(s for s in self.routing.stages if s.stage == name)

    def about_learning(self, text: str) -> bool:
        """Whether ``text`` is a study question at all (else it is declined, not clarified)."""
        return any(word in text for word in LEARNING_WORDS) or any(
            keyword in text for subject in self.routing.subjects.values()
            for keyword in subject.keywords)

    def whole_system(self, text: str) -> str | None:
        if any(p in text for p in self.routing.report_phrases):
            return 'report'
        if any(p in text for p in self.routing.health_phrases):
            return 'health_check'
        return None

    def privacy(self, text: str) -> str | None:
        return next((p.action for p in self.routing.privacy if any(w in text for w in p.phrases)),
                    None)
