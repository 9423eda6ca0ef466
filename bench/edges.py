"""The edges of issue 12, measured: concurrent callers, bursts, memory over a long discussion.

* concurrency: 20 clients each call every service the package serves, 10
  rounds, all 20 calls of a round in flight at once; lost = calls without an
  answer within 10 s (rclpy's default service queue of 10 lost about half);
* bursts: 2,000 messages published in about 2 s on every input topic, from
  this process to the node in its own; a message counts as handled when the
  node traced it (``input``, ``input_rejected``, ``input_dropped``) or decided
  it (``coordinator/decisions``); silent = neither, within the wait;
* memory: pbl_ta's RSS after 50,000 discussion turns of one session (asked
  for a state card every 50 turns), next to its RSS after the first 1,000.

Every caller here uses the QoS docs/architecture.md tells callers to use (``DEEP_QOS``).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from std_msgs.msg import String
from std_srvs.srv import Trigger

from bench.figures import rss_mb, spin_until, start, stop
from robot_skills import interface
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.msg import (
    AsrEvent,
    DiscussionTurn,
    LearningRequest,
    RemoteMessage,
    RoutingDecision,
    SkillEvent,
)
from robot_skills_interfaces.srv import (
    ConsentSettings,
    HealthCheck,
    MonthlyReport,
    OpenDiscussion,
    PrivacyControl,
    RecordsCall,
    RecordsLearnerCall,
    SubmitHandover,
    TaStep,
)

CLIENTS, ROUNDS, BURST = 20, 10, 2000
DISCUSSION_TURNS, WARM_TURNS = 50_000, 1_000
DEEP = profile(interface.DEEP_QOS)
TRACES = profile(interface.FLOOD_TRACE_QOS)
HANDLED = ('input', 'input_rejected', 'input_dropped')
SAYS = ['我觉得罚款没用', '楼长可以轮流值守', '材料二说定时定点以后准确率上去了', '嗯', '对',
        '那我们先让楼长排班试一个月', '意识很重要', '清运车混着拉走了怎么办']


class Probe(Node):
    """The bench's node in the namespace of the node under test."""

    def __init__(self, namespace: str) -> None:
        super().__init__('bench_edges', namespace=namespace)
        self.spinner = SingleThreadedExecutor()
        self.spinner.add_node(self)
        self.events: list[SkillEvent] = []
        self.create_subscription(SkillEvent, interface.SKILL_EVENTS.name, self.events.append,
                                 TRACES)
        self._handled: set[str] = set()
        self._read = 0

    def until(self, predicate: Callable[[], object], timeout: float) -> bool:
        return spin_until(self.spinner, predicate, timeout)

    def ready(self) -> bool:
        return self.until(lambda: any(e.kind in ('capabilities', 'degraded')
                                      for e in self.events), 30.0)

    def concurrent(self, srv: Any, name: str, request: Callable[[int], Any]) -> int:
        """Calls lost by ``CLIENTS`` concurrent callers over ``ROUNDS`` rounds."""
        clients = [self.create_client(srv, name, qos_profile=DEEP) for _ in range(CLIENTS)]
        self.until(lambda: all(c.service_is_ready() for c in clients), 30.0)
        lost = 0
        for round_ in range(ROUNDS):
            calls = [c.call_async(request(round_ * CLIENTS + n)) for n, c in enumerate(clients)]
            self.until(lambda calls=calls: all(f.done() for f in calls), 10.0)
            lost += sum(1 for f in calls if not f.done())
        for client in clients:
            self.destroy_client(client)
        return lost

    def forget(self) -> None:
        """Drop the traces read so far (a long run would otherwise keep them all)."""
        self.events.clear()
        self._read = 0

    def handled(self) -> set[str]:
        """Ids of the inputs the node traced as heard, refused or dropped (read once each)."""
        for event in self.events[self._read:]:
            if event.kind in HANDLED:
                detail = json.loads(event.detail_json)
                self._handled.add(detail.get('utterance_id') or detail.get('turn_id') or '')
        self._read = len(self.events)
        return self._handled


