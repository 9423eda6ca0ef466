"""The learning coordinator's figures: one routing decision, a monthly report, a DDS round trip.

Targets of issue 5: one routing decision in the core <= 1 ms median; the
monthly report over 10,000 stored linkage records <= 200 ms (read from SQLite
and composed, as the node does it).
"""

from __future__ import annotations

import itertools
import os
import tempfile
import time
from datetime import datetime
from pathlib import Path

from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node

from bench.figures import RELIABLE, percentile, rss_mb, spin_until, start, stop, throughput
from robot_skills import interface
from robot_skills.adapters.config import load
from robot_skills.coordinator.core import Coordinator, LearnerView, Request
from robot_skills.coordinator.crisis_model import CrisisModel
from robot_skills.coordinator.lexicon import Crisis, Phrases, Routing
from robot_skills.coordinator.records import ConsentBits, LinkageRecord
from robot_skills.coordinator.service import CoordinatorService, Windows
from robot_skills.coordinator.store import Store
from robot_skills.runtime import paths
from robot_skills_interfaces.msg import LearningRequest, RoutingDecision

REQUESTS = ['一个10N的力拉物体，这道题我做错了不知道为什么', '这道题怎么做', '这个方程怎么解',
            'What is the main idea of this passage? 这道题怎么做', '浮力我以为懂了，一讲就讲不出来',
            '丝绸之路和地理有什么关系', '这道题要杀死我了，这个方程怎么解', '我不想活了',
            '电阻是5Ω，这道题怎么做', '学完就忘，记不住']
RECORDS = 10_000
CONCEPTS = ['一次函数', '浮力', '压强', '欧姆定律', '二次函数', '定语从句', '文言虚词', '杠杆']


def coordinator() -> Coordinator:
    return Coordinator(load(paths.config('coordinator/routing.yaml'), Routing),
                       load(paths.config('coordinator/crisis.yaml'), Crisis),
                       load(paths.config('coordinator/crisis_model.json'), CrisisModel),
                       load(paths.config('coordinator/phrases.yaml'), Phrases))


def cores() -> list[dict]:
    core = coordinator()
    now = datetime.now()
    requests = itertools.cycle([Request('b', 'l', text) for text in REQUESTS])
    view = LearnerView()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / 'bench.sqlite3')
        store.set_consent('l', ConsentBits(crossSkillSharing=True))
        store.add_records(_records(now))
        service = CoordinatorService(core, store, Windows())
        figures = [
            throughput('coordinator: one routing decision (target <= 1 ms median)',
                       lambda: core.decide(next(requests), view, now)),
            throughput(f'coordinator: monthly report over {RECORDS:,} stored records, SQLite '
                       'read included (target <= 200 ms)',
                       lambda: service.monthly_report('l', True, '', now), seconds=3.0)]
        store.close()
    return figures


def _records(now: datetime) -> list[LinkageRecord]:
    month = now.strftime('%Y-%m')
    return [LinkageRecord(learner_id='l', date=f'{month}-{1 + i % 28:02d}',
                          trigger_source='错题', concept=CONCEPTS[i % len(CONCEPTS)],
                          skills=('xiaozhi-correction-notebook',),
                          correction=i % 2 == 0, feynman=i % 3 == 0, notes=i % 5 == 0,
                          plan=i % 7 == 0, focus=i % 11 == 0, mastered=i % 4 == 0,
                          root_cause='概念模糊' if i % 3 else '计算失误', needs_plan=i % 14 == 0)
            for i in range(RECORDS)]


def round_trips(count: int, index: int) -> dict:
    """LearningRequest published -> RoutingDecision received, coordinator in another process."""
    namespace = f'/bench{os.getpid()}_{index}'
    with tempfile.TemporaryDirectory() as folder:
        node = start(['learning_coordinator'], namespace,
                     params=('-p', f'store_path:={folder}/bench.sqlite3',
                             '-p', 'dedupe_window:=0.0'))
        probe = Node('bench_learner', namespace=namespace)
        executor = SingleThreadedExecutor()
        executor.add_node(probe)
        decisions: dict[str, float] = {}
        probe.create_subscription(RoutingDecision, interface.COORDINATOR_DECISIONS.name,
                                  lambda d: decisions.setdefault(d.request_id,
                                                                 time.perf_counter()), RELIABLE)
        requests = probe.create_publisher(LearningRequest, interface.COORDINATOR_REQUESTS.name,
                                           RELIABLE)
        samples: list[float] = []
        try:
            if not spin_until(executor, lambda: requests.get_subscription_count() > 0, 30.0):
                raise RuntimeError('learning_coordinator never subscribed')
            for i, text in zip(range(count + 50), itertools.cycle(REQUESTS)):
                sent = time.perf_counter()
                requests.publish(LearningRequest(request_id=str(i), learner_id='l', text=text))
                if spin_until(executor, lambda i=i: str(i) in decisions, 2.0):
                    samples.append((decisions[str(i)] - sent) * 1e3)
            samples = samples[50:]
            result = {'p50': percentile(samples, 0.5), 'p99': percentile(samples, 0.99),
                      'lost': count - len(samples), 'rss_node_mb': rss_mb(node)}
        finally:
            probe.destroy_node()
            stop(node)
    return result

