"""Loading YAML/JSON data files into pydantic models, with errors that point.

Routes, lessons, lexicons, joint limits and scenarios are data in ``config/``.
A node validates its files at startup and refuses to start on a bad one; the
error names the file, the entry (with its ``name``/``id`` when it has one) and
the field, so an operator can fix the file without reading code. Files are
read with the wire parser (``model/wire.py``) at file-sized limits, so a syntax
error says where it is without quoting the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from robot_skills.model import wire
from robot_skills.model.strict import describe

ModelT = TypeVar('ModelT', bound=BaseModel)
FILE_LIMITS = wire.Limits(max_chars=10_000_000, max_depth=64, max_nodes=1_000_000, aliases=True)


class ConfigError(Exception):
    """A data file that cannot be used, with every problem found in it."""

    def __init__(self, path: Path | str, problems: Sequence[str]) -> None:
        self.path = str(path)
        self.problems = list(problems)
        super().__init__('\n'.join(f'{self.path}: {p}' for p in self.problems))


def load(path: Path | str, model: type[ModelT]) -> ModelT:
    """Read ``path`` (YAML or JSON) and validate it as ``model``."""
    path = Path(path)
    try:
        text = path.read_text(encoding='utf-8')
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(path, [f'cannot read: {error}']) from error
    return parse(text, model, path)


def parse(text: str, model: type[ModelT], path: Path | str = '<string>',
          limits: wire.Limits = FILE_LIMITS) -> ModelT:
    """Validate ``text`` as ``model``; ``path`` only names the source in errors."""
    read = wire.json_value if str(path).endswith('.json') else wire.yaml_value
    try:
        data = read(text, '', limits)
    except wire.WireError as error:
        where = error.path.lstrip('.')
        raise ConfigError(path, [f'{where}: {error.problem}' if where else error.problem]
                          ) from error
    try:
        return model.model_validate(data if data is not None else {})
    except ValidationError as error:
        raise ConfigError(path, describe(error, data)) from error