def _burst(probe: Probe, publish: Callable[[int], None]) -> float:
    """Publish ``BURST`` messages over about 2 s, reading the node's traces meanwhile (the
    bench's own reader must keep up: its losses would look like the node's); the seconds it
    took."""
    began = time.perf_counter()
    for n in range(BURST):
        publish(n)
        due = began + 2.0 * (n + 1) / BURST
        while (ahead := due - time.perf_counter()) > 0:
            probe.spinner.spin_once(timeout_sec=ahead)
    return time.perf_counter() - began


def _node(stack: ExitStack, command: list[str], namespace: str, params: tuple = ()) -> Any:
    process = start(command, namespace, params=params)
    stack.callback(stop, process)
    return process


def voice(index: int) -> list[dict]:
    """Bursts on the three voice channels of both voice skills."""
    rows = []
    for skill in ('wayfinding_guide', 'classroom_presenter'):
        for channel in (interface.ASR_EVENTS.name, interface.REMOTE_MESSAGE.name,
                        interface.ASR_JSON.name):
            namespace = f'/edges{os.getpid()}_{index}_{len(rows)}'
            with ExitStack() as stack:
                _node(stack, ['mock_hardware'], namespace,
                      ('-p', 'time_scale:=0.0', '-p', 'joint_state_rate:=0.0'))
                process = _node(stack, [skill], namespace)
                probe = Probe(namespace)
                stack.callback(probe.destroy_node)
                probe.ready()
                ids = [f'b{n}' for n in range(BURST)]
                publish = _voice_publisher(probe, channel, ids)
                seconds = _burst(probe, publish)
                probe.until(lambda ids=ids, probe=probe: set(ids) <= probe.handled(), 120.0)
                handled = set(ids) & probe.handled()
                dropped = sum(1 for e in probe.events if e.kind == 'input_dropped')
                rows.append({'label': f'{skill}: {channel}', 'sent': BURST, 'seconds': seconds,
                             'handled': len(handled), 'dropped': dropped,
                             'silent': BURST - len(handled), 'rss_mb': rss_mb(process)})
    return rows


def _voice_publisher(probe: Probe, channel: str, ids: list[str]) -> Callable[[int], None]:
    text = '小范小范，贝旺路怎么走'
    if channel == interface.ASR_EVENTS.name:
        out = probe.create_publisher(AsrEvent, channel, DEEP)
        probe.until(out.get_subscription_count, 10.0)
        return lambda n: out.publish(AsrEvent(utterance_id=ids[n], text=text,
                                              kws_triggered=True, is_final=True))
    if channel == interface.REMOTE_MESSAGE.name:
        remote = probe.create_publisher(RemoteMessage, channel, DEEP)
        probe.until(remote.get_subscription_count, 10.0)
        return lambda n: remote.publish(RemoteMessage(message_id=ids[n], sender_id='v',
                                                      text=text))
    raw = probe.create_publisher(String, channel, DEEP)
    probe.until(raw.get_subscription_count, 10.0)
    return lambda n: raw.publish(String(data=json.dumps(
        {'text': text, 'kws_triggered': True, 'utterance_id': ids[n]}, ensure_ascii=False)))


def coordinator(index: int) -> tuple[list[dict], list[dict]]:
    namespace = f'/edges{os.getpid()}_{index}_coordinator'
    with ExitStack() as stack, tempfile.TemporaryDirectory() as folder:
        process = _node(stack, ['learning_coordinator'], namespace,
                        ('-p', f'store_path:={folder}/c.sqlite3'))
        probe = Probe(namespace)
        stack.callback(probe.destroy_node)
        probe.ready()
        services = [
            (SubmitHandover, 'handover', lambda n: SubmitHandover.Request(handover_json='{}')),
            (MonthlyReport, 'monthly_report', lambda n: MonthlyReport.Request(learner_id=f'l{n}')),
            (HealthCheck, 'health_check', lambda n: HealthCheck.Request(learner_id=f'l{n}')),
            (ConsentSettings, 'consent', lambda n: ConsentSettings.Request(learner_id=f'l{n}')),
            (PrivacyControl, 'privacy', lambda n: PrivacyControl.Request(learner_id=f'l{n}',
                                                                        action='view'))]
        calls = [{'label': f'learning_coordinator: coordinator/{name}',
                  'lost': probe.concurrent(srv, f'coordinator/{name}', request)}
                 for srv, name, request in services]
        decided: set[str] = set()
        probe.create_subscription(RoutingDecision, interface.COORDINATOR_DECISIONS.name,
                                  lambda d: decided.add(d.request_id), DEEP)
        requests = probe.create_publisher(LearningRequest, interface.COORDINATOR_REQUESTS.name,
                                           DEEP)
        probe.until(requests.get_subscription_count, 10.0)
        seconds = _burst(probe, lambda n: requests.publish(LearningRequest(
            request_id=f'b{n}', learner_id=f'l{n % 50}', text='浮力的题又错了')))
        probe.until(lambda: len(decided) >= BURST, 120.0)
        burst = [{'label': 'learning_coordinator: coordinator/requests', 'sent': BURST,
                  'seconds': seconds, 'handled': len(decided), 'dropped': 0,
                  'silent': BURST - len(decided), 'rss_mb': rss_mb(process)}]
    return calls, burst


