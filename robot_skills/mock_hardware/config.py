"""The simulated robot's body, as data (``config/mock_hardware.yaml``).

Joint names and limits, how long each gesture takes and what pose it passes
through, and the finger values of the hand presets. The positions in this file
and in ``arm/move_pos`` goals are degrees, as in the skill documents;
``joint_states`` publishes radians, as ROS tools expect.
"""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from robot_skills.model.strict import Strict

FINGERS = ('little', 'ring', 'middle', 'index', 'thumb_bend', 'thumb_rotation')


class Keyframe(Strict):
    """The pose reached at fraction ``at`` of the gesture (joints not named are at 0)."""

    at: float = Field(gt=0.0, le=1.0)
    pose: dict[str, float] = {}


class Gesture(Strict):
    seconds: float = Field(gt=0.0, description='duration of one cycle at speed 1.0')
    keyframes: list[Keyframe] = Field(min_length=1)

    @field_validator('keyframes')
    @classmethod
    def _ordered(cls, frames: list[Keyframe]) -> list[Keyframe]:
        times = [f.at for f in frames]
        if times != sorted(set(times)) or times[-1] != 1.0:
            raise ValueError('keyframes must have strictly increasing "at" ending at 1.0')
        return frames


class Limit(Strict):
    min: float
    max: float

    @model_validator(mode='after')
    def _ordered(self) -> Limit:
        if self.min > self.max:
            raise ValueError(f'min {self.min} is above max {self.max}')
        return self


class Arm(Strict):
    joints: list[str] = Field(min_length=7, max_length=7)
    limits: dict[str, Limit]
    move_seconds: float = Field(gt=0.0, description='duration of a move_pos at speed 1.0')

    @model_validator(mode='after')
    def _limits_cover_joints(self) -> Arm:
        missing = [j for j in self.joints if j not in self.limits]
        if missing:
            raise ValueError(f'no limits for joints {missing}')
        return self


class Hand(Strict):
    seconds: float = Field(gt=0.0)
    closed_radians: float = Field(gt=0.0, description='joint angle of a finger at 100')
    presets: dict[str, dict[str, int]]

    @field_validator('presets')
    @classmethod
    def _complete(cls, presets: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        for name, fingers in presets.items():
            if set(fingers) != set(FINGERS):
                raise ValueError(f'preset {name!r} must set exactly {", ".join(FINGERS)}')
            if any(not 0 <= v <= 100 for v in fingers.values()):
                raise ValueError(f'preset {name!r} has finger values outside 0-100')
        return presets


class Body(Strict):
    """The whole of ``config/mock_hardware.yaml``."""

    arm: Arm
    head_joints: list[str] = Field(min_length=1)
    hand: Hand
    arm_gestures: dict[str, Gesture]
    head_gestures: dict[str, Gesture]

    @model_validator(mode='after')
    def _poses_name_known_joints(self) -> Body:
        for group, gestures, joints in (('arm_gestures', self.arm_gestures, self.arm.joints),
                                        ('head_gestures', self.head_gestures, self.head_joints)):
            for name, gesture in gestures.items():
                for frame in gesture.keyframes:
                    unknown = set(frame.pose) - set(joints)
                    if unknown:
                        raise ValueError(f'{group}.{name}: unknown joints {sorted(unknown)}')
        return self
