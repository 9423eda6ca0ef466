"""The simulation's director: sends inputs to the robots and prints what they do.

It is an ordinary ROS node outside the robots: it publishes on each robot's
``asr/events``, ``remote_message``, ``asr/json``, ``coordinator/requests``
and ``discussion/turns``, calls the discussion TA's ``discussion/open`` and
``discussion/ta_step`` as an orchestrator would, learning_records'
``records/call`` as the agent and ``records/learner/call`` as the learner's
pages would (a step's ``side``), and listens to its
``mock_hardware/commands``, ``skill_events`` and ``remote_reply``, exactly as
an acceptance suite would. It plays a ``Scenario`` step by step (each step
waits for the robot's skills to trace ``idle`` after handling it) or, in
console mode, sends lines typed by a person. ``done`` resolves with the exit
status once the scenario is over.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from rclpy.node import Node
from rclpy.task import Future
from rclpy.timer import Timer
from std_msgs.msg import String

from robot_skills.interface import (
    ASR_EVENTS,
    ASR_JSON,
    COORDINATOR_DECISIONS,
    COORDINATOR_REQUESTS,
    DEEP_QOS,
    DIRECTOR_LATCHED_QOS,
    DIRECTOR_QOS,
    DISCUSSION_OPEN,
    DISCUSSION_TA_STEP,
    DISCUSSION_TURNS,
    MOCK_COMMANDS,
    RECORDS_CALL,
    RECORDS_LEARNER_CALL,
    REMOTE_MESSAGE,
    REMOTE_REPLY,
    SKILL_EVENTS,
)
from robot_skills.runtime.qos import profile
from robot_skills.sim import timeline
from robot_skills.sim.scenario import Observed, Scenario, Step, check
from robot_skills_interfaces.msg import (
    AsrEvent,
    DiscussionTurn,
    HardwareCommand,
    LearningRequest,
    RemoteMessage,
    RoutingDecision,
    SkillEvent,
    TextReply,
)
from robot_skills_interfaces.srv import OpenDiscussion, RecordsCall, RecordsLearnerCall, TaStep

RELIABLE = profile(DIRECTOR_QOS)
HISTORY = profile(DIRECTOR_LATCHED_QOS)
READY_KINDS = ('capabilities', 'degraded')
READY_TIMEOUT = 15.0


@dataclass
class _Robot:
    """The director's view of one simulated robot."""

    name: str
    skills: frozenset[str]
    voice: frozenset[str]             # the skills that react to voice and remote text
    asr: Any
    remote: Any
    json: Any
    learning: Any
    turns: Any
    open_discussion: Any
    ta_step: Any
    records: Any
    learner_records: Any
    ready: set[str] = field(default_factory=set)
    ta_speaks: bool = False               # pbl_ta says its turns through this robot
    ta_said: int = 0                      # TA utterances sent / spoken ('spoken' traces)
    ta_spoken: int = 0
    waiting_for: str = ''                 # utterance id of the step being settled
    engaged: set[str] = field(default_factory=set)
    settled: set[str] = field(default_factory=set)
    step: int | None = None               # index of the last step sent to this robot


