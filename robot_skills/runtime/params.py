"""Node parameters declared once, from a frozen dataclass.

Each node describes its parameters as a frozen dataclass whose fields carry a
description, a range or a set of choices (``setting(...)``) and whose
``__post_init__`` checks cross-field rules. ``Settings`` declares every field
with a ``ParameterDescriptor``, builds the validated value at startup (a bad
value stops the node with the reason) and keeps it current when someone runs
``ros2 param set``: a change that would make the dataclass invalid is rejected
with the reason, so a node never runs on settings it did not validate.
"""

from __future__ import annotations

from dataclasses import Field, dataclass, field, fields, replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from rcl_interfaces.msg import (
    FloatingPointRange,
    IntegerRange,
    ParameterDescriptor,
    SetParametersResult,
)
from rclpy.node import Node
from rclpy.parameter import Parameter


class _Dataclass(Protocol):
    """Any dataclass instance (what ``dataclasses.fields`` accepts)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


T = TypeVar('T', bound=_Dataclass)


def setting(default: Any, description: str, *, low: float | None = None,
            high: float | None = None, choices: tuple[str, ...] = (),
            read_only: bool = False) -> Any:
    """A dataclass field that is also a described ROS parameter."""
    return field(default=default, metadata={
        'description': description, 'low': low, 'high': high,
        'choices': choices, 'read_only': read_only})


@dataclass(frozen=True)
class _Spec:
    name: str
    field: Field


class Settings(Generic[T]):
    """The parameters of ``model`` (under ``prefix``) on ``node``, validated and current."""

    def __init__(self, node: Node, model: type[T], prefix: str = '') -> None:
        self._model = model
        self._specs = {f'{prefix}{f.name}': _Spec(f.name, f) for f in fields(model)}
        values = {}
        for name, spec in self._specs.items():
            declared = (node.get_parameter(name) if node.has_parameter(name) else  # reconfigured
                        node.declare_parameter(name, spec.field.default, _descriptor(spec.field)))
            values[spec.name] = _plain(declared.value)
        try:
            self._value: T = _checked(model(**values), self._specs.values())
        except (TypeError, ValueError) as error:
            raise ValueError(f'{node.get_name()}: invalid parameters: {error}') from error
        self._pending: T | None = None
        node.add_on_set_parameters_callback(self._validate)
        node.add_post_set_parameters_callback(self._commit)

    @property
    def value(self) -> T:
        return self._value

    def _changes(self, parameters: list[Parameter]) -> dict[str, Any]:
        return {self._specs[p.name].name: _plain(p.value)
                for p in parameters if p.name in self._specs}

    def _validate(self, parameters: list[Parameter]) -> SetParametersResult:
        changes = self._changes(parameters)
        if not changes:
            return SetParametersResult(successful=True)
        try:
            self._pending = _checked(replace(self._value, **changes), self._specs.values())
        except (TypeError, ValueError) as error:
            return SetParametersResult(successful=False, reason=str(error))
        return SetParametersResult(successful=True)

    def _commit(self, parameters: list[Parameter]) -> None:
        if self._changes(parameters) and self._pending is not None:
            self._value, self._pending = self._pending, None


def _checked(value: T, specs: Any) -> T:
    for spec in specs:
        choices = spec.field.metadata.get('choices')
        current = getattr(value, spec.name)
        if choices and current not in choices:
            raise ValueError(f'{spec.name} must be one of {", ".join(choices)}, not {current!r}')
    return value


def _plain(value: Any) -> Any:
    """Parameter arrays arrive as array.array or lists; dataclasses hold tuples."""
    if isinstance(value, (list, tuple)) or type(value).__name__ == 'array':
        return tuple(value)
    return value


def _descriptor(spec: Field) -> ParameterDescriptor:
    meta = spec.metadata
    description = meta.get('description', '')
    if meta.get('choices'):
        description += f' (one of: {", ".join(meta["choices"])})'
    descriptor = ParameterDescriptor(description=description,
                                     read_only=bool(meta.get('read_only')))
    low, high = meta.get('low'), meta.get('high')
    if low is None or high is None or isinstance(spec.default, bool):
        return descriptor
    if isinstance(spec.default, int):
        descriptor.integer_range = [IntegerRange(from_value=int(low), to_value=int(high), step=1)]
    elif isinstance(spec.default, float):
        descriptor.floating_point_range = [
            FloatingPointRange(from_value=float(low), to_value=float(high), step=0.0)]
    return descriptor
