"""The runtime's own cost: a skill whose core says every awake utterance back.

Measuring it next to the relay floor isolates what the shared runtime (input
channels, core stepping, robot facade, tracing) adds to a skill's reaction.
"""

from __future__ import annotations

from robot_skills.model.commands import Device, Speak
from robot_skills.model.skill import Event, Heard, SendBatch, Step
from robot_skills.runtime.entry import run
from robot_skills.runtime.guard import GuardedNode
from robot_skills.runtime.skill_runner import SkillRunner


class SayCore:
    skill = 'bench_say'

    def initial(self) -> int:
        return 0

    def label(self, state: int) -> str:
        return 'idle'

    def session_id(self, state: int) -> str:
        return str(state)

    def step(self, state: int, event: Event) -> Step[int]:
        if isinstance(event, Heard) and event.utterance.awake:
            return Step(state + 1, (SendBatch(f'say-{state + 1}', (Speak(event.utterance.text),)),))
        return Step(state)


class SaySkill(GuardedNode):
    def __init__(self, **kwargs) -> None:
        super().__init__('bench_say', SayCore.skill, **kwargs)

    def configure(self) -> None:
        self.runner = SkillRunner(self, SayCore(), [Device.TTS])


if __name__ == '__main__':
    raise SystemExit(run(SaySkill))
