"""Drive the pure wayfinding core like the runtime does, and see what the robot did."""

from __future__ import annotations

from dataclasses import dataclass, field

from robot_skills.model.commands import ArmGesture, Speak
from robot_skills.model.outcomes import Outcome, Receipt, Status, judge
from robot_skills.model.skill import (
    BatchCompleted,
    Effect,
    Event,
    Heard,
    Reply,
    SendBatch,
    StartTimer,
    Step,
    TimerFired,
    Trace,
)
from robot_skills.model.utterance import Source, Utterance
from robot_skills.wayfinding.core import GuideState, WayfindingCore


@dataclass
class Turn:
    """Everything the robot did in reaction to one input."""

    said: list[str] = field(default_factory=list)
    forced: list[bool] = field(default_factory=list)
    gestures: list[ArmGesture] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    traces: list[Trace] = field(default_factory=list)
    timers: list[str] = field(default_factory=list)
    order: list[str] = field(default_factory=list)    # reply / speak / gesture, as emitted

    @property
    def speech(self) -> str:
        assert len(self.said) == 1, self.said
        return self.said[0]

    @property
    def gesture(self) -> str | None:
        assert len(self.gestures) <= 1
        return self.gestures[0].side if self.gestures else None

    def decision(self) -> dict:
        return next(t.detail for t in self.traces if t.kind == 'decision')


class Conversation:
    """Feeds utterances to the core; device results succeed unless told otherwise."""

    def __init__(self, core: WayfindingCore) -> None:
        self.core = core
        self.state: GuideState = core.initial()
        self.in_flight: list[SendBatch] = []
        self.count = 0

    def _apply(self, step: Step[GuideState], turn: Turn) -> None:
        self.state = step.state
        for effect in step.effects:
            self._record(effect, turn)

    def _record(self, effect: Effect, turn: Turn) -> None:
        if isinstance(effect, SendBatch):
            self.in_flight.append(effect)
            for command in effect.commands:
                if isinstance(command, Speak):
                    turn.said.append(command.message)
                    turn.forced.append(command.force)
                    turn.order.append('speak')
                elif isinstance(command, ArmGesture):
                    turn.gestures.append(command)
                    turn.order.append('gesture')
        elif isinstance(effect, Reply):
            turn.replies.append(effect)
            turn.order.append('reply')
        elif isinstance(effect, Trace):
            turn.traces.append(effect)
        elif isinstance(effect, StartTimer):
            turn.timers.append(effect.name)

    def send(self, event: Event, turn: Turn | None = None) -> Turn:
        turn = turn or Turn()
        self._apply(self.core.step(self.state, event), turn)
        return turn

    def hear(self, text: str, *, remote: bool = False, awake: bool = True,
             settle: bool = True, speech_ok: bool = True, gesture_ok: bool = True) -> Turn:
        """One input; with ``settle`` every batch it starts completes, as the robot would."""
        self.count += 1
        source = Source.REMOTE if remote else Source.ASR
        utterance = Utterance(source, text, awake or remote, f'u{self.count}',
                              'visitor' if remote else '')
        turn = self.send(Heard(utterance))
        while settle and self.in_flight:
            self.complete(self.in_flight[0], turn, speech_ok, gesture_ok)
        return turn

    def complete(self, batch: SendBatch, turn: Turn, speech_ok: bool = True,
                 gesture_ok: bool = True) -> Turn:
        self.in_flight.remove(batch)
        outcomes = tuple(_outcome(c, speech_ok, gesture_ok) for c in batch.commands)
        return self.send(BatchCompleted(batch.batch_id, outcomes), turn)

    def expire(self) -> Turn:
        return self.send(TimerFired('clarification'))


def _outcome(command, speech_ok: bool, gesture_ok: bool) -> Outcome:
    if isinstance(command, Speak):
        return judge(command, Receipt('completed' if speech_ok else 'error', '', 'tts-1',
                                      '' if speech_ok else 'tts failed'))
    if gesture_ok:
        return judge(command, Receipt('completed', command.action, 'arm-1'))
    return Outcome(command, Status.FAILED, Receipt('error', command.action, 'arm-1', 'jammed'),
                   'ended error: jammed')
