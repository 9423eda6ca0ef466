"""Shared fixtures of the classroom tests: the shipped lessons, phrases, lexicon, core."""

from __future__ import annotations

import pytest
from core_driver import Driver

from robot_skills.adapters.config import load
from robot_skills.classroom.core import FLOW, ClassroomCore
from robot_skills.classroom.lesson import Library, Phrases
from robot_skills.classroom.words import Lexicon
from robot_skills.runtime import paths


@pytest.fixture(scope='session')
def library() -> Library:
    return Library.load(paths.config('lessons'))


@pytest.fixture(scope='session')
def phrases() -> Phrases:
    return load(paths.config('classroom/phrases.yaml'), Phrases)


@pytest.fixture(scope='session')
def lexicon() -> Lexicon:
    return load(paths.config('classroom/words.yaml'), Lexicon)


@pytest.fixture(scope='session')
def core(library, phrases, lexicon) -> ClassroomCore:
    return ClassroomCore(library, phrases, lexicon)


@pytest.fixture
def lesson(core) -> Driver:
    return Driver(core)


@pytest.fixture(autouse=True)
def steps_stay_within_the_flow_table(monkeypatch):
    """Every step the flow table takes, in every test of the classroom, leaves the course
    in a phase its entry declares: the table (and the diagram drawn from it) is the flow."""
    take = ClassroomCore._next

    def checked(self, state, course, event):
        step = take(self, state, course, event)
        transition = FLOW.get((course.phase, type(event)))
        after = step.state.course
        if transition is not None and after is not None:
            assert after.phase in transition.to, (course.phase, type(event).__name__,
                                                  after.phase)
        return step

    monkeypatch.setattr(ClassroomCore, '_next', checked)
