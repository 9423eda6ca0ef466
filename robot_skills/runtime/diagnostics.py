"""Each node's health on ``/diagnostics``, as rqt_robot_monitor and the aggregator read it.

Once a second (and at every lifecycle change) a node publishes one
``diagnostic_msgs/DiagnosticStatus``: named by the node's full name, its
``hardware_id`` the robot (the node's namespace), with the lifecycle state,
what each part of the node reports (``add``: the devices found or missing,
the store, the queues), and the kind and time of the last error. Never a
learner's words: an error is its type and where it was raised (``fault``).

Levels: OK; WARN when the node is not active, a part reports a problem (a
missing device, a store that cannot be written), or an error was traced in
the last ``RECENT`` seconds; ERROR when its configuration failed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from rclpy.node import Node
from std_msgs.msg import Header

from robot_skills.interface import DIAGNOSTICS
from robot_skills.runtime.qos import profile

PERIOD = 1.0             # seconds, as diagnostic_updater
RECENT = 60.0            # seconds an error keeps the node at WARN
OK, WARN, ERROR = DiagnosticStatus.OK, DiagnosticStatus.WARN, DiagnosticStatus.ERROR


@dataclass(frozen=True)
class Report:
    """What one part of a node says: its values, and a problem if it has one (WARN)."""

    values: dict[str, str] = field(default_factory=dict)
    problem: str = ''


@dataclass
class LastError:
    where: str = ''
    kind: str = ''
    at: float = 0.0          # the node's clock, seconds


class Diagnostics:
    """The ``/diagnostics`` publisher of one node (``parts`` come and go with configure)."""

    def __init__(self, node: Node, state: Callable[[], str],
                 failure: Callable[[], str]) -> None:
        self._node = node
        self._state = state
        self._failure = failure
        self._parts: dict[str, Callable[[], Report]] = {}
        self.last_error = LastError()
        self._publisher = node.create_publisher(DiagnosticArray, DIAGNOSTICS.name,
                                                  profile(DIAGNOSTICS.qos))
        self._timer = node.create_timer(PERIOD, self.publish)

    def add(self, name: str, part: Callable[[], Report]) -> Callable[[], None]:
        """Report ``part`` under ``name``; returns what removes it."""
        self._parts[name] = part

        def remove() -> None:
            self._parts.pop(name, None)
        return remove

    def error(self, where: str, kind: str) -> None:
        self.last_error = LastError(where, kind, self._now())

    def _now(self) -> float:
        return self._node.get_clock().now().nanoseconds / 1e9

    def status(self) -> DiagnosticStatus:
        state = self._state()
        values = {'lifecycle_state': state}
        problems = [] if state == 'active' else [f'{state}, not taking input']
        for name, part in list(self._parts.items()):
            report = part()
            values.update({f'{name}.{key}': value for key, value in report.values.items()})
            if report.problem:
                problems.append(f'{name}: {report.problem}')
        error = self.last_error
        if error.kind:
            ago = self._now() - error.at
            values.update({'last_error': f'{error.kind} in {error.where}',
                           'last_error_seconds_ago': f'{ago:.1f}'})
            if ago < RECENT:
                problems.append(f'{error.kind} in {error.where} {ago:.0f} s ago')
        failure = self._failure()
        level = ERROR if failure else WARN if problems else OK
        message = failure or '; '.join(problems) or 'ready'
        return DiagnosticStatus(
            level=level, name=self._node.get_fully_qualified_name(), message=message,
            hardware_id=self._node.get_namespace().strip('/') or 'robot',
            values=[KeyValue(key=k, value=v) for k, v in values.items()])

    def publish(self) -> None:
        self._publisher.publish(DiagnosticArray(
            header=Header(stamp=self._node.get_clock().now().to_msg()), status=[self.status()]))


class Storing(Protocol):
    """What a store's report reads (read only: a store may compute either)."""

    @property
    def path(self) -> str: ...

    @property
    def unavailable_for(self) -> float: ...


def store_part(store: Storing, schema_version: int) -> Callable[[], Report]:
    """A store's report: its file, schema, and whether writes are refused right now (no SQL:
    the report runs on the diagnostics timer, beside the store's own callbacks)."""
    def report() -> Report:
        left = store.unavailable_for
        return Report({'path': store.path, 'schema_version': str(schema_version),
                       'writable': 'no' if left else 'yes'},
                      f'locked or read-only, next try in {left:.1f} s' if left else '')
    return report