def discussion(index: int) -> tuple[list[dict], list[dict], dict]:
    namespace = f'/edges{os.getpid()}_{index}_discussion'
    with ExitStack() as stack:
        process = _node(stack, ['pbl_ta'], namespace, ('-p', 'max_sessions:=10000'))
        probe = Probe(namespace)
        stack.callback(probe.destroy_node)
        probe.ready()
        opener = probe.create_client(OpenDiscussion, interface.DISCUSSION_OPEN.name,
                                     qos_profile=DEEP)
        stepper = probe.create_client(TaStep, interface.DISCUSSION_TA_STEP.name,
                                      qos_profile=DEEP)
        probe.until(lambda: opener.service_is_ready() and stepper.service_is_ready(), 30.0)
        _call(probe, opener, OpenDiscussion.Request(session_id='s', material='community_waste'))
        calls = [
            {'label': 'pbl_ta: discussion/open', 'lost': probe.concurrent(
                OpenDiscussion, interface.DISCUSSION_OPEN.name, lambda n: OpenDiscussion.Request(
                    session_id=f'c{n}', material='community_waste'))},
            {'label': 'pbl_ta: discussion/ta_step', 'lost': probe.concurrent(
                TaStep, interface.DISCUSSION_TA_STEP.name, lambda n: TaStep.Request(
                    session_id='s', mode='refresh'))}]
        turns = probe.create_publisher(DiscussionTurn, interface.DISCUSSION_TURNS.name, DEEP)
        probe.until(lambda: turns.get_subscription_count() >= 1, 10.0)
        seconds = _burst(probe, lambda n: turns.publish(DiscussionTurn(
            session_id='s', speaker_role='student', speaker_id=f's{n % 5}', text=SAYS[n % 8],
            is_body=True, turn_id=f'b{n}')))
        ids = {f'b{n}' for n in range(BURST)}
        probe.until(lambda: ids <= probe.handled(), 120.0)
        handled = len(ids & probe.handled())
        burst = [{'label': 'pbl_ta: discussion/turns', 'sent': BURST, 'seconds': seconds,
                  'handled': handled, 'dropped': 0, 'silent': BURST - handled,
                  'rss_mb': rss_mb(process)}]
        memory = _long_discussion(probe, process, opener, stepper, turns)
    return calls, burst, memory


def _long_discussion(probe: Probe, process: Any, opener: Any, stepper: Any,
                     turns: Any) -> dict:
    """RSS after ``WARM_TURNS`` and after ``DISCUSSION_TURNS`` turns of one session."""
    _call(probe, opener, OpenDiscussion.Request(session_id='long', material='community_waste'))
    probe.forget()                     # the traces of 50,000 turns are the bench's, not the node's
    rss = {}
    for n in range(DISCUSSION_TURNS):
        turns.publish(DiscussionTurn(session_id='long', speaker_role='student',
                                     speaker_id=f's{n % 5}', text=f'{SAYS[n % 8]}，第{n}次',
                                     is_body=True, turn_id=f'long-{n}'))
        if n % 50 == 49:
            answer = _call(probe, stepper, TaStep.Request(session_id='long', mode='refresh',
                                                          last_turn_id=f'long-{n}'))
            if answer is None or not answer.ok:
                raise RuntimeError(f'pbl_ta did not answer the refresh after turn {n}')
            probe.forget()
        if n + 1 in (WARM_TURNS, DISCUSSION_TURNS):
            rss[n + 1] = rss_mb(process)
    return {'turns': DISCUSSION_TURNS, 'start_mb': rss[WARM_TURNS],
            'end_mb': rss[DISCUSSION_TURNS]}


