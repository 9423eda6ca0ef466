r"""Text from the wire (JSON and YAML), parsed with limits: one parser for every field.

Anyone on the DDS domain can send anything, so a JSON or YAML field of a
message is hostile until it is parsed here. Both formats go through the same
checks, iteratively (no recursion a deep document could exhaust):

* size: at most ``Limits.max_chars`` characters (the transport cap);
* nesting: at most ``Limits.max_depth`` levels, and at most ``max_nodes``
  values in all (a thousand ``[`` is refused, not a ``RecursionError``);
* numbers: integers within SQLite's signed 64 bits (what every store can
  hold), floats finite (NaN and Infinity are not JSON and are refused);
* strings: no unpaired surrogates (a ``"\ud800"`` escape cannot be stored);
* YAML: no anchors or aliases (the "billion laughs"), safe types only. Trusted
  files (``config.load``) may use aliases: ``max_nodes`` counts a shared value
  at every place it is used, so an exponential document is still refused.

Every refusal is a ``WireError`` naming the field and the path inside it
(``args_json.fields.record_id``) and never quoting the text: the text may be
a learner's words. The path holds the caller's own keys, so it is for the
caller's answer; a trace names ``field`` (the message field) and, with
``named``, the first key only when it is one the model declares.
``model`` validates the value with a pydantic model, whose errors name the
field the same way.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError
from yaml.events import AliasEvent

ModelT = TypeVar('ModelT', bound=BaseModel)

INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1
TRANSPORT_CAP = 100_000
MAX_PROBLEMS = 5            # validation problems named in one refusal


@dataclass(frozen=True)
class Limits:
    """What one field may hold; ``max_chars`` is the node's transport cap."""

    max_chars: int = TRANSPORT_CAP
    max_depth: int = 32
    max_nodes: int = 100_000
    aliases: bool = False


LIMITS = Limits()


class WireError(ValueError):
    """A field that cannot be used, with where in it and why (never its contents)."""

    def __init__(self, field: str, problem: str, path: str = '', message: str = '',
                 key: str = '') -> None:
        self.field = field
        self.path = path
        self.key = key               # the first key of the path, if the path starts with one
        self.problem = problem
        super().__init__(message or f'{field}{path}: {problem}')

    def named(self, declared: Iterable[str] = ()) -> str:
        """The field, and its first key when it is a declared one: safe to trace."""
        return f'{self.field}.{self.key}' if self.key and self.key in declared else self.field


def json_value(text: str, field: str, limits: Limits = LIMITS) -> Any:
    """The JSON value of ``text``, within ``limits``, or a ``WireError``."""
    _size(text, field, limits)
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except _ConstantError as error:
        raise WireError(field, f'{error.args[0]} is not a JSON number (refused)') from None
    except RecursionError:
        raise WireError(field, f'nested deeper than {limits.max_depth} levels') from None
    except ValueError as error:       # JSONDecodeError, or an integer of > 4300 digits
        where = (f' at line {error.lineno}, column {error.colno}'
                 if isinstance(error, json.JSONDecodeError) else '')
        problem = error.msg if isinstance(error, json.JSONDecodeError) else 'number too long'
        raise WireError(field, f'not valid JSON{where}: {problem}') from None
    return checked(value, field, limits)


def json_object(text: str, field: str, limits: Limits = LIMITS) -> dict[str, Any]:
    """A JSON object ('' or blank is an empty one), or a ``WireError``."""
    if not text.strip():
        return {}
    value = json_value(text, field, limits)
    if not isinstance(value, dict):
        raise WireError(field, f'must be a JSON object, not {_kind(value)}')
    return value


