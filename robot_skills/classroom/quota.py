"""The quota planner: a course's texts, checked against the document's budgets first.

"先确定总字数配额，再为当前段生成满足配额的文本": before the first word is said,
every text of the course is chosen and counted (in 汉字):

* 1-minute courses ≤ 160 characters in total, 2-minute ≤ 220;
* every utterance ≤ 60 characters up to 3 minutes, ≤ 100 beyond;
* welcome ≤ 50; question + "你能告诉我答案吗？" ≤ 40; feedback ≤ 35 / 45 / 50
  (correct / partial / incorrect, every possible partial answer checked);
  farewell ≤ 45.

A point's body is used when it fits, its short form otherwise (always for 1-
and 2-minute courses). A requested number of points is taught in full: a
course that cannot fit is refused with an error naming each text that breaks
a budget; nothing is ever cut mid-sentence.

The total counts what the course plans to say (welcome, transitions,
lectures, questions, farewell). Feedback is not in it: its length depends on
the listener's answers, like the waiting time the document also leaves out of
the reference duration; each feedback has its own budget instead, and what
was really said is counted in ``tts_chars_used``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from robot_skills.classroom.lesson import Lesson, Phrases, Point
from robot_skills.language.text import hanzi, ordinal

DEFAULT_MINUTES = 5.0
DEFAULT_POINTS = 3
SENTENCE_END = re.compile(r'(?<=[。！？!?])')


@dataclass(frozen=True)
class Budget:
    minutes: float
    total: int | None
    per_utterance: int
    welcome: int = 50
    question: int = 40
    correct: int = 35
    partial: int = 45
    incorrect: int = 50
    farewell: int = 45

    @classmethod
    def for_minutes(cls, minutes: float) -> Budget:
        total = 160 if minutes <= 1 else 220 if minutes <= 2 else None
        return cls(minutes, total, 60 if minutes <= 3 else 100)

    @property
    def short(self) -> bool:
        """1- and 2-minute courses always use the short forms."""
        return self.total is not None


@dataclass(frozen=True)
class PlannedPoint:
    number: int
    point: Point
    lecture: str          # 第一个知识点：{title}。{body or short}
    question: str         # the question and the invitation, one utterance


@dataclass(frozen=True)
class Plan:
    """Every planned text of one classroom course."""

    topic: str
    budget: Budget
    welcome: str
    opening_transition: str
    points: tuple[PlannedPoint, ...]
    point_transition: str
    farewell: str

    @property
    def planned_chars(self) -> int:
        texts = [self.welcome, self.opening_transition, self.farewell,
                 *(self.point_transition for _ in self.points[1:])]
        texts += [t for p in self.points for t in (p.lecture, p.question)]
        return sum(hanzi(t) for t in texts)


@dataclass(frozen=True)
class DirectPlan:
    """The utterances of a direct (voice-only, no question) explanation."""

    topic: str
    budget: Budget
    utterances: tuple[str, ...]


class PlanError(ValueError):
    """The course cannot be given within its budgets; each problem names its text."""

    def __init__(self, topic: str, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f'lesson {topic!r} cannot be planned: ' + '; '.join(problems))


class Feedback:
    """The feedback texts of one point (they were all checked by the planner)."""

    def __init__(self, phrases: Phrases, point: Point) -> None:
        self.phrases = phrases
        self.point = point

    def correct(self) -> str:
        return self.phrases.correct.format(reason=self.point.reason)

    def incorrect(self) -> str:
        return self.phrases.incorrect.format(answer=self.point.answer, reason=self.point.reason)

    def partial(self, hit: list[str]) -> str:
        labels = [e.label for e in self.point.expected]
        missing = [label for label in labels if label not in hit]
        join = self.phrases.list_separator.join
        return self.phrases.partial.format(hit=join(hit), missing=join(missing))

    def every_partial(self) -> list[str]:
        labels = [e.label for e in self.point.expected]
        sizes = range(self.point.partial_credit, len(labels))
        return [self.partial(list(hit)) for n in sizes for hit in itertools.combinations(labels, n)]

    def off_topic(self) -> str:
        return self.phrases.off_topic.format(question=self.point.question)


def plan(lesson: Lesson, phrases: Phrases, minutes: float, count: int) -> Plan:
    """The course of ``count`` points of ``lesson`` in ``minutes``, or PlanError."""
    budget = Budget.for_minutes(minutes)
    check = _Checker(lesson.topic, phrases, budget)
    points = []
    for number, point in enumerate(lesson.points[:count], start=1):
        where = f'point {number} ({point.title})'
        prefix = dict(ordinal=ordinal(number), title=point.title)
        body = phrases.lecture.format(body=point.body, **prefix)
        if budget.short or hanzi(body) > budget.per_utterance:
            body = phrases.lecture.format(body=point.short, **prefix)
        check(f'{where}, lecture', body, budget.per_utterance)
        question = f'{point.question}{phrases.invitation}'
        check(f'{where}, question', question, min(budget.question, budget.per_utterance))
        feedback = Feedback(phrases, point)
        check(f'{where}, correct feedback', feedback.correct(), budget.correct)
        check(f'{where}, incorrect feedback', feedback.incorrect(), budget.incorrect)
        for text in feedback.every_partial():
            check(f'{where}, partial feedback', text, budget.partial)
        check(f'{where}, off-topic guidance', feedback.off_topic(), budget.per_utterance)
        points.append(PlannedPoint(number, point, body, question))
    welcome = phrases.welcome.format(topic=lesson.topic, count=ordinal(len(points)))
    check('welcome', welcome, min(budget.welcome, budget.per_utterance))
    farewell = (phrases.farewell_short if budget.short else
                phrases.farewell.format(topic=lesson.topic, summary=lesson.summary))
    check('farewell', farewell, min(budget.farewell, budget.per_utterance))
    for name in ('opening_transition', 'point_transition', 'not_heard'):
        check(name, getattr(phrases, name), budget.per_utterance)
    course = Plan(lesson.topic, budget, welcome, phrases.opening_transition, tuple(points),
                  phrases.point_transition, farewell)
    if budget.total is not None and course.planned_chars > budget.total:
        check.problems.append(f'the whole course: {course.planned_chars} characters, limit '
                              f'{budget.total} for {minutes:g} minute(s) and {len(points)} points')
    check.raise_if_any()
    return course


def plan_direct(lesson: Lesson, phrases: Phrases, minutes: float, count: int) -> DirectPlan:
    """A direct explanation: the intro, then each point, in utterances within budget."""
    budget = Budget.for_minutes(minutes)
    check = _Checker(lesson.topic, phrases, budget)
    sentences = [phrases.direct_intro.format(topic=lesson.topic)]
    for point in lesson.points[:count]:
        text = point.short if budget.short else point.body
        sentences += [s for s in SENTENCE_END.split(text) if s]
    utterances: list[str] = []
    for sentence in sentences:
        check('direct explanation sentence', sentence, budget.per_utterance)
        if utterances and hanzi(utterances[-1] + sentence) <= budget.per_utterance:
            utterances[-1] += sentence
        else:
            utterances.append(sentence)
    total = sum(hanzi(u) for u in utterances)
    if budget.total is not None and total > budget.total:
        check.problems.append(f'the whole explanation: {total} characters, limit {budget.total}')
    check.raise_if_any()
    return DirectPlan(lesson.topic, budget, tuple(utterances))


class _Checker:
    """Collects every text that breaks a budget or says a forbidden word."""

    def __init__(self, topic: str, phrases: Phrases, budget: Budget) -> None:
        self.topic = topic
        self.forbidden = phrases.forbidden
        self.budget = budget
        self.problems: list[str] = []

    def __call__(self, where: str, text: str, limit: int) -> None:
        size = hanzi(text)
        if size > limit:
            self.problems.append(f'{where}: {size} characters, limit {limit}: {text!r}')
        self.problems += [f'{where}: says {word!r}: {text!r}' for word in self.forbidden
                          if word in text]

    def raise_if_any(self) -> None:
        if self.problems:
            raise PlanError(self.topic, self.problems)
