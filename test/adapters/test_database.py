"""Opening a store: a file is checked before it is trusted, and a lock is an answer, not a crash."""

from __future__ import annotations

import os
import sqlite3
import subprocess

import pytest

from robot_skills.adapters.database import (
    StoreError,
    StoreUnavailableError,
    open_database,
    purge,
    transaction,
)
from robot_skills.coordinator import store as coordinator
from robot_skills.records import store as records

MARKER = 'ZEBRA-4711-删除我'


@pytest.fixture
def path(tmp_path):
    return tmp_path / 'store.sqlite3'


def test_each_store_refuses_the_other_s_file(path, tmp_path):
    coordinator.Store(path).close()
    with pytest.raises(StoreError, match='belongs to another application'):
        records.Store(path)
    other = tmp_path / 'records.sqlite3'
    records.Store(other).close()
    with pytest.raises(StoreError, match='belongs to another application'):
        coordinator.Store(other)
    assert coordinator.Store(path).version == len(coordinator.MIGRATIONS)   # untouched


def test_a_file_of_id_0_is_adopted_only_when_its_schema_is_this_store_s(path, tmp_path):
    """Every store deployed before application ids had id 0: the right one is adopted."""
    legacy = sqlite3.connect(path, isolation_level=None)
    legacy.executescript(coordinator.MIGRATIONS[0] + 'PRAGMA user_version = 1;')
    legacy.close()
    with pytest.raises(StoreError, match='is not this store'):
        records.Store(path)                        # the records' node used to migrate it
    adopted = coordinator.Store(path)
    assert adopted._db.execute('PRAGMA application_id').fetchone()[0] == coordinator.APPLICATION_ID
    adopted.close()
    stranger = tmp_path / 'stranger.sqlite3'
    db = sqlite3.connect(stranger, isolation_level=None)
    db.execute('CREATE TABLE mine (x)')
    db.close()
    for store in (coordinator.Store, records.Store):
        with pytest.raises(StoreError, match='is not this store'):
            store(stranger)
    assert sqlite3.connect(stranger).execute('PRAGMA application_id').fetchone()[0] == 0


def test_a_file_with_overwritten_pages_is_refused(path):
    store = coordinator.Store(path)
    store._db.executemany('INSERT INTO learner (learner_id) VALUES (?)',
                          [(f'learner-{n:05d}',) for n in range(3000)])
    store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[2 * page + 8:3 * page] = b'\xa5' * (page - 8)       # a page overwritten with garbage
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match='damaged'):
        coordinator.Store(path)


def _immutable(target) -> bool:
    """Make ``target`` read-only for every user, root included (chattr +i); False if not here."""
    done = subprocess.run(['chattr', '+i', str(target)], capture_output=True, check=False)
    if done.returncode == 0:
        return True
    if os.geteuid() != 0:
        target.chmod(0o444)
        return True
    return False


def _mutable(target) -> None:
    subprocess.run(['chattr', '-i', str(target)], capture_output=True, check=False)
    target.chmod(0o644)


def test_a_read_only_file_is_refused_at_start(path):
    coordinator.Store(path).close()
    if not _immutable(path):
        pytest.skip('no way to make a file read-only for root here (chattr +i unsupported)')
    try:
        with pytest.raises(StoreError, match='read-only'):
            coordinator.Store(path)
    finally:
        _mutable(path)


def test_a_locked_file_is_refused_at_start_and_unavailable_at_run_time(path):
    store = coordinator.Store(path, busy_timeout=0.05)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute('BEGIN EXCLUSIVE')
    try:
        with pytest.raises(StoreError, match='locked by another process'):
            coordinator.Store(path, busy_timeout=0.05)
        with pytest.raises(StoreUnavailableError, match='locked'):
            store.add_referral('l1', 1.0)
    finally:
        other.execute('ROLLBACK')
        other.close()
    with pytest.raises(StoreUnavailableError, match='a moment ago'):
        store.add_referral('l1', 1.0)              # for one busy timeout, no second wait
    store._db.unavailable_until = 0.0              # ... which has passed now
    store.add_referral('l1', 1.0)                  # the lock is gone: the write goes through
    assert store.referrals('l1') == [(1.0, '已转介')]


def test_a_deletion_is_purged_only_once_no_reader_holds_the_wal(path):
    db = open_database(path, ('CREATE TABLE t (x TEXT);',), 0x7E57)
    with transaction(db):
        db.executemany('INSERT INTO t VALUES (?)', [(f'{MARKER}-{n}',) for n in range(50)])
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute('BEGIN')
    assert reader.execute('SELECT count(*) FROM t').fetchone()[0] == 50     # holds the WAL
    with transaction(db):
        db.execute('DELETE FROM t')
    assert not purge(db)                           # a reader holds it: not yet
    assert MARKER.encode() in _bytes(path)
    reader.execute('COMMIT')
    reader.close()
    assert purge(db)
    assert MARKER.encode() not in _bytes(path)


def test_a_rollback_reraises_a_lock_as_unavailable(path):
    db = open_database(path, ('CREATE TABLE t (x TEXT);',), 0x7E57, busy_timeout=0.05)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute('BEGIN IMMEDIATE')
    try:
        with pytest.raises(StoreUnavailableError), transaction(db):
            db.execute('INSERT INTO t VALUES (1)')
    finally:
        other.execute('ROLLBACK')
        other.close()
    assert db.execute('SELECT count(*) FROM t').fetchone()[0] == 0


def _bytes(path) -> bytes:
    return b''.join(p.read_bytes() for p in path.parent.iterdir() if p.name.startswith(path.name))


def test_a_purge_that_cannot_write_says_not_yet_and_succeeds_later(path):
    db = open_database(path, ('CREATE TABLE t (x TEXT);',), 0x7E57)
    with transaction(db):
        db.execute('INSERT INTO t VALUES (?)', (MARKER,))
    with transaction(db):
        db.execute('DELETE FROM t')
    if not _immutable(path):
        pytest.skip('no way to make a file read-only for root here (chattr +i unsupported)')
    try:
        assert not purge(db)                       # an error is "not yet", never a crash
    finally:
        _mutable(path)
    assert purge(db)
    assert MARKER.encode() not in _bytes(path)
