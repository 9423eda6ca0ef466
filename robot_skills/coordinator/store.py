"""The coordinator's SQLite store: linkage records, consent, privacy, dispatches, reminders.

Opened by ``runtime/database.py`` (WAL, foreign keys, every change in one
transaction, a schema versioned with forward-only migrations), so a restart
loses nothing and an old file is upgraded in place. ``secure_delete`` is on
and a delete is followed by a WAL checkpoint: "删除我的联动记录" leaves no
readable trace of the records in the file once ``purge`` says so (a reader
holding the WAL delays it; the node retries). A crisis leaves only the fact
"已转介" and its time, never the words. Dispatches (for dedupe) hold a
concept's key, never the learner's words, and are forgotten after the dedupe
window. Its ``application_id`` is ``APPLICATION_ID``: the records' store, or any
other file, is refused.

Every read is scoped to one learner (or one reminder) and served by an index
(schema version 4; ``test/coordinator/test_query_plans.py`` runs ``EXPLAIN QUERY
PLAN`` on every statement the service issues and fails on a full scan of a
table that grows with learners).

Threads: one writer connection, used by one thread at a time (``_lock``; every
transaction holds it), and for a file store one read connection per reading
thread (``open_reader``: read-only, opened without migrating, the writer opened
and migrated the file; autocommit, so each read sees the last committed write
and never blocks the writer in WAL mode). Reads therefore run in parallel with each
other and with a write; writes are serialised. A ``':memory:'`` store is one
private database on one connection, so there every read takes ``_lock`` too
(everything is serialised; a shared-cache URI would let readers in, but shares
table locks with the writer, which is no better for a test store).

A ``reminder_sync`` handover names no learner (protocol v2.1 has no learner
field). It reports on a reminder this coordinator queued: it is matched, when it
arrives, to the most recent stored reminder of the same type and content queued
at or before it, and its status is written to that reminder's ``status`` column
(a sync without a status leaves it unchanged). The health check then counts one
learner's reminders in its window by ``reminder(learner_id, at)``. A sync that
matches no reminder of this coordinator is stored but counted for nobody; two
learners who queued the very same words are told apart only by time (the later
reminder gets the sync).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict
from datetime import date
from functools import lru_cache
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from robot_skills.adapters.database import (
    BUSY_TIMEOUT,
    Readers,
    cooldown,
    open_database,
    purge,
    transaction,
    version,
)
from robot_skills.coordinator.records import ConsentBits, LinkageRecord, Privacy

APPLICATION_ID = int.from_bytes(b'RSlc', 'big')     # robot_skills learning_coordinator

MIGRATIONS = (
    '''
    CREATE TABLE learner (
        learner_id TEXT PRIMARY KEY,
        consent TEXT NOT NULL DEFAULT '{}',
        privacy TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE linkage (
        record_id INTEGER PRIMARY KEY AUTOINCREMENT,
        learner_id TEXT NOT NULL REFERENCES learner(learner_id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        body TEXT NOT NULL
    );
    CREATE INDEX linkage_by_learner ON linkage(learner_id, date);
    CREATE TABLE dispatch (
        learner_id TEXT NOT NULL REFERENCES learner(learner_id) ON DELETE CASCADE,
        concept TEXT NOT NULL,
        skill TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX dispatch_by_key ON dispatch(learner_id, concept, skill, at);
    CREATE TABLE reminder (
        reminder_id INTEGER PRIMARY KEY AUTOINCREMENT,
        learner_id TEXT NOT NULL REFERENCES learner(learner_id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        content TEXT NOT NULL,
        at REAL NOT NULL,
        merged INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE referral (
        learner_id TEXT NOT NULL,
        at REAL NOT NULL,
        fact TEXT NOT NULL CHECK (fact = '已转介')
    );
    CREATE TABLE handover (
        handover_id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        body TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE TABLE handover_failure (
        key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL
    );
    ''',
    # 2: one column per field of a linkage record instead of a JSON body, so that a
    # month of records reads without parsing JSON per row (the monthly report).
    '''
    CREATE TABLE linkage_v2 (
        record_id INTEGER PRIMARY KEY AUTOINCREMENT,
        learner_id TEXT NOT NULL REFERENCES learner(learner_id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        trigger_source TEXT NOT NULL,
        concept TEXT NOT NULL,
        skills TEXT NOT NULL,
        correction INTEGER NOT NULL,
        feynman INTEGER NOT NULL,
        notes INTEGER NOT NULL,
        plan INTEGER NOT NULL,
        focus INTEGER NOT NULL,
        result TEXT NOT NULL,
        root_cause TEXT NOT NULL,
        mastered INTEGER,
        needs_retest INTEGER NOT NULL,
        needs_plan INTEGER NOT NULL,
        needs_focus INTEGER NOT NULL
    );
    INSERT INTO linkage_v2 SELECT record_id, learner_id, date,
        coalesce(json_extract(body, '$.trigger_source'), ''),
        coalesce(json_extract(body, '$.concept'), ''),
        coalesce(json_extract(body, '$.skills'), '[]'),
        coalesce(json_extract(body, '$.correction'), 0),
        coalesce(json_extract(body, '$.feynman'), 0),
        coalesce(json_extract(body, '$.notes'), 0),
        coalesce(json_extract(body, '$.plan'), 0),
        coalesce(json_extract(body, '$.focus'), 0),
        coalesce(json_extract(body, '$.result'), ''),
        coalesce(json_extract(body, '$.root_cause'), ''),
        json_extract(body, '$.mastered'),
        coalesce(json_extract(body, '$.needs_retest'), 0),
        coalesce(json_extract(body, '$.needs_plan'), 0),
        coalesce(json_extract(body, '$.needs_focus'), 0)
        FROM linkage;
    DROP TABLE linkage;
    ALTER TABLE linkage_v2 RENAME TO linkage;
    CREATE INDEX linkage_by_learner ON linkage(learner_id, date);
    ''',
    # 3: a refused handover writes nothing (its resubmission is counted in memory), and
    # dispatches keep a concept key, not the words of a request.
    '''
    DROP TABLE handover_failure;
    DELETE FROM dispatch;
    ''',
    # 4: every read scoped and indexed (issue 17): the reminders of one learner by time, the
    # referrals of one learner, handovers by type and time, a reminder by its words (to match
    # a reminder_sync to it); and the status a reminder_sync reports kept on its reminder, so
    # the health check reads one learner's reminders of its window, never every handover of
    # the school. Back-filled from the stored reminder_sync handovers (the latest status each
    # reminder received, matched as ``add_handover`` matches one arriving now).
    '''
    ALTER TABLE reminder ADD COLUMN status TEXT;
    CREATE INDEX reminder_by_learner ON reminder(learner_id, at);
    CREATE INDEX reminder_by_content ON reminder(content, kind, at);
    CREATE INDEX referral_by_learner ON referral(learner_id, at);
    CREATE INDEX handover_by_kind ON handover(kind, at);
    WITH sync AS (
        SELECT handover_id, at,
               json_extract(body, '$.payload.reminderData.reminderType') AS kind,
               json_extract(body, '$.payload.reminderData.content') AS content,
               json_extract(body, '$.payload.reminderData.status') AS status
        FROM handover WHERE kind = 'reminder_sync' AND json_valid(body)),
    target AS (
        SELECT handover_id, status,
               (SELECT reminder_id FROM reminder WHERE reminder.content = sync.content
                AND reminder.kind = sync.kind AND reminder.at <= sync.at
                ORDER BY reminder.at DESC, reminder_id DESC LIMIT 1) AS reminder_id
        FROM sync WHERE status IS NOT NULL)
    UPDATE reminder SET status = (SELECT status FROM target
                                  WHERE target.reminder_id = reminder.reminder_id
                                  ORDER BY handover_id DESC LIMIT 1)
    WHERE reminder_id IN (SELECT reminder_id FROM target);
    ''',
)
ANSWERED = ('acknowledged', 'completed')     # a reminder the learner answered
# The columns of a linkage record after learner_id (schema version 2), in order.
COLUMNS = ('date', 'trigger_source', 'concept', 'skills', 'correction', 'feynman', 'notes',
           'plan', 'focus', 'result', 'root_cause', 'mastered', 'needs_retest', 'needs_plan',
           'needs_focus')
CHECKED = TypeAdapter(LinkageRecord)      # a correction comes from outside: check its types


class Store:
    def __init__(self, path: Path | str, busy_timeout: float = BUSY_TIMEOUT) -> None:
        self.path = str(path)
        self._db = open_database(self.path, MIGRATIONS, APPLICATION_ID,
                                 busy_timeout=busy_timeout)
        self._lock = threading.RLock()          # the writer connection, one thread at a time
        self._depth = 0                         # transactions open on it (batch), under _lock
        self._readers = Readers(self.path, busy_timeout, row_factory=None)  # tuples, as _db

    # ---- connections ---------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction on the writer connection; writes are serialised here. Inside
        ``batch`` it is part of the batch's transaction."""
        with self._lock:
            if self._depth:
                yield self._db
                return
            self._depth += 1
            try:
                with transaction(self._db) as db:
                    yield db
            finally:
                self._depth -= 1

    def batch(self) -> AbstractContextManager[sqlite3.Connection]:
        """Several writes in one transaction (one commit, one fsync): all or none."""
        return self._transaction()

    def _rows(self, sql: str, parameters: tuple = ()) -> list[tuple]:
        """A read: on this thread's read connection, or on the writer under its lock."""
        db = self._readers.get()
        if db is None:
            with self._lock:
                return self._db.execute(sql, parameters).fetchall()
        return db.execute(sql, parameters).fetchall()

    def _one(self, sql: str, parameters: tuple = ()) -> tuple | None:
        rows = self._rows(sql, parameters)
        return rows[0] if rows else None

    @property
    def version(self) -> int:
        with self._lock:
            return version(self._db)

    @property
    def unavailable_for(self) -> float:
        return cooldown(self._db)

    def close(self) -> None:
        self._readers.close()
        with self._lock:
            self._db.close()

    def _learner(self, learner_id: str) -> None:
        self._db.execute('INSERT OR IGNORE INTO learner (learner_id) VALUES (?)', (learner_id,))

    # ---- consent and privacy -------------------------------------------------------------

    def consent(self, learner_id: str) -> ConsentBits:
        """The learner's consent; a row that cannot be read grants nothing."""
        row = self._one('SELECT consent FROM learner WHERE learner_id = ?', (learner_id,))
        try:
            return ConsentBits.model_validate_json(row[0]) if row else ConsentBits()
        except ValidationError:
            return ConsentBits()

    def set_consent(self, learner_id: str, consent: ConsentBits) -> None:
        with self._transaction():
            self._learner(learner_id)
            self._db.execute('UPDATE learner SET consent = ? WHERE learner_id = ?',
                             (consent.model_dump_json(), learner_id))

    def privacy(self, learner_id: str) -> Privacy:
        row = self._one('SELECT privacy FROM learner WHERE learner_id = ?', (learner_id,))
        return Privacy.from_json(row[0]) if row else Privacy()

    def set_privacy(self, learner_id: str, privacy: Privacy) -> None:
        with self._transaction():
            self._learner(learner_id)
            self._db.execute('UPDATE learner SET privacy = ? WHERE learner_id = ?',
                             (json.dumps(asdict(privacy)), learner_id))

    # ---- linkage records -------------------------------------------------------------------

    def add_record(self, record: LinkageRecord) -> int:
        with self._transaction():
            return self._insert(record)

    def add_records(self, records: Iterable[LinkageRecord]) -> None:
        with self._transaction():
            for record in records:
                self._insert(record)

    def _insert(self, record: LinkageRecord) -> int:
        self._learner(record.learner_id)
        cursor = self._db.execute(
            f'INSERT INTO linkage (learner_id, {", ".join(COLUMNS)}) '
            f'VALUES (?{", ?" * len(COLUMNS)})', (record.learner_id, *_row(record)))
        return _row_id(cursor)

    def records(self, learner_id: str, month: str = '', since: str = '') -> list[LinkageRecord]:
        """The learner's records: all, of one month ('YYYY-MM'), or dated ``since`` or later.

        By date range on ``linkage_by_learner(learner_id, date)``: a month is
        ``month <= date < next month`` (``month_range``).
        """
        columns = f'SELECT record_id, {", ".join(COLUMNS)} FROM linkage WHERE learner_id = ?'
        if month:
            rows = self._rows(f'{columns} AND date >= ? AND date < ? ORDER BY record_id',
                              (learner_id, *month_range(month)))
        elif since:
            rows = self._rows(f'{columns} AND date >= ? ORDER BY record_id', (learner_id, since))
        else:
            rows = self._rows(f'{columns} ORDER BY record_id', (learner_id,))
        return [_record(learner_id, row) for row in rows]

    def correct(self, learner_id: str, record_id: int, changes: dict) -> LinkageRecord | None:
        unknown = set(changes) - LinkageRecord.editable()
        if unknown:
            raise ValueError(f'these fields cannot be corrected: {sorted(unknown)}')
        if 'date' in changes and not _day(changes['date']):
            raise ValueError('date: a day as YYYY-MM-DD (the monthly report reads dates as '
                             'text ranges)')
        with self._transaction():
            row = self._db.execute(f'SELECT record_id, {", ".join(COLUMNS)} FROM linkage '
                                   'WHERE learner_id = ? AND record_id = ?',
                                   (learner_id, record_id)).fetchone()
            if row is None:
                return None
            record = CHECKED.validate_python({**_record(learner_id, row)._asdict(), **changes})
            self._db.execute(f'UPDATE linkage SET {", ".join(f"{c} = ?" for c in COLUMNS)} '
                             'WHERE record_id = ?', (*_row(record), record_id))
        return record

    def delete_records(self, learner_id: str) -> int:
        """Delete the learner's records and dispatches; ``purge`` then clears the disk."""
        with self._transaction():
            count = self._db.execute('DELETE FROM linkage WHERE learner_id = ?',
                                     (learner_id,)).rowcount
            self._db.execute('DELETE FROM dispatch WHERE learner_id = ?', (learner_id,))
        return count

    def purge(self) -> bool:
        """Whether deleted rows are gone from the file and its WAL (False: retry later)."""
        with self._lock:
            return purge(self._db)

    # ---- dispatches (dedupe) and reminders --------------------------------------------------

    def recent_dispatches(self, learner_id: str, since: float) -> list[tuple[str, str]]:
        """(concept, SKILL) dispatched for the learner since ``since``."""
        return self._rows('SELECT DISTINCT concept, skill FROM dispatch WHERE '
                          'learner_id = ? AND at > ?', (learner_id, since))

    def add_dispatch(self, learner_id: str, concept: str, skill: str, at: float,
                     forget_before: float) -> None:
        """Record a dispatch (``concept`` is a key, not words); older ones are forgotten."""
        with self._transaction():
            self._learner(learner_id)
            self._db.execute('DELETE FROM dispatch WHERE learner_id = ? AND at <= ?',
                             (learner_id, forget_before))
            self._db.execute('INSERT INTO dispatch VALUES (?, ?, ?, ?)',
                             (learner_id, concept, skill, at))

    def queued_reminders(self, learner_id: str, since: float) -> list[tuple[int, str, str]]:
        """(id, kind, content) of the reminders queued since ``since``."""
        return self._rows('SELECT reminder_id, kind, content FROM reminder WHERE '
                          'learner_id = ? AND at >= ?', (learner_id, since))

    def add_reminder(self, learner_id: str, kind: str, content: str, at: float) -> int:
        with self._transaction():
            self._learner(learner_id)
            cursor = self._db.execute(
                'INSERT INTO reminder (learner_id, kind, content, at) VALUES (?, ?, ?, ?)',
                (learner_id, kind, content, at))
        return _row_id(cursor)

    def merge_reminder(self, reminder_id: int) -> None:
        with self._transaction():
            self._db.execute('UPDATE reminder SET merged = merged + 1 WHERE reminder_id = ?',
                             (reminder_id,))

    def reminders(self, learner_id: str) -> list[tuple[str, str, int]]:
        return self._rows('SELECT kind, content, merged FROM reminder WHERE learner_id = ? '
                          'ORDER BY reminder_id', (learner_id,))

    def reminder_counts(self, learner_id: str, since: float) -> tuple[int, int]:
        """(queued, answered) of the learner's reminders queued since ``since``: answered is
        the status a reminder_sync reported, acknowledged or completed."""
        row = self._one('SELECT count(*), coalesce(sum(status IN (?, ?)), 0) FROM reminder '
                        'WHERE learner_id = ? AND at >= ?', (*ANSWERED, learner_id, since))
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def reminder_status(self, reminder_id: int) -> str | None:
        row = self._one('SELECT status FROM reminder WHERE reminder_id = ?', (reminder_id,))
        return row[0] if row else None

    # ---- referrals and handovers ----------------------------------------------------------------

    def add_referral(self, learner_id: str, at: float) -> None:
        with self._transaction():
            self._db.execute("INSERT INTO referral VALUES (?, ?, '已转介')", (learner_id, at))

    def referrals(self, learner_id: str) -> list[tuple[float, str]]:
        return self._rows('SELECT at, fact FROM referral WHERE learner_id = ?', (learner_id,))

    def add_handover(self, session_id: str, kind: str, body: str, at: float,
                     reminder: tuple[str, str, str | None] | None = None) -> int | None:
        """Store a handover; a reminder_sync's (type, content, status) also sets the status of
        the reminder it reports (see the module docstring). Returns that reminder's id."""
        with self._transaction():
            self._db.execute('INSERT INTO handover (session_id, kind, body, at) VALUES (?,?,?,?)',
                             (session_id, kind, body, at))
            if reminder is None:
                return None
            reminder_type, content, status = reminder
            row = self._db.execute(
                'SELECT reminder_id FROM reminder WHERE content = ? AND kind = ? AND at <= ? '
                'ORDER BY at DESC, reminder_id DESC LIMIT 1',
                (content, reminder_type, at)).fetchone()
            if row is None:
                return None
            if status is not None:
                self._db.execute('UPDATE reminder SET status = ? WHERE reminder_id = ?',
                                 (status, row[0]))
            return int(row[0])

    def handovers(self, kind: str) -> list[tuple[str, str, str]]:
        """(session, type, body) of the stored handovers of one type, by ``handover(kind, at)``
        (a diagnostic read, no request path uses it; it was ``WHERE ? IN ('', kind)``, which
        no index can serve)."""
        return self._rows('SELECT session_id, kind, body FROM handover WHERE kind = ? '
                          'ORDER BY handover_id', (kind,))


