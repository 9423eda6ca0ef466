"""Start-up: spawn -> ready and spawn -> first answer of every skill executable.

Each skill is started ``STARTS`` times, each time in a fresh namespace with the mock
robot already serving there (so the figure is the skill's own start-up):

* ready: the process is spawned -> its lifecycle state is ``active`` and its
  ``capabilities`` trace is out (its devices found, its data loaded);
* first answer: spawned -> the first answer to a request sent as soon as the
  skill listens: the first speech goal the mock logs (wayfinding_guide,
  classroom_presenter), the first decision (learning_coordinator), the answer of
  ``discussion/open`` (pbl_ta) or of ``records/learner/call`` (learning_records: a learner
  registers her name).
"""

from __future__ import annotations

import glob
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lifecycle_msgs.srv import GetState
from rclpy.action import ActionClient
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.task import Future

from bench.figures import RELIABLE, spin_until, start, stop
from robot_skills import interface
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.action import Speak
from robot_skills_interfaces.msg import (
    AsrEvent,
    HardwareCommand,
    LearningRequest,
    RoutingDecision,
    SkillEvent,
)
from robot_skills_interfaces.srv import OpenDiscussion, RecordsLearnerCall

STARTS = 5
TIMEOUT = 60.0
RETRY = 1.0
BIN = os.path.dirname(sys.executable)


@dataclass
class Probe:
    """Talks to one skill under ``namespace`` as its users would."""

    node: Node
    executor: SingleThreadedExecutor

    def until(self, predicate: Callable[[], Any]) -> bool:
        return spin_until(self.executor, predicate, TIMEOUT)


def _speech(probe: Probe, text: str, wake: bool) -> Callable[[], bool]:
    """An ASR event once the skill listens; answered when the mock logs a speech goal."""
    log: list[HardwareCommand] = []
    probe.node.create_subscription(HardwareCommand, interface.MOCK_COMMANDS.name, log.append,
                                   RELIABLE)
    asr = probe.node.create_publisher(AsrEvent, interface.ASR_EVENTS.name, 10)
    probe.until(asr.get_subscription_count)
    asr.publish(AsrEvent(utterance_id='startup', text=text, kws_triggered=wake, is_final=True,
                         confidence=1.0))
    return lambda: any(m.device == 'tts' for m in log)


def _decision(probe: Probe) -> Callable[[], bool]:
    """A request once the coordinator subscribes, sent again each ``RETRY`` s until one is
    decided: a request that arrives between the subscription and the node's activation is
    refused (traced), and one sent once would never be answered."""
    decisions: list[RoutingDecision] = []
    probe.node.create_subscription(RoutingDecision, interface.COORDINATOR_DECISIONS.name,
                                   decisions.append, RELIABLE)
    requests = probe.node.create_publisher(LearningRequest, interface.COORDINATOR_REQUESTS.name, 10)
    probe.until(requests.get_subscription_count)
    sent: list[float] = []

    def decided() -> bool:
        if not decisions and (not sent or time.monotonic() - sent[-1] > RETRY):
            sent.append(time.monotonic())
            requests.publish(LearningRequest(request_id=f'startup-{len(sent)}',
                                             learner_id='l1', text='方程怎么解'))
        return bool(decisions)
    return decided


def _call(probe: Probe, srv: Any, name: str, request: Any) -> Callable[[], bool]:
    """The request once the service is there, sent again each ``RETRY`` s until one is
    answered: a service seen ready may not yet have matched the reader of its answers (a
    DDS discovery race), and that first answer is lost."""
    client = probe.node.create_client(srv, name)
    probe.until(client.service_is_ready)
    calls = [(time.monotonic(), client.call_async(request))]

    def answered() -> bool:
        if any(future.done() for _, future in calls):
            return True
        if time.monotonic() - calls[-1][0] > RETRY:
            calls.append((time.monotonic(), client.call_async(request)))
        return False
    return answered


