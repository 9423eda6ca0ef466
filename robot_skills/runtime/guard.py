"""One guard around every callback of every node: no message, and no bug, ends the process.

rclpy lets an exception raised in any callback (a subscription, a service, a
timer, a guard condition, a future's done-callback) escape from
``spin_once`` and end the process, and nothing restarts it. Anyone on the DDS
domain can send anything, so every node of the package is a ``GuardedNode``:
each callback it creates is wrapped once, here, so that

* a message or request with a text field longer than the transport cap
  (``max_field_chars``, about 100 kB) is refused before any handler reads it:
  traced ``input_rejected`` naming the field, or answered (a service) with the
  field named; a channel may give its own answer instead (``oversize``);
* an exception is logged once and traced as ``error`` with its type and where
  it was raised, never its message (a message may quote a learner's words);
* a service still answers, with a fresh response that says it failed (``ok``,
  ``accepted`` or ``success`` false, ``code`` ``INTERNAL``, ``error`` the
  reason), so no caller waits for an answer that never comes;

Queues are deep (``DEEP_QOS``, for every input topic and every service): the
reader's history decides what survives a burst (measured: 2,000 messages from
another process, a depth of 10 or 100 keeps about 400, a depth of 5,000 keeps
all), and DDS reports no loss when a full history overwrites a message. rclpy's
default service queue keeps 10 requests: 20 concurrent callers lose half of
their calls without an error to anyone. ``entry.spin`` catches what still
escapes (a callback inside rclpy itself) and reports it through the same guard.
"""

from __future__ import annotations

import functools
import inspect
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rclpy.qos import QoSProfile

from robot_skills.interface import DEEP_QOS
from robot_skills.model.wire import TRANSPORT_CAP, Limits
from robot_skills.runtime.diagnostics import Diagnostics, Report
from robot_skills.runtime.managed import ManagedNode
from robot_skills.runtime.params import Settings, setting
from robot_skills.runtime.qos import profile
from robot_skills.runtime.tracing import Tracer

SERVICE_QOS = profile(DEEP_QOS)   # every service of every node: see the module docstring
MAX_ITEMS = 1000          # elements of a string array (image_tags ...)
STACK_FRAMES = 6
FAILED_FLAGS = ('ok', 'accepted', 'success', 'generated')
REASON_FIELDS = ('error', 'message')


@dataclass(frozen=True)
class GuardSettings:
    """The parameter every node shares: the transport cap of a text field."""

    max_field_chars: int = setting(
        TRANSPORT_CAP, 'Characters a text field of a message or request may hold (longer is '
        'refused, naming the field)', low=1000, high=10_000_000, read_only=True)


def oversized(message: Any, cap: int) -> tuple[str, int] | None:
    """(field, size) of the first text field of ``message`` beyond ``cap``, or None."""
    for name, kind in message.get_fields_and_field_types().items():
        if kind == 'string' or kind.startswith('string<'):
            size = len(getattr(message, name))
        elif kind.startswith('sequence<string'):
            values = getattr(message, name)
            if len(values) > MAX_ITEMS:
                return name, len(values)
            size = sum(len(v) for v in values)
        else:
            continue
        if size > cap:
            return name, size
    return None


def fault(where: str, error: BaseException) -> dict[str, Any]:
    """What a trace says of an exception: where, its type and stack, never its message."""
    stack = [f'{Path(f.filename).name}:{f.lineno} {f.name}'
             for f in traceback.extract_tb(error.__traceback__)[-STACK_FRAMES:]]
    return {'where': where, 'error': type(error).__name__, 'stack': stack}


def failed(response: Any, reason: str, code: str = 'INTERNAL') -> Any:
    """``response`` (fresh) filled to say the call failed, with ``reason``."""
    fields = response.get_fields_and_field_types()
    for name in FAILED_FLAGS:
        if name in fields:
            setattr(response, name, False)
    if 'code' in fields:
        response.code = code
    if 'errors' in fields:
        response.errors = [reason]
    for name in REASON_FIELDS:
        if name in fields:
            setattr(response, name, reason)
    return response


