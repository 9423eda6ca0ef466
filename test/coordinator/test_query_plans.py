"""No statement the coordinator's store issues reads a whole table that grows with learners.

A small school is built by the bench's own builder (``bench.scale_coordinator``:
a year of requests and reminder syncs through the service), then the service is
driven through every flow the node serves (requests of every kind, handovers,
the monthly report, the health check, consent, every privacy action, the
purge) while ``sql_statements`` collects what every connection of the store
(writer and readers) issues. Each statement issued, and each coordinator statement the rest of the
suite issued (``sql_statements.SEEN``, when it runs in the same session), is
planned with ``EXPLAIN QUERY PLAN`` against the built store; a ``SCAN`` of any
table fails. Every table of the coordinator grows with learners.
"""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import sql_statements

from bench.scale_coordinator import UTTERANCES, build, last_evening
from robot_skills.coordinator.core import Request
from robot_skills.coordinator.service import PRIVACY_ACTIONS, CoordinatorService, Windows
from robot_skills.coordinator.store import Store
from robot_skills.runtime import paths

TABLES = frozenset({'learner', 'linkage', 'dispatch', 'reminder', 'referral', 'handover'})
SPOKEN = ('提醒我复习浮力第3题', '提醒我复习浮力第3题', '我真的不想活了', '这个方程怎么解',
          '做一次全景月报', '我的学习系统运转得好吗', '查看我的联动记录', '这次不要记忆',
          '浮力又错了', '不要写回档案', '浮力又错了', '删除我的联动记录', '不确定', '删除我的联动记录',
          '确定')


@pytest.fixture(scope='module')
def school(tmp_path_factory):
    path = tmp_path_factory.mktemp('school') / 'coordinator.sqlite3'
    learners = build(str(path), 3)
    return path, learners, last_evening(str(path))


def _sync(content: str, now: datetime) -> str:
    return json.dumps({
        'sessionId': 'plan', 'protocolVersion': '2.1', 'handoverType': 'reminder_sync',
        'sender': 'xiaozhi-im-reminder', 'recipient': 'xiaozhi-skill-coordinator',
        'consent': {'crossSkillSharing': True, 'reminderConsent': True},
        'payload': {'reminderData': {'reminderType': 'plan_task', 'content': content,
                                     'status': 'completed'}},
        'timestamp': now.isoformat()}, ensure_ascii=False)


def _drive(service: CoordinatorService, learner: str, now: datetime) -> None:
    """Every flow the node serves, on one learner of the school (and one stranger)."""
    records = service.privacy(learner, 'view', '', now).data
    service.privacy(learner, 'correct', json.dumps(
        {'record_id': records[-1]['record_id'], 'fields': {'mastered': True}}), now)
    for n, text in enumerate((*UTTERANCES, *SPOKEN)):
        service.request(Request(f'p{n}', learner, text), now + timedelta(seconds=n))
    later = now + timedelta(minutes=5)
    service.handover(_sync('提醒我复习浮力第3题', later), later)
    service.handover(_sync('nobody queued this', later), later)
    raw = Path(paths.config('schemas/examples/wrong-answer-handover.example.json')).read_text(
        encoding='utf-8')
    service.handover(raw, later)
    for who in (learner, 'stranger'):
        service.monthly_report(who, True, '', later)
        service.monthly_report(who, False, '', later)
        service.health(who, later)
        service.consent(who, '')
        service.consent(who, '{"crossSkillSharing": true}')
    arguments = {'pause_linkage': '{"skill": "xiaozhi-feynman-learning"}',
                 'resume_linkage': '{"skill": "xiaozhi-feynman-learning"}'}
    for action in PRIVACY_ACTIONS:
        if action != 'correct':
            service.privacy(learner, action, arguments.get(action, ''), later)
    service.privacy(learner, 'delete', '', later)
    service.privacy(learner, 'confirm_delete', '', later)
    service.purge()
    # the store's other reads (diagnostics and tests; no request path uses them)
    store = service.store
    store.reminders(learner), store.referrals(learner), store.handovers('reminder_sync')
    store.reminder_status(1)


def test_no_statement_scans_a_table_that_grows_with_learners(school):
    path, learners, now = school
    store = Store(path)
    try:
        with sql_statements.captured() as seen:
            _drive(CoordinatorService(_coordinator(), store, Windows()), learners[1], now)
    finally:
        store.close()
    ours = set(seen)
    statements = [*seen.values(), *(s for shape, s in sql_statements.SEEN.items()
                                    if shape not in seen)]
    with sqlite3.connect(path) as db:
        scans, planned = sql_statements.full_scans(db, statements, TABLES)
    assert planned >= len(ours) >= 25, sorted(ours)
    for needed in (r'FROM reminder WHERE learner_id = \? AND at >= \?',     # the health check
                   r'date >= \? AND date < \?',                              # the monthly report
                   r'UPDATE reminder SET status'):                           # a reminder_sync
        assert any(re.search(needed, shape) for shape in ours), needed
    assert not scans, 'full scans:\n' + '\n'.join(
        f'{line}: {sql_statements.shape(statement)}' for statement, line in scans)


def _coordinator():
    from bench.scale_coordinator import coordinator
    return coordinator()
