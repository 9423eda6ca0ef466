"""``make bench-scale`` (issue 17): a school's year of data at 10, 100 and 1,000 learners.

For each size: ``bench.school`` builds a records store and ``bench.scale_coordinator``
a coordinator store, each with a year of realistic history per learner made through
the project's own core (their docstrings say how); then the real nodes
(``learning_records``, ``learning_coordinator``) are started on those stores and
every read is timed over ROS, the learners taken in turn: each read tool, the
course check (``verify_prep`` of 30 lessons), ``publish_lesson``, the health check
and a routing decision, and the monthly report through the service core (the
year ends the day before the bench runs, so the node's month would be empty).
Also: a cheap call sent while a course check runs (answered before it?), and the
nodes' RSS at start and after the calls. Printed next to the targets: p50 <= 5 ms
for every single-learner read at 1,000 learners, growth from 10 to 1,000 <= 2x,
a 30-lesson course check <= 100 ms, RSS within 20 MB of the start.

``ROBOT_SKILLS_SCALE`` picks the sizes (default ``10,100,1000``); stores are built in
``build/bench-scale/`` and reused by the next run when the builders and the schema
have not changed (their hash is in the file name; the coordinator's also needs the
same day: delete the folder after changing the tools themselves); the nodes run on
copies, so a run never changes what the next one reads. Routing is timed with no
dedupe window, so every decision commits its write.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node

from bench import scale_coordinator, school
from bench.figures import RELIABLE, ROOT, percentile, rss_mb, spin_until, start, stop
from robot_skills import interface
from robot_skills.coordinator import store as coordinator_store
from robot_skills.records import store as records_store
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.msg import LearningRequest, RoutingDecision
from robot_skills_interfaces.srv import HealthCheck, RecordsCall

SAMPLES = 200           # calls per read at each size (the learners taken in turn)
COURSE_SAMPLES = 30
WARM = 20
READS = {               # tool -> the ids of a learner it is called with
    'get_context': ('pair_id',),
    'get_learner_brief': ('pair_id',),
    'get_teacher_inbox': ('pair_id',),
    'get_lesson': ('pair_id', 'lesson_id'),
    'get_exercise': ('pair_id', 'exercise_id'),
    'get_submission': ('pair_id', 'submission_id'),
    'get_lesson_closure_facts': ('pair_id', 'lesson_id'),
    'live_session_get': ('pair_id', 'live_session_id'),
    'live_snapshot_get_latest': ('pair_id', 'live_session_id'),
    'verify_prep': ('pair_id', 'lesson_id'),
    'publish_lesson': ('pair_id', 'lesson_id'),        # a write: the Publish Gate runs
}
FOLDER = ROOT / 'build' / 'bench-scale'


def main() -> None:
    sizes = [int(n) for n in os.environ.get('ROBOT_SKILLS_SCALE', '10,100,1000').split(',')]
    FOLDER.mkdir(parents=True, exist_ok=True)
    rclpy.init()
    try:
        results = {size: one_size(size) for size in sizes}
    finally:
        rclpy.shutdown()
    print_table(results)


def one_size(size: int) -> dict[str, dict]:
    """Build (or reuse) the stores of ``size`` learners, then time every call over ROS."""
    figures: dict[str, dict] = {}
    records_path = FOLDER / f'records-{size}-{_digest(school.__file__)}.sqlite3'
    learners = _school(records_path, size)
    # the coordinator's year ends the day before it is built: a store of another day is stale
    day = datetime.now(UTC).strftime('%Y%m%d')
    coordinator_path = FOLDER / (f'coordinator-{size}-{day}-'
                                 f'{_digest(scale_coordinator.__file__)}.sqlite3')
    learner_ids = _coordinator(coordinator_path, size)
    with tempfile.TemporaryDirectory(dir=FOLDER) as folder:     # the nodes write: on copies
        figures.update(_records_over_ros(_copy(records_path, folder), learners, size))
        figures.update(_coordinator_over_ros(_copy(coordinator_path, folder), learner_ids,
                                             size))
    for name, seconds in scale_coordinator.measure(str(coordinator_path), learner_ids,
                                                   SAMPLES).items():
        if name == 'monthly report':
            figures['coordinator monthly report (core)'] = _summary([s * 1e3 for s in seconds])
    return figures


def _copy(path: Path, folder: str) -> Path:
    """A consistent copy of a store (SQLite's backup), for a node that writes to it."""
    copy = Path(folder) / path.name
    with sqlite3.connect(path) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    source.close()
    target.close()
    return copy


def _digest(builder: str) -> str:
    """What a stored bench school depends on: its builder and the stores' schemas."""
    text = Path(builder).read_text() + ''.join(records_store.MIGRATIONS) + \
        ''.join(coordinator_store.MIGRATIONS)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def _kept(path: Path, stale: str, make: Callable[[], object]) -> Any:
    """What ``make()`` returned when it built ``path`` (kept beside it as JSON); built only
    when this exact store is not kept already, replacing the ``stale`` ones."""
    index = path.with_suffix('.json')
    if not (path.exists() and index.exists()):
        for old in path.parent.glob(stale):
            old.unlink()
        index.write_text(json.dumps(make()))
    return json.loads(index.read_text())


def _school(path: Path, size: int) -> list[school.Learner]:
    def make() -> list[dict]:
        began = time.perf_counter()
        built = school.build(str(path), size, workers=2 if size >= 100 else 1,
                             progress=_progress('records', size))
        tenth = max(1, size // 10)
        print(f'records, {size} learners: {built.calls:,} tool calls in '
              f'{time.perf_counter() - began:.0f} s, {built.size_bytes / 2**20:.0f} MB; per '
              f'learner first {_mean(built.learners[:tenth]):.2f} s, last '
              f'{_mean(built.learners[-tenth:]):.2f} s', flush=True)
        return [learner.__dict__ for learner in built.learners]
    return [school.Learner(**entry) for entry in _kept(path, f'records-{size}-*', make)]


def _coordinator(path: Path, size: int) -> list[str]:
    def make() -> list[str]:
        began = time.perf_counter()
        ids = scale_coordinator.build(str(path), size)
        print(f'coordinator, {size} learners: built in {time.perf_counter() - began:.0f} s, '
              f'{path.stat().st_size / 2**20:.0f} MB', flush=True)
        return ids
    return _kept(path, f'coordinator-{size}-*', make)


def _progress(what: str, size: int) -> Callable[[int, float], None]:
    step = max(1, size // 10)

    def report(done: int, seconds: float) -> None:
        if done % step == 0:
            print(f'  {what}: {done}/{size} learners, {seconds:.0f} s', flush=True)
    return report


def _mean(learners: list[school.Learner]) -> float:
    return sum(learner.seconds for learner in learners) / len(learners)


class Probe:
    """A node in the bench process that calls the node under test and times each answer."""

    def __init__(self, namespace: str) -> None:
        self.node = Node('bench_scale', namespace=namespace)
        self.executor = SingleThreadedExecutor()
        self.executor.add_node(self.node)

    def wait(self, future, timeout: float = 60.0):
        self.executor.spin_until_future_complete(future, timeout_sec=timeout)
        if not future.done():
            raise RuntimeError('no answer in time')
        return future.result()

    def close(self) -> None:
        self.executor.shutdown()
        self.node.destroy_node()


def _records_over_ros(path: Path, learners: list[school.Learner], size: int) -> dict[str, dict]:
    namespace = f'/scale{os.getpid()}_r{size}'
    node = start(['learning_records'], namespace, params=('-p', f'store_path:={path}'))
    probe = Probe(namespace)
    client = probe.node.create_client(RecordsCall, interface.RECORDS_CALL.name,
                                      qos_profile=profile(interface.DEEP_QOS))

    def send(tool: str, args: dict):
        return client.call_async(RecordsCall.Request(tool=tool, args_json=json.dumps(args)))

    def timed(tool: str, args: dict) -> float:
        began = time.perf_counter()
        answer = probe.wait(send(tool, args))
        if not answer.ok:
            raise RuntimeError(f'{tool}: {answer.code} {answer.error}')
        return (time.perf_counter() - began) * 1e3

    figures: dict[str, dict] = {}
    try:
        if not spin_until(probe.executor, client.service_is_ready, 30.0):
            raise RuntimeError('learning_records never came up')
        probe.wait(send('', {}))
        started_rss = rss_mb(node)
        for tool, names in READS.items():
            figures[f'records {tool}'] = _summary(_cycle(
                learners, SAMPLES, lambda learner, tool=tool, names=names: timed(
                    tool, _args(learner, names))))
        figures['records verify_prep, 30-lesson course'] = _summary(_cycle(
            learners, COURSE_SAMPLES, lambda learner: timed(
                'verify_prep', {'pair_id': learner.pair_id, 'course_id': learner.course_id})))
        figures['records cheap call during a course check'] = _during(
            probe, send, learners)
        figures['records node RSS (MB)'] = {'start': started_rss, 'end': rss_mb(node)}
    finally:
        probe.close()
        stop(node)
    return figures


def _args(learner: school.Learner, names: tuple[str, ...]) -> dict:
    ids = {'pair_id': learner.pair_id, 'lesson_id': learner.lesson_ids[len(learner.lesson_ids)
                                                                       // 2],
           'exercise_id': learner.exercise_id, 'submission_id': learner.submission_id,
           'live_session_id': learner.live_session_id}
    return {name: ids[name] for name in names}


def _during(probe: Probe, send, learners: list[school.Learner]) -> dict:
    """A get_lesson sent right behind a course check: its time, and whether it overtook."""
    cheap, overtook = [], 0
    for learner in learners[:COURSE_SAMPLES]:
        slow = send('verify_prep', {'pair_id': learner.pair_id, 'course_id': learner.course_id})
        began = time.perf_counter()
        probe.wait(send('get_lesson', _args(learner, ('pair_id', 'lesson_id'))))
        cheap.append((time.perf_counter() - began) * 1e3)
        overtook += not slow.done()
        probe.wait(slow)
    return {**_summary(cheap), 'overtook': f'{overtook}/{len(cheap)}'}


def _coordinator_over_ros(path: Path, learner_ids: list[str], size: int) -> dict[str, dict]:
    namespace = f'/scale{os.getpid()}_c{size}'
    node = start(['learning_coordinator'], namespace, params=(
        '-p', f'store_path:={path}', '-p', 'dedupe_window:=0.0'))    # every decision writes
    probe = Probe(namespace)
    health = probe.node.create_client(HealthCheck, interface.COORDINATOR_HEALTH_CHECK.name,
                                      qos_profile=profile(interface.DEEP_QOS))
    decisions: dict[str, float] = {}
    probe.node.create_subscription(RoutingDecision, interface.COORDINATOR_DECISIONS.name, lambda d:
                                   decisions.setdefault(d.request_id, time.perf_counter()),
                                   RELIABLE)
    requests = probe.node.create_publisher(LearningRequest, interface.COORDINATOR_REQUESTS.name,
                                                RELIABLE)
    texts = scale_coordinator.UTTERANCES
    figures: dict[str, dict] = {}
    try:
        if not spin_until(probe.executor, lambda: health.service_is_ready() and
                          requests.get_subscription_count() > 0, 30.0):
            raise RuntimeError('learning_coordinator never came up')
        probe.wait(health.call_async(HealthCheck.Request(learner_id=learner_ids[0])))
        started_rss = rss_mb(node)

        def check(learner: str) -> float:
            began = time.perf_counter()
            probe.wait(health.call_async(HealthCheck.Request(learner_id=learner)))
            return (time.perf_counter() - began) * 1e3
        figures['coordinator health_check'] = _summary(_cycle(learner_ids, SAMPLES, check))
        sent = iter(range(10**9))

        def route(learner: str) -> float:
            request_id = f'r{next(sent)}'
            began = time.perf_counter()
            requests.publish(LearningRequest(request_id=request_id, learner_id=learner,
                                             text=texts[int(request_id[1:]) % len(texts)]))
            if not spin_until(probe.executor, lambda: request_id in decisions, 10.0):
                raise RuntimeError('no routing decision')
            return (decisions[request_id] - began) * 1e3
        figures['coordinator routing decision'] = _summary(_cycle(learner_ids, SAMPLES, route))
        figures['coordinator node RSS (MB)'] = {'start': started_rss, 'end': rss_mb(node)}
    finally:
        probe.close()
        stop(node)
    return figures


def _cycle(items: list, count: int, call: Callable[[object], float]) -> list[float]:
    """``count`` timed calls after ``WARM`` untimed ones, the items taken in turn."""
    times = [call(items[i % len(items)]) for i in range(count + WARM)]
    return times[WARM:]


def _summary(ms: list[float]) -> dict:
    return {'p50': percentile(ms, 0.5), 'p99': percentile(ms, 0.99)}


def print_table(results: dict[int, dict[str, dict]]) -> None:
    sizes = sorted(results)
    first, last = sizes[0], sizes[-1]
    columns = ' | '.join(f'{n:,} learners p50 / p99' for n in sizes)
    print(f'\n| call (ms over ROS unless named) | {columns} | growth {first:,}→{last:,} (p50) '
          '| target |')
    print('|---|' + '---|' * len(sizes) + '---|---|')
    for name in results[first]:
        cells = [results[n].get(name, {}) for n in sizes]
        if 'RSS' in name:
            row = [f'{c["start"]:.0f} → {c["end"]:.0f}' for c in cells]
            growth = max(c['end'] - c['start'] for c in cells)
            print(f'| {name} | {" | ".join(row)} | +{growth:.0f} MB at most | within 20 MB |')
            continue
        row = [f'{c["p50"]:.1f} / {c["p99"]:.1f}' + (f' ({c["overtook"]} overtook)'
                                                       if 'overtook' in c else '') for c in cells]
        growth = cells[-1]['p50'] / max(cells[0]['p50'], 1e-9)
        target = ('≤ 100 ms' if 'course' in name and 'cheap' not in name else
                  '≤ 10 ms' if 'cheap' in name else '≤ 5 ms p50, ≤ 2× growth')
        print(f'| {name} | {" | ".join(row)} | {growth:.2f}× | {target} |')


if __name__ == '__main__':
    main()
