"""Every SQLite store of the project opens the same way (the coordinator's, the records').

WAL journal with ``synchronous=FULL`` (a committed transaction survives a
crash of the process or the machine), foreign keys on, ``secure_delete`` on
(deleted rows leave no readable bytes), and a schema versioned with ``PRAGMA
user_version`` and forward-only migrations, each applied in one transaction,
so an old file is upgraded in place and a file from a newer version is
refused rather than damaged. Every change runs in ``transaction``: BEGIN
IMMEDIATE ... COMMIT, or ROLLBACK on any exception.

A store trusts a file only after checking it, before writing anything to it:

* ``PRAGMA quick_check`` passes (a file with overwritten pages is refused);
* its ``application_id`` is this store's own. A file with id 0 (every store
  deployed before ids existed) is adopted and stamped only when its tables are
  exactly this store's at its schema version, so neither store ever migrates
  the other's file;
* it can be written: a read-only file, or one another process keeps locked
  for longer than ``busy_timeout``, is refused at start with the reason.

At run time a write that meets a lock waits ``busy_timeout``, then raises
``StoreUnavailableError``, which nodes answer as an error to retry, never a
crash; for the next ``busy_timeout`` seconds every transaction fails at once
(a locked store costs one wait, not one per request queued behind it).
``purge`` checkpoints the WAL into the database and truncates it: deleted rows
are gone from the disk only when it returns True (a reader holding the WAL, or
a checkpoint that fails, makes it return False; call it again later).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from functools import cache
from pathlib import Path

BUSY_TIMEOUT = 5.0


class StoreError(ValueError):
    """The store file cannot be used: damaged, another application's, read-only, locked, or
    from a newer version.

    A ValueError, so a node refuses to start with the reason (the path is a
    parameter like any other).
    """


class StoreUnavailableError(StoreError):
    """A write could not be made now (locked past the busy timeout, read-only): retry later."""


class Connection(sqlite3.Connection):
    """A connection that remembers a lock it met, so the next transactions fail fast."""

    busy_timeout: float = BUSY_TIMEOUT
    unavailable_until: float = 0.0


def open_database(path: Path | str, migrations: Sequence[str], application_id: int,
                  parameter: str = 'store_path',
                  busy_timeout: float = BUSY_TIMEOUT) -> sqlite3.Connection:
    """A connection to ``path`` (':memory:' for none), checked and brought up to date."""
    path = str(path)
    db: sqlite3.Connection | None = None
    try:
        if path != ':memory:':
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None,
                             timeout=busy_timeout, factory=Connection)
        db.busy_timeout = busy_timeout
        _intact(db, path)
        _claim(db, path, tuple(migrations), application_id)
        db.execute('PRAGMA journal_mode=WAL')
        db.execute('PRAGMA synchronous=FULL')
        db.execute('PRAGMA foreign_keys=ON')
        db.execute('PRAGMA secure_delete=ON')
        _migrate(db, path, migrations)
        _writable(db)
        purge(db)           # a deletion a crash interrupted is finished now
    except (sqlite3.Error, OSError) as error:
        if db is not None:
            db.close()
        raise StoreError(f'{parameter} {path}: {_why(error)}') from error
    except StoreError as error:
        if db is not None:
            db.close()
        if isinstance(error, StoreUnavailableError):     # met while checking: name the file
            raise StoreError(f'{parameter} {path}: {error}') from error
        raise
    return db


class Readers:
    """One read-only connection per reading thread to a store ``open_database`` opened.

    Reads then run in parallel with each other and with the writer (WAL), while the
    writer's connection stays with one thread at a time. A ``':memory:'`` store is one
    private database on one connection: ``get`` answers None, and the caller reads on the
    writer under its lock.
    """

    def __init__(self, path: str, busy_timeout: float = BUSY_TIMEOUT,
                 row_factory: type | None = sqlite3.Row) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self.row_factory = row_factory
        self._local = threading.local()
        self._open: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False

    def get(self) -> sqlite3.Connection | None:
        """The calling thread's read connection (opened on first use), None for ':memory:'."""
        if self.path in ('', ':memory:'):
            return None
        db = getattr(self._local, 'db', None)
        if db is None:
            with self._lock:
                if self._closed:
                    raise sqlite3.ProgrammingError('the store is closed')
                db = open_reader(self.path, self.busy_timeout)
                db.row_factory = self.row_factory
                self._open.append(db)
            self._local.db = db
        return db

    def close(self) -> None:
        with self._lock:
            self._closed = True
            readers, self._open = self._open, []
        for db in readers:
            db.close()


def open_reader(path: Path | str, busy_timeout: float = BUSY_TIMEOUT) -> sqlite3.Connection:
    """A read-only connection to a store ``open_database`` opened (and migrated) already:
    the file itself refuses any write made on it."""
    db = sqlite3.connect(f'{Path(path).resolve().as_uri()}?mode=ro', uri=True,
                         check_same_thread=False, isolation_level=None, timeout=busy_timeout)
    db.row_factory = sqlite3.Row
    return db


def version(db: sqlite3.Connection) -> int:
    return db.execute('PRAGMA user_version').fetchone()[0]