FIRST_ANSWER: dict[str, Callable[[Probe], Callable[[], bool]]] = {
    'wayfinding_guide': lambda p: _speech(p, '小范小范，贝旺路怎么走', True),
    'classroom_presenter': lambda p: _speech(p, '用课堂讲解的方式介绍光合作用', False),
    'learning_coordinator': _decision,
    'pbl_ta': lambda p: _call(p, OpenDiscussion, interface.DISCUSSION_OPEN.name,
                              OpenDiscussion.Request(session_id='startup',
                                                     material='community_waste')),
    'learning_records': lambda p: _call(
        p, RecordsLearnerCall, interface.RECORDS_LEARNER_CALL.name, RecordsLearnerCall.Request(
            learner_id='l', tool='register_learner',
            args_json='{"learner_id": "l", "display_name": "林小雨"}')),
}
STORE = f'/tmp/robot_skills_startup_{os.getpid()}.sqlite3'
PARAMS = {'learning_coordinator': ('-p', f'store_path:={STORE}.coordinator'),
          'learning_records': ('-p', f'store_path:={STORE}.records')}


def _once(skill: str, namespace: str) -> tuple[float, float]:
    """(spawn -> ready, spawn -> first answer) in ms, for one start."""
    node = Node(f'startup_probe_{skill}', namespace=namespace)
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    probe = Probe(node, executor)
    mock = start([os.path.join(BIN, 'mock_hardware')], namespace,
                 params=('-p', 'time_scale:=0.05'))
    try:
        probe.until(ActionClient(node, Speak, interface.TTS_SPEAK.name).server_is_ready)
        events: list[SkillEvent] = []
        node.create_subscription(SkillEvent, interface.SKILL_EVENTS.name, events.append,
                                 profile(interface.SKILL_EVENTS.qos))
        spawned = time.monotonic()
        process = start([os.path.join(BIN, skill)], namespace, params=PARAMS.get(skill, ()))
        try:
            answered = FIRST_ANSWER[skill](probe)
            state = node.create_client(GetState, f'{skill}/get_state')
            # the node's state, asked again until it is active (an answer may be lost, see _call)
            asked: list[tuple[float, Future]] = []
            ready_at, answered_at = _Moment(), _Moment()

            def active() -> bool:
                return any(future.done() and future.result().current_state.label == 'active'
                           for _, future in asked)

            def progress() -> bool:
                if state.service_is_ready() and not active() and (
                        not asked or asked[-1][1].done()
                        or time.monotonic() - asked[-1][0] > RETRY):
                    asked.append((time.monotonic(), state.call_async(GetState.Request())))
                if active() and any(e.kind == 'capabilities' and e.skill != 'mock_hardware'
                                    for e in events):
                    ready_at.mark()
                if answered():
                    answered_at.mark()
                return ready_at.at is not None and answered_at.at is not None

            if not probe.until(progress):
                raise TimeoutError(f'{skill}: not ready and answered within {TIMEOUT} s '
                                   f'(active: {active()}, answered: {answered_at.at})')
            return ((ready_at.at - spawned) * 1e3, (answered_at.at - spawned) * 1e3)
        finally:
            stop(process)
    finally:
        stop(mock)
        executor.shutdown()
        node.destroy_node()


@dataclass
class _Moment:
    at: float | None = None

    def mark(self) -> None:
        if self.at is None:
            self.at = time.monotonic()


def measure() -> list[dict]:
    rows = []
    try:
        for skill in FIRST_ANSWER:
            runs = [_once(skill, f'/startup_{os.getpid()}_{skill}_{n}') for n in range(STARTS)]
            ready, first = zip(*runs, strict=True)
            rows.append({'skill': skill, 'ready': ready, 'first': first})
    finally:
        for path in glob.glob(f'{STORE}*'):
            os.remove(path)
    return rows


def report(rows: list[dict]) -> None:
    print(f'\n| start-up, {STARTS} starts each (mock already serving) | spawn -> ready, median '
          '/ max ms | spawn -> first answer, median / max ms |\n|---|---|---|')
    for row in rows:
        print(f'| {row["skill"]} | {statistics.median(row["ready"]):.0f} / '
              f'{max(row["ready"]):.0f} | {statistics.median(row["first"]):.0f} / '
              f'{max(row["first"]):.0f} |')