def records(index: int) -> list[dict]:
    namespace = f'/edges{os.getpid()}_{index}_records'
    with ExitStack() as stack, tempfile.TemporaryDirectory() as folder:
        _node(stack, ['learning_records'], namespace, ('-p', f'store_path:={folder}/r.sqlite3'))
        probe = Probe(namespace)
        stack.callback(probe.destroy_node)
        probe.ready()
        # each learner registers her name from her pages, then the agent pairs with her
        return [{'label': 'learning_records: records/learner/call', 'lost': probe.concurrent(
            RecordsLearnerCall, interface.RECORDS_LEARNER_CALL.name,
            lambda n: RecordsLearnerCall.Request(
                learner_id=f'l{n}', tool='register_learner', args_json=json.dumps(
                    {'learner_id': f'l{n}', 'display_name': '林'})))},
                {'label': 'learning_records: records/call', 'lost': probe.concurrent(
                    RecordsCall, interface.RECORDS_CALL.name, lambda n: RecordsCall.Request(
                        tool='create_pair', args_json=json.dumps(
                            {'learner_id': f'l{n}', 'learner_display_name': '林',
                             'provider': 'p', 'model': 'm', 'display_name': 'd'})))}]


def mock(index: int) -> list[dict]:
    namespace = f'/edges{os.getpid()}_{index}_mock'
    with ExitStack() as stack:
        _node(stack, ['mock_hardware'], namespace, ('-p', 'joint_state_rate:=0.0'))
        probe = Probe(namespace)
        stack.callback(probe.destroy_node)
        return [{'label': f'mock_hardware: {name}',
                 'lost': probe.concurrent(Trigger, name, lambda n: Trigger.Request())}
                for name in (interface.TTS_INTERRUPT.name, interface.ARM_GESTURE_CANCEL.name)]


def _call(probe: Probe, client: Any, request: Any) -> Any:
    future = client.call_async(request)
    probe.until(future.done, 10.0)
    return future.result() if future.done() else None


def measure(index: int) -> dict:
    """Every edge figure (a few minutes: the bursts are paced at 2,000 per 2 s)."""
    coordinated_calls, coordinated_burst = coordinator(index)
    discussed_calls, discussed_burst, memory = discussion(index)
    return {'calls': [*coordinated_calls, *discussed_calls, *records(index), *mock(index)],
            'bursts': [*voice(index), *coordinated_burst, *discussed_burst],
            'memory': memory}


def report(edges: dict) -> None:
    print(f'\n| {CLIENTS} concurrent clients x {ROUNDS} rounds (target: none lost) | answered |'
          f'\n|---|---|')
    for row in edges['calls']:
        print(f'| {row["label"]} | {CLIENTS * ROUNDS - row["lost"]} of {CLIENTS * ROUNDS} |')
    print(f'\n| burst of {BURST:,} messages in about 2 s (target: handled or refused with a '
          'trace, none silent) | handled | of which dropped with a trace | silent | '
          'node RSS MB |\n|---|---|---|---|---|')
    for row in edges['bursts']:
        print(f'| {row["label"]} ({row["seconds"]:.1f} s) | {row["handled"]:,} | '
              f'{row["dropped"]:,} | {row["silent"]:,} | {row["rss_mb"]:.0f} |')
    memory = edges['memory']
    growth = memory['end_mb'] - memory['start_mb']
    print(f'\n| pbl_ta, one session (target: within 10 MB) | RSS MB |\n|---|---|\n'
          f'| after {WARM_TURNS:,} turns | {memory["start_mb"]:.1f} |\n'
          f'| after {memory["turns"]:,} turns | {memory["end_mb"]:.1f} ({growth:+.1f}) |')
