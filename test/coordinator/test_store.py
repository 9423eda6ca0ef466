"""The SQLite store: WAL, versioned schema, transactions, a restart loses nothing, delete deletes."""

from __future__ import annotations

import json
import sqlite3

import pytest
from pydantic import ValidationError

from robot_skills.adapters.database import StoreError
from robot_skills.coordinator.records import ConsentBits, LinkageRecord, Privacy
from robot_skills.coordinator.store import COLUMNS, MIGRATIONS, Store

MARKER = 'ZEBRA-一次函数-7319'


def record(learner='l1', concept=MARKER, date='2026-11-10') -> LinkageRecord:
    return LinkageRecord(learner_id=learner, date=date, trigger_source='错题', concept=concept,
                         skills=('xiaozhi-correction-notebook', 'xiaozhi-feynman-learning'),
                         correction=True, feynman=True, root_cause='概念模糊', mastered=None,
                         needs_retest=True)


@pytest.fixture
def path(tmp_path):
    return tmp_path / 'state' / 'coordinator.sqlite3'


def test_a_restart_loses_nothing(path):
    store = Store(path)
    rid = store.add_record(record())
    store.set_consent('l1', ConsentBits(crossSkillSharing=True, reminderConsent=True))
    store.set_privacy('l1', Privacy(no_sharing=True, paused_skills={'xiaozhi-feynman-learning': 9e9}))
    store.add_dispatch('l1', 'c', 'xiaozhi-cornell-notes', 100.0, 0.0)
    store.add_reminder('l1', 'plan_task', '复习浮力', 100.0)
    store.add_referral('l2', 100.0)
    store.add_handover('s1', 'reminder_sync', '{}', 100.0)
    store.close()
    again = Store(path)
    assert again.records('l1') == [LinkageRecord(**{**record()._asdict(), 'record_id': rid})]
    assert again.consent('l1') == ConsentBits(crossSkillSharing=True, reminderConsent=True)
    assert again.privacy('l1').no_sharing and again.privacy('l1').paused('xiaozhi-feynman-learning', 0)
    assert again.recent_dispatches('l1', 0) == [('c', 'xiaozhi-cornell-notes')]
    assert again.reminders('l1') == [('plan_task', '复习浮力', 0)]
    assert again.referrals('l2') == [(100.0, '已转介')]
    assert again.handovers('reminder_sync') == [('s1', 'reminder_sync', '{}')]
    again.close()


def test_wal_and_a_versioned_schema(path):
    store = Store(path)
    assert store.version == len(MIGRATIONS)
    assert store._db.execute('PRAGMA journal_mode').fetchone()[0] == 'wal'
    store.close()
    assert Store(path).version == len(MIGRATIONS)      # reopening migrates nothing twice


def test_a_file_from_a_newer_version_is_refused(path):
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f'PRAGMA user_version = {len(MIGRATIONS) + 1}')
    db.close()
    with pytest.raises(StoreError, match='newer than this code'):
        Store(path)


@pytest.mark.parametrize('content', [b'this is not a database' * 100, b'\x00' * 4096])
def test_a_file_that_is_not_sqlite_is_refused_by_name(path, content):
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    with pytest.raises(StoreError, match=str(path.name)):
        Store(path)


def test_delete_really_deletes_even_the_bytes(path):
    store = Store(path)
    for _ in range(20):
        store.add_record(record())
    store.add_record(record(learner='l2', concept='其他人的'))
    store.add_dispatch('l1', MARKER, 'xiaozhi-correction-notebook', 1.0, 0.0)
    store.close()
    store = Store(path)
    assert store.delete_records('l1') == 20
    assert store.purge()
    assert store.records('l1') == [] and store.recent_dispatches('l1', 0) == []
    assert [r.concept for r in store.records('l2')] == ['其他人的']
    raw = b''.join(p.read_bytes() for p in path.parent.iterdir())
    assert MARKER.encode() not in raw         # gone once purge said so, before closing
    store.close()
    raw = b''.join(p.read_bytes() for p in path.parent.iterdir())
    assert MARKER.encode() not in raw and '其他人的'.encode() in raw


def test_dispatches_are_forgotten_after_the_window(path):
    store = Store(path)
    store.add_dispatch('l1', 'old', 'xiaozhi-cornell-notes', 10.0, 0.0)
    store.add_dispatch('l1', 'new', 'xiaozhi-cornell-notes', 100.0, 50.0)
    rows = store._db.execute('SELECT concept FROM dispatch').fetchall()
    assert rows == [('new',)]


def test_records_by_learner_and_month(path):
    store = Store(path)
    store.add_records([record(date='2026-11-01'), record(date='2026-10-31'),
                       record(learner='l2', date='2026-11-02')])
    assert [r.date for r in store.records('l1', '2026-11')] == ['2026-11-01']
    assert len(store.records('l1')) == 2 and store.records('nobody') == []


def test_a_correction_is_checked_and_a_bad_one_changes_nothing(path):
    store = Store(path)
    rid = store.add_record(record())
    assert store.correct('l1', rid, {'mastered': True, 'concept': '二次函数'}).concept == '二次函数'
    with pytest.raises(ValidationError):
        store.correct('l1', rid, {'concept': ['not', 'text']})
    with pytest.raises(ValueError, match='cannot be corrected'):
        store.correct('l1', rid, {'learner_id': 'l2'})
    assert store.correct('l2', rid, {'mastered': False}) is None       # not theirs
    for day in ('2026-2-5', '20261205', '2026-13-01', 5, '2026-11-31'):  # months are text ranges
        with pytest.raises(ValueError, match='YYYY-MM-DD'):
            store.correct('l1', rid, {'date': day})
    assert [(r.concept, r.mastered) for r in store.records('l1')] == [('二次函数', True)]


def test_a_failed_transaction_writes_nothing(path):
    store = Store(path)
    with pytest.raises(sqlite3.IntegrityError):
        store.add_records([record(), LinkageRecord(learner_id=None, date='x', trigger_source='',
                                                    concept='', skills=())])
    assert store.records('l1') == []


def test_a_referral_stores_only_the_fact(path):
    store = Store(path)
    store.add_referral('l1', 5.0)
    columns = [row[1] for row in store._db.execute('PRAGMA table_info(referral)')]
    assert columns == ['learner_id', 'at', 'fact'] and store.referrals('l1') == [(5.0, '已转介')]


def test_the_columns_hold_every_field_of_a_record():
    assert set(COLUMNS) == set(LinkageRecord._fields) - {'learner_id', 'record_id'}


def test_a_version_1_file_is_upgraded_in_place_losing_nothing(path):
    path.parent.mkdir(parents=True)
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0] + 'PRAGMA user_version = 1;')
    db.execute("INSERT INTO learner (learner_id) VALUES ('l1')")
    body = {k: v for k, v in record()._asdict().items() if k not in ('learner_id', 'record_id')}
    db.execute('INSERT INTO linkage (learner_id, date, body) VALUES (?, ?, ?)',
               ('l1', body['date'], json.dumps(body, ensure_ascii=False)))
    db.execute('INSERT INTO linkage (learner_id, date, body) VALUES (?, ?, ?)',
               ('l1', '2026-11-11', json.dumps({'date': '2026-11-11', 'concept': '旧的'})))
    db.commit()
    db.close()
    store = Store(path)
    assert store.version == len(MIGRATIONS) == 4
    first, sparse = store.records('l1')
    assert first == LinkageRecord(**{**record()._asdict(), 'record_id': 1})
    assert (sparse.concept, sparse.skills, sparse.correction, sparse.mastered) == \
        ('旧的', (), False, None)
