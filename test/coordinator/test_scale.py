"""Issue 17 in the store: migration 4, the health check over a window, the report by date range."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta

import pytest
from coordinator_talk import NOW, ask

from robot_skills.coordinator.records import LinkageRecord
from robot_skills.coordinator.store import MIGRATIONS, Store, month_range

REMINDER = '提醒我复习浮力'
INDEXES = {'reminder_by_learner', 'reminder_by_content', 'referral_by_learner',
           'handover_by_kind', 'linkage_by_learner', 'dispatch_by_key'}


def sync(content: str, status: str | None = 'completed', kind: str = 'plan_task') -> str:
    data = {'reminderType': kind, 'content': content, **({'status': status} if status else {})}
    return json.dumps({
        'sessionId': 's', 'protocolVersion': '2.1', 'handoverType': 'reminder_sync',
        'sender': 'xiaozhi-im-reminder', 'recipient': 'xiaozhi-skill-coordinator',
        'consent': {'crossSkillSharing': True, 'reminderConsent': True},
        'payload': {'reminderData': data}, 'timestamp': '2026-11-30T20:00:00+08:00'},
        ensure_ascii=False)


def record(date: str, learner: str = 'l1') -> LinkageRecord:
    return LinkageRecord(learner_id=learner, date=date, trigger_source='错题', concept='浮力',
                         skills=('xiaozhi-correction-notebook',), correction=True)


# ---- migration 4 ---------------------------------------------------------------------------

def test_a_version_3_file_gets_the_indexes_and_the_status_of_its_synced_reminders(tmp_path):
    path = tmp_path / 'coordinator.sqlite3'
    db = sqlite3.connect(path)
    db.executescript(''.join(MIGRATIONS[:3]) + 'PRAGMA user_version = 3;')
    db.executemany('INSERT INTO learner (learner_id) VALUES (?)', [('l1',), ('l2',)])
    reminders = [('l1', 'a', 100.0), ('l2', 'b', 100.0), ('l1', 'c', 100.0),
                 ('l1', 'b', 200.0), ('l2', 'd', 500.0)]
    db.executemany("INSERT INTO reminder (learner_id, kind, content, at) "
                   "VALUES (?, 'plan_task', ?, ?)", reminders)
    handovers = [(sync('a', 'sent'), 150.0),          # l1's a: sent, then
                 (sync('a', 'acknowledged'), 160.0),  # acknowledged (the latest wins)
                 (sync('b'), 150.0),                  # l2's b (l1's b was queued later)
                 (sync('c', None), 150.0),            # no status: nothing to set
                 (sync('d'), 300.0),                  # before d was queued: not d's
                 (sync('nobody'), 150.0),             # no such reminder: nobody's
                 ('{"not": "a sync"}', 150.0)]
    db.executemany("INSERT INTO handover (session_id, kind, body, at) "
                   "VALUES ('s', 'reminder_sync', ?, ?)", handovers)
    db.commit()
    db.close()
    store = Store(path)
    assert store.version == 4
    names = {row[1] for table in ('reminder', 'referral', 'handover', 'linkage', 'dispatch')
             for row in store._db.execute(f'PRAGMA index_list({table})')}
    assert names >= INDEXES
    statuses = dict(store._db.execute('SELECT reminder_id, status FROM reminder'))
    assert statuses == {1: 'acknowledged', 2: 'completed', 3: None, 4: None, 5: None}
    assert store.reminder_counts('l1', 0) == (3, 1) and store.reminder_counts('l2', 0) == (2, 1)
    assert len(store.handovers('reminder_sync')) == 7       # every handover kept as it was
    store.close()
    assert Store(path).reminder_counts('l1', 0) == (3, 1)   # reopening migrates nothing twice


def test_a_sync_arriving_now_sets_the_status_of_the_reminder_it_reports(tmp_path):
    store = Store(tmp_path / 'c.sqlite3')
    first = store.add_reminder('l1', 'plan_task', REMINDER, 100.0)
    other = store.add_reminder('l2', 'plan_task', '提醒我背单词', 100.0)
    assert store.add_handover('s', 'reminder_sync', '{}', 150.0,
                              ('plan_task', REMINDER, 'completed')) == first
    assert store.add_handover('s', 'reminder_sync', '{}', 160.0,
                              ('plan_task', REMINDER, None)) == first     # keeps 'completed'
    assert store.add_handover('s', 'reminder_sync', '{}', 170.0,
                              ('explore_task', REMINDER, 'completed')) is None   # another type
    assert store.reminder_status(first) == 'completed' and store.reminder_status(other) is None
    store.close()


# ---- the health check over its window ------------------------------------------------------------

def test_the_health_check_reads_one_learners_reminders_of_its_window(service):
    service.consent('l1', '{"crossSkillSharing": true, "reminderConsent": true}')
    service.consent('l2', '{"reminderConsent": true}')
    old = NOW - timedelta(days=40)
    assert ask(service, REMINDER, now=old).action == 'reminder'
    assert service.handover(sync(REMINDER), old + timedelta(hours=1)).accepted
    assert service.health('l1', NOW).indicators['提醒有回应'] == '没有记录，不能算健康'
    assert service.health('l1', old + timedelta(days=1)).indicators['提醒有回应'] == '健康'
    assert ask(service, '提醒我背单词', now=NOW).action == 'reminder'
    assert service.health('l1', NOW).indicators['提醒有回应'] == '需要补'
    ask(service, '提醒我背单词', learner='l2', now=NOW - timedelta(minutes=1))
    assert service.handover(sync('提醒我背单词', 'acknowledged'), NOW).accepted
    # the sync reports the later of the two equal reminders: l1's, not l2's
    assert service.health('l1', NOW).indicators['提醒有回应'] == '健康'
    assert service.health('l2', NOW).indicators['提醒有回应'] == '需要补'


def test_the_health_check_reads_the_records_of_its_window(service):
    service.consent('l1', '{"crossSkillSharing": true}')
    ask(service, '方程又错了', now=NOW - timedelta(days=31))
    assert service.health('l1', NOW).indicators['错题有记录'] == '没有记录，不能算健康'
    ask(service, '方程又错了', now=NOW - timedelta(days=29))
    assert service.health('l1', NOW).indicators['错题有记录'] == '健康'


# ---- the monthly report by date range -------------------------------------------------------

def test_a_month_is_a_date_range_and_december_runs_to_january():
    assert month_range('2026-11') == ('2026-11', '2026-12')
    assert month_range('2026-12') == ('2026-12', '2027-01')


@pytest.mark.parametrize('month, dates', [
    ('2026-11', ['2026-11-01', '2026-11-30']),
    ('2026-12', ['2026-12-01', '2026-12-31']),
    ('2027-01', ['2027-01-01']),
])
def test_records_of_a_month_at_its_boundaries(tmp_path, month, dates):
    store = Store(tmp_path / 'c.sqlite3')
    store.add_records([record(d) for d in ('2026-10-31', '2026-11-01', '2026-11-30',
                                           '2026-12-01', '2026-12-31', '2027-01-01')]
                      + [record('2026-12-15', learner='l2')])
    assert [r.date for r in store.records('l1', month)] == dates
    store.close()


def test_the_report_on_new_years_night_reads_january_only(service):
    service.consent('l1', '{"crossSkillSharing": true}')
    ask(service, '方程又错了', now=datetime(2026, 12, 31, 23, 50))
    ask(service, '浮力又错了', now=datetime(2027, 1, 1, 0, 10))
    report = service.monthly_report('l1', True, '', datetime(2027, 1, 1, 0, 20))
    assert report.data['month'] == '2027-01' and report.data['records'] == 1
    december = service.monthly_report('l1', True, '', datetime(2026, 12, 31, 23, 55))
    assert december.data['records'] == 1
