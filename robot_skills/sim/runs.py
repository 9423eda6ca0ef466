"""A recorded run read as a person would look at it: bars per device, marks, key poses.

Pure code over the recorder's messages (no rclpy), timed by their own stamps
where they have one: a goal's bar runs from the moment the mock decided it
(speech: from its first progress report, so a queued utterance starts when it
is heard) to the end its action status reports; speech that did not finish
was cut, and ✂ marks the last progress it reported (the mock reports every
``feedback_period``, so at least that much was heard). Batches come from the
skills' ``batch_sent`` and ``batch_completed`` traces; a batch whose trace
carries ``release_to_send_ms`` was released by a barrier or a timer. Key poses
are taken from the joint states the mock published: each number as it was
held, and each arm or head gesture at its furthest point.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from action_msgs.msg import GoalStatus

from robot_skills.interface import (
    ASR_EVENTS,
    COORDINATOR_DECISIONS,
    COORDINATOR_REQUESTS,
    DISCUSSION_TURNS,
    JOINT_STATES,
    MOCK_COMMANDS,
    REMOTE_MESSAGE,
    REMOTE_REPLY,
    SKILL_EVENTS,
)
from robot_skills.sim.recorder import Message
from robot_skills.sim.timeline import outcome

ROWS = ('heard', 'batches', 'speech', 'arm gesture', 'arm', 'right hand', 'left hand', 'head',
        'skills')
DEVICE_ROWS = {'tts': 'speech', 'arm_gesture': 'arm gesture', 'arm': 'arm',
               'head_gesture': 'head'}
ENDED = {GoalStatus.STATUS_SUCCEEDED: 'done', GoalStatus.STATUS_CANCELED: 'cancelled',
         GoalStatus.STATUS_ABORTED: 'failed'}
MAX_POSES = 12


@dataclass
class Bar:
    """Something that lasted: a goal on a device, or a batch."""

    row: str
    start: float
    end: float | None
    label: str
    state: str = 'open'     # open (never ended) | done | cancelled | failed | cut | batch


@dataclass(frozen=True)
class Mark:
    """Something that happened at one instant."""

    row: str
    at: float
    label: str
    kind: str       # heard | call | failure | hold | barrier | decision


@dataclass(frozen=True)
class Pose:
    at: float
    label: str
    positions: dict[str, float]


@dataclass
class RobotRun:
    name: str
    bars: list[Bar] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    poses: list[Pose] = field(default_factory=list)
    joint_states: list[tuple[float, dict[str, float]]] = field(default_factory=list)

    @property
    def span(self) -> tuple[float, float]:
        """First and last instant anything happened (joint states alone do not count)."""
        times = [b.start for b in self.bars] + [b.end for b in self.bars if b.end is not None]
        times += [m.at for m in self.marks]
        return (min(times), max(times)) if times else (0.0, 0.0)


def _row(device: str, arguments: dict[str, Any]) -> str:
    if device == 'hand':
        return f'{arguments.get("side", "right")} hand'
    return DEVICE_ROWS.get(device, 'skills')


def _label(device: str, action: str, arguments: dict[str, Any]) -> str:
    if device == 'tts':
        return str(arguments.get('message', ''))
    if device == 'arm':
        return 'move_pos ' + ' '.join(f'{v:g}' for v in arguments.get('right_positions', []))
    side = arguments.get('side', '')
    return f'{action} {side}'.strip() if device == 'arm_gesture' else action


def read(messages: list[Message], robots: list[str], t0_ns: int) -> dict[str, RobotRun]:
    """Every robot's bars, marks and key poses, times in seconds since ``t0_ns``."""
    runs = {robot: RobotRun(robot) for robot in robots}
    goals: dict[str, Bar] = {}
    heard_chars: dict[str, int] = {}
    for message in messages:
        run = runs.get(message.robot)
        if run is None:
            continue
        at = (_source_ns(message) - t0_ns) / 1e9
        relative = message.topic.removeprefix(f'/{message.robot}/')
        _read_one(run, relative, message.msg, at, goals, heard_chars)
    for run in runs.values():
        run.poses = _poses(run)
    return runs


def _source_ns(message: Message) -> int:
    """When the message says it happened, else when it was received.

    Topics arrive on different threads, so the order of receipt can put a joint state
    of a motion before the command that started it; the stamps (the mock's and the
    skills' clock, the wall clock here) keep the order things happened in.
    """
    header = getattr(message.msg, 'header', None)
    stamp = header.stamp if header is not None else getattr(message.msg, 'stamp', None)
    if stamp is None or (stamp.sec == 0 and stamp.nanosec == 0):
        return message.stamp_ns
    return stamp.sec * 1_000_000_000 + stamp.nanosec


