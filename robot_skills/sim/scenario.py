"""Scenarios the simulation plays, and the checks of what the robots did.

A scenario (``config/scenarios/*.yaml``) is a list of timed inputs to named
robots: an ASR utterance (with or without the wake word), a remote text
message, a raw ``asr/json`` payload, a learning request to the learning
coordinator, a PBL discussion for the TA (``discussion_open`` opens a
session with a material pack and asks for the plan, and each ``discussion``
turn is followed by a refresh, and by a discuss step whenever the card says
the TA should speak: the director plays the orchestrator), or a
``records`` tool call to learning_records with its ``args``. A records step
calls as the agent (``records/call``) unless the tool is the learner's own act
(``register_learner``, ``live_learner_respond`` ...: ``who`` in the records
tools), which her pages send on ``records/learner/call`` as the ``learner``
the step names; ``as: agent`` or ``as: learner`` overrides that, e.g. to show
the agent refused a learner's act. Each step waits, by default, until the
robot's skills have finished reacting (their ``idle`` trace) and then ``after``
more seconds; ``wait: none`` sends the next step without waiting, to interrupt
a robot mid-flow. Optional ``expect`` blocks state exactly what the robot must
say, gesture and reply in that step; the simulation exits non-zero when one
fails, so a scenario doubles as an end-to-end acceptance test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import Field, field_validator, model_validator

from robot_skills.model.strict import Strict
from robot_skills.records.api import TOOLS
from robot_skills.records.roles import Role


class Expect(Strict):
    """What must happen in a step; omitted fields are not checked."""

    said: list[str] | None = Field(None, description='exact tts/speak messages, in order')
    gestures: list[str] | None = Field(
        None, description='gestures as "device action side", e.g. "arm_gesture welcome left"; '
                          'compared in any order (goals of one batch have none)')
    replies: list[str] | None = Field(None, description='exact remote_reply texts, in order')
    decided: list[str] | None = Field(
        None, description='coordinator decisions as "action target_skill", in order')
    ta: Literal['silent', 'spoke'] | None = Field(
        None, description='whether the discussion TA spoke after this turn')
    recorded: str | None = Field(None, description="a records call's outcome: ok, or its code")


class Step(Strict):
    robot: str
    asr: str | None = None
    wake: bool = Field(True, description='kws_triggered of an asr step')
    remote: str | None = None
    sender: str = 'visitor'
    json_payload: str | None = Field(None, alias='json')
    learning: str | None = Field(None, description='a LearningRequest to the coordinator')
    learner: str = 'learner-1'
    image_tags: list[str] = []
    discussion_open: str | None = Field(None, description='open a discussion with this '
                                                          'material pack (config/discussions)')
    discussion: str | None = Field(None, description='a turn of the discussion')
    speaker: str = 'student-1'
    role: Literal['student', 'peer', 'teacher', 'moderator'] = 'student'
    body: bool = Field(True, description='a body turn (counted by the TA\'s limits)')
    records: str | None = Field(None, description='a learning_records tool to call')
    args: dict = Field(default_factory=dict, description='the records tool\'s arguments')
    caller: Literal['agent', 'learner'] | None = Field(
        None, alias='as', description="who calls the records tool: the agent (records/call) or "
                                      "the learner (records/learner/call, as `learner`); "
                                      "default: the learner for her own acts, else the agent")
    after: float = Field(0.0, ge=0.0, description='seconds to wait before sending')
    wait: Literal['idle', 'none'] = 'idle'
    note: str = ''
    expect: Expect | None = None

    @field_validator('records')
    @classmethod
    def _known_tool(cls, records: str | None) -> str | None:
        if records is not None and records not in TOOLS:
            raise ValueError(f'no learning_records tool {records[:80]!r}')
        return records

    @model_validator(mode='after')
    def _one_input(self) -> Step:
        given = [x for x in (self.asr, self.remote, self.json_payload, self.learning,
                             self.discussion_open, self.discussion, self.records) if x is not None]
        if len(given) != 1:
            raise ValueError('a step needs exactly one of asr, remote, json, learning, '
                             'discussion_open, discussion, records')
        if self.records is None:
            if self.caller is not None:
                raise ValueError("'as' names who calls a records tool: only on a records step")
            return self
        if self.side == 'learner' and 'learner' not in self.model_fields_set:
            raise ValueError(f'records: {self.records} is sent from the learner\'s pages: name '
                             'her with learner: (the learner_id her pages send)')
        return self

    @property
    def side(self) -> Literal['agent', 'learner']:
        """Who calls the records tool: ``as``, else the learner for her own acts."""
        if self.caller is not None:
            return self.caller
        who = TOOLS[self.records or ''].who if self.records in TOOLS else frozenset()
        return 'learner' if Role.LEARNER in who and Role.AGENT not in who else 'agent'


class Scenario(Strict):
    name: str
    description: str = ''
    time_scale: float = Field(1.0, gt=0.0, le=100.0,
                              description='speeds up the mock hardware (0.2 = five times)')
    step_timeout: float = Field(30.0, gt=0.0, description='seconds a step may take to settle')
    steps: list[Step] = Field(min_length=1)


class Robots(Strict):
    """``config/sim.yaml``: the simulated robots and the skills each one runs."""

    robots: dict[str, list[str]]


@dataclass
class Observed:
    """What one robot did during one step."""

    said: list[str] = field(default_factory=list)
    gestures: list[str] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)
    decided: list[str] = field(default_factory=list)
    ta: str = 'silent'
    recorded: str = ''
    failures: list[str] = field(default_factory=list)


def check(index: int, step: Step, observed: Observed) -> list[str]:
    """The unmet expectations of one step, each as a readable line."""
    if step.expect is None:
        return []
    problems = []
    for name in ('said', 'gestures', 'replies', 'decided', 'ta', 'recorded'):
        wanted = getattr(step.expect, name)
        got = getattr(observed, name)
        if name == 'gestures' and wanted is not None:
            wanted, got = sorted(wanted), sorted(got)
        if wanted is not None and wanted != got:
            problems.append(f'step {index + 1} ({step.robot}): expected {name} {wanted}, '
                            f'got {got}')
    return problems
