"""The coordinator's half of ``make bench-scale`` (issue 17): a year of a school, then its reads.

``build(path, learners)`` fills a coordinator store with a year of realistic
history through the project's own core: per learner, 365 routed requests
(``CoordinatorService.request``, the path the node takes; everyday utterances
of the routing tables: errors with units, a subject's problem, 以为懂了但说不清,
notes, plans, focus, English and classical Chinese, cross-subject themes, the
odd hyperbole, one crisis a year, and reminders) with ``now`` moving one day
per request over the year, and a ``reminder_sync`` handover (through
``CoordinatorService.handover``) for most reminders, a few hours after it was
queued. Learners are interleaved day by day, as a school's requests arrive. It
costs the same for each learner whatever the store's size (linear time); the
cost is the core's decision (about 0.3 ms a request), so from ``PARALLEL``
learners on the learners are split between two processes (the machine's two
cores), each building its part in a store of its own, and the second part is
then copied into the first (``_merge``, one INSERT ... SELECT per table). The
second process is ``python -m bench.scale_coordinator --part ...`` (not
``multiprocessing``, which would import the caller's main module again).

For the build only, the store's writer connection runs with ``PRAGMA
synchronous=OFF`` (a bench store need not survive a power cut; every commit
still goes through the same transactions and indexes); ``measure`` reopens it
as the node does (``synchronous=FULL``).

``measure(path, learner_ids, samples)`` times, per call in seconds, the core
paths the node's services and subscription run: a routing decision
(``request``, with no dedupe window, so that every routed request writes its
dispatch and record, one committed transaction with ``synchronous=FULL``, as a
new question does), the health check (``health``) and the monthly report
(``monthly_report``) of one learner, the learners taken in turn. It measures a
copy of the store (SQLite's backup), so the records its routed requests write
never reach the store a driver keeps for the next run.
The driver (``bench/scale.py``) measures RSS.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import unicodedata
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.coordinator import coordinator
from robot_skills.coordinator.core import Request
from robot_skills.coordinator.service import CoordinatorService, Windows
from robot_skills.coordinator.store import Store

DAYS = 365


def start() -> datetime:
    """The first evening of the year built now: it ends yesterday, so that the node, whose
    health check reads the 30 days before its own clock, reads a month of history."""
    today = datetime.now(UTC).replace(hour=18, minute=0, second=0, microsecond=0)
    return today - timedelta(days=DAYS)


# What learners say, from the routing tables (test/coordinator/test_routing.py), weighted
# by repetition towards the everyday: problems, errors, understanding, notes, plans, focus.
UTTERANCES = (
    '一个10N的力拉物体，这道题我做错了不知道为什么', '这道题怎么做', '这个方程怎么解',
    '压强是200Pa，面积怎么求，这道题怎么做', '电阻是5Ω，这道题怎么做', '电压12V，为什么不对',
    '做功100J，这题怎么算', '三角形的边长是5cm，这道题怎么做', '一次函数的图像这道题怎么做',
    '浮力怎么求，这题怎么算', '电路图看不懂，这道题怎么做', '三角形面积不会做',
    '摩擦力的方向不会做', '这道题的不等式怎么解', '杠杆平衡这题怎么算', '定语从句不会做',
    '被动语态这道题怎么做', '这首古诗怎么赏析，不会做', '病句这道题怎么做', '概率题怎么解',
    '透镜成像不会做', '第3题我又错了', '方程又错了', '浮力又错了', '这道题我算错了',
    '受力分析图画错了', '单位换算看反了，扣了分', '浮力我以为懂了，一讲就讲不出来',
    '一次函数我以为懂了，但说不清', '学完就忘，记不住', '这章学完了没沉淀下来',
    '写作业老被手机打断', '上课总走神', '计划完不成', '作业太多，开不了头', '没时间复习',
    'What is the main idea of this passage? 这道题怎么做',
    'I do not know why the answer is wrong', 'Tom goes to school by bus every day 这句话错在哪',
    '学而时习之，不亦说乎？有朋自远方来，不亦乐乎？这道题怎么做', '丝绸之路和地理有什么关系',
    '气候变化跟物理的浮力有关吗', '这道题要杀死我了，这个方程怎么解', '这周的复盘',
)
CONCEPTS = ('浮力', '一次函数', '欧姆定律', '定语从句', '压强', '二次函数', '文言虚词', '杠杆',
            '透镜成像', '概率')
CRISIS = '我真的不想活了'
STATUSES = ('sent', 'acknowledged', 'completed', 'acknowledged', 'dismissed')
REMINDER_EVERY = 9        # about 40 reminders per learner a year
SYNCED = 0.8              # of them, this share is reported back by a reminder_sync
PARALLEL = 50             # from this many learners on, build in two processes
TABLES = {                # the columns copied by _merge (ids are given anew)
    'learner': 'learner_id, consent, privacy',
    'linkage': 'learner_id, date, trigger_source, concept, skills, correction, feynman, '
               'notes, plan, focus, result, root_cause, mastered, needs_retest, needs_plan, '
               'needs_focus',
    'dispatch': 'learner_id, concept, skill, at',
    'reminder': 'learner_id, kind, content, at, merged, status',
    'referral': 'learner_id, at, fact',
    'handover': 'session_id, kind, body, at',
}


class _Clock:
    """The service's memory clock, moved with ``now`` (the year passes in the build)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __call__(self) -> float:
        return self.seconds


