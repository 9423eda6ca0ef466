"""Drive a pure skill core like the runtime does, with scripted device results."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from robot_skills.model.commands import Call, Command, Speak
from robot_skills.model.outcomes import Outcome, Receipt, Status, accepted, judge, not_accepted
from robot_skills.model.skill import (
    Barrier,
    BatchCompleted,
    BatchReturned,
    CancelTimer,
    Capabilities,
    CommandCompleted,
    Event,
    Heard,
    SendBatch,
    StartTimer,
    TimerFired,
    Trace,
)
from robot_skills.model.utterance import Source, Utterance

Policy = Callable[[Command], Outcome]


def succeed(command: Command) -> Outcome:
    """What a healthy robot answers."""
    if isinstance(command, Speak):
        return judge(command, Receipt('completed', '', 'tts'))
    if isinstance(command, Call):
        return judge(command, Receipt('completed'))
    return judge(command, Receipt('completed', getattr(command, 'action', ''), 'motion'))


def fail(command: Command, state: str = 'error', error: str = 'injected') -> Outcome:
    gesture = getattr(command, 'action', '')
    return Outcome(command, Status.FAILED, Receipt(state, gesture, 'x', error),
                   f'ended {state}: {error}')


@dataclass
class Driver:
    """Feeds events to a core; every batch it sends is answered by ``policy``."""

    core: Any
    policy: Policy = succeed
    reject: Callable[[Command], bool] = lambda command: False
    state: Any = None
    sent: list[SendBatch] = field(default_factory=list)
    traces: list[Trace] = field(default_factory=list)
    others: list[Any] = field(default_factory=list)
    open: list[SendBatch] = field(default_factory=list)
    timers: list[str] = field(default_factory=list)
    count: int = 0

    def __post_init__(self) -> None:
        """Start as the runtime does: the devices are looked for first (all found)."""
        self.state = self.core.initial()
        self.send(Capabilities(()))
        self.traces.clear()

    def send(self, event: Event) -> None:
        step = self.core.step(self.state, event)
        self.state = step.state
        for effect in step.effects:
            if isinstance(effect, SendBatch):
                self.sent.append(effect)
                self.open.append(effect)
            elif isinstance(effect, Trace):
                self.traces.append(effect)
            else:
                if isinstance(effect, StartTimer):
                    self.timers.append(effect.name)
                elif isinstance(effect, CancelTimer) and effect.name in self.timers:
                    self.timers.remove(effect.name)
                self.others.append(effect)

    def hear(self, text: str, run: bool = True) -> None:
        self.count += 1
        self.send(Heard(Utterance(Source.ASR, text, True, f'u{self.count}')))
        if run:
            self.run()

    def run(self, limit: int = 200) -> None:
        """Answer every open batch (returned, then each command, then completed), and fire
        the timers started, until nothing is open."""
        self.step_until(lambda _: not self.open and not self.timers,
                        'quiet (the core never stops sending batches)', limit)

    def step_until(self, done: Callable[[Any], bool], what: str, limit: int = 60) -> None:
        """Answer open batches and fire timers, one at a time, until ``done(state)``."""
        for _ in range(limit):
            if done(self.state):
                return
            if self.open:
                self.finish(self.open[0])
            elif self.timers:
                self.send(TimerFired(self.timers.pop(0)))
            else:
                break
        raise AssertionError(f'never reached {what}')

    def finish(self, batch: SendBatch, returned_only: bool = False) -> None:
        if batch in self.open:
            self.open.remove(batch)
        acceptances = tuple(not_accepted(c, Status.REJECTED, 'rejected') if self.reject(c)
                            else accepted(c) for c in batch.commands)
        if batch.barrier in (Barrier.RETURNED, Barrier.BOTH):
            self.send(BatchReturned(batch.batch_id, acceptances))
        if returned_only:
            return
        outcomes = tuple(Outcome(a.command, a.status, Receipt(), a.reason) if not a.accepted
                         else self.policy(a.command) for a in acceptances)
        if batch.each:
            for index, outcome in enumerate(outcomes):
                self.send(CommandCompleted(batch.batch_id, index, outcome))
        if batch.barrier in (Barrier.COMPLETED, Barrier.BOTH):
            self.send(BatchCompleted(batch.batch_id, outcomes))

    # ---- reading what happened ------------------------------------------------------

    def said(self) -> list[str]:
        return [c.message for b in self.sent for c in b.commands if isinstance(c, Speak)]

    def batches(self) -> list[list[str]]:
        """Each batch as short command names, e.g. ['arm_gesture welcome', 'speak']."""
        return [[_name(c) for c in b.commands] for b in self.sent]

    def kinds(self) -> list[str]:
        return [t.kind for t in self.traces]

    def traced(self, kind: str) -> list[dict]:
        return [t.detail for t in self.traces if t.kind == kind]


def _name(command: Command) -> str:
    if isinstance(command, Speak):
        return 'speak'
    if isinstance(command, Call):
        return command.control.value
    action = getattr(command, 'action', 'move_pos')
    return f'{command.device.value} {action}'
