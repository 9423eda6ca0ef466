"""No statement the records issue reads a whole table that grows with the school.

Every statement the stores issued in this test run (``sql_statements``: the
whole suite when it runs as one, and at least a year of one learner played
through every tool by ``bench.school``, plus every read tool) is planned with
``EXPLAIN QUERY PLAN`` against that learner's populated store; a ``SCAN`` of
any of its tables fails, unless the statement is listed in ``BOUNDED`` with the
reason its scan stops early. Every table of the records grows with learners.
"""

from __future__ import annotations

import pytest
import sql_statements

from bench.school import build
from robot_skills.records.api import Records, Store

# shape -> why the scan it plans is bounded whatever the size of the school
BOUNDED = {
    "SELECT pair_id FROM pair WHERE status = ? ORDER BY created_at LIMIT ?":
        'walks the partial index of active pairs in order and stops after the few a '
        'refusal lists',
    'SELECT token_id, role, learner_id, pair_ids, label, issued_at, expires_at, revoked_at '
    'FROM access_token ORDER BY issued_at DESC LIMIT ?':
        "`token list`: walks the index of issue times, newest first, and stops at its limit",
}
READS = ('get_learner_brief', 'get_context', 'get_teacher_inbox', 'verify_prep',
         'get_lesson_closure_facts', 'get_lesson', 'get_exercise', 'get_submission',
         'live_session_get', 'live_snapshot_get_latest', 'live_pending', 'adhoc_thread_get')


@pytest.fixture(scope='module')
def school(tmp_path_factory):
    path = str(tmp_path_factory.mktemp('school') / 'records.sqlite3')
    learner = build(path, 1).learners[0]
    store = Store(path)
    records = Records(store)
    ids = {'pair_id': learner.pair_id, 'lesson_id': learner.lesson_ids[3],
           'exercise_id': learner.exercise_id, 'submission_id': learner.submission_id,
           'live_session_id': learner.live_session_id}
    with sql_statements.captured() as reads:
        for tool in READS:
            args = {name: value for name, value in ids.items()
                    if name in records_args(tool)}
            assert records.call(tool, args).ok, tool
        assert records.call('verify_prep', {'pair_id': learner.pair_id,
                                            'course_id': learner.course_id}).ok
        assert records.call('get_context', {}).ok          # the one active pair, found
    # the reads ran on the per-thread read-only connections: those are traced too
    assert len(reads) >= 30, len(reads)
    yield store
    store.close()


def records_args(tool: str) -> set[str]:
    from robot_skills.records.api import TOOLS
    return set(TOOLS[tool].args.model_fields)


def test_no_statement_scans_a_table_that_grows_with_learners(school):
    tables = frozenset(row[0] for row in school.all(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    statements = [statement for shape, statement in sql_statements.SEEN.items()
                  if shape not in BOUNDED]
    scans, planned = sql_statements.full_scans(school.db, statements, tables)
    assert planned >= 90, f'only {planned} statements were collected: is the collector on?'
    assert not scans, 'full scans:\n' + '\n'.join(
        f'{line}: {sql_statements.shape(statement)}' for statement, line in scans)


def test_a_bounded_scan_walks_an_index_and_is_still_issued(school):
    """An entry of BOUNDED that no longer matches any statement is stale: remove it."""
    assert set(BOUNDED) <= set(sql_statements.SEEN)
    for shape in BOUNDED:
        plan = [row[-1] for row in school.all('EXPLAIN QUERY PLAN ' + sql_statements.SEEN[shape])]
        assert all('USING' in line and 'INDEX' in line for line in plan if 'SCAN' in line), plan
        assert not any('TEMP B-TREE' in line for line in plan), plan     # no sort of it all