def purge(db: sqlite3.Connection) -> bool:
    """Move the WAL into the database and truncate it; False while a reader holds it."""
    timeout = db.execute('PRAGMA busy_timeout').fetchone()[0]
    db.execute('PRAGMA busy_timeout = 0')      # never wait for a reader here: retry later
    try:
        busy, log, done = db.execute('PRAGMA wal_checkpoint(TRUNCATE)').fetchone()
    except sqlite3.Error:                       # read-only, disk full, I/O: not yet
        return False
    finally:
        db.execute(f'PRAGMA busy_timeout = {int(timeout)}')
    wal = _file(db) + '-wal'
    return busy == 0 and log == done and (not os.path.exists(wal) or os.path.getsize(wal) == 0)


def _file(db: sqlite3.Connection) -> str:
    return next((row[2] for row in db.execute('PRAGMA database_list') if row[1] == 'main'), '')


def _why(error: BaseException) -> str:
    text = str(error)
    if 'readonly' in text:
        return 'the file is read-only; give a writable store_path'
    if 'locked' in text or 'busy' in text:
        return 'the file is locked by another process; stop it or give another store_path'
    if 'not a database' in text:
        return 'not an SQLite database (refusing to touch it)'
    return text


def _intact(db: sqlite3.Connection, path: str) -> None:
    problems = [row[0] for row in db.execute('PRAGMA quick_check')]
    if problems != ['ok']:
        raise StoreError(f'{path} is damaged (quick_check: {"; ".join(problems[:3])}); '
                         'refusing to use it: restore a backup or move it away')


def _claim(db: sqlite3.Connection, path: str, migrations: tuple[str, ...],
           application_id: int) -> None:
    """Stamp a new (or adoptable) file with ``application_id``; refuse any other file."""
    found = db.execute('PRAGMA application_id').fetchone()[0]
    if found == application_id:
        return
    if found != 0:
        raise StoreError(f'{path} belongs to another application (application_id {found:#x}, '
                         f'this store is {application_id:#x}); refusing to touch it')
    current = version(db)
    tables = _tables(db)
    if (tables or current) and (current > len(migrations)
                                or tables != _schema_tables(migrations, current)):
        raise StoreError(f'{path} is not this store (schema version {current}, tables '
                         f'{", ".join(sorted(tables)) or "none"}); refusing to touch it')
    db.execute(f'PRAGMA application_id = {int(application_id)}')


def _tables(db: sqlite3.Connection) -> frozenset[str]:
    return frozenset(row[0] for row in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))


@cache
def _schema_tables(migrations: tuple[str, ...], number: int) -> frozenset[str]:
    """The tables a store of this schema has at version ``number``."""
    db = sqlite3.connect(':memory:', isolation_level=None)
    try:
        for script in migrations[:number]:
            for statement in _statements(script):
                db.execute(statement)
        return _tables(db)
    finally:
        db.close()


def _writable(db: sqlite3.Connection) -> None:
    """A write now, so a read-only or locked file is refused at start, not at first use."""
    with transaction(db):
        db.execute(f'PRAGMA user_version = {version(db)}')


def _migrate(db: sqlite3.Connection, path: str, migrations: Sequence[str]) -> None:
    current = version(db)
    if current > len(migrations):
        raise StoreError(f'{path} has schema version {current}, newer than this code knows '
                         f'({len(migrations)}); refusing to touch it')
    for number, script in enumerate(migrations[current:], start=current + 1):
        with transaction(db):
            for statement in _statements(script):
                db.execute(statement)
            db.execute(f'PRAGMA user_version = {number}')


def _statements(script: str) -> list[str]:
    """The statements of a script (a trigger's body keeps its own semicolons)."""
    statements, pending = [], ''
    for piece in script.split(';'):
        pending += piece + ';'
        if sqlite3.complete_statement(pending):
            if pending.strip(' \n;'):
                statements.append(pending)
            pending = ''
    return statements


def cooldown(db: sqlite3.Connection) -> float:
    """Seconds before a write is tried again after the store was found locked or read-only."""
    return max(0.0, getattr(db, 'unavailable_until', 0.0) - time.monotonic())


class transaction:  # noqa: N801 - used as a statement: ``with transaction(db):``
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception (autocommit connection).

    A lock held past the busy timeout, or a read-only file, becomes ``StoreUnavailableError``.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        waited = cooldown(self.db)
        if waited > 0:
            raise StoreUnavailableError(f'the store was unavailable a moment ago; retry in '
                                        f'{waited:.1f} s')
        try:
            self.db.execute('BEGIN IMMEDIATE')
        except sqlite3.OperationalError as error:
            raise self._unavailable(error) from error
        return self.db

    def __exit__(self, kind: object, error: object, _: object) -> None:
        try:
            self.db.execute('ROLLBACK' if kind else 'COMMIT')
        except sqlite3.OperationalError as failure:
            if kind is None:
                if self.db.in_transaction:
                    self.db.execute('ROLLBACK')
                raise self._unavailable(failure) from failure
        if isinstance(error, sqlite3.OperationalError) and _unavailable(error):
            raise self._unavailable(error) from error

    def _unavailable(self, error: sqlite3.OperationalError) -> StoreUnavailableError:
        """The error to raise; the next transactions fail at once for one busy timeout."""
        if isinstance(self.db, Connection):
            self.db.unavailable_until = time.monotonic() + self.db.busy_timeout
        return StoreUnavailableError(_why(error))


def _unavailable(error: sqlite3.OperationalError) -> bool:
    text = str(error)
    return 'readonly' in text or 'locked' in text or 'busy' in text
