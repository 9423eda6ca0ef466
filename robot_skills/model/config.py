"""Loading YAML/JSON data files into pydantic models, with errors that point.

Routes, lessons, lexicons, joint limits and scenarios are data in ``config/``.
A node validates its files at startup and refuses to start on a bad one; the
error names the file, the entry (with its ``name``/``id`` when it has one) and
the field, so an operator can fix the file without reading code. Files are
read with the wire parser (``wire.py``) at file-sized limits, so a syntax
error says where it is without quoting the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from robot_skills.model import wire

ModelT = TypeVar('ModelT', bound=BaseModel)
FILE_LIMITS = wire.Limits(max_chars=10_000_000, max_depth=64, max_nodes=1_000_000, aliases=True)

_LABEL_KEYS = ('formal_name', 'name', 'key', 'id', 'title', 'topic')


class Strict(BaseModel):
    """A data-file entry: an unknown field is an error (a typo never passes silently)."""

    model_config = ConfigDict(extra='forbid', frozen=True)


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


def describe(error: ValidationError, data: Any = None) -> list[str]:
    """One line per problem, naming the entry and the field (also for messages, not files)."""
    return [_describe(item, data) for item in error.errors()]


def _describe(item: Any, data: Any) -> str:
    location = list(item['loc'])
    field = location.pop() if location and isinstance(location[-1], str) else None
    entry = _entry(location, data)
    where = ', '.join(part for part in (f'entry {entry}' if entry else '',
                                        f'field {field!r}' if field else '') if part)
    return f'{where or "top level"}: {item["msg"]}'


def _entry(location: list[Any], data: Any) -> str:
    """``rooms[3] (name '3-01初心')``: the path to an entry, with its label if any."""
    text = ''
    node = data
    for part in location:
        text += f'[{part}]' if isinstance(part, int) else (f'.{part}' if text else str(part))
        node = node[part] if isinstance(node, (dict, list)) and _has(node, part) else None
    if text and isinstance(node, dict):        # the file itself is not an entry
        for key in _LABEL_KEYS:
            if isinstance(node.get(key), (str, int)):
                return f'{text} ({key} {node[key]!r})'
    return text


def _has(node: dict[Any, Any] | list[Any], part: Any) -> bool:
    if isinstance(node, dict):
        return part in node
    return isinstance(part, int) and 0 <= part < len(node)


