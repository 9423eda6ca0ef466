"""The coordinator's SQLite store: linkage records, consent, privacy, dispatches, reminders.

WAL journal, foreign keys on, every change in one transaction, and a schema
versioned with ``PRAGMA user_version`` and forward-only migrations, so a
restart loses nothing and an old file is upgraded in place. ``secure_delete``
is on and a delete is followed by a WAL checkpoint: "删除我的联动记录" leaves no
readable trace of the records in the file. A crisis leaves only the fact
"已转介" and its time, never the words.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import asdict, fields
from pathlib import Path

from robot_skills.coordinator.records import ConsentBits, LinkageRecord, Privacy

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
)
RECORD_FIELDS = {f.name for f in fields(LinkageRecord)} - {'learner_id', 'record_id'}


class Store:
    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        if self.path != ':memory:':
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute('PRAGMA journal_mode=WAL')
        self._db.execute('PRAGMA foreign_keys=ON')
        self._db.execute('PRAGMA secure_delete=ON')
        self._migrate()

    def _migrate(self) -> None:
        version = self._db.execute('PRAGMA user_version').fetchone()[0]
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            with self._transaction():
                for statement in filter(str.strip, script.split(';')):
                    self._db.execute(statement)
                self._db.execute(f'PRAGMA user_version = {number}')

    def _transaction(self) -> sqlite3.Connection:
        return _Transaction(self._db)

    @property
    def version(self) -> int:
        return self._db.execute('PRAGMA user_version').fetchone()[0]

    def close(self) -> None:
        self._db.close()

    def _learner(self, learner_id: str) -> None:
        self._db.execute('INSERT OR IGNORE INTO learner (learner_id) VALUES (?)', (learner_id,))

    # ---- consent and privacy -------------------------------------------------------------

    def consent(self, learner_id: str) -> ConsentBits:
        row = self._db.execute('SELECT consent FROM learner WHERE learner_id = ?',
                               (learner_id,)).fetchone()
        return ConsentBits.model_validate_json(row[0]) if row else ConsentBits()

    def set_consent(self, learner_id: str, consent: ConsentBits) -> None:
        with self._transaction():
            self._learner(learner_id)
            self._db.execute('UPDATE learner SET consent = ? WHERE learner_id = ?',
                             (consent.model_dump_json(), learner_id))

    def privacy(self, learner_id: str) -> Privacy:
        row = self._db.execute('SELECT privacy FROM learner WHERE learner_id = ?',
                               (learner_id,)).fetchone()
        return Privacy(**json.loads(row[0])) if row else Privacy()

    def set_privacy(self, learner_id: str, privacy: Privacy) -> None:
        with self._transaction():
            self._learner(learner_id)
            self._db.execute('UPDATE learner SET privacy = ? WHERE learner_id = ?',
                             (json.dumps(asdict(privacy)), learner_id))

    # ---- linkage records -------------------------------------------------------------------

    def add_record(self, record: LinkageRecord) -> int:
        body = {k: v for k, v in asdict(record).items() if k in RECORD_FIELDS}
        with self._transaction():
            self._learner(record.learner_id)
            cursor = self._db.execute(
                'INSERT INTO linkage (learner_id, date, body) VALUES (?, ?, ?)',
                (record.learner_id, record.date, json.dumps(body, ensure_ascii=False)))
        return int(cursor.lastrowid)

    def add_records(self, records: Iterable[LinkageRecord]) -> None:
        with self._transaction():
            for record in records:
                self._learner(record.learner_id)
                body = {k: v for k, v in asdict(record).items() if k in RECORD_FIELDS}
                self._db.execute('INSERT INTO linkage (learner_id, date, body) VALUES (?, ?, ?)',
                                 (record.learner_id, record.date,
                                  json.dumps(body, ensure_ascii=False)))

    def records(self, learner_id: str, month: str = '') -> list[LinkageRecord]:
        rows = self._db.execute(
            'SELECT record_id, body FROM linkage WHERE learner_id = ? AND date LIKE ? '
            'ORDER BY record_id', (learner_id, f'{month}%')).fetchall()
        return [_record(learner_id, record_id, body) for record_id, body in rows]

    def correct(self, learner_id: str, record_id: int, changes: dict) -> LinkageRecord | None:
        unknown = set(changes) - LinkageRecord.editable()
        if unknown:
            raise ValueError(f'these fields cannot be corrected: {sorted(unknown)}')
        with self._transaction():
            row = self._db.execute('SELECT body FROM linkage WHERE learner_id = ? AND '
                                   'record_id = ?', (learner_id, record_id)).fetchone()
            if row is None:
                return None
            body = {**json.loads(row[0]), **changes}
            record = _record(learner_id, record_id, json.dumps(body))   # validates the fields
            self._db.execute('UPDATE linkage SET body = ?, date = ? WHERE record_id = ?',
                             (json.dumps(body, ensure_ascii=False), record.date, record_id))
        return record

    def delete_records(self, learner_id: str) -> int:
        with self._transaction():
            count = self._db.execute('DELETE FROM linkage WHERE learner_id = ?',
                                     (learner_id,)).rowcount
            self._db.execute('DELETE FROM dispatch WHERE learner_id = ?', (learner_id,))
        self._db.execute('PRAGMA wal_checkpoint(TRUNCATE)')
        return count

    # ---- dispatches (dedupe) and reminders --------------------------------------------------

    def recent_dispatches(self, learner_id: str, since: float) -> list[tuple[str, str]]:
        """(concept, SKILL) dispatched for the learner since ``since``."""
        return self._db.execute('SELECT DISTINCT concept, skill FROM dispatch WHERE '
                                'learner_id = ? AND at >= ?', (learner_id, since)).fetchall()

    def add_dispatch(self, learner_id: str, concept: str, skill: str, at: float) -> None:
        with self._transaction():
            self._learner(learner_id)
            self._db.execute('INSERT INTO dispatch VALUES (?, ?, ?, ?)',
                             (learner_id, concept, skill, at))

    def queued_reminders(self, learner_id: str, since: float) -> list[tuple[int, str, str]]:
        """(id, kind, content) of the reminders queued since ``since``."""
        return self._db.execute('SELECT reminder_id, kind, content FROM reminder WHERE '
                                'learner_id = ? AND at >= ?', (learner_id, since)).fetchall()

    def add_reminder(self, learner_id: str, kind: str, content: str, at: float) -> int:
        with self._transaction():
            self._learner(learner_id)
            cursor = self._db.execute(
                'INSERT INTO reminder (learner_id, kind, content, at) VALUES (?, ?, ?, ?)',
                (learner_id, kind, content, at))
        return int(cursor.lastrowid)

    def merge_reminder(self, reminder_id: int) -> None:
        with self._transaction():
            self._db.execute('UPDATE reminder SET merged = merged + 1 WHERE reminder_id = ?',
                             (reminder_id,))

    def reminders(self, learner_id: str) -> list[tuple[str, str, int]]:
        return self._db.execute('SELECT kind, content, merged FROM reminder WHERE learner_id = ? '
                                'ORDER BY reminder_id', (learner_id,)).fetchall()

    # ---- referrals and handovers ----------------------------------------------------------------

    def add_referral(self, learner_id: str, at: float) -> None:
        with self._transaction():
            self._db.execute("INSERT INTO referral VALUES (?, ?, '已转介')", (learner_id, at))

    def referrals(self, learner_id: str) -> list[tuple[float, str]]:
        return self._db.execute('SELECT at, fact FROM referral WHERE learner_id = ?',
                                (learner_id,)).fetchall()

    def add_handover(self, session_id: str, kind: str, body: str, at: float) -> None:
        with self._transaction():
            self._db.execute('INSERT INTO handover (session_id, kind, body, at) VALUES (?,?,?,?)',
                             (session_id, kind, body, at))

    def handovers(self, kind: str = '') -> list[tuple[str, str, str]]:
        return self._db.execute('SELECT session_id, kind, body FROM handover WHERE kind LIKE ? '
                                'ORDER BY handover_id', (f'{kind}%',)).fetchall()

    def failures(self, key: str) -> int:
        row = self._db.execute('SELECT failures FROM handover_failure WHERE key = ?',
                               (key,)).fetchone()
        return row[0] if row else 0

    def add_failure(self, key: str) -> int:
        with self._transaction():
            self._db.execute('INSERT INTO handover_failure VALUES (?, 1) ON CONFLICT(key) DO '
                             'UPDATE SET failures = failures + 1', (key,))
        return self.failures(key)


def _record(learner_id: str, record_id: int, body: str) -> LinkageRecord:
    data = json.loads(body)
    data['skills'] = tuple(data.get('skills', ()))
    return LinkageRecord(learner_id=learner_id, record_id=record_id, **data)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception (autocommit connection)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute('BEGIN IMMEDIATE')
        return self.db

    def __exit__(self, kind: object, *_: object) -> None:
        self.db.execute('ROLLBACK' if kind else 'COMMIT')
