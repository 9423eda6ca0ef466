"""Every SQL statement the project's stores issue in this test run, and the query plan of each.

``collect()`` (called by conftest before any test runs) makes every connection
``runtime/database.py`` opens (writers and per-thread readers) report its
statements to ``SEEN``, one example per shape (literals replaced), so a whole
suite yields a few hundred distinct statements rather than millions.
``full_scans`` then asks SQLite for the plan of each against a store and names
every full scan of a table that grows with learners. Statements of migrations
and start-up checks are not collected (they run once per open, not per
request); nor are PRAGMAs and transaction control.
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from robot_skills.adapters import database

SEEN: dict[str, str] = {}          # shape -> one statement of that shape, as executed
SKIPPED = re.compile(r'\s*(--|PRAGMA|BEGIN|COMMIT|ROLLBACK|CREATE|DROP|ALTER|SAVEPOINT|RELEASE|'
                     r'EXPLAIN)', re.IGNORECASE)
PRODUCT = os.sep + 'robot_skills' + os.sep
WRAPPERS = os.path.join('records', 'store.py')        # Store.one/all/run pass statements on
LITERAL = re.compile(r"'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b")


def shape(statement: str) -> str:
    """The statement with its literals replaced: one plan per shape is enough."""
    return ' '.join(LITERAL.sub('?', statement).split())


def record(statement: str) -> None:
    if not SKIPPED.match(statement) and _from_the_product():
        SEEN.setdefault(shape(statement), statement)


def _from_the_product() -> bool:
    """Whether the code that issued the statement is the product's (a test reading a store
    to check it is not a request path)."""
    frame = sys._getframe(2)
    while frame is not None:
        path, name = frame.f_code.co_filename, frame.f_code.co_name
        if not (path == __file__ or (path.endswith(WRAPPERS) and name in ('one', 'all', 'run'))):
            return PRODUCT in path
        frame = frame.f_back
    return False


@contextmanager
def captured() -> Iterator[dict[str, str]]:
    """The statements issued inside the block, by shape (``SEEN`` keeps them too)."""
    before = dict(SEEN)
    SEEN.clear()
    inside: dict[str, str] = {}
    try:
        yield inside
    finally:
        inside.update(SEEN)
        SEEN.update(before)


def collect() -> None:
    """Trace every connection the stores open from now on (after they are open and migrated)."""
    for name in ('open_database', 'open_reader'):
        traced = _traced(getattr(database, name))
        setattr(database, name, traced)
        for module in list(sys.modules.values()):       # those that imported it by name
            if getattr(module, '__name__', '').startswith('robot_skills.') and \
                    getattr(module, name, None) is not None and module is not database:
                setattr(module, name, traced)


def _traced(opener):
    def traced(*args, **kwargs):
        db = opener(*args, **kwargs)
        db.set_trace_callback(record)
        return db
    return traced


def full_scans(db: sqlite3.Connection, statements: Iterable[str],
               growing: frozenset[str]) -> tuple[list[tuple[str, str]], int]:
    """(statement, plan line) of each full scan of a ``growing`` table, and how many
    statements were planned (a statement for another store's schema is not planned here)."""
    found, planned = [], 0
    for statement in statements:
        try:
            plan = db.execute('EXPLAIN QUERY PLAN ' + statement).fetchall()
        except sqlite3.Error:
            continue        # another store's statement (no such table): planned by its own test
        planned += 1
        for row in plan:
            match = re.match(r'SCAN (\w+)', row[-1])
            if match and match.group(1) in growing:
                found.append((statement, row[-1]))
    return found, planned