class Director(Node):
    """Plays a scenario against the robots (see the module docstring)."""

    def __init__(self, robots: dict[str, list[str]], scenario: Scenario | None,
                 out: Callable[[str], None] = print, voice_skills: frozenset[str] = frozenset(),
                 **kwargs: Any) -> None:
        super().__init__('sim_director', **kwargs)
        self._out = out
        self._scenario = scenario
        self._group = MutuallyExclusiveCallbackGroup()
        self._lock = threading.RLock()
        self._t0 = time.monotonic()
        self._voice_skills = voice_skills
        self._robots = {name: self._attach(name, skills) for name, skills in robots.items()}
        self._observed: list[Observed] = [Observed() for _ in (scenario.steps if scenario else [])]
        self._problems: list[str] = []
        self._next = 0
        self._timer: Timer | None = None
        self._deadline: Timer | None = None
        self._typed = 0
        self.done: Future = Future()
        self._ready_timer = self.create_timer(0.05, self._check_ready, self._group)

    def _attach(self, name: str, skills: list[str]) -> _Robot:
        ns = f'/{name}'
        robot = _Robot(name, frozenset(skills), frozenset(skills) & self._voice_skills,
                       self.create_publisher(AsrEvent, f'{ns}/{ASR_EVENTS.name}', RELIABLE),
                       self.create_publisher(RemoteMessage, f'{ns}/{REMOTE_MESSAGE.name}',
                                             RELIABLE),
                       self.create_publisher(String, f'{ns}/{ASR_JSON.name}', RELIABLE),
                       self.create_publisher(LearningRequest,
                                             f'{ns}/{COORDINATOR_REQUESTS.name}', RELIABLE),
                       self.create_publisher(DiscussionTurn, f'{ns}/{DISCUSSION_TURNS.name}',
                                             RELIABLE),
                       self.create_client(OpenDiscussion, f'{ns}/{DISCUSSION_OPEN.name}',
                                          callback_group=self._group),
                       self.create_client(TaStep, f'{ns}/{DISCUSSION_TA_STEP.name}',
                                          callback_group=self._group),
                       self.create_client(RecordsCall, f'{ns}/{RECORDS_CALL.name}',
                                          qos_profile=profile(DEEP_QOS),
                                          callback_group=self._group),
                       self.create_client(RecordsLearnerCall,
                                          f'{ns}/{RECORDS_LEARNER_CALL.name}',
                                          qos_profile=profile(DEEP_QOS),
                                          callback_group=self._group))
        self.create_subscription(RoutingDecision, f'{ns}/{COORDINATOR_DECISIONS.name}',
                                 lambda m: self._on_decision(robot, m), RELIABLE,
                                 callback_group=self._group)
        self.create_subscription(HardwareCommand, f'{ns}/{MOCK_COMMANDS.name}',
                                 lambda m: self._on_command(robot, m), RELIABLE,
                                 callback_group=self._group)
        self.create_subscription(SkillEvent, f'{ns}/{SKILL_EVENTS.name}',
                                 lambda m: self._on_event(robot, m), HISTORY,
                                 callback_group=self._group)
        self.create_subscription(TextReply, f'{ns}/{REMOTE_REPLY.name}',
                                 lambda m: self._on_reply(robot, m), RELIABLE,
                                 callback_group=self._group)
        return robot

    # ---- output ---------------------------------------------------------------------

    def _print(self, robot: str, tag: str, text: str) -> None:
        with self._lock:
            self._out(timeline.line(time.monotonic() - self._t0, robot, tag, text))

    def _observed_for(self, robot: _Robot) -> Observed | None:
        return self._observed[robot.step] if robot.step is not None and self._observed else None

    # ---- what the robots do -------------------------------------------------------------

    def _on_command(self, robot: _Robot, msg: HardwareCommand) -> None:
        tag, text = timeline.command(msg.device, msg.action, msg.arguments_json, msg.disposition)
        self._print(robot.name, tag, text)
        observed = self._observed_for(robot)
        if observed is None:
            return
        arguments = json.loads(msg.arguments_json or '{}')
        if tag == 'SAY':
            observed.said.append(arguments.get('message', ''))
        elif tag == 'MOVE':
            observed.gestures.append(timeline.gesture_label(msg.device, arguments))

    def _on_reply(self, robot: _Robot, msg: TextReply) -> None:
        self._print(robot.name, 'REPLY', f'{msg.recipient_id}: {msg.text}')
        observed = self._observed_for(robot)
        if observed is not None:
            observed.replies.append(msg.text)

    def _on_decision(self, robot: _Robot, msg: RoutingDecision) -> None:
        target = f' -> {msg.target_skill}' if msg.target_skill else ''
        self._print(robot.name, 'DECIDE', f'{msg.action}{target}: {msg.reply_text}')
        observed = self._observed_for(robot)
        if observed is not None:
            observed.decided.append(f'{msg.action} {msg.target_skill}'.strip())
        if robot.waiting_for == msg.request_id:
            self._settled(robot)

    def _on_event(self, robot: _Robot, msg: SkillEvent) -> None:
        detail = json.loads(msg.detail_json or '{}')
        if msg.kind in READY_KINDS:
            robot.ready.add(msg.skill)
            robot.ta_speaks |= msg.skill == 'pbl_ta' and bool(detail.get('speaks_through'))
        if msg.kind == 'spoken' and msg.skill == 'pbl_ta':
            robot.ta_spoken += 1
            if robot.waiting_for and robot.ta_spoken >= robot.ta_said:
                self._settled(robot)
            return
        if msg.kind in ('degraded', 'error'):
            self._print(robot.name, msg.kind.upper(), f'{msg.skill}: {msg.detail_json}')
        elif msg.kind == 'number_held':
            self._print(robot.name, 'HOLD', f'number {detail.get("number")} formed: shown '
                                            f'{detail.get("seconds")} s before the lecture')
        elif msg.kind in ('batch_completed', 'command_completed'):
            observed = self._observed_for(robot)
            entries = [detail] if msg.kind == 'command_completed' else (
                [] if detail.get('each') else detail.get('outcomes', []))
            for entry in entries:
                shown = timeline.outcome(entry)
                if shown:
                    self._print(robot.name, *shown)
                if shown and shown[0] == 'FAILED' and observed is not None:
                    observed.failures.append(shown[1])
        if not robot.waiting_for:
            return
        if msg.kind in ('input', 'input_rejected') and \
                detail.get('utterance_id') == robot.waiting_for:
            robot.engaged.add(msg.skill)
        elif msg.kind == 'idle' and msg.skill in robot.engaged:
            robot.settled.add(msg.skill)
            if robot.settled >= robot.voice:
                self._settled(robot)

    # ---- playing ------------------------------------------------------------------------

    def _check_ready(self) -> None:
        waiting = [f'{r.name}/{s}' for r in self._robots.values() for s in r.skills - r.ready]
        waiting += [f'{r.name}/discussion services' for r in self._robots.values()
                    if 'pbl_ta' in r.skills and not (r.open_discussion.service_is_ready()
                                                     and r.ta_step.service_is_ready())]
        waiting += [f'{r.name}/records services' for r in self._robots.values()
                    if 'learning_records' in r.skills and not (
                        r.records.service_is_ready() and r.learner_records.service_is_ready())]
        if waiting and time.monotonic() - self._t0 < READY_TIMEOUT:
            return
        self._drop(self._ready_timer)
        if waiting:
            self._problems.append(f'skills never reported their devices: {waiting}')
        if self._scenario is not None:
            self._print('sim', 'SCENARIO', f'{self._scenario.name}: {self._scenario.description}')
            self._schedule_next()

    def _schedule_next(self) -> None:
        assert self._scenario is not None
        if self._next >= len(self._scenario.steps):
            self._finish()
            return
        step = self._scenario.steps[self._next]
        self._timer = self.create_timer(max(step.after, 1e-3), self._send_next, self._group)

    def _send_next(self) -> None:
        self._drop(self._timer)
        assert self._scenario is not None
        index, step = self._next, self._scenario.steps[self._next]
        self._next += 1
        robot = self._robots[step.robot]
        if step.note:
            self._print(robot.name, 'NOTE', step.note)
        robot.step = index
        uid = f'{self._scenario.name}-{index + 1}'
        if step.discussion_open is not None or step.discussion is not None or \
                step.records is not None:
            robot.waiting_for = uid
            self._deadline = self.create_timer(self._scenario.step_timeout,
                                               lambda: self._timed_out(robot), self._group)
            if step.records is not None:
                self._record(robot, step)
            else:
                self._converse(robot, step, uid, self._scenario.name)
            return
        self.send(robot.name, step, uid)
        listening = robot.skills - robot.voice if step.learning is not None else robot.voice
        if step.wait == 'none' or not listening:
            self._schedule_next()
            return
        robot.waiting_for, robot.engaged, robot.settled = uid, set(), set()
        self._deadline = self.create_timer(self._scenario.step_timeout,
                                           lambda: self._timed_out(robot), self._group)

    def send(self, robot_name: str, step: Step, uid: str) -> None:
        """Publish one input to a robot and print it."""
        robot = self._robots[robot_name]
        stamp = self.get_clock().now().to_msg()
        if step.learning is not None:
            tags = f' [{", ".join(step.image_tags)}]' if step.image_tags else ''
            self._print(robot.name, 'LEARNING', f'{step.learner}: {step.learning}{tags}')
            robot.learning.publish(LearningRequest(stamp=stamp, request_id=uid,
                                                   learner_id=step.learner, text=step.learning,
                                                   image_tags=step.image_tags))
            return
        self._print(robot.name, *timeline.heard(step.asr, step.wake, step.remote, step.sender,
                                                step.json_payload))
        if step.remote is not None:
            robot.remote.publish(RemoteMessage(stamp=stamp, message_id=uid,
                                               sender_id=step.sender, text=step.remote))
        elif step.json_payload is not None:
            robot.json.publish(String(data=step.json_payload))
        else:
            robot.asr.publish(AsrEvent(stamp=stamp, utterance_id=uid, text=step.asr or '',
                                       kws_triggered=step.wake, is_final=True, confidence=1.0))

    # ---- the discussion TA: the director plays the orchestrator -------------------------------

    def _converse(self, robot: _Robot, step: Step, uid: str, session: str) -> None:
        """Open a discussion (then plan), or send a turn (then refresh, and discuss if asked)."""
        if step.discussion_open is not None:
            self._print(robot.name, 'DISCUSS', f'open {session} with {step.discussion_open}')
            future = robot.open_discussion.call_async(OpenDiscussion.Request(
                session_id=session, material=step.discussion_open))
            future.add_done_callback(lambda f: self._opened(robot, session, f.result()))
            return
        self._print(robot.name, 'TURN' if step.body else 'TURN(-)',
                    f'{step.role} {step.speaker}: {step.discussion}')
        robot.turns.publish(DiscussionTurn(
            stamp=self.get_clock().now().to_msg(), session_id=session, speaker_role=step.role,
            speaker_id=step.speaker, text=step.discussion or '', is_body=step.body, turn_id=uid))
        self._ta(robot, session, 'refresh', uid)

    def _opened(self, robot: _Robot, session: str, response: OpenDiscussion.Response) -> None:
        if not response.ok:
            self._problems.append(f'{robot.name}: discussion not opened: {response.error}')
            self._settled(robot)
            return
        self._ta(robot, session, 'plan')

    def _ta(self, robot: _Robot, session: str, mode: str, after: str = '') -> None:
        future = robot.ta_step.call_async(TaStep.Request(session_id=session, mode=mode,
                                                         last_turn_id=after))
        future.add_done_callback(lambda f: self._on_ta(robot, session, mode, f.result()))

    def _on_ta(self, robot: _Robot, session: str, mode: str, response: TaStep.Response) -> None:
        if not response.ok:
            self._problems.append(f'{robot.name}: TA {mode} refused: {response.error}')
            self._settled(robot)
            return
        answer = json.loads(response.json)
        self._print(robot.name, 'TA', timeline.ta_step(mode, response.reason, answer))
        card = answer.get('state_card', {})
        if mode == 'refresh' and card.get('should_speak'):
            self._ta(robot, session, 'discuss')
            return
        if answer.get('utterance'):
            observed = self._observed_for(robot)
            if observed is not None:
                observed.ta = 'spoke'
            robot.ta_said += 1
            if robot.ta_speaks and robot.ta_spoken < robot.ta_said:
                return                     # settled by the 'spoken' trace
        self._settled(robot)

    # ---- learning_records ----------------------------------------------------------------------

    def _record(self, robot: _Robot, step: Step) -> None:
        """A records tool call: the agent's on records/call, the learner's own act from her
        pages on records/learner/call (scoped to her pairs)."""
        tool, args = step.records or '', json.dumps(step.args, ensure_ascii=False)
        if step.side == 'learner':
            self._print(robot.name, 'RECORDS', f'learner {step.learner}: {tool} {args}')
            future = robot.learner_records.call_async(RecordsLearnerCall.Request(
                learner_id=step.learner, tool=tool, args_json=args))
        else:
            self._print(robot.name, 'RECORDS', f'agent: {tool} {args}')
            future = robot.records.call_async(RecordsCall.Request(tool=tool, args_json=args))
        future.add_done_callback(lambda f: self._recorded(robot, f.result()))

    def _recorded(self, robot: _Robot, response: Any) -> None:
        outcome = 'ok' if response.ok else response.code
        self._print(robot.name, 'RECORDED', f'{outcome}: {response.error or response.result_json}')
        observed = self._observed_for(robot)
        if observed is not None:
            observed.recorded = outcome
        self._settled(robot)

    def _settled(self, robot: _Robot) -> None:
        robot.waiting_for = ''
        self._drop(self._deadline)
        self._schedule_next()

    def _timed_out(self, robot: _Robot) -> None:
        self._problems.append(f'{robot.name}: step {self._next} did not settle in time '
                              f'(skills still busy: {sorted(robot.voice - robot.settled)})')
        self._settled(robot)

    def _finish(self) -> None:
        assert self._scenario is not None
        for index, (step, observed) in enumerate(zip(self._scenario.steps, self._observed,
                                                              strict=True)):
            self._problems.extend(check(index, step, observed))
        checked = sum(1 for step in self._scenario.steps if step.expect is not None)
        if self._problems:
            for problem in self._problems:
                self._print('sim', 'PROBLEM', problem)
        self._print('sim', 'END', f'{len(self._scenario.steps)} steps, {checked} checked, '
                                  f'{len(self._problems)} problem(s)')
        self.done.set_result(1 if self._problems else 0)

    # ---- console --------------------------------------------------------------------------

    def type_line(self, robot: str, step: Step) -> None:
        """Send one console line (called from the executor via a guard condition)."""
        self._typed += 1
        self.send(robot, step, f'console-{self._typed}')

    def _drop(self, timer: Timer | None) -> None:
        if timer is not None:
            timer.cancel()
            self.destroy_timer(timer)
