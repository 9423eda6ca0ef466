"""Commands a skill core asks the robot to carry out.

One frozen dataclass per device call of the interface contract
(shared/design/interfaces.md). A core returns these inside a ``SendBatch``
effect; the runtime's robot facade turns each into an action goal or a service
call. Keeping them pure lets cores and their tests stay free of rclpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from robot_skills import interface


class Device(StrEnum):
    """A device of the robot, named as its action or service namespace."""

    TTS = 'tts'
    ARM_GESTURE = 'arm_gesture'
    HEAD_GESTURE = 'head_gesture'
    ARM = 'arm'
    HAND = 'hand'


@dataclass(frozen=True)
class Speak:
    """``tts/speak``: say ``message``; ``force`` interrupts what is being said."""

    message: str
    force: bool = False
    device = Device.TTS


@dataclass(frozen=True)
class ArmGesture:
    """``arm_gesture``: a semantic arm motion (welcome | reset)."""

    action: str
    side: str = 'both'
    cycles: int = 1
    speed: float = 1.0
    device = Device.ARM_GESTURE


@dataclass(frozen=True)
class HeadGesture:
    """``head_gesture``: nod | shake | tilt | scan | reset, with device defaults."""

    action: str
    device = Device.HEAD_GESTURE


@dataclass(frozen=True)
class ArmMovePos:
    """``arm/move_pos``: raw joint positions, seven per arm."""

    left_positions: tuple[float, ...]
    right_positions: tuple[float, ...]
    speed: float = 1.0
    device = Device.ARM


@dataclass(frozen=True)
class Fingers:
    """Finger closure for ``set_fingers_raw``: 0 = open, 100 = closed."""

    little: int = 0
    ring: int = 0
    middle: int = 0
    index: int = 0
    thumb_bend: int = 0
    thumb_rotation: int = 0


@dataclass(frozen=True)
class Hand:
    """``hand``: a preset (point | victory | open_palm) or ``set_fingers_raw``."""

    action: str
    side: str = 'right'
    fingers: Fingers = Fingers()
    device = Device.HAND


class Control(StrEnum):
    """The std_srvs/Trigger services of the contract, named by their path."""

    TTS_PAUSE = interface.TTS_PAUSE.name
    TTS_RESUME = interface.TTS_RESUME.name
    TTS_INTERRUPT = interface.TTS_INTERRUPT.name
    ARM_GESTURE_CANCEL = interface.ARM_GESTURE_CANCEL.name
    HEAD_GESTURE_CANCEL = interface.HEAD_GESTURE_CANCEL.name

    @property
    def device(self) -> Device:
        return Device(self.value.split('/')[0])


@dataclass(frozen=True)
class Call:
    """A Trigger service call such as ``tts/pause``."""

    control: Control

    @property
    def device(self) -> Device:
        return self.control.device


GoalCommand = Speak | ArmGesture | HeadGesture | ArmMovePos | Hand
Command = GoalCommand | Call


def describe(command: Command) -> dict[str, object]:
    """A JSON-ready view of a command for traces and timelines."""
    if isinstance(command, Call):
        return {'device': command.device.value, 'call': command.control.value}
    fields = {name: getattr(command, name) for name in command.__dataclass_fields__}
    if isinstance(command, Hand):
        fingers = fields.pop('fingers')
        if command.action == 'set_fingers_raw':
            fields['fingers'] = vars(fingers)
    return {'device': command.device.value, **fields}
