"""Runs a skill's pure core inside a ROS node.

The runner is the whole ROS shell of a skill: it listens to the input
channels, steps the core one event at a time, and carries out the effects the
core returns (batches through the robot facade, replies on ``remote_reply``,
traces on ``skill_events``, timers), feeding their results back as events.

Concurrency: every entity the runner creates lives in one mutually exclusive
callback group, and events go through a queue drained under a lock, so the
core is never stepped twice at once, even on a ``MultiThreadedExecutor`` and
even when an effect's result arrives synchronously while effects are being
carried out. After a drain that handled input, or that emptied the set of
batches in flight, the runner traces ``idle``: the robot has finished reacting.

Traces are collected while a step runs and published after its goals are
sent, in the order they were taken: tracing never delays the robot. Each
``batch_sent`` trace that a barrier (or a timer) released carries
``release_to_send_ms``: the time from the awaited result arriving (or the timer
firing) to the next goals being sent.

Skill-specific effects go to the handlers the node registers; work a handler
does on another thread comes back through ``post_threadsafe``, which hands the
event to the executor as a task so the core still steps on the executor.

Faults: the node is a ``GuardedNode``, so no callback ends the process. A core
step that raises leaves the state as it was; an effect that cannot be carried
out is traced as ``error`` and, for a batch, fed back to the core as refused
and failed commands, so nothing waits for a batch that was never sent. The
``input`` trace names the utterance (its id, source and length), never its
words.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, cast

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from rclpy.task import Future
from rclpy.timer import Timer

from robot_skills.interface import REMOTE_REPLY
from robot_skills.model.commands import Control, Device, describe
from robot_skills.model.outcomes import Acceptance, Outcome, Status, failure, not_accepted
from robot_skills.model.skill import (
    Barrier,
    BatchCompleted,
    BatchReturned,
    CancelTimer,
    Capabilities,
    CommandCompleted,
    Effect,
    Event,
    Heard,
    Refused,
    Reply,
    SendBatch,
    SkillCore,
    StartTimer,
    StateT,
    TimerFired,
    Trace,
)
from robot_skills.model.utterance import Dropped, Utterance
from robot_skills.runtime.diagnostics import Report
from robot_skills.runtime.guard import GuardedNode, fault
from robot_skills.runtime.inputs import InputChannels
from robot_skills.runtime.params import Settings, setting
from robot_skills.runtime.qos import profile
from robot_skills.runtime.robot import Robot, Timeouts
from robot_skills_interfaces.msg import TextReply

DISCOVERY_PERIOD = 0.05


@dataclass(frozen=True)
class RuntimeSettings:
    """Parameters every skill node shares."""

    acceptance_timeout: float = setting(
        2.0, 'Seconds a device may take to accept or refuse a goal (or to be discovered)',
        low=0.01, high=60.0)
    result_timeout: float = setting(
        120.0, 'Seconds a device may take to finish an accepted goal', low=0.1, high=3600.0)
    max_input_chars: int = setting(
        2000, 'Input text longer than this is refused (traced, and answered by the skill)',
        low=1, high=1_000_000)
    discovery_timeout: float = setting(
        5.0, 'Seconds after startup that input waits for the devices it needs (then devices '
        'without a server are reported missing)', low=0.0, high=600.0)


@dataclass(frozen=True)
class _Finished:
    """Internal: a batch left the set in flight; ``completed`` goes on to the core if wanted."""

    batch_id: str
    completed: BatchCompleted | None


class SkillRunner(Generic[StateT]):
    """The ROS shell of one skill core on ``node``, limited to ``devices`` (and ``controls``,
    by default every Trigger service of those devices)."""

    def __init__(self, node: GuardedNode, core: SkillCore[StateT], devices: Iterable[Device],
                 controls: Iterable[Control] | None = None,
                 handlers: Mapping[type, Callable[[Any], None]] | None = None) -> None:
        self._node = node
        self._core = core
        self._state: StateT = core.initial()
        self.settings = Settings(node, RuntimeSettings)
        self._group = MutuallyExclusiveCallbackGroup()
        self.tracer = node.tracer
        self.robot = Robot(node, devices, self._timeouts, self._group, controls)
        self._replies = node.create_publisher(TextReply, REMOTE_REPLY.name,
                                              profile(REMOTE_REPLY.qos))
        self._timers: dict[str, Timer] = {}
        self._in_flight: set[str] = set()
        self._queue: deque[Event | _Finished] = deque()
        self._stepping = threading.Lock()
        self._was_busy = False
        self._outbox: deque[tuple[str, str, str, dict[str, Any] | None]] = deque()
        self._handlers = dict(handlers or {})
        self._released_at: float | None = None
        InputChannels(node, self._on_input, lambda: self.settings.value.max_input_chars,
                      self._group)
        node.report('devices', self.robot.report)
        node.report('core', lambda: Report({
            'state': self._core.label(self._state), 'queued_events': str(len(self._queue)),
            'batches_in_flight': str(len(self._in_flight))}))
        self._started = self._now()
        self._discovery = node.create_timer(DISCOVERY_PERIOD, self._report_capabilities,
                                            self._group)

    @property
    def state(self) -> StateT:
        return self._state

    def _now(self) -> float:
        return self._node.get_clock().now().nanoseconds / 1e9

    def _timeouts(self) -> Timeouts:
        value = self.settings.value
        return Timeouts(value.acceptance_timeout, value.result_timeout, value.discovery_timeout)

    def _trace(self, kind: str, detail: dict[str, Any] | None = None, state: str = '') -> None:
        """Record a trace now (with the current state); ``_flush`` publishes it."""
        self._outbox.append((kind, state or self._core.label(self._state),
                             self._core.session_id(self._state), detail))

    def _flush(self) -> None:
        while self._outbox:
            kind, state, session_id, detail = self._outbox.popleft()
            self.tracer.emit(kind, state, session_id, detail)

    def _report_capabilities(self) -> None:
        """Trace ``capabilities`` once every device is found, or ``degraded`` at the timeout."""
        missing = self.robot.missing()
        waited = self._now() - self._started
        if missing and waited < self.settings.value.discovery_timeout:
            return
        self._discovery.cancel()
        self._node.destroy_timer(self._discovery)
        if missing:
            self._trace('degraded', {'missing_capabilities': missing})
        else:
            self._trace('capabilities', {'available': sorted(self.robot.capabilities())})
        self.post(Capabilities(tuple(missing)))

    # ---- events ------------------------------------------------------------------

    def _on_input(self, item: Utterance | Dropped) -> None:
        if isinstance(item, Dropped) and item.reason == 'not_final':
            return  # partial ASR results are the normal stream, not a refusal
        if isinstance(item, Dropped):
            self._trace('input_rejected', {'source': item.source, 'reason': item.reason,
                                           'utterance_id': item.utterance_id,
                                           'detail': item.detail})
            self.post(Refused(item))
        else:
            self._trace('input', {'source': item.source, 'utterance_id': item.utterance_id,
                                  'sender_id': item.sender_id, 'awake': item.awake,
                                  'chars': len(item.text)})
            self.post(Heard(item))

    def post_threadsafe(self, event: Event) -> None:
        """Hand an event over from any thread; it is stepped on the executor."""
        executor = self._node.executor
        if executor is None:
            raise RuntimeError('the node is not spinning: nothing can take the event')
        executor.create_task(self.post, event)

    def post(self, event: Event | _Finished) -> None:
        """Queue an event and drain the queue unless a drain is already running."""
        self._queue.append(event)
        while self._queue and self._stepping.acquire(blocking=False):
            try:
                self._drain()
            finally:
                self._stepping.release()

    def _drain(self) -> None:
        handled_input = False
        while self._queue:
            event = self._queue.popleft()
            handled_input |= isinstance(event, (Heard, Refused))
            if isinstance(event, _Finished):
                self._in_flight.discard(event.batch_id)
                if event.completed is not None:
                    self._step(event.completed)
            else:
                if isinstance(event, TimerFired):
                    self._in_flight.discard(_timer_key(event.name))
                self._step(event)
        busy = bool(self._in_flight)
        if not busy and (handled_input or self._was_busy):
            self._trace('idle')
        self._was_busy = busy
        self._released_at = None
        self._flush()

    def _step(self, event: Event) -> None:
        before = self._core.label(self._state)
        try:
            step = self._core.step(self._state, event)
        except Exception as error:  # noqa: BLE001 - a core bug must not take the robot down
            self._trace('error', {'event': type(event).__name__,
                                  **fault('core.step', error)})
            return
        self._state = step.state
        after = self._core.label(self._state)
        if after != before:
            self._trace('state_changed', {'from': before, 'to': after})
        for effect in step.effects:
            try:
                self._apply(effect)
            except Exception as error:  # noqa: BLE001 - an effect's fault is the core's input
                self._trace('error', fault(f'effect {type(effect).__name__}', error))
                if isinstance(effect, SendBatch):
                    self._never_sent(effect)

    # ---- effects -----------------------------------------------------------------

    def _apply(self, effect: Effect) -> None:
        if isinstance(effect, Trace):
            self._trace(effect.kind, effect.detail, effect.state)
        elif isinstance(effect, SendBatch):
            self._send(effect)
        elif isinstance(effect, Reply):
            self._replies.publish(TextReply(
                stamp=self._node.get_clock().now().to_msg(), in_reply_to=effect.in_reply_to,
                recipient_id=effect.recipient_id, skill=self._core.skill, text=effect.text))
            self._trace('reply', {'in_reply_to': effect.in_reply_to, 'text': effect.text})
        elif isinstance(effect, StartTimer):
            self._cancel_timer(effect.name)
            self._timers[effect.name] = self._node.create_timer(
                effect.seconds, partial(self._on_timer, effect.name), self._group)
            if effect.busy:
                self._in_flight.add(_timer_key(effect.name))
        elif isinstance(effect, CancelTimer):
            self._cancel_timer(effect.name)
        elif type(effect) in self._handlers:
            self._trace('effect', {'type': type(effect).__name__})
            self._handlers[type(effect)](effect)
        else:
            raise TypeError(f'no handler for the effect {effect!r}')

    def _never_sent(self, effect: SendBatch) -> None:
        """A batch that could not be sent comes back as refused and failed, like any other."""
        refusals = tuple(not_accepted(c, Status.REJECTED, 'not sent: internal error (traced)')
                         for c in effect.commands)
        if effect.barrier in (Barrier.RETURNED, Barrier.BOTH):
            self._queue.append(BatchReturned(effect.batch_id, refusals))
        wanted = effect.barrier in (Barrier.COMPLETED, Barrier.BOTH)
        self._queue.append(_Finished(effect.batch_id, BatchCompleted(
            effect.batch_id, tuple(failure(r) for r in refusals)) if wanted else None))

    def _send(self, effect: SendBatch) -> None:
        self._in_flight.add(effect.batch_id)
        each = ((lambda index, outcome: self._on_command(effect, index, outcome))
                if effect.each else None)
        batch = self.robot.send(effect.batch_id, effect.commands, each,
                                dict(effect.result_timeouts))
        detail: dict[str, Any] = {'batch_id': effect.batch_id,
                                  'commands': [describe(c) for c in effect.commands]}
        if self._released_at is not None:
            detail['release_to_send_ms'] = round((time.perf_counter() - self._released_at) * 1e3,
                                                 3)
        self._trace('batch_sent', detail)
        batch.returned.add_done_callback(
            lambda f: self._on_returned(effect, f))
        batch.completed.add_done_callback(
            lambda f: self._on_completed(effect, f))

    def _on_returned(self, effect: SendBatch, future: Future) -> None:
        arrived = time.perf_counter()
        acceptances = cast(tuple[Acceptance, ...], future.result())
        self._trace('batch_returned', {'batch_id': effect.batch_id, 'acceptances': [
            {'device': a.command.device, 'accepted': a.accepted, 'status': a.status,
             'reason': a.reason} for a in acceptances]})
        if effect.barrier in (Barrier.RETURNED, Barrier.BOTH):
            self._released_at = arrived
            self.post(BatchReturned(effect.batch_id, acceptances))
        else:
            self._flush()

    def _on_command(self, effect: SendBatch, index: int, outcome: Outcome) -> None:
        """One command of an ``each`` batch finished: traced and handed to the core now."""
        self._released_at = time.perf_counter()
        self._trace('command_completed', {'batch_id': effect.batch_id, 'index': index,
                                          **_outcome(outcome)})
        self.post(CommandCompleted(effect.batch_id, index, outcome))

    def _on_completed(self, effect: SendBatch, future: Future) -> None:
        arrived = time.perf_counter()
        outcomes = cast(tuple[Outcome, ...], future.result())
        self._trace('batch_completed', {'batch_id': effect.batch_id, 'each': effect.each,
                                        'outcomes': [_outcome(o) for o in outcomes]})
        wanted = effect.barrier in (Barrier.COMPLETED, Barrier.BOTH)
        if wanted:
            self._released_at = arrived
        self.post(_Finished(effect.batch_id,
                            BatchCompleted(effect.batch_id, outcomes) if wanted else None))

    def _on_timer(self, name: str) -> None:
        self._cancel_timer(name)
        self._released_at = time.perf_counter()
        self.post(TimerFired(name))

    def _cancel_timer(self, name: str) -> None:
        self._in_flight.discard(_timer_key(name))
        timer = self._timers.pop(name, None)
        if timer is not None:
            timer.cancel()
            self._node.destroy_timer(timer)


def _timer_key(name: str) -> str:
    """A busy timer's entry in the set in flight (batch ids never start with it)."""
    return f'timer:{name}'


def _outcome(outcome: Outcome) -> dict[str, Any]:
    return {'device': outcome.command.device, 'status': outcome.status,
            'state': outcome.receipt.state, 'gesture': outcome.receipt.gesture,
            'reason': outcome.reason}
