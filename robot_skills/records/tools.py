"""What a records tool is, the context it runs with, and the answer a call gets.

A tool is a pydantic model of its arguments (unknown fields refused: a typo
or a field the document forbids never passes silently), a pydantic model of
its result, and a function of a ``Context`` and those arguments that returns
the result or raises a ``ToolError``. ``Records.call`` (``api.py``) is the only entry,
shared by the Python API, the ROS service ``records/call`` and the command
line: it validates the arguments, runs the tool in one transaction (a
refusal rolls back everything the tool wrote), checks the result against its
model, and answers a ``Result`` with ``ok``, ``code``, ``result``, ``error``.
A result that breaks its own model is a bug: nothing is written and the code
is ``INTERNAL``. A store another process keeps locked past the busy timeout,
or a read-only one, is ``UNAVAILABLE``: nothing was written, retry later.
These two are the codes beyond the document's four. Arguments given as JSON
text go through the wire parser (size, depth, 64-bit integers, finite numbers),
so no value reaching a tool can overflow SQLite. ``field`` names the argument
a refusal is about, so traces can say which without quoting it.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

from robot_skills.records.errors import ToolError, not_found, permission, validation
from robot_skills.records.roles import AGENT, READER, Principal, Role
from robot_skills.records.store import Store

ArgsT = TypeVar('ArgsT', bound=BaseModel)


class Args(BaseModel):
    """A tool's arguments: unknown fields are refused."""

    model_config = ConfigDict(extra='forbid', frozen=True)


class ToolResult(BaseModel):
    """A tool's result: exactly the declared fields (a tool cannot leak an undeclared one)."""

    model_config = ConfigDict(extra='forbid')


class PairArgs(Args):
    """Arguments of a tool that acts in a pair ('' = the one active pair)."""

    pair_id: str = ''


PAIRS_LISTED = 20       # active pairs a refusal lists (a school has hundreds: name the pair_id)


@dataclass(frozen=True)
class Tool:
    name: str
    args: type[BaseModel]
    result: type[ToolResult]
    run: Callable[[Context, Any], dict]
    doc: str
    reads: bool = False       # reads only: runs on a snapshot, in parallel with any other call
    who: frozenset[Role] = AGENT     # the roles that may call it (roles.py)


Function = Callable[[Any, ArgsT], dict]


def tool(name: str, args: type[ArgsT], result: type[ToolResult], reads: bool = False,
         who: frozenset[Role] | None = None) -> Callable[[Function], Tool]:
    """The ``Tool`` named ``name`` (the document's name where it gives one) made of the
    function it decorates; ``reads`` when it never writes (a write it tried anyway would
    fail on the read-only snapshot); ``who`` the roles that may call it (default: the
    agent's writes, the agent's and the operators' reads). Each module lists its tools in
    its ``TOOLS``; ``records/api.py`` gathers those lists, by name."""
    def make(function: Function) -> Tool:
        return Tool(name, args, result, function, (function.__doc__ or '').strip(),
                    reads, who if who is not None else READER if reads else AGENT)
    return make


