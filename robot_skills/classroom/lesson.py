"""Lessons as data (``config/lessons/*.yaml``) and the classroom's phrases.

Operators write lessons; outside tools read them. A lesson is a topic (with
aliases a listener may use), a one-line summary, and points. Each point has a
title, a body (one core statement, one short example, one closing sentence), a
short form for 1- and 2-minute courses, a question, the canonical answer with
its one-line reason (said when the answer is wrong), and 1-3 expected answer
points, each with a label (said in partial feedback) and the phrasings that
count for it. Whether the texts fit the document's budgets is the quota
planner's job (``quota.py``), checked before a lesson may run.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, field_validator, model_validator

from robot_skills.adapters.config import ConfigError, load
from robot_skills.model.strict import Strict


class Expected(Strict):
    """One point a correct answer must make."""

    label: str = Field(min_length=1, description='how feedback names it: 一百摄氏度')
    synonyms: list[str] = Field(min_length=1, description='phrasings that count for it')


class Point(Strict):
    title: str = Field(min_length=1)
    body: str = Field(min_length=1, description='core statement, one example, one summary')
    short: str = Field(min_length=1, description='the body for 1- and 2-minute courses')
    question: str = Field(min_length=1, description='the question, without the invitation')
    answer: str = Field(min_length=1, description='the correct answer, said after a wrong one')
    reason: str = Field(min_length=1, description='one sentence: why the answer is right')
    expected: list[Expected] = Field(min_length=1, max_length=3)
    partial_credit: int = Field(1, ge=1, description='expected points that make a partial answer')

    @model_validator(mode='after')
    def _partial_possible(self) -> Point:
        if self.partial_credit >= len(self.expected) > 1:
            raise ValueError('partial_credit must be below the number of expected points')
        return self


class Lesson(Strict):
    topic: str = Field(min_length=1)
    aliases: list[str] = []
    summary: str = Field(min_length=1, description='one line for the farewell')
    points: list[Point] = Field(min_length=1)

    def vocabulary(self) -> str:
        """All of the lesson's text: what an answer about the lesson shares characters with."""
        return ' '.join([self.topic, *self.aliases, self.summary, *(
            f'{p.title}{p.body}{p.question}{p.answer}{p.reason}' for p in self.points), *(
            s for p in self.points for e in p.expected for s in e.synonyms)])

    @field_validator('points')
    @classmethod
    def _distinct_titles(cls, points: list[Point]) -> list[Point]:
        titles = [p.title for p in points]
        if len(set(titles)) != len(titles):
            raise ValueError('point titles must be distinct')
        return points


class Phrases(Strict):
    """Everything the classroom says that is not lesson content (``config/classroom/``)."""

    mode_question: str
    mode_follow_up: str
    topic_question: str
    no_material: str
    cannot_fit: str
    welcome: str
    opening_transition: str
    point_transition: str
    lecture: str
    invitation: str
    correct: str
    partial: str
    incorrect: str
    off_topic: str
    not_heard: str
    no_tts: str
    farewell: str
    farewell_short: str
    direct_intro: str
    resume_recap: str
    resume_short: str
    list_separator: str
    forbidden: list[str] = Field([], description='words never said (同学: the audience is general)')


class Library:
    """Every lesson of a folder, found by topic or alias."""

    def __init__(self, lessons: dict[str, Lesson]) -> None:
        self.lessons = lessons

    @classmethod
    def load(cls, folder: Path | str) -> Library:
        folder = Path(folder)
        files = sorted(folder.glob('*.yaml'))
        if not files:
            raise ConfigError(folder, ['no lesson files (*.yaml) in this folder'])
        lessons = {}
        for path in files:
            lesson = load(path, Lesson)
            if lesson.topic in lessons:
                raise ConfigError(path, [f'topic {lesson.topic!r} is also in another file'])
            lessons[lesson.topic] = lesson
        return cls(lessons)

    def names(self) -> dict[str, str]:
        """Every topic and alias -> its topic."""
        names = {}
        for topic, lesson in self.lessons.items():
            for name in (topic, *lesson.aliases):
                names[name] = topic
        return names
