"""Talking to the coordinator service in tests: one fixed evening, one call per request."""

from __future__ import annotations

from datetime import datetime

from robot_skills.coordinator.core import Request
from robot_skills.coordinator.service import CoordinatorService

NOW = datetime(2026, 11, 30, 20, 0, 0)


def ask(service: CoordinatorService, text: str, learner: str = 'l1', tags=(), now=NOW):
    return service.request(Request('r', learner, text, tuple(tags)), now)
