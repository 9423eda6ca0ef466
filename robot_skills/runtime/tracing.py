"""Every decision a skill takes, published on ``skill_events`` and logged.

Integrators read ``skill_events`` to see why a robot did what it did (the input,
the matched target, the batch sent and what came back, degradations, errors);
tests judge skills through it. The log line carries the same record so a
``ros2 launch`` console tells the same story.

Logging goes straight to rcutils (as rclpy's own logger does in the end) with
this module as the caller: rclpy's Python logger inspects the caller's frame on
every call, which costs 150-350 us, several times the rest of a skill's
reaction (measured by ``make bench``). Severity filtering is unchanged.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy
from rclpy.logging import LoggingSeverity
from rclpy.node import Node

from robot_skills.interface import SKILL_EVENTS
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.msg import SkillEvent

_WARNING_KINDS = frozenset({'degraded', 'input_rejected', 'refused'})


def _severity(kind: str) -> LoggingSeverity:
    if kind == 'error':
        return LoggingSeverity.ERROR
    return LoggingSeverity.WARN if kind in _WARNING_KINDS else LoggingSeverity.INFO


def to_json(detail: dict[str, Any]) -> str:
    """Strict JSON (a non-finite number becomes its name as a string: NaN is not JSON)."""
    try:
        return json.dumps(detail, ensure_ascii=False, default=_plain, separators=(',', ':'),
                          allow_nan=False)
    except ValueError:
        return json.dumps(_finite(detail), ensure_ascii=False, default=_plain,
                          separators=(',', ':'))


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _plain(value: Any) -> Any:
    if hasattr(value, 'value'):  # enums
        return value.value
    if hasattr(value, '__dataclass_fields__'):
        return {k: getattr(value, k) for k in value.__dataclass_fields__}
    return str(value)


class Tracer:
    """Publishes ``SkillEvent`` records for one skill."""

    def __init__(self, node: Node, skill: str) -> None:
        self.skill = skill
        self.on_error: Callable[[str, str], None] | None = None   # (where, type) of an error
        self._node = node
        self._logger = node.get_logger()
        self._publisher = node.create_publisher(SkillEvent, SKILL_EVENTS.name,
                                                  profile(SKILL_EVENTS.qos))

    def emit(self, kind: str, state: str = '', session_id: str = '',
             detail: dict[str, Any] | None = None) -> None:
        detail = detail or {}
        detail_json = to_json(detail)
        if kind == 'error' and self.on_error is not None:
            self.on_error(str(detail.get('where', '')), str(detail.get('error', '')))
        self._publisher.publish(SkillEvent(
            stamp=self._node.get_clock().now().to_msg(), skill=self.skill,
            session_id=session_id, kind=kind, state=state, detail_json=detail_json))
        severity = _severity(kind)
        if self._logger.is_enabled_for(severity):
            line = f'[{kind}] {state} {detail_json}' if state else f'[{kind}] {detail_json}'
            _rclpy.rclpy_logging_rcutils_log(severity, self._logger.name, line, 'emit', __file__,
                                             0)
