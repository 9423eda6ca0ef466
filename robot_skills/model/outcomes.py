"""What became of a command: its acceptance and its judged receipt.

The contract's receipt semantics live here, once, so every skill judges device
answers the same way: a gesture counts only when ``state`` is ``completed`` or
``running`` and ``gesture`` echoes the requested action; an empty ``state``, a
missing or different ``gesture``, ``error``, a rejected goal, a timeout or an
absent server are failures, reported as values rather than exceptions.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from robot_skills.model.commands import ArmMovePos, Call, Command, Speak

SUCCESS_STATES = frozenset({'completed', 'running'})


class Status(StrEnum):
    """How a command ended, from the skill's point of view."""

    SUCCEEDED = 'succeeded'
    FAILED = 'failed'            # the device answered, but not with success
    REJECTED = 'rejected'        # the goal was refused
    TIMEOUT = 'timeout'          # no acceptance or no result in time
    UNAVAILABLE = 'unavailable'  # no server for this device: a missing capability


@dataclass(frozen=True)
class Receipt:
    """The fields of an action result (or a Trigger response) as received."""

    state: str = ''
    gesture: str = ''
    action_id: str = ''
    error: str = ''


@dataclass(frozen=True)
class Acceptance:
    """The "call returned" of the skill documents: accepted or not, and why."""

    command: Command
    accepted: bool
    status: Status
    reason: str = ''


@dataclass(frozen=True)
class Outcome:
    """The completion of a command, judged against the contract."""

    command: Command
    status: Status
    receipt: Receipt = Receipt()
    reason: str = ''
    chars_spoken: int = 0       # speech: the last progress the device reported

    @property
    def ok(self) -> bool:
        return self.status is Status.SUCCEEDED


def accepted(command: Command) -> Acceptance:
    return Acceptance(command, True, Status.SUCCEEDED)


def not_accepted(command: Command, status: Status, reason: str) -> Acceptance:
    return Acceptance(command, False, status, reason)


def failure(acceptance: Acceptance) -> Outcome:
    """The outcome of a command that never got accepted."""
    return Outcome(acceptance.command, acceptance.status, Receipt(), acceptance.reason)


def judge(command: Command, receipt: Receipt) -> Outcome:
    """Judge a device's receipt for ``command`` by the contract's semantics."""
    reason = _fault(command, receipt)
    status = Status.FAILED if reason else Status.SUCCEEDED
    return Outcome(command, status, receipt, reason)


def _fault(command: Command, receipt: Receipt) -> str:
    if not receipt.state:
        return 'empty receipt (no state)'
    if isinstance(command, Speak):
        if receipt.state != 'completed':
            return _ended(receipt)
        return ''
    if isinstance(command, Call):
        return '' if receipt.state == 'completed' else _ended(receipt)
    if receipt.state not in SUCCESS_STATES:
        return _ended(receipt)
    if isinstance(command, ArmMovePos):
        return ''
    if receipt.gesture != command.action:
        shown = repr(receipt.gesture) if receipt.gesture else 'no gesture'
        return f'receipt names {shown}, expected {command.action!r}'
    return ''


def _ended(receipt: Receipt) -> str:
    detail = f': {receipt.error}' if receipt.error else ''
    return f'ended {receipt.state}{detail}'
