"""Every SQLite store of the project opens the same way (the coordinator's, the records').

WAL journal with ``synchronous=FULL`` (a committed transaction survives a
crash of the process or the machine), foreign keys on, ``secure_delete`` on
(deleted rows leave no readable bytes), and a schema versioned with ``PRAGMA
user_version`` and forward-only migrations, each applied in one transaction,
so an old file is upgraded in place and a file from a newer version is
refused rather than damaged. Every change runs in ``transaction``: BEGIN
IMMEDIATE ... COMMIT, or ROLLBACK on any exception.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path


class StoreError(ValueError):
    """The store file cannot be used: not SQLite, unwritable, or from a newer version.

    A ValueError, so a node refuses to start with the reason (the path is a
    parameter like any other).
    """


def open_database(path: Path | str, migrations: Sequence[str],
                  parameter: str = 'store_path') -> sqlite3.Connection:
    """A connection to ``path`` (':memory:' for none) with the schema brought up to date."""
    path = str(path)
    try:
        if path != ':memory:':
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        db.execute('PRAGMA journal_mode=WAL')
        db.execute('PRAGMA synchronous=FULL')
        db.execute('PRAGMA foreign_keys=ON')
        db.execute('PRAGMA secure_delete=ON')
        _migrate(db, path, migrations)
    except (sqlite3.Error, OSError) as error:
        raise StoreError(f'{parameter} {path}: {error}') from error
    return db


def version(db: sqlite3.Connection) -> int:
    return db.execute('PRAGMA user_version').fetchone()[0]


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


class transaction:  # noqa: N801 - used as a statement: ``with transaction(db):``
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception (autocommit connection)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute('BEGIN IMMEDIATE')
        return self.db

    def __exit__(self, kind: object, *_: object) -> None:
        self.db.execute('ROLLBACK' if kind else 'COMMIT')
