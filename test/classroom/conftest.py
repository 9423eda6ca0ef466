"""Shared fixtures of the classroom tests: the shipped lessons, phrases, lexicon, core."""

from __future__ import annotations

import pytest
from core_driver import Driver

from robot_skills.adapters.config import load
from robot_skills.classroom.core import ClassroomCore
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