class Guard:
    """Wraps callbacks so that they report instead of raising (see the module docstring)."""

    def __init__(self, tracer: Tracer, cap: Callable[[], int],
                 closed: Callable[[], str | None] = lambda: None) -> None:
        self._tracer = tracer
        self._cap = cap
        self._closed = closed

    @property
    def limits(self) -> Limits:
        """The wire parser's limits at this node's transport cap."""
        return Limits(max_chars=self._cap())

    def report(self, where: str, error: BaseException) -> None:
        """Log and trace ``error`` once: its type and stack, never its message."""
        self._tracer.emit('error', detail=fault(where, error))

    def call(self, callback: Callable[..., Any], where: str,
             fallback: Callable[..., Any] | None = None) -> Callable[..., Any]:
        """``callback`` that reports an exception and returns ``fallback(*args)`` (or None).

        The wrapper keeps the callback's signature (``functools.wraps``): executors read it
        to decide what to pass (a timer's ``TimerInfo``, a subscription's ``MessageInfo``).
        """
        if inspect.iscoroutinefunction(callback):
            @functools.wraps(callback)
            async def guarded_async(*args: Any) -> Any:
                try:
                    return await callback(*args)
                except Exception as error:  # noqa: BLE001 - the guard: report, never raise
                    self.report(where, error)
                    return fallback(*args) if fallback else None
            return guarded_async

        @functools.wraps(callback)
        def guarded(*args: Any) -> Any:
            try:
                return callback(*args)
            except Exception as error:  # noqa: BLE001 - the guard: report, never raise
                self.report(where, error)
                return fallback(*args) if fallback else None
        return guarded

    def message(self, callback: Callable[[Any], Any], topic: str,
                oversize: Callable[[Any, str, int], Any] | None = None
                ) -> Callable[[Any], Any]:
        """A subscription callback: refused while the node is not active, size-checked,
        then guarded. A coroutine callback (and its ``oversize``) is awaited: in a mutually
        exclusive group the next message is taken only once it is done."""
        def admitted(message: Any) -> tuple[str, int] | bool:
            """True to call back, False when refused (traced), or the oversized field."""
            closed = self._closed()
            if closed is not None:
                self._tracer.emit('input_rejected', detail={'topic': topic, 'reason': closed})
                return False
            found = oversized(message, self._cap())
            if found is None:
                return True
            if oversize is None:
                self._tracer.emit('input_rejected', detail={
                    'topic': topic, 'field': found[0], 'size': found[1], 'limit': self._cap()})
                return False
            return found

        if inspect.iscoroutinefunction(callback):
            async def checked_async(message: Any) -> None:
                verdict = admitted(message)
                if verdict is True:
                    await callback(message)
                elif verdict and oversize is not None:
                    answer = oversize(message, *verdict)
                    if inspect.isawaitable(answer):
                        await answer
            return self.call(checked_async, topic)

        def checked(message: Any) -> None:
            verdict = admitted(message)
            if verdict is True:
                callback(message)
            elif verdict and oversize is not None:
                oversize(message, *verdict)
        return self.call(checked, topic)

    def service(self, callback: Callable[[Any, Any], Any], name: str,
                srv_type: Any) -> Callable[[Any, Any], Any]:
        """A service callback: refused while the node is not active, size-checked, guarded,
        and always answered."""
        def refusal(request: Any) -> Any:
            closed = self._closed()
            if closed is not None:
                self._tracer.emit('input_rejected', detail={'service': name, 'reason': closed})
                return failed(srv_type.Response(), f'{closed}: not taking calls', 'UNAVAILABLE')
            found = oversized(request, self._cap())
            if found is None:
                return None
            field, size = found
            self._tracer.emit('input_rejected', detail={
                'service': name, 'field': field, 'size': size, 'limit': self._cap()})
            return failed(srv_type.Response(), f'{field}: {size:,} characters (or items); '
                                               f'at most {self._cap():,}', 'VALIDATION')

        def internal(*_: Any) -> Any:
            return failed(srv_type.Response(), 'internal error (traced as error on skill_events)')

        if inspect.iscoroutinefunction(callback):
            async def answer_async(request: Any, response: Any) -> Any:
                return refusal(request) or await callback(request, response)
            return self.call(answer_async, name, internal)

        def answer(request: Any, response: Any) -> Any:
            return refusal(request) or callback(request, response)
        return self.call(answer, name, internal)


