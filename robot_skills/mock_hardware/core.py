"""The simulated robot's behaviour, without ROS: timing, validation, joint motion.

The node in ``node.py`` owns the action servers and timers; everything it
decides (how long a speech or gesture takes, whether a goal is valid, where
each joint is at a given instant) is computed here from plain values and a
``now`` in seconds, so it is tested exhaustively without DDS.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

from robot_skills.mock_hardware.config import FINGERS, Body, Gesture

SIDES = ('left', 'right')
ARM_SIDES = ('left', 'right', 'both')
HAND_PRESETS_RAW = 'set_fingers_raw'


class FaultMode(StrEnum):
    """Injected faults, per device, settable at run time (``ros2 param set``)."""

    NONE = 'none'
    REJECT = 'reject'                  # refuse every goal
    ERROR = 'error'                    # accept, then end with state=error
    EMPTY_RECEIPT = 'empty_receipt'    # accept, then end with state='' and gesture=''
    DELAY_ACCEPT = 'delay_accept'      # answer the goal request only after a delay
    NEVER_FINISH = 'never_finish'      # accept and never end (until cancelled or e-stop)


# ---- speech -----------------------------------------------------------------------

def speech_seconds(message: str, chars_per_second: float, time_scale: float) -> float:
    return len(message) / chars_per_second * time_scale


@dataclass
class Speech:
    """Progress of one utterance; pausing freezes it, resuming continues it."""

    chars: int
    seconds: float
    started: float | None = None      # start of the current run; None while paused
    spoken_before: float = 0.0        # seconds spoken in earlier runs

    def start(self, now: float) -> None:
        self.started = now

    @property
    def paused(self) -> bool:
        return self.started is None

    def elapsed(self, now: float) -> float:
        running = 0.0 if self.started is None else now - self.started
        return min(self.seconds, self.spoken_before + running)

    def remaining(self, now: float) -> float:
        return self.seconds - self.elapsed(now)

    def chars_spoken(self, now: float) -> int:
        if self.seconds <= 0:
            return self.chars
        return min(self.chars, math.floor(self.chars * self.elapsed(now) / self.seconds))

    def pause(self, now: float) -> None:
        self.spoken_before = self.elapsed(now)
        self.started = None

    def resume(self, now: float) -> None:
        self.started = now


MIN_SPEED = 0.05        # slower is no gesture (a speed of 1e-30 would last 1e30 s)


def check_speech(message: str) -> str:
    return '' if message.strip() else 'empty message: nothing to say'


# ---- goal validation ----------------------------------------------------------------

def check_arm_gesture(body: Body, action: str, side: str, cycles: int, speed: float) -> str:
    if action not in body.arm_gestures:
        return (f'unknown arm gesture {action[:40]!r} '
                f'(known: {", ".join(sorted(body.arm_gestures))})')
    if side not in ARM_SIDES:
        return f'side must be left, right or both, not {side[:40]!r}'
    if not 0 <= cycles <= 10:
        return f'cycles must be 0-10 (0 means once), not {cycles}'
    return _check_speed(speed)


def check_head_gesture(body: Body, action: str) -> str:
    if action not in body.head_gestures:
        return (f'unknown head gesture {action[:40]!r} '
                f'(known: {", ".join(sorted(body.head_gestures))})')
    return ''


def check_hand(body: Body, action: str, side: str, fingers: dict[str, int]) -> str:
    if side not in SIDES:
        return f'side must be left or right, not {side[:40]!r}'
    if action == HAND_PRESETS_RAW:
        bad = {name: v for name, v in fingers.items() if not 0 <= v <= 100}
        return f'finger values must be 0-100: {bad}' if bad else ''
    if action not in body.hand.presets:
        known = ', '.join(sorted([*body.hand.presets, HAND_PRESETS_RAW]))
        return f'unknown hand action {action[:40]!r} (known: {known})'
    return ''


def check_move_pos(body: Body, left: list[float], right: list[float], speed: float) -> str:
    for side, positions in (('left', left), ('right', right)):
        if len(positions) != len(body.arm.joints):
            return (f'{side}_positions needs {len(body.arm.joints)} values, '
                    f'got {len(positions)}')
        for joint, value in zip(body.arm.joints, positions, strict=False):
            if not math.isfinite(value):
                return f'{side}_positions: {joint} is not finite ({value})'
            limit = body.arm.limits[joint]
            if not limit.min <= value <= limit.max:
                return (f'{side}_positions: {joint}={value:g} is outside its limits '
                        f'[{limit.min:g}, {limit.max:g}]')
    return _check_speed(speed)


def _check_speed(speed: float) -> str:
    if not (math.isfinite(speed) and MIN_SPEED <= speed <= 2.0):
        return f'speed must be in [{MIN_SPEED}, 2], not {speed:g}'
    return ''


def fingers_of(body: Body, action: str, raw: dict[str, int]) -> dict[str, int]:
    """Finger closure (0-100) a hand goal ends in."""
    return dict(raw) if action == HAND_PRESETS_RAW else dict(body.hand.presets[action])


# ---- timing -------------------------------------------------------------------------

def gesture_seconds(gesture: Gesture, cycles: int, speed: float, time_scale: float) -> float:
    return gesture.seconds * max(1, cycles) / speed * time_scale


def move_seconds(body: Body, speed: float, time_scale: float) -> float:
    return body.arm.move_seconds / speed * time_scale


# ---- joints ------------------------------------------------------------------------

def joint_names(body: Body) -> list[str]:
    """The ``joint_states`` names: 7 per arm, the head, 6 per hand."""
    return ([f'{side}_{j}' for side in SIDES for j in body.arm.joints]
            + [f'head_{j}' for j in body.head_joints]
            + [f'{side}_hand_{f}' for side in SIDES for f in FINGERS])


@dataclass
class _Segment:
    start: float
    end: float
    origin: dict[str, float]
    target: dict[str, float]


@dataclass
class JointModel:
    """Joint positions (radians) following the commanded motions over time."""

    names: list[str]
    positions: dict[str, float] = field(default_factory=dict)
    _segments: list[_Segment] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.positions = {name: self.positions.get(name, 0.0) for name in self.names}

    def play(self, frames: list[tuple[float, dict[str, float]]], start: float,
             seconds: float) -> None:
        """Move the named joints through ``frames`` ((fraction, targets)) from ``start``.

        Joints named by the new motion stop following any older motion.
        """
        joints = set().union(*(targets for _, targets in frames)) if frames else set()
        self.settle(start)
        self._segments = [self._without(s, joints) for s in self._segments]
        self._segments = [s for s in self._segments if s.target]
        origin = {j: self.positions[j] for j in joints}
        previous = 0.0
        for fraction, targets in frames:
            segment = _Segment(start + previous * seconds, start + fraction * seconds,
                               dict(origin), dict(targets))
            self._segments.append(segment)
            origin = {**origin, **targets}
            previous = fraction

    def halt(self, joints: set[str], now: float) -> None:
        """Stop the named joints where they are (cancel, preemption, e-stop)."""
        self.settle(now)
        self._segments = [s for s in (self._without(s, joints) for s in self._segments)
                          if s.target]

    def settle(self, now: float) -> None:
        """Apply every segment up to ``now``; drop the finished ones."""
        for segment in self._segments:
            if now >= segment.start:
                self.positions.update(_interpolate(segment, now))
        self._segments = [s for s in self._segments if s.end > now]

    def sample(self, now: float) -> list[float]:
        self.settle(now)
        return [self.positions[name] for name in self.names]

    @property
    def moving(self) -> bool:
        return bool(self._segments)

    @staticmethod
    def _without(segment: _Segment, joints: set[str]) -> _Segment:
        keep = {j: v for j, v in segment.target.items() if j not in joints}
        return _Segment(segment.start, segment.end,
                        {j: v for j, v in segment.origin.items() if j in keep}, keep)


def _interpolate(segment: _Segment, now: float) -> dict[str, float]:
    span = segment.end - segment.start
    t = 1.0 if span <= 0 else min(1.0, max(0.0, (now - segment.start) / span))
    return {j: segment.origin.get(j, 0.0) + (target - segment.origin.get(j, 0.0)) * t
            for j, target in segment.target.items()}


def gesture_frames(gesture: Gesture, cycles: int, joints: list[str],
                   prefixes: list[str]) -> list[tuple[float, dict[str, float]]]:
    """Keyframes of ``cycles`` repetitions, in radians, for the joints of each prefix."""
    count = max(1, cycles)
    return [((cycle + frame.at) / count,
             {f'{prefix}{j}': math.radians(frame.pose.get(j, 0.0))
              for prefix in prefixes for j in joints})
            for cycle in range(count) for frame in gesture.keyframes]


def move_frames(body: Body, left: list[float], right: list[float]
                ) -> list[tuple[float, dict[str, float]]]:
    targets = {f'{side}_{j}': math.radians(v)
               for side, values in (('left', left), ('right', right))
               for j, v in zip(body.arm.joints, values, strict=False)}
    return [(1.0, targets)]


def hand_frames(body: Body, side: str, fingers: dict[str, int]
                ) -> list[tuple[float, dict[str, float]]]:
    return [(1.0, {f'{side}_hand_{f}': body.hand.closed_radians * fingers[f] / 100.0
                   for f in FINGERS})]
