"""make bench: latency of the skill path next to the raw rclpy floor, throughput, memory.

Every figure is measured in the same run on this machine, so ratios stay
meaningful on a noisy host:

* floor: the one-way publish -> callback latency between two processes, the
  action goal round trip (send -> accepted) between two processes, and the
  relay path (ASR event published -> a bare rclpy node -> goal accepted by
  mock_hardware): the same hops as a skill, with no logic at all;
* skill path: ASR event published -> the first goal accepted by mock_hardware,
  for the runtime alone (a core that says what it hears) and for every skill,
  with each executor; p50/p99 over ``--events`` events after a warm-up;
* the learning coordinator: request -> decision over DDS (``bench/coordinator.py``);
* the discussion TA: turn -> refresh answered, discuss -> speech goal accepted
  (``bench/discussion.py``);
* learning_records: a tool call over ROS (a write, a read) and verify_prep of a
  30-lesson course (``bench/records.py``);
* learning_records over MCP: the same read and write as an MCP tool call over
  streamable HTTP, and 50 MCP clients writing at once (``bench/mcp_http.py``);
* throughput of the pure cores on one core (the coordinator's routing decision
  and its monthly report over 10,000 stored records among them);
* RSS of each node process and of the whole simulation;
* the edges (``bench/edges.py``): 20 concurrent callers on every service, a
  2,000-message burst on every input topic, pbl_ta's memory over 50,000 turns;
* start-up (``bench/startup.py``): spawn -> ready and spawn -> first answer of every
  skill executable;
* the crisis check (``bench/crisis.py``, also ``make eval``): recall and false
  positives per category on its corpus, and its time on the longest requests.

Latency is the mock's command-log stamp minus the event's stamp (one clock). The tables
printed also replace the figures block of docs/benchmarks.md (``bench/published.py``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import psutil
import rclpy
from rclpy.action import ActionClient
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.time import Time

from bench import coordinator, crisis, discussion, edges, mcp_http, published, records, startup
from bench.figures import RELIABLE, ROOT, percentile, rss_mb, spin_until, start, stop, throughput
from robot_skills import interface
from robot_skills.adapters.config import load
from robot_skills.classroom.grading import Grader
from robot_skills.classroom.lesson import Library, Phrases
from robot_skills.classroom.quota import plan
from robot_skills.classroom.words import Lexicon
from robot_skills.model.commands import ArmGesture, Speak
from robot_skills.model.outcomes import Receipt, judge
from robot_skills.model.skill import Heard
from robot_skills.model.utterance import Source, Utterance, from_asr, from_asr_json
from robot_skills.runtime import paths
from robot_skills.runtime.qos import profile
from robot_skills.wayfinding.building import Building
from robot_skills.wayfinding.core import WayfindingCore
from robot_skills_interfaces.action import Speak as SpeakAction
from robot_skills_interfaces.msg import AsrEvent, HardwareCommand, SkillEvent

HISTORY = profile(interface.WATCH_LATCHED_QOS)
WARMUP = 50
ASR_JSON = json.dumps({'text': '小范小范，贝旺路怎么走', 'kws_triggered': True}, ensure_ascii=False)


@dataclass(frozen=True)
class Measured:
    """One measured path: the node process that turns input into goals."""

    label: str
    command: list[str]
    executor: str
    utterance: str
    traces_capabilities: bool


class Driver(Node):
    """The bench's own node: publishes events, reads the mock's log and the skill traces."""

    def __init__(self, namespace: str) -> None:
        super().__init__('bench_driver', namespace=namespace)
        self.executor_ = SingleThreadedExecutor()
        self.executor_.add_node(self)
        self.asr = self.create_publisher(AsrEvent, interface.ASR_EVENTS.name, RELIABLE)
        self.commands: list[HardwareCommand] = []
        self.events: list[SkillEvent] = []
        self.create_subscription(HardwareCommand, interface.MOCK_COMMANDS.name,
                                 self.commands.append, RELIABLE)
        self.create_subscription(SkillEvent, interface.SKILL_EVENTS.name, self.events.append,
                                 HISTORY)

    def spin_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        return spin_until(self.executor_, predicate, timeout)

    def idle_count(self) -> int:
        return sum(1 for e in self.events if e.kind == 'idle')

    def one_event(self, text: str, index: int) -> float | None:
        """Publish one event; the latency to the first goal accepted, in ms."""
        seen, idle = len(self.commands), self.idle_count()
        stamp = self.get_clock().now()
        self.asr.publish(AsrEvent(stamp=stamp.to_msg(), utterance_id=f'bench-{index}', text=text,
                                  kws_triggered=True, is_final=True, confidence=1.0))
        if not self.spin_until(lambda: len(self.commands) > seen, 2.0):
            return None
        latency = (Time.from_msg(self.commands[seen].stamp) - stamp).nanoseconds / 1e6
        self.spin_until(lambda: self.idle_count() > idle, 10.0)
        return latency

    def goal_round_trips(self, count: int) -> list[float]:
        """Action goal send -> accepted, to the mock in another process, in ms."""
        client = ActionClient(self, SpeakAction, interface.TTS_SPEAK.name)
        client.wait_for_server(timeout_sec=10.0)
        samples = []
        for _ in range(count + WARMUP):
            start = time.perf_counter()
            future = client.send_goal_async(SpeakAction.Goal(message='测'))
            self.executor_.spin_until_future_complete(future, timeout_sec=2.0)
            samples.append((time.perf_counter() - start) * 1e3)
            if future.done():   # like any client, fetch the result before the next goal
                self.executor_.spin_until_future_complete(
                    future.result().get_result_async(), timeout_sec=2.0)
        client.destroy()
        return samples[WARMUP:]


def measure(path: Measured, count: int, index: int) -> dict:
    namespace = f'/bench{os.getpid()}_{index}'
    mock = start(['mock_hardware'], namespace,
                 params=('-p', 'time_scale:=0.0', '-p', 'joint_state_rate:=0.0'))
    node = start(path.command, namespace, path.executor)
    driver = Driver(namespace)
    try:
        if path.traces_capabilities:
            ready = driver.spin_until(lambda: any(e.kind in ('capabilities', 'degraded')
                                                  for e in driver.events), 30.0)
        else:
            ready = any(driver.one_event(path.utterance, -i) is not None for i in range(1, 60))
        if not ready:
            raise RuntimeError(f'{path.label}: the node never became ready')
        samples = [driver.one_event(path.utterance, i)
                   for i in range(count + WARMUP)][WARMUP:]
        lost = sum(1 for s in samples if s is None)
        latencies = [s for s in samples if s is not None]
        result = {'label': path.label, 'executor': path.executor, 'lost': lost,
                  'p50': percentile(latencies, 0.5), 'p99': percentile(latencies, 0.99),
                  'rss_node_mb': rss_mb(node), 'rss_mock_mb': rss_mb(mock)}
        if not path.traces_capabilities:
            result['goal_round_trip'] = driver.goal_round_trips(min(count, 300))
    finally:
        driver.destroy_node()
        output = stop(node)
        stop(mock)
    if not path.traces_capabilities and output.strip():
        result['pubsub'] = json.loads(output.strip().splitlines()[-1])['pubsub_ms'][WARMUP:]
    return result


LESSON_REQUEST = '用课堂讲解的方式介绍光合作用'
LESSON_ANSWERS = ('二氧化碳和水', '需要阳光', '二氧化碳')


def classroom(lessons: int, index: int) -> dict:
    """Whole 3-point lessons against instant mock hardware (time_scale 0), without the
    number hold (``number_display_s`` 0: a lesson waits 0.5 s per number by default)."""
    namespace = f'/bench{os.getpid()}_{index}'
    mock = start(['mock_hardware'], namespace,
                 params=('-p', 'time_scale:=0.0', '-p', 'joint_state_rate:=0.0'))
    node = start(['classroom_presenter'], namespace,   # the flow's own time: no number hold
                 params=('-p', 'number_display_s:=0.0'))
    driver = Driver(namespace)
    walls = []
    try:
        if not driver.spin_until(lambda: any(e.kind == 'capabilities' for e in driver.events),
                                 30.0):
            raise RuntimeError('classroom_presenter never found its devices')
        for _ in range(lessons):
            done = sum(1 for e in driver.events if e.kind == 'course_completed')
            began = time.perf_counter()
            for text in (LESSON_REQUEST, *LESSON_ANSWERS):
                idle = driver.idle_count()
                driver.asr.publish(AsrEvent(utterance_id=text, text=text, is_final=True))
                driver.spin_until(lambda idle=idle: driver.idle_count() > idle, 10.0)
            driver.spin_until(lambda done=done: sum(
                1 for e in driver.events if e.kind == 'course_completed') > done, 10.0)
            walls.append((time.perf_counter() - began) * 1e3)
        released = [json.loads(e.detail_json).get('release_to_send_ms') for e in driver.events
                    if e.kind == 'batch_sent']
        released = [r for r in released if r is not None]
        result = {'lessons': lessons, 'wall_p50': percentile(walls, 0.5),
                  'wall_max': max(walls), 'release_p50': percentile(released, 0.5),
                  'release_p99': percentile(released, 0.99), 'releases': len(released),
                  'rss_node_mb': rss_mb(node)}
    finally:
        driver.destroy_node()
        stop(node)
        stop(mock)
    return result


def classroom_cores() -> list[dict]:
    """The classroom core: grading one answer, and one core step from an answer to its batch."""
    library = Library.load(paths.config('lessons'))
    phrases = load(paths.config('classroom/phrases.yaml'), Phrases)
    lexicon = load(paths.config('classroom/words.yaml'), Lexicon)
    lesson = library.lessons['光合作用']
    grader = Grader(lexicon)
    vocabulary = lesson.vocabulary()
    answers = itertools.cycle(LESSON_ANSWERS)
    point = lesson.points[0]
    return [throughput('classroom: grade one answer',
                       lambda: grader.grade(next(answers), point, [point.question], vocabulary)),
            throughput('classroom: plan a 3-point course (every budget)',
                       lambda: plan(lesson, phrases, 5, 3))]


def simulation_rss() -> float:
    """Peak RSS of robot_skills_sim playing the demo scenario, in MB."""
    process = subprocess.Popen(['robot_skills_sim', '--scenario',
                                paths.config('scenarios/demo.yaml')], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    watched = psutil.Process(process.pid)
    peak = 0.0
    while process.poll() is None:
        try:
            peak = max(peak, watched.memory_info().rss / 2**20)
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)  # sampling interval of a measurement, not synchronisation
    return peak


def measured() -> list[Measured]:
    relay = [sys.executable, '-m', 'bench.relay']
    say = [sys.executable, '-m', 'bench.say_skill']
    question = '小范小范，贝旺路怎么走'
    return [
        Measured('floor: relay (bare rclpy)', relay, 'single', '你好', False),
        Measured('runtime: say skill', say, 'single', '你好', True),
        Measured('runtime: say skill', say, 'events', '你好', True),
        Measured('wayfinding_guide', ['wayfinding_guide'], 'single', question, True),
        Measured('wayfinding_guide', ['wayfinding_guide'], 'events', question, True),
    ]


WAYFINDING_QUESTIONS = ['小范小范，贝旺路怎么走', '3-01初心在哪里', '五零三怎么走',
                        '三楼厕所', '哪里可以喝水', '会议室怎么走', '七楼健身房怎么走',
                        '北望路怎么走', '四楼打印机', '库房']


def wayfinding_cores() -> list[dict]:
    """One utterance through the wayfinding core, round robin over typical questions."""
    building = load(paths.config('wayfinding/building.yaml'), Building)
    core = WayfindingCore(building, 30.0)
    resolver, composer = core.resolver, core.composer
    texts = itertools.cycle(WAYFINDING_QUESTIONS)
    heard = itertools.cycle([Heard(Utterance(Source.ASR, t, True, 'u'))
                             for t in WAYFINDING_QUESTIONS])
    initial = core.initial()
    return [
        throughput('wayfinding: resolve one utterance (read, rules, phrases)',
                   lambda: composer.answer(resolver.resolve(resolver.read(
                       resolver.clean(next(texts)))))),
        throughput('wayfinding: one core step (utterance -> effects)',
                   lambda: core.step(initial, next(heard))),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(prog='make bench')
    parser.add_argument('--events', type=int, default=1000)
    parser.add_argument('--lessons', type=int, default=20)
    args = parser.parse_args()
    with published.captured() as printed:
        run(args)
    published.publish(printed.getvalue())


def run(args: argparse.Namespace) -> None:
    """Measure every figure in one run and print the tables."""
    os.environ.setdefault('ROS_DOMAIN_ID', str(200 + os.getpid() % 30))
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    rclpy.init()
    print(f'robot_skills bench: {platform.node()}, {os.cpu_count()} cores, '
          f'python {platform.python_version()}, {args.events} events per path')
    results = [measure(path, args.events, i) for i, path in enumerate(measured())]
    lessons = classroom(args.lessons, len(results))
    coordinated = coordinator.round_trips(min(args.events, 500), len(results) + 1)
    discussed = discussion.round_trips(min(args.events, 600), len(results) + 2)
    recorded = records.round_trips(min(args.events, 500), len(results) + 3)
    over_mcp = mcp_http.measure(min(args.events, 500), len(results) + 5)
    edged = edges.measure(len(results) + 4)
    started = startup.measure()
    rclpy.shutdown()
    floor = results[0]
    cores = [
        throughput('parse an AsrEvent into an utterance',
                   lambda: from_asr('u', '小范小范，贝旺路怎么走', True, True, 1.0, 2000)),
        throughput('parse an asr/json payload',
                   lambda: from_asr_json(ASR_JSON, 'u', 2000)),
        throughput('judge a gesture receipt',
                   lambda: judge(ArmGesture('welcome', 'left'),
                                 Receipt('completed', 'welcome', 'a1'))),
        throughput('judge a speech receipt', lambda: judge(Speak('你好'), Receipt('completed'))),
        *wayfinding_cores(),
        *classroom_cores(),
        *coordinator.cores(),
        *discussion.cores(),
        *records.cores(),
    ]
    sim_rss = simulation_rss()
    report(floor, results, cores, sim_rss, lessons, coordinated, discussed, recorded)
    mcp_http.report(over_mcp, recorded)
    edges.report(edged)
    startup.report(started)
    crisis.report(crisis.measure())


def report(floor: dict, results: list[dict], cores: list[dict], sim_rss: float,
           lessons: dict, coordinated: dict, discussed: dict, recorded: dict) -> None:
    pubsub, goal = floor.get('pubsub', []), floor.get('goal_round_trip', [])
    if not pubsub:
        raise RuntimeError('the relay floor printed no publish -> callback figures on exit')
    rows = [('floor: publish -> callback, 2 processes', percentile(pubsub, 0.5),
             percentile(pubsub, 0.99), ''),
            ('floor: action goal round trip, 2 processes', percentile(goal, 0.5),
             percentile(goal, 0.99), '')]
    for r in results:
        ratio = f'{r["p50"] / floor["p50"]:.2f}x' if r is not floor else '1.00x'
        rows.append((f'{r["label"]} ({r["executor"]}): event -> goal accepted', r['p50'],
                     r['p99'], ratio + (f', {r["lost"]} lost' if r['lost'] else '')))
    rows.append(('learning_coordinator (single): request -> decision received',
                 coordinated['p50'], coordinated['p99'],
                 f'{coordinated["p50"] / floor["p50"]:.2f}x'
                 + (f', {coordinated["lost"]} lost' if coordinated['lost'] else '')))
    rows.append(('pbl_ta (single): turn published -> refresh answered', discussed['refresh_p50'],
                 discussed['refresh_p99'], f'{discussed["refresh_p50"] / floor["p50"]:.2f}x'))
    rows.append((f'pbl_ta (single): discuss called -> speech goal accepted '
                 f'({discussed["speeches"]} times)', discussed['speech_p50'],
                 discussed['speech_p99'], f'{discussed["speech_p50"] / floor["p50"]:.2f}x'))
    for kind, what in (('write', 'add_flashcard, committed'), ('read', 'verify_prep of a lesson')):
        rows.append((f'learning_records: records/call answered ({what}; target p50 <= 5 ms)',
                     recorded[f'{kind}_p50'], recorded[f'{kind}_p99'],
                     f'{recorded[f"{kind}_p50"] / floor["p50"]:.2f}x'))
    print('\n| path | p50 ms | p99 ms | p50 vs relay floor |\n|---|---|---|---|')
    for label, p50, p99, ratio in rows:
        print(f'| {label} | {p50:.3f} | {p99:.3f} | {ratio} |')
    print('\n| pure core (one core) | calls/s | median us |\n|---|---|---|')
    for c in cores:
        print(f'| {c["label"]} | {c["per_second"]:,.0f} | {c["median_us"]:.1f} |')
    print('\n| process | RSS MB |\n|---|---|')
    print(f'| mock_hardware | {results[0]["rss_mock_mb"]:.0f} |')
    for r in results:
        if r['executor'] == 'single':
            print(f'| {r["label"]} | {r["rss_node_mb"]:.0f} |')
    print(f'| classroom_presenter | {lessons["rss_node_mb"]:.0f} |')
    print(f'| learning_coordinator | {coordinated["rss_node_mb"]:.0f} |')
    print(f'| pbl_ta | {discussed["rss_node_mb"]:.0f} |')
    print(f'| learning_records | {recorded["rss_node_mb"]:.0f} |')
    print(f'| robot_skills_sim, whole simulation (peak) | {sim_rss:.0f} |')
    print(f'\n| classroom ({lessons["lessons"]} three-point lessons, instant mock hardware) | '
          f'figure |\n|---|---|')
    print(f'| barrier released -> next batch sent, p50 / p99 over {lessons["releases"]} batches '
          f'| {lessons["release_p50"]:.3f} / {lessons["release_p99"]:.3f} ms |')
    print(f'| whole lesson (request, 3 answers, farewell), p50 / max | '
          f'{lessons["wall_p50"]:.0f} / {lessons["wall_max"]:.0f} ms |')


if __name__ == '__main__':
    main()
