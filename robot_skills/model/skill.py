"""The contract between a skill's pure core and the ROS shell that runs it.

A core is a deterministic state machine ``step(state, event) -> (state, effects)``.
Events are what happened (an utterance, a batch returned or completed, a timer);
effects are what the shell must do (send a batch of device commands, reply to a
remote visitor, trace a decision, start or cancel a timer). The shell feeds the
results of effects back as events, one at a time, so the core alone decides
ordering: "the next batch starts only when the document says so".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from robot_skills.model.commands import Command, Device
from robot_skills.model.outcomes import Acceptance, Outcome
from robot_skills.model.utterance import Dropped, Utterance

# ---- events: core inputs -------------------------------------------------------

@dataclass(frozen=True)
class Heard:
    utterance: Utterance


@dataclass(frozen=True)
class Refused:
    """Input the shell could not turn into an utterance; a core may answer it."""

    dropped: Dropped


@dataclass(frozen=True)
class BatchReturned:
    """Every goal of the batch was accepted or refused (the documents' "call returned")."""

    batch_id: str
    acceptances: tuple[Acceptance, ...]

    @property
    def all_accepted(self) -> bool:
        return all(a.accepted for a in self.acceptances)


@dataclass(frozen=True)
class BatchCompleted:
    """Every command of the batch has a judged outcome (the documents' completion)."""

    batch_id: str
    outcomes: tuple[Outcome, ...]

    @property
    def all_ok(self) -> bool:
        return all(o.ok for o in self.outcomes)


@dataclass(frozen=True)
class CommandCompleted:
    """One command of a batch sent with ``each`` has its outcome (before the batch's
    ``BatchCompleted``): a flow can go on when one goal is done without waiting for all."""

    batch_id: str
    index: int
    outcome: Outcome


@dataclass(frozen=True)
class TimerFired:
    name: str


@dataclass(frozen=True)
class Capabilities:
    """The robot's devices were looked for at startup; ``missing`` lists those not found."""

    missing: tuple[str, ...]


@dataclass(frozen=True)
class SkillEvent:
    """Base of a skill's own events: what the handlers of its own effects report back."""


Event = (Heard | Refused | BatchReturned | BatchCompleted | CommandCompleted | TimerFired
         | Capabilities | SkillEvent)


# ---- effects: core outputs -----------------------------------------------------

class Barrier(StrEnum):
    """Which event the core wants back for a batch."""

    RETURNED = 'returned'    # BatchReturned only
    COMPLETED = 'completed'  # BatchCompleted only
    BOTH = 'both'            # BatchReturned, then BatchCompleted


@dataclass(frozen=True)
class SendBatch:
    """Send ``commands`` concurrently, as one batch.

    ``each``: also report every command's outcome as it comes (``CommandCompleted``).
    ``result_timeouts``: seconds a command of that device may take to finish once
    accepted, instead of the runtime's ``result_timeout`` (a gesture that should take a
    second must not hold a lesson for two minutes); a late result is a ``TIMEOUT``.
    """

    batch_id: str
    commands: tuple[Command, ...]
    barrier: Barrier = Barrier.COMPLETED
    each: bool = False
    result_timeouts: tuple[tuple[Device, float], ...] = ()


@dataclass(frozen=True)
class Reply:
    """A ``remote_reply`` TextReply to a remote visitor."""

    in_reply_to: str
    recipient_id: str
    text: str


@dataclass(frozen=True)
class Trace:
    """A ``skill_events`` record of a decision (input, state change, degradation ...)."""

    kind: str
    state: str = ''
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StartTimer:
    """``busy``: the robot is still reacting until it fires (a hold inside a flow), not
    waiting for a person, so the runtime does not report ``idle`` meanwhile."""

    name: str
    seconds: float
    busy: bool = False


@dataclass(frozen=True)
class CancelTimer:
    name: str


@dataclass(frozen=True)
class SkillEffect:
    """Base of a skill's own effects (e.g. fetching a lesson): its node registers a handler
    for each with the runner, and the handler reports back with a ``SkillEvent``."""


Effect = SendBatch | Reply | Trace | StartTimer | CancelTimer | SkillEffect

StateT = TypeVar('StateT')


@dataclass(frozen=True)
class Step(Generic[StateT]):
    """The result of one core step."""

    state: StateT
    effects: tuple[Effect, ...] = ()


class SkillCore(Protocol[StateT]):
    """What the shell needs from a skill's core."""

    skill: str

    def initial(self) -> StateT: ...

    def step(self, state: StateT, event: Event) -> Step[StateT]: ...

    def label(self, state: StateT) -> str:
        """A short name of the state for traces (``idle``, ``speaking``, ...)."""
        ...

    def session_id(self, state: StateT) -> str:
        """The conversation or lesson the state belongs to, for traces."""
        ...
