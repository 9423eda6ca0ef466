"""Shared fixtures of the wayfinding tests: the shipped building, its core, a conversation."""

from __future__ import annotations

import pytest
from wayfinding_talk import Conversation

from robot_skills.adapters.config import load
from robot_skills.runtime import paths
from robot_skills.wayfinding.building import Building
from robot_skills.wayfinding.core import WayfindingCore


@pytest.fixture(scope='session')
def building() -> Building:
    return load(paths.config('wayfinding/building.yaml'), Building)


@pytest.fixture(scope='session')
def core(building) -> WayfindingCore:
    return WayfindingCore(building, clarification_timeout=30.0)


@pytest.fixture
def talk(core) -> Conversation:
    return Conversation(core)