def yaml_value(text: str, field: str, limits: Limits = LIMITS) -> Any:
    """The YAML (or JSON) value of ``text``, within ``limits``, or a ``WireError``."""
    _size(text, field, limits)
    loader = None
    try:
        loader = _Loader(text, limits)
        value = loader.get_single_data()
    except _TooDeepError:
        raise WireError(field, f'nested deeper than {limits.max_depth} levels') from None
    except _AliasError:
        raise WireError(field, 'YAML anchors and aliases are not accepted') from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f' at line {mark.line + 1}, column {mark.column + 1}' if mark else ''
        raise WireError(field, f'not valid YAML{where}: {error.problem or error.context}'
                        ) from None
    except yaml.reader.ReaderError as error:
        raise WireError(field, f'not valid YAML: a control character at position '
                               f'{error.position}') from None
    except (yaml.YAMLError, RecursionError) as error:
        raise WireError(field, f'not valid YAML: {type(error).__name__}') from None
    except (ValueError, TypeError, OverflowError):      # a scalar its type cannot read
        raise WireError(field, 'not valid YAML: a value cannot be read (a number or a date '
                               'out of range)') from None
    finally:
        if loader is not None:
            loader.dispose()
    return checked(value, field, limits)


def model(value: Any, model_type: type[ModelT], field: str) -> ModelT:
    """``value`` validated as ``model_type``; errors name ``field`` and the path in it.

    The validated values are checked again: lax validation turns the string
    ``"99999999999999999999"`` into an integer no store can hold.
    """
    try:
        validated = model_type.model_validate(value)
    except ValidationError as error:
        items = error.errors()
        problems = [(_path(item['loc']), item['msg']) for item in items]
        message = '; '.join(f'{field}{path}: {msg}' for path, msg in problems[:MAX_PROBLEMS])
        path, first = problems[0]
        location = items[0]['loc']
        key = location[0] if location and isinstance(location[0], str) else ''
        raise WireError(field, first, path, message, key) from None
    checked(validated.model_dump(), field)
    return validated


def _path(location: tuple[int | str, ...]) -> str:
    return ''.join(f'[{p}]' if isinstance(p, int) else f'.{p}' for p in location)


def checked(value: Any, field: str, limits: Limits = LIMITS) -> Any:
    """``value`` if every part of it is within ``limits`` (iteratively), else a ``WireError``."""
    stack: list[tuple[Any, str, int, str]] = [(value, '', 1, '')]
    nodes = 0
    while stack:
        item, path, depth, key = stack.pop()
        nodes += 1
        if nodes > limits.max_nodes:
            raise WireError(field, f'more than {limits.max_nodes:,} values')
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, int):
            if not INT64_MIN <= item <= INT64_MAX:
                raise WireError(field, 'integer beyond the signed 64-bit range', path, key=key)
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise WireError(field, 'number is not finite', path, key=key)
        elif isinstance(item, str):
            _text(item, field, path, key)
        elif isinstance(item, (dict, list)):
            if depth > limits.max_depth:
                raise WireError(field, f'nested deeper than {limits.max_depth} levels', path,
                                key=key)
            if isinstance(item, dict):
                for name, child in item.items():
                    if not isinstance(name, (str, int, float)):   # YAML allows number keys
                        raise WireError(field, f'keys must be strings, not {_kind(name)}', path)
                    first = key or str(name) if depth == 1 else key
                    stack.append((name, path, depth + 1, first))
                    stack.append((child, f'{path}.{name}', depth + 1, first))
            else:
                stack.extend((child, f'{path}[{n}]', depth + 1, key)
                             for n, child in enumerate(item))
    return value


def _size(text: str, field: str, limits: Limits) -> None:
    if len(text) > limits.max_chars:
        raise WireError(field, f'{len(text):,} characters; at most {limits.max_chars:,}')


def _text(text: str, field: str, path: str, key: str = '') -> None:
    try:
        text.encode('utf-8')
    except UnicodeEncodeError:
        raise WireError(field, 'text holds an unpaired surrogate', path, key=key) from None


def _kind(value: Any) -> str:
    return {dict: 'an object', list: 'an array', str: 'a string', bool: 'a boolean',
            type(None): 'null'}.get(type(value), 'a number')


class _ConstantError(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise _ConstantError(name)


class _TooDeepError(Exception):
    pass


class _AliasError(Exception):
    pass


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing aliases and counting depth before it recurses."""

    def __init__(self, text: str, limits: Limits) -> None:
        super().__init__(text)
        self._max_depth = limits.max_depth
        self._aliases = limits.aliases
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(AliasEvent) and not self._aliases:
            raise _AliasError
        self._depth += 1
        if self._depth > self._max_depth:
            raise _TooDeepError
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1
