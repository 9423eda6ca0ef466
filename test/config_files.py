"""Test helpers for data files: read a shipped one, see how a changed one is refused, and
read the skill documents they come from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from robot_skills.adapters.config import ConfigError, parse
from robot_skills.runtime import paths

SEEDS = Path(__file__).resolve().parents[2] / 'shared' / 'seeds'


def seed(name: str) -> str:
    """The text of a skill document (the test is skipped where ../shared is not checked out)."""
    path = SEEDS / name
    if not path.is_file():
        pytest.skip(f'the skill document is not at {path}')
    return path.read_text(encoding='utf-8')


def shipped(relative: str) -> Any:
    """The data of ``config/<relative>``, to change in a test."""
    return yaml.safe_load(Path(paths.config(relative)).read_text(encoding='utf-8'))


def refusal(data: Any, model: type, name: str) -> str:
    """The error that validating ``data`` as ``model`` gives (the test fails if none)."""
    with pytest.raises(ConfigError) as caught:
        parse(yaml.safe_dump(data, allow_unicode=True), model, name)
    return str(caught.value)
