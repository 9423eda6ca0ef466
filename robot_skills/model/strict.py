"""The base of every data-file entry, and validation errors told by entry and field.

Pure: reading the files themselves is ``robot_skills.adapters.config``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

_LABEL_KEYS = ('formal_name', 'name', 'key', 'id', 'title', 'topic')


class Strict(BaseModel):
    """A data-file entry: an unknown field is an error (a typo never passes silently)."""

    model_config = ConfigDict(extra='forbid', frozen=True)


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