class GuardedNode(ManagedNode):
    """A managed node whose every callback is guarded, whose services have deep queues, and
    whose resources close only once opened (``on_destroy``).

    ``skill`` names its traces on ``skill_events``; ``self.tracer`` publishes them. A node
    writes ``configure()`` (``managed.py``), never work in ``__init__``: with ``autostart``
    the node configures and activates at the end of this constructor.
    """

    def __init__(self, node_name: str, skill: str, **kwargs: Any) -> None:
        self._closers: list[Callable[[], None]] = []
        super().__init__(node_name, **kwargs)
        self.tracer = Tracer(self, skill)
        self.diagnostics = Diagnostics(self, lambda: self.state, lambda: self.configure_failure)
        self.tracer.on_error = self.diagnostics.error
        self.guard_settings = Settings(self, GuardSettings)
        self.guard = Guard(self.tracer, lambda: self.guard_settings.value.max_field_chars,
                           self._accepting)
        if self.autostart:
            self.start()

    def _guarded(self) -> Guard | None:
        return self.__dict__.get('guard')   # rclpy creates parameter services before ours

    def _accepting(self) -> str | None:
        """None when the node takes input, else why not (its lifecycle state)."""
        return None if self.active else f'{self.get_name()} is {self.state}'

    def create_subscription(self, msg_type: Any, topic: str,
                            callback: Callable[..., Awaitable[None] | None],
                            qos_profile: QoSProfile | int, *,
                            oversize: Callable[[Any, str, int], Awaitable[None] | None]
                            | None = None,
                            **kwargs: Any) -> Any:
        guard = self._guarded()
        if guard is None:
            return super().create_subscription(msg_type, topic, callback, qos_profile, **kwargs)
        return super().create_subscription(msg_type, topic, guard.message(callback, topic,
                                                                          oversize),
                                           qos_profile, **kwargs)

    def create_service(self, srv_type: Any, srv_name: str, callback: Callable[..., Any], *,
                       qos_profile: QoSProfile = SERVICE_QOS, **kwargs: Any) -> Any:
        guard = self._guarded()
        if guard is not None:
            callback = guard.service(callback, srv_name, srv_type)
        return super().create_service(srv_type, srv_name, callback, qos_profile=qos_profile,
                                      **kwargs)

    def create_timer(self, timer_period_sec: float, callback: Callable[..., object] | None,
                     callback_group: Any = None, clock: Any = None,
                     autostart: bool = True) -> Any:
        guard = self._guarded()
        if guard is not None and callback is not None:
            callback = guard.call(callback, 'timer')
        return super().create_timer(timer_period_sec, callback, callback_group, clock, autostart)

    def create_guard_condition(self, callback: Callable[[], None],
                               callback_group: Any = None) -> Any:
        guard = self._guarded()
        if guard is not None:
            callback = guard.call(callback, 'guard_condition')
        return super().create_guard_condition(callback, callback_group)

    def report(self, name: str, part: Callable[[], Report]) -> None:
        """Add ``part`` to this node's ``/diagnostics`` (removed at *cleanup* if added by
        ``configure()``)."""
        self.own(self.diagnostics.add(name, part))

    def on_destroy(self, close: Callable[[], None]) -> None:
        """Run ``close`` at *cleanup* (opened by ``configure()``) or when the node is destroyed
        (resources opened so far, in reverse)."""
        guard = self._guarded()
        guarded = guard.call(close, 'close') if guard else close
        if self._recording:
            self.own(guarded)
        else:
            self._closers.append(guarded)

    def destroy_node(self) -> None:
        self._teardown()
        while self._closers:
            self._closers.pop()()
        super().destroy_node()
