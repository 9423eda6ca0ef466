"""A facade over the robot's devices: batches of goals, barriers, receipts, timeouts.

Skills never touch ``ActionClient``: they hand the facade a batch of pure
commands and get back a ``Batch`` whose two futures resolve when every goal
"returned" (accepted or refused) and when every goal completed, with judged
``Outcome`` values. Nothing here blocks or polls a future: responses arrive as
done callbacks, and a single watchdog timer, running only while something is
pending, enforces the acceptance and result timeouts and waits for servers that
are not discovered yet: a command sent in the first ``discovery`` seconds of
the facade waits that long for its server (the skill started before the
robot's driver), later ones ``acceptance``; the acceptance timeout counts
from the moment the goal is sent. A device whose server never appears is
reported as a missing capability (``Status.UNAVAILABLE``), never as a hang.
Every deadline is on the node's clock (ROS time: ``use_sim_time`` and a
replayed bag behave).

A skill passes only the devices (and Trigger services) it may use; the facade
creates clients for nothing else, so a skill is structurally unable to drive
any other device.

A response that cannot be read (a future holding an exception, a result of
the wrong shape) settles its command as failed with the exception's type as
the reason, so the batch completes instead of waiting for its timeout.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rclpy.action import ActionClient
from rclpy.callback_groups import CallbackGroup
from rclpy.client import Client
from rclpy.node import Node
from rclpy.task import Future
from std_srvs.srv import Trigger

from robot_skills.model.commands import Call, Command, Control, Device
from robot_skills.model.outcomes import (
    Acceptance,
    Outcome,
    Receipt,
    Status,
    accepted,
    failure,
    judge,
    not_accepted,
)
from robot_skills.runtime.devices import ACTIONS, to_goal, to_receipt
from robot_skills.runtime.diagnostics import Report

WATCHDOG_PERIOD = 0.02


@dataclass(frozen=True)
class Timeouts:
    """Seconds: to accept a goal, to finish it, and to wait for servers after start."""

    acceptance: float = 2.0
    result: float = 60.0
    discovery: float = 0.0


class Batch:
    """Commands sent together; ``returned`` and ``completed`` are its two barriers."""

    def __init__(self, batch_id: str, commands: Sequence[Command],
                 each: Callable[[int, Outcome], None] | None = None) -> None:
        self.batch_id = batch_id
        self.commands = tuple(commands)
        self.returned: Future = Future()
        self.completed: Future = Future()
        self.each = each            # told every command's outcome as it comes, if given
        self._acceptances: list[Acceptance | None] = [None] * len(self.commands)
        self._outcomes: list[Outcome | None] = [None] * len(self.commands)

    def _record_acceptance(self, index: int, acceptance: Acceptance) -> Callable[[], None] | None:
        return _fill(self._acceptances, index, acceptance, self.returned)

    def _record_outcome(self, index: int, outcome: Outcome) -> Callable[[], None] | None:
        return _fill(self._outcomes, index, outcome, self.completed)


def _fill(slots: list, index: int, value: object, barrier: Future) -> Callable[[], None] | None:
    """Record one value; once every slot is filled, the action that resolves the barrier.

    The action is returned rather than run so the caller can run it outside its lock.
    """
    slots[index] = value
    if all(slot is not None for slot in slots):
        result = tuple(slots)
        return lambda: barrier.set_result(result)
    return None


@dataclass(eq=False)
class _Pending:
    """One command in flight and its current deadline (the node's clock, seconds)."""

    batch: Batch
    index: int
    deadline: float
    result_timeout: float | None = None     # None: the runtime's
    sent: bool = False
    returned: bool = False
    goal_handle: Any = None
    chars_spoken: int = 0                   # speech progress, from the goal's feedback

    @property
    def command(self) -> Command:
        return self.batch.commands[self.index]


class Robot:
    """The devices of one robot.

    Names are relative, so the node's namespace picks the robot, unless
    ``namespace`` names the robot (a node that is not one of its skills, such
    as the discussion TA, speaking through it).
    """

    def __init__(self, node: Node, devices: Iterable[Device], timeouts: Callable[[], Timeouts],
                 callback_group: CallbackGroup | None = None,
                 controls: Iterable[Control] | None = None, namespace: str = '') -> None:
        self._node = node
        self._timeouts = timeouts
        self.devices = frozenset(devices)
        prefix = f'{namespace.rstrip("/")}/' if namespace else ''
        self._actions: dict[Device, ActionClient] = {
            d: ActionClient(node, ACTIONS[d].action_type, prefix + ACTIONS[d].name,
                            callback_group=callback_group)
            for d in sorted(self.devices)}
        allowed = set(Control if controls is None else controls)
        self._services: dict[Control, Client] = {c: node.create_client(Trigger, prefix + c.value,
                                                  callback_group=callback_group)
                          for c in Control if c.device in self.devices and c in allowed}
        self._lock = threading.Lock()
        self._pending: set[_Pending] = set()
        self._watchdog = node.create_timer(WATCHDOG_PERIOD, self._on_watchdog,
                                           callback_group=callback_group, autostart=False)
        self._born = self._now()

    def _now(self) -> float:
        return self._node.get_clock().now().nanoseconds / 1e9

    # ---- capabilities ------------------------------------------------------------

    def capabilities(self) -> dict[str, bool]:
        """Whether each enabled device action and control service has a server now."""
        found = {ACTIONS[d].name: c.server_is_ready() for d, c in self._actions.items()}
        found.update({c.value: s.service_is_ready() for c, s in self._services.items()})
        return found

    def missing(self) -> list[str]:
        return sorted(name for name, ready in self.capabilities().items() if not ready)

    def report(self) -> Report:
        """For ``/diagnostics``: the servers found and missing, the commands in flight."""
        found = self.capabilities()
        missing = sorted(name for name, ready in found.items() if not ready)
        with self._lock:
            pending = len(self._pending)
        waiting = self._now() < self._born + self._timeouts().discovery
        problem = ('waiting for ' if waiting else 'missing: ') + ', '.join(missing)
        return Report({'found': ', '.join(sorted(n for n, ok in found.items() if ok)),
                       'missing': ', '.join(missing), 'commands_in_flight': str(pending)},
                      problem if missing else '')

    # ---- sending -----------------------------------------------------------------

    def send(self, batch_id: str, commands: Sequence[Command],
             each: Callable[[int, Outcome], None] | None = None,
             result_timeouts: Mapping[Device, float] | None = None) -> Batch:
        """Send every command concurrently; the returned batch tracks them (``each`` is
        told every outcome as it comes; ``result_timeouts`` override the runtime's result
        timeout per device)."""
        for command in commands:
            if command.device not in self.devices or (
                    isinstance(command, Call) and command.control not in self._services):
                raise ValueError(f'{_name(command)} is not a device of this skill')
        batch = Batch(batch_id, commands, each)
        timeouts = self._timeouts()
        now = self._now()
        deadline = max(now + timeouts.acceptance, self._born + timeouts.discovery)
        overrides = result_timeouts or {}
        items = [_Pending(batch, i, deadline, overrides.get(command.device))
                 for i, command in enumerate(commands)]
        with self._lock:
            self._pending.update(items)
        if not items:
            batch.returned.set_result(())
            batch.completed.set_result(())
        for item in items:
            self._dispatch(item)
        self._arm_watchdog()
        return batch

    def _ready(self, command: Command) -> bool:
        if isinstance(command, Call):
            return self._services[command.control].service_is_ready()
        return self._actions[command.device].server_is_ready()

    def _dispatch(self, item: _Pending) -> None:
        """Send now if the server is known; otherwise the watchdog retries until the deadline."""
        command = item.command
        with self._lock:
            if item.sent or item not in self._pending or not self._ready(command):
                return
            item.sent = True
            item.deadline = self._now() + self._timeouts().acceptance
        if isinstance(command, Call):
            future = self._services[command.control].call_async(Trigger.Request())
            future.add_done_callback(self._guarded(item, self._on_service_response))
        else:
            future = self._actions[command.device].send_goal_async(
                to_goal(command), feedback_callback=lambda message: self._on_feedback(
                    item, message))
            future.add_done_callback(self._guarded(item, self._on_goal_response))

    def _guarded(self, item: _Pending,
                 callback: Callable[[_Pending, Future], None]) -> Callable[[Future], None]:
        """A done-callback whose fault settles ``item`` as failed instead of escaping."""
        def run(future: Future) -> None:
            try:
                callback(item, future)
            except Exception as error:  # noqa: BLE001 - a bad response is a failed command
                reason = f'unreadable response: {type(error).__name__}'
                self._node.get_logger().error(f'{_name(item.command)}: {reason}')
                refusal = not_accepted(item.command, Status.REJECTED, reason)
                self._settle(item, refusal, Outcome(item.command, Status.FAILED, Receipt(),
                                                    reason))
        return run

    # ---- responses ---------------------------------------------------------------

    def _on_service_response(self, item: _Pending, future: Future) -> None:
        response = _result(future)
        receipt = Receipt(state='completed' if response.success else 'error',
                          error='' if response.success else response.message)
        self._settle(item, accepted(item.command), judge(item.command, receipt))

    def _on_goal_response(self, item: _Pending, future: Future) -> None:
        goal_handle = _result(future)
        if not goal_handle.accepted:
            refusal = not_accepted(item.command, Status.REJECTED, 'goal rejected by the device')
            self._settle(item, refusal, failure(refusal))
            return
        fire = None
        with self._lock:
            late = item not in self._pending
            if not late:
                item.returned, item.goal_handle = True, goal_handle
                item.deadline = self._now() + self._result_timeout(item)
                fire = item.batch._record_acceptance(item.index, accepted(item.command))
        if late:  # accepted after its acceptance timeout: the skill has moved on
            goal_handle.cancel_goal_async()
            return
        if fire:
            fire()
        goal_handle.get_result_async().add_done_callback(self._guarded(item, self._on_result))

    def _on_feedback(self, item: _Pending, message: Any) -> None:
        """Keep a speech's progress: where a cut speech stopped is where it goes on."""
        spoken = getattr(message.feedback, 'chars_spoken', None)
        if isinstance(spoken, int):
            item.chars_spoken = max(item.chars_spoken, spoken)

    def _on_result(self, item: _Pending, future: Future) -> None:
        response = _result(future)
        self._settle(item, None, replace(judge(item.command, to_receipt(response.result)),
                                         chars_spoken=item.chars_spoken))

    def _result_timeout(self, item: _Pending) -> float:
        return item.result_timeout if item.result_timeout is not None else (
            self._timeouts().result)

    def _settle(self, item: _Pending, acceptance: Acceptance | None, outcome: Outcome) -> None:
        """Record the end of one command once (a late answer after a timeout is ignored)."""
        fires = []
        with self._lock:
            if item not in self._pending:
                return
            if acceptance is not None and not item.returned:
                item.returned = True
                fires.append(item.batch._record_acceptance(item.index, acceptance))
            fires.append(item.batch._record_outcome(item.index, outcome))
            self._pending.remove(item)
        if item.batch.each is not None:
            item.batch.each(item.index, outcome)
        for fire in fires:
            if fire:
                fire()

    # ---- timeouts ----------------------------------------------------------------

    def _arm_watchdog(self) -> None:
        with self._lock:
            busy = bool(self._pending)
        if busy and self._watchdog.is_canceled():
            self._watchdog.reset()

    def _on_watchdog(self) -> None:
        now = self._now()
        with self._lock:
            items = list(self._pending)
        for item in items:
            if not item.sent and now < item.deadline:
                self._dispatch(item)
            elif now >= item.deadline:
                self._expire(item)
        with self._lock:
            if not self._pending:
                self._watchdog.cancel()

    def _expire(self, item: _Pending) -> None:
        if not item.sent:
            refusal = not_accepted(item.command, Status.UNAVAILABLE,
                                   f'no server for {_name(item.command)}: missing capability')
            self._settle(item, refusal, failure(refusal))
        elif not item.returned:
            refusal = not_accepted(item.command, Status.TIMEOUT,
                                   f'no acceptance within {self._timeouts().acceptance:g} s')
            self._settle(item, refusal, failure(refusal))
        else:
            if item.goal_handle is not None:
                item.goal_handle.cancel_goal_async()
            self._settle(item, None, Outcome(
                item.command, Status.TIMEOUT, Receipt(),
                f'no result within {self._result_timeout(item):g} s',
                chars_spoken=item.chars_spoken))


def _name(command: Command) -> str:
    if isinstance(command, Call):
        return command.control.value
    return ACTIONS[command.device].name


def _result(future: Future) -> Any:
    """A done callback's result (rclpy types every result as optional)."""
    result = future.result()
    if result is None:
        raise RuntimeError('a done future without a result')
    return result
