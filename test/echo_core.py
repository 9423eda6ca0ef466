"""A toy skill core for runtime tests: says what it hears, replies to remote visitors."""

from __future__ import annotations

from dataclasses import dataclass, replace

from robot_skills.model.commands import ArmGesture, Device, Speak
from robot_skills.model.skill import (
    Barrier,
    BatchCompleted,
    BatchReturned,
    Event,
    Heard,
    Refused,
    Reply,
    SendBatch,
    StartTimer,
    Step,
    TimerFired,
    Trace,
)
from robot_skills.model.utterance import Source
from robot_skills.runtime.guard import GuardedNode
from robot_skills.runtime.skill_runner import SkillRunner


@dataclass(frozen=True)
class EchoState:
    turns: int = 0
    speaking: bool = False
    reply_to: tuple[str, str] | None = None


class EchoCore:
    skill = 'echo'

    def initial(self) -> EchoState:
        return EchoState()

    def label(self, state: EchoState) -> str:
        return 'speaking' if state.speaking else 'idle'

    def session_id(self, state: EchoState) -> str:
        return f'turn-{state.turns}'

    def step(self, state: EchoState, event: Event) -> Step[EchoState]:
        if isinstance(event, Heard):
            text = event.utterance.text
            if text == 'boom':
                raise RuntimeError('the core has a bug')
            if text == 'timer':
                return Step(state, (StartTimer('wake', 0.05),))
            if text == 'forbidden':         # a core bug: a device the skill was not given
                return Step(replace(state, speaking=True), (SendBatch('forbidden', (
                    ArmGesture('welcome', 'left', 1, 1.0),), Barrier.BOTH),))
            if text == 'both':
                return Step(replace(state, speaking=True),
                            (SendBatch('both', (Speak('一'), Speak('二')), Barrier.BOTH),))
            if not event.utterance.awake:
                return Step(state, (Trace('ignored', detail={'why': 'asleep'}),))
            turn = state.turns + 1
            remote = event.utterance.source is Source.REMOTE
            reply_to = (event.utterance.utterance_id, event.utterance.sender_id) if remote else None
            return Step(replace(state, turns=turn, speaking=True, reply_to=reply_to),
                        (SendBatch(f'say-{turn}', (Speak(text),)),))
        if isinstance(event, BatchReturned):
            return Step(state, (Trace('returned', detail={'accepted': event.all_accepted}),))
        if isinstance(event, BatchCompleted):
            effects = [Trace('answered', detail={'ok': event.all_ok})]
            if state.reply_to:
                effects.append(Reply(*state.reply_to, text='done'))
            return Step(replace(state, speaking=False, reply_to=None), tuple(effects))
        if isinstance(event, Refused):
            dropped = event.dropped
            if dropped.source is Source.REMOTE:
                return Step(state, (Reply(dropped.utterance_id, dropped.sender_id,
                                          f'refused: {dropped.reason}'),))
            return Step(state)
        if isinstance(event, TimerFired):
            return Step(state, (Trace('timer', detail={'name': event.name}),))
        return Step(state)


class EchoNode(GuardedNode):
    """The echo core in a skill node that may speak (``tts/speak`` only)."""

    def __init__(self, **kwargs) -> None:
        super().__init__('echo', EchoCore.skill, **kwargs)

    def configure(self) -> None:
        self.runner = SkillRunner(self, EchoCore(), [Device.TTS])