def _read_one(run: RobotRun, topic: str, msg: Any, at: float, goals: dict[str, Bar],
              heard_chars: dict[str, int]) -> None:
    if topic == JOINT_STATES.name:
        run.joint_states.append((at, dict(zip(msg.name, msg.position, strict=False))))
    elif topic == ASR_EVENTS.name:
        run.marks.append(Mark('heard', at, msg.text if msg.kws_triggered
                              else f'(no wake word) {msg.text}', 'heard'))
    elif topic == REMOTE_MESSAGE.name:
        run.marks.append(Mark('heard', at, f'{msg.sender_id}: {msg.text}', 'heard'))
    elif topic == COORDINATOR_REQUESTS.name:
        run.marks.append(Mark('heard', at, f'{msg.learner_id}: {msg.text}', 'heard'))
    elif topic == DISCUSSION_TURNS.name:
        run.marks.append(Mark('heard', at, f'{msg.speaker_id}: {msg.text}', 'heard'))
    elif topic == REMOTE_REPLY.name:
        run.marks.append(Mark('skills', at, f'reply: {msg.text}', 'decision'))
    elif topic == COORDINATOR_DECISIONS.name:
        run.marks.append(Mark('skills', at, f'{msg.action}: {msg.reply_text}', 'decision'))
    elif topic == MOCK_COMMANDS.name:
        _command(run, msg, at, goals)
    elif topic.endswith('/_action/status'):
        _status(msg, at, goals, heard_chars)
    elif topic.endswith('/_action/feedback'):
        goal = bytes(msg.goal_id.uuid).hex()
        bar = goals.get(goal)
        if bar is not None and goal not in heard_chars:
            bar.start = at              # a queued utterance is heard from its first progress
        heard_chars[goal] = msg.feedback.chars_spoken
    elif topic == SKILL_EVENTS.name:
        _event(run, msg, at)


def _command(run: RobotRun, msg: Any, at: float, goals: dict[str, Bar]) -> None:
    arguments = json.loads(msg.arguments_json or '{}')
    row = _row(msg.device, arguments)
    if msg.disposition in ('accepted', 'queued') and msg.goal_id:
        bar = Bar(row, at, None, _label(msg.device, msg.action, arguments))
        goals[msg.goal_id] = bar
        run.bars.append(bar)
    elif msg.disposition == 'rejected':
        run.marks.append(Mark(row, at, f'{msg.action} rejected', 'failure'))
    elif msg.disposition == 'called':
        run.marks.append(Mark(row, at, f'{msg.device}/{msg.action}', 'call'))


def _status(msg: Any, at: float, goals: dict[str, Bar], heard_chars: dict[str, int]) -> None:
    for status in msg.status_list:
        goal = bytes(status.goal_info.goal_id.uuid).hex()
        bar = goals.get(goal)
        if bar is None or bar.end is not None or status.status not in ENDED:
            continue
        bar.end = at
        bar.state = ENDED[status.status]
        if bar.row == 'speech' and bar.state != 'done':
            heard = heard_chars.get(goal, 0)
            bar.state = 'cut'
            bar.label = (f'{bar.label[:heard]} ✂ {bar.label[heard:]} '
                         f'(cut after {heard} of {len(bar.label)} characters)')


def _event(run: RobotRun, msg: Any, at: float) -> None:
    detail = json.loads(msg.detail_json or '{}')
    if msg.kind == 'batch_sent':
        run.bars.append(Bar('batches', at, None, detail.get('batch_id', ''), 'batch'))
        if 'release_to_send_ms' in detail:
            run.marks.append(Mark('batches', at, f'{detail.get("batch_id", "")} released '
                                                 'by a barrier or timer', 'barrier'))
    elif msg.kind == 'batch_completed':
        for bar in run.bars:
            if bar.state == 'batch' and bar.end is None and bar.label == detail.get('batch_id'):
                bar.end = at
                break
        for entry in detail.get('outcomes', []):
            shown = outcome(entry)
            if shown and shown[0] == 'FAILED':
                run.marks.append(Mark(_row(entry.get('device', ''), {}), at, shown[1],
                                      'failure'))
    elif msg.kind == 'number_held':
        run.marks.append(Mark('right hand', at, f'number {detail.get("number")} held',
                              'hold'))
    elif msg.kind in ('degraded', 'error'):
        run.marks.append(Mark('skills', at, f'{msg.skill} {msg.kind}', 'failure'))


def _poses(run: RobotRun) -> list[Pose]:
    poses: list[Pose] = []
    for mark in run.marks:
        if mark.kind == 'hold':
            until = min((b.start for b in run.bars
                         if b.row in ('right hand', 'arm') and b.start > mark.at),
                        default=mark.at + 1.0)
            sample = _last_before(run.joint_states, until)
            if sample is not None:
                poses.append(Pose(sample[0], mark.label.removesuffix(' held') + ' shown',
                                  sample[1]))
    for bar in run.bars:
        if bar.row in ('arm gesture', 'head') and bar.state == 'done':
            prefix = 'head_' if bar.row == 'head' else ''
            sample = _furthest(run.joint_states, bar.start, bar.end or bar.start, prefix)
            if sample is not None:
                poses.append(Pose(sample[0], f'{bar.label} (furthest point)', sample[1]))
    return sorted(poses, key=lambda p: p.at)[:MAX_POSES]


def _last_before(samples: list[tuple[float, dict[str, float]]], until: float
                 ) -> tuple[float, dict[str, float]] | None:
    return max((s for s in samples if s[0] < until), key=lambda s: s[0], default=None)


def _furthest(samples: list[tuple[float, dict[str, float]]], start: float, end: float,
              prefix: str) -> tuple[float, dict[str, float]] | None:
    """The sample during [start, end] whose joints (``prefix``, or the arms) moved most."""
    def reach(sample: tuple[float, dict[str, float]]) -> float:
        return sum(abs(v) for name, v in sample[1].items()
                   if (name.startswith(prefix) if prefix else '_hand_' not in name
                       and not name.startswith('head_')))

    during = [s for s in samples if start <= s[0] <= end]
    best = max(during, key=reach, default=None)
    return best if best is not None and reach(best) > 1e-3 else None