def learner_ids(learners: int) -> list[str]:
    return [f'student-{n:05d}' for n in range(learners)]


def build(path: str, learners: int) -> list[str]:
    """A store at ``path`` with a year of history for ``learners`` learners; their ids."""
    ids = learner_ids(learners)
    first_day = start()
    workers = min(2, os.cpu_count() or 1) if learners >= PARALLEL else 1
    if workers == 1:
        _build(path, ids, 0, first_day)
        return ids
    half = (learners + 1) // 2
    part = f'{path}.part'
    root = str(Path(__file__).resolve().parents[1])
    environment = {**os.environ, 'PYTHONPATH': os.pathsep.join(
        [root, *filter(None, [os.environ.get('PYTHONPATH')])])}
    other = subprocess.Popen([sys.executable, '-m', 'bench.scale_coordinator', '--part', part,
                              str(learners), str(half), first_day.isoformat()],
                             cwd=root, env=environment)
    try:
        _build(path, ids[:half], 0, first_day)
    finally:
        status = other.wait()
    if status != 0:
        raise RuntimeError(f'building the second half of the store failed (status {status})')
    _merge(path, part)
    return ids


def _merge(path: str, part: str) -> None:
    """Copy every row of the store ``part`` into the store at ``path``, then remove it."""
    store = Store(Path(path))
    db = store._db
    try:
        db.execute('ATTACH DATABASE ? AS part', (part,))
        with store._transaction():
            for table, columns in TABLES.items():
                order = f' ORDER BY {table}_id' if table in ('linkage', 'reminder',
                                                              'handover') else ''
                order = ' ORDER BY record_id' if table == 'linkage' else order
                db.execute(f'INSERT INTO main.{table} ({columns}) '
                           f'SELECT {columns} FROM part.{table}{order}')
        db.execute('DETACH DATABASE part')
    finally:
        store.close()
    for suffix in ('', '-wal', '-shm'):
        Path(part + suffix).unlink(missing_ok=True)


def _build(path: str, ids: list[str], first: int, first_day: datetime) -> None:
    """The year from ``first_day`` of the learners ``ids`` (numbered from ``first``) in the
    store at ``path``."""
    store = Store(Path(path))
    store._db.execute('PRAGMA synchronous=OFF')     # the build only (module docstring)
    clock = _Clock(first_day.timestamp())
    service = CoordinatorService(coordinator(), store, Windows(), clock=clock)
    try:
        for learner in ids:
            service.consent(learner, json.dumps({'crossSkillSharing': True,
                                                 'reminderConsent': True}))
        for day in range(DAYS):
            for number, learner in enumerate(ids, start=first):
                _day(service, clock, learner, number, first_day + timedelta(days=day),
                     day)
    finally:
        store.close()


def _day(service: CoordinatorService, clock: _Clock, learner: str, number: int,
         evening: datetime, day: int) -> None:
    """One learner's request of one day (and the sync of a reminder queued that day)."""
    rng = random.Random(number * 1000 + day)
    now = evening + timedelta(minutes=number % 180)
    clock.seconds = now.timestamp()
    if day == 100 + number % 200:                       # one crisis a year
        text = CRISIS
    elif (day + number) % REMINDER_EVERY == 0:
        text = f'提醒我复习{rng.choice(CONCEPTS)}第{rng.randrange(1, 40)}题（{learner}）'
    else:
        text = rng.choice(UTTERANCES)
    decision = service.request(Request(f'{learner}-{day}', learner, text), now)
    if decision.action == 'crisis_referral':            # the learner returns to learning
        service.request(Request(f'{learner}-{day}b', learner, '这个方程怎么解'), now)
    if decision.action == 'reminder' and 'kind' in decision.detail and rng.random() < SYNCED:
        later = now + timedelta(hours=3)
        queued = unicodedata.normalize('NFKC', text).strip()[:60]    # as the core queued it
        service.handover(_sync(learner, day, decision.detail['kind'], queued,
                               rng.choice(STATUSES), later), later)


