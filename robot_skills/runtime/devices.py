"""The robot's devices as the interface contract names them, in one table.

Both sides use it: the robot facade creates its clients from it and the mock
hardware its servers, so a message field can only be spelt one way (the action
names come from ``robot_skills.interface``). Conversions between the pure
commands of ``robot_skills.model`` and the generated ROS messages live here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from robot_skills import interface
from robot_skills.model.commands import (
    ArmGesture,
    ArmMovePos,
    Device,
    GoalCommand,
    Hand,
    HeadGesture,
    Speak,
)
from robot_skills.model.outcomes import Receipt
from robot_skills_interfaces.action import ArmGesture as ArmGestureAction
from robot_skills_interfaces.action import ArmMovePos as ArmMovePosAction
from robot_skills_interfaces.action import HandGesture as HandGestureAction
from robot_skills_interfaces.action import HeadGesture as HeadGestureAction
from robot_skills_interfaces.action import Speak as SpeakAction


@dataclass(frozen=True)
class ActionSpec:
    """One device action: its ROS type and its (relative) name."""

    device: Device
    action_type: Any
    name: str


ACTIONS: dict[Device, ActionSpec] = {spec.device: spec for spec in (
    ActionSpec(Device.TTS, SpeakAction, interface.TTS_SPEAK.name),
    ActionSpec(Device.ARM_GESTURE, ArmGestureAction, interface.ARM_GESTURE.name),
    ActionSpec(Device.HEAD_GESTURE, HeadGestureAction, interface.HEAD_GESTURE.name),
    ActionSpec(Device.ARM, ArmMovePosAction, interface.ARM_MOVE_POS.name),
    ActionSpec(Device.HAND, HandGestureAction, interface.HAND.name),
)}


def to_goal(command: GoalCommand) -> Any:
    """The ROS goal message for a pure command."""
    goal_type = ACTIONS[command.device].action_type.Goal
    if isinstance(command, Speak):
        return goal_type(message=command.message, force=command.force)
    if isinstance(command, ArmGesture):
        return goal_type(action=command.action, side=command.side, cycles=command.cycles,
                         speed=float(command.speed))
    if isinstance(command, HeadGesture):
        return goal_type(action=command.action)
    if isinstance(command, ArmMovePos):
        return goal_type(left_positions=[float(v) for v in command.left_positions],
                         right_positions=[float(v) for v in command.right_positions],
                         speed=float(command.speed))
    if isinstance(command, Hand):
        f = command.fingers
        return goal_type(action=command.action, side=command.side, little=f.little,
                         ring=f.ring, middle=f.middle, index=f.index,
                         thumb_bend=f.thumb_bend, thumb_rotation=f.thumb_rotation)
    raise TypeError(f'not a device goal: {command!r}')


def to_receipt(result: Any) -> Receipt:
    """The receipt fields of any device action result (ArmMovePos has no gesture)."""
    return Receipt(state=result.state, gesture=getattr(result, 'gesture', ''),
                   action_id=result.action_id, error=result.error)
