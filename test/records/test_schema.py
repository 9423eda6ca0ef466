"""The records schema moves forward: each older store is upgraded in place (issues 16, 17)."""

from __future__ import annotations

import sqlite3

import pytest

from robot_skills.adapters.database import open_database
from robot_skills.records.store import APPLICATION_ID, MIGRATIONS, Store


def test_a_version_3_store_is_upgraded_with_its_rows(tmp_path):
    path = tmp_path / 'records.sqlite3'
    old = open_database(path, MIGRATIONS[:3], APPLICATION_ID)
    old.executescript('''
        INSERT INTO learner VALUES ('l1', '林小雨', 't');
        INSERT INTO pair VALUES ('pair_1', 'l1', 'p', 'm', 'a', 'active', 't');
        INSERT INTO course (course_id, pair_id, title, created_at) VALUES ('co_1', 'pair_1',
            'c', 't');
        INSERT INTO lesson (lesson_id, course_id, title, content_markdown, position, progress,
            created_at, updated_at) VALUES ('le_1', 'co_1', 't', '# t', 1, 'in_progress', 't',
            't');
        INSERT INTO live_session (live_session_id, pair_id, context_type, status, started_at)
            VALUES ('lv_1', 'pair_1', 'lesson', 'active', '2026-11-30T09:00:00.000+00:00');
        INSERT INTO live_move VALUES ('mv_1', 'lv_1', 1, 'FRAME', 'f', 'none',
            '2026-11-30T09:00:01.000+00:00');
        INSERT INTO live_response VALUES ('rsp_1', 'lv_1', NULL, 'a',
            '2026-11-30T17:00:02.000+08:00');
        INSERT INTO live_move VALUES ('mv_2', 'lv_1', 2, 'EXPLAIN', 'e', 'none',
            '2026-11-30T09:00:03.000+00:00');
        INSERT INTO live_response VALUES ('rsp_2', 'lv_1', NULL, 'b',
            '2026-11-30T09:00:04.000+00:00');
        INSERT INTO reflection VALUES ('tr_1', 'pair_1', NULL, NULL, 'unanchored', 'weather',
            '{}', '2026-12-01T08:00:00+08:00', 't');
    ''')
    old.close()
    store = Store(path)
    assert store.version == len(MIGRATIONS) >= 6        # every migration since, in one open
    assert store.one('SELECT count(*) AS n FROM access_token')['n'] == 0   # 6: a new table
    assert [tuple(r) for r in store.all('SELECT response_id, after_move_seq FROM live_response '
                                        'ORDER BY response_id')] == [('rsp_1', 1), ('rsp_2', 2)]
    assert store.one('SELECT weather_expires_at FROM reflection')[0] == \
        '2026-12-01T00:00:00.000+00:00'
    assert store.one('SELECT class_c FROM contract') is None       # a new, empty column
    with pytest.raises(sqlite3.IntegrityError):
        store.run("UPDATE lesson SET content_markdown = '# 重写' WHERE lesson_id = 'le_1'")
    store.close()


def test_a_version_4_store_gets_the_indexes_of_issue_17_on_open(tmp_path):
    """Every foreign key a read filters by is indexed once the store is opened (migration 5)."""
    path = tmp_path / 'records.sqlite3'
    open_database(path, MIGRATIONS[:4], APPLICATION_ID).close()
    store = Store(path)
    indexes = {row['name'] for row in store.all(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
    assert {'course_by_pair', 'exercise_by_lesson', 'submission_by_exercise', 'mindmap_by_pair',
            'concept_by_lesson', 'event_by_pair', 'active_pairs'} <= indexes
    unindexed = [(table, column) for table, column in _foreign_keys(store)
                 if not _leads_an_index(store, table, column)]
    assert not unindexed, unindexed
    store.close()


def _foreign_keys(store: Store) -> list[tuple[str, str]]:
    tables = [row['name'] for row in store.all(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    return [(table, row['from']) for table in tables
            for row in store.all(f'PRAGMA foreign_key_list({table})')]


def _leads_an_index(store: Store, table: str, column: str) -> bool:
    """Whether some index of ``table`` (its primary key included) starts with ``column``."""
    for index in store.all(f'PRAGMA index_list({table})'):
        first = store.one(f"PRAGMA index_info('{index['name']}')")
        if first is not None and first['name'] == column:
            return True
    return False