def _sync(learner: str, day: int, kind: str, content: str, status: str,
          at: datetime) -> str:
    return json.dumps({
        'sessionId': f'sync-{learner}-{day}', 'protocolVersion': '2.1',
        'handoverType': 'reminder_sync', 'sender': 'xiaozhi-im-reminder',
        'recipient': 'xiaozhi-skill-coordinator',
        'consent': {'crossSkillSharing': True, 'reminderConsent': True},
        'payload': {'reminderData': {'reminderType': kind, 'content': content,
                                     'status': status}},
        'timestamp': at.isoformat()}, ensure_ascii=False)


def measure(path: str, learner_ids: list[str], samples: int) -> dict[str, list[float]]:
    """Seconds per call of a routing decision, the health check and the monthly report, each
    for one learner (taken in turn), on the store as the node opens it."""
    end = last_evening(path)
    with tempfile.TemporaryDirectory() as folder:
        copy = str(Path(folder) / 'measured.sqlite3')
        with closing(sqlite3.connect(path)) as source, closing(sqlite3.connect(copy)) as target:
            source.backup(target)
        return _measure(copy, learner_ids, samples, end)


def _measure(path: str, learner_ids: list[str], samples: int,
             end: datetime) -> dict[str, list[float]]:
    store = Store(Path(path))
    clock = _Clock(end.timestamp())
    service = CoordinatorService(coordinator(), store, Windows(dedupe=0.0), clock=clock)
    texts = itertools.cycle(UTTERANCES[:30])
    learners = itertools.cycle(learner_ids)
    calls = {       # the reads first: the routed requests then add records of their own
        'health check': lambda learner: service.health(learner, end),
        'monthly report': lambda learner: service.monthly_report(learner, True, '', end),
        'routing decision': lambda learner: service.request(
            Request('m', learner, next(texts)), end),
    }
    figures: dict[str, list[float]] = {}
    try:
        for name, call in calls.items():
            for _ in range(min(20, samples)):             # warm the caches and connections
                call(next(learners))
            seconds = []
            for _ in range(samples):
                learner = next(learners)
                started = time.perf_counter()
                call(learner)
                seconds.append(time.perf_counter() - started)
            figures[name] = seconds
    finally:
        store.close()
    return figures


def last_evening(path: str) -> datetime:
    """The end of the year stored at ``path``: the evening of its last linkage record."""
    with closing(sqlite3.connect(path)) as db:
        row = db.execute('SELECT date FROM linkage ORDER BY record_id DESC LIMIT 1').fetchone()
    return datetime.fromisoformat(row[0]).replace(hour=22, tzinfo=UTC)


def main() -> None:
    """``python -m bench.scale_coordinator [learners ...]``: build and measure, printed.
    (``--part PATH LEARNERS FIRST``: build the learners from FIRST on, for ``build``.)"""
    import resource

    if sys.argv[1:2] == ['--part']:
        path, learners, first = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        _build(path, learner_ids(learners)[first:], first, datetime.fromisoformat(sys.argv[5]))
        return

    from bench.figures import percentile
    for learners in [int(a) for a in sys.argv[1:]] or [10, 100]:
        with tempfile.TemporaryDirectory() as folder:
            path = f'{folder}/coordinator.sqlite3'
            started, cpu = time.perf_counter(), _cpu(resource)
            ids = build(path, learners)
            built, cpu = time.perf_counter() - started, _cpu(resource) - cpu
            size = Path(path).stat().st_size / 2**20
            print(f'{learners} learners: built in {built:.1f} s ({cpu:.1f} s of CPU), '
                  f'{size:.1f} MB', flush=True)
            for name, seconds in measure(path, ids, 400).items():
                ms = [s * 1e3 for s in seconds]
                print(f'  {name}: p50 {percentile(ms, 0.5):.2f} ms, '
                      f'p99 {percentile(ms, 0.99):.2f} ms', flush=True)


def _cpu(resource) -> float:
    """CPU seconds of this process and its finished children (the build's second half)."""
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


if __name__ == '__main__':
    main()