def _day(value: object) -> bool:
    """Whether ``value`` is a real day written YYYY-MM-DD."""
    if not isinstance(value, str) or len(value) != 10 or value[4] != '-' or value[7] != '-':
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def month_range(month: str) -> tuple[str, str]:
    """('YYYY-MM', the next month): the dates of a month are ``first <= date < second``
    (dates are 'YYYY-MM-DD', compared as text; December runs to January of the next year)."""
    first = date.fromisoformat(f'{month}-01')
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return month, following.strftime('%Y-%m')


def _row(record: LinkageRecord) -> tuple:
    return tuple(json.dumps(list(record.skills), ensure_ascii=False) if c == 'skills'
                 else getattr(record, c) for c in COLUMNS)


def _record(learner_id: str, row: tuple) -> LinkageRecord:
    """A record from ``SELECT record_id, COLUMNS``; positional, as a month of them is read."""
    (record_id, date, trigger_source, concept, skills, correction, feynman, notes, plan, focus,
     result, root_cause, mastered, needs_retest, needs_plan, needs_focus) = row
    return LinkageRecord(learner_id, date, trigger_source, concept, _skills(skills),
                         correction == 1, feynman == 1, notes == 1, plan == 1, focus == 1, result,
                         root_cause, None if mastered is None else mastered == 1,
                         needs_retest == 1, needs_plan == 1, needs_focus == 1, record_id)


@lru_cache(maxsize=1024)
def _skills(text: str) -> tuple[str, ...]:
    return tuple(json.loads(text))     # few distinct lists of SKILLs: parse each once


def _row_id(cursor: sqlite3.Cursor) -> int:
    """The id an INSERT gave its row (SQLite sets it on every INSERT)."""
    if cursor.lastrowid is None:
        raise RuntimeError('an INSERT set no row id')
    return cursor.lastrowid
