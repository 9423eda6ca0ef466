"""Shared fixtures of the coordinator tests: the shipped data, the core, a service."""

from __future__ import annotations

import pytest
from coordinator_talk import NodeClock, Rig

from bench.crisis import lexicon_only
from robot_skills.adapters.config import load
from robot_skills.coordinator.core import Coordinator
from robot_skills.coordinator.crisis import CrisisDetector
from robot_skills.coordinator.crisis_model import CrisisModel
from robot_skills.coordinator.lexicon import Crisis, Phrases, Routing
from robot_skills.coordinator.service import CoordinatorService, Windows
from robot_skills.coordinator.store import Store
from robot_skills.runtime import paths


@pytest.fixture(scope='session')
def routing() -> Routing:
    return load(paths.config('coordinator/routing.yaml'), Routing)


@pytest.fixture(scope='session')
def crisis_lexicon() -> Crisis:
    return load(paths.config('coordinator/crisis.yaml'), Crisis)


@pytest.fixture(scope='session')
def crisis_model() -> CrisisModel:
    return load(paths.config('coordinator/crisis_model.json'), CrisisModel)


@pytest.fixture(scope='session')
def lexicon_reader(crisis_lexicon, crisis_model) -> CrisisDetector:
    """The crisis check with its model switched off: for tests of the lexicon's own reading
    (spans, budgets, sets), which the model's view of the same text would blur."""
    return lexicon_only(CrisisDetector(crisis_lexicon, crisis_model))


@pytest.fixture(scope='session')
def phrases() -> Phrases:
    return load(paths.config('coordinator/phrases.yaml'), Phrases)


@pytest.fixture(scope='session')
def coordinator(routing, crisis_lexicon, crisis_model, phrases) -> Coordinator:
    return Coordinator(routing, crisis_lexicon, crisis_model, phrases)


@pytest.fixture
def service(coordinator) -> CoordinatorService:
    store = Store(':memory:')
    yield CoordinatorService(coordinator, store, Windows(), clock=NodeClock())
    store.close()


@pytest.fixture
def store_path(tmp_path):
    return tmp_path / 'coordinator.sqlite3'


@pytest.fixture
def rig(ros, store_path):
    """The coordinator node on a store file, and a probe that talks to it over DDS."""
    return Rig(ros, store_path)