@dataclass
class Context:
    """What a tool runs with: the store, the time, new ids (both injectable for tests), and
    the caller (None: the process that owns the store, e.g. a test, acting unscoped)."""

    store: Store
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    new_id: Callable[[str], str] = field(default=lambda prefix: f'{prefix}_{uuid.uuid4().hex[:16]}')
    principal: Principal | None = None

    def now(self) -> str:
        return self.clock().isoformat(timespec='milliseconds')

    def pair(self, pair_id: str = '') -> str:
        """The pair a call acts in: the given one (it must exist and be in the caller's
        scope), else the one active pair in the caller's scope."""
        if pair_id:
            row = self.store.one('SELECT learner_id FROM pair WHERE pair_id = ?', pair_id)
            if not self._may(pair_id, row['learner_id'] if row else None):
                raise permission(f'{self._who()} may not act in pair {pair_id[:80]!r}')
            if row is None:
                raise ToolError('NOT_FOUND', f'no pair {pair_id!r}',
                                {'available_pairs': self.pairs()[:PAIRS_LISTED]})
            return pair_id
        active = self.pairs()
        if len(active) != 1:
            many = f'{len(active)}' if len(active) <= PAIRS_LISTED else f'over {PAIRS_LISTED}'
            raise validation('name the pair_id: ' + (
                'there is no active pair (create_pair first)' if not active else
                f'{many} pairs are active'), available_pairs=active[:PAIRS_LISTED])
        return active[0]

    def pairs(self) -> list[str]:
        """The first active pairs in the caller's scope, oldest first (a school has hundreds:
        a refusal lists a few)."""
        scope = self.principal
        if scope is None or scope.unscoped:
            rows = self.store.all("SELECT pair_id FROM pair WHERE status = 'active' "
                                  'ORDER BY created_at LIMIT ?', PAIRS_LISTED + 1)
        elif scope.learner_id:
            rows = self.store.all("SELECT pair_id FROM pair WHERE learner_id = ? AND status = "
                                  "'active' ORDER BY created_at LIMIT ?", scope.learner_id,
                                  PAIRS_LISTED + 1)
        else:
            rows = [row for pair_id in sorted(scope.pair_ids) for row in self.store.all(
                "SELECT pair_id FROM pair WHERE pair_id = ? AND status = 'active'", pair_id)]
        return [row['pair_id'] for row in rows]

    def learner(self, learner_id: str) -> str:
        """``learner_id`` when the caller may act for her (her own, or an agent or operator
        whose scope holds her); PERMISSION otherwise."""
        scope = self.principal
        if scope is not None and not scope.unscoped and scope.learner_id != learner_id:
            raise permission(f'{self._who()} may not act for another learner')
        return learner_id

    def _may(self, pair_id: str, learner_id: str | None) -> bool:
        scope = self.principal
        if scope is None or scope.unscoped:
            return True
        if scope.pair_ids and pair_id not in scope.pair_ids:
            return False
        return not scope.learner_id or scope.learner_id == learner_id

    def _who(self) -> str:
        return self.principal.describe() if self.principal else 'this caller'

    def exists(self, table: str, ident: str, pair_id: str) -> bool:
        """Whether ``ident`` is a row of ``table`` in ``pair_id`` (a reference check)."""
        return self.store.one(OWNED[table], ident, pair_id) is not None

    def owned(self, table: str, ident: str, pair_id: str) -> sqlite3.Row:
        """The row ``ident`` of ``table`` if it belongs to ``pair_id``; NOT_FOUND otherwise."""
        row = self.store.one(OWNED[table], ident, pair_id)
        if row is None:
            raise not_found(table, ident)
        return row


# How a row reaches its pair: other pairs' rows are NOT_FOUND, exactly like missing ones.
OWNED = {
    'contract': 'SELECT * FROM contract WHERE contract_id = ? AND pair_id = ?',
    'course': 'SELECT * FROM course WHERE course_id = ? AND pair_id = ?',
    'lesson': 'SELECT lesson.* FROM lesson JOIN course USING (course_id) '
              'WHERE lesson_id = ? AND course.pair_id = ?',
    'document': 'SELECT * FROM document WHERE document_id = ? AND pair_id = ?',
    'concept': 'SELECT * FROM concept WHERE concept_id = ? AND pair_id = ?',
    'flashcard': 'SELECT * FROM flashcard WHERE flashcard_id = ? AND pair_id = ?',
    'mindmap': 'SELECT * FROM mindmap WHERE mindmap_id = ? AND pair_id = ?',
    'exercise': 'SELECT exercise.* FROM exercise JOIN lesson USING (lesson_id) '
                'JOIN course USING (course_id) WHERE exercise_id = ? AND course.pair_id = ?',
    'submission': 'SELECT submission.* FROM submission JOIN exercise USING (exercise_id) '
                  'JOIN lesson USING (lesson_id) JOIN course USING (course_id) '
                  'WHERE submission_id = ? AND course.pair_id = ?',
    'lesson_patch': 'SELECT lesson_patch.* FROM lesson_patch JOIN lesson USING (lesson_id) '
                    'JOIN course USING (course_id) WHERE patch_id = ? AND course.pair_id = ?',
    'hypothesis': 'SELECT * FROM hypothesis WHERE hypothesis_id = ? AND pair_id = ?',
    'feedback': 'SELECT * FROM feedback WHERE feedback_id = ? AND pair_id = ?',
    'live_session': 'SELECT * FROM live_session WHERE live_session_id = ? AND pair_id = ?',
    'live_snapshot': 'SELECT live_snapshot.* FROM live_snapshot JOIN live_session '
                     'USING (live_session_id) WHERE snapshot_id = ? AND pair_id = ?',
    'live_move': 'SELECT live_move.* FROM live_move JOIN live_session USING (live_session_id) '
                 'WHERE move_id = ? AND pair_id = ?',
    'live_response': 'SELECT live_response.* FROM live_response JOIN live_session '
                     'USING (live_session_id) WHERE response_id = ? AND pair_id = ?',
    'live_evaluation': 'SELECT live_evaluation.* FROM live_evaluation JOIN live_session '
                       'USING (live_session_id) WHERE live_evaluation_id = ? AND pair_id = ?',
}


@dataclass(frozen=True)
class Result:
    ok: bool
    code: str = ''
    result: dict = field(default_factory=dict)
    error: str = ''
    field: str = ''          # the declared argument a refusal is about ('' when none is)

    def to_json(self) -> str:
        return json.dumps(self.result, ensure_ascii=False, default=str)
