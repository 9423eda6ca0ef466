"""The learner erases her own words, with one confirmation (issue 18): ``erase_my_words``.

Her words are what she said to the teacher: her live responses, her ad-hoc messages and
her feedback (the pen keeps it verbatim). The verdict on a hypothesis carries no words of
hers (``set_hypothesis_verdict`` takes only the verdict), so there is none to erase there.
Her words of consent to void a contract (``learner_consent``) stay: they are the proof the
teacher asked her, as a signature is. Not yet erasable: her exercise answers and highlight
notes (their tables are written with positional INSERTs in exercises.py and documents.py, so
they cannot take an ``erased_at`` column until those name their columns: a follow-up).

Copies. No tool copies her text into an event today (the events carry ids), but the
teacher may quote her in its own notes and any future payload might: every exact copy of an
erased text of at least ``COPY_CHARS`` characters (a quotation, not a common word), in plain
text or in the strings of a JSON column, is replaced by ``MARKER`` in the pair's event and
live-event payloads, snapshots, live evaluations, session summaries, reflections,
post-lesson evaluations, hypotheses, grading feedback, receipts and the agent's ad-hoc
messages.

Tombstones. The rows stay, with their ids, times, kinds, links and counts; the text becomes
'' and ``erased_at`` is set. The teaching facts stay, because they are the teacher's record
of its own acts and the integrity of the rest depends on them: that she answered (and when,
after which move), the grades and the teacher's feedback, the verdicts, the event sequence
numbers, the evaluations and reflections in the teacher's own words. So the closure facts,
the live evidence counts, the brief and the inbox answer as before, minus her words.

The one confirmation (like the coordinator's "删除后不可恢复，会先确认一次"): a call without
``confirm`` changes nothing and answers the counts per kind and a code; the same call with
that code erases. The code is a hash of exactly what would be erased (each row's id and
text) and of a ``WINDOW`` of time, not a secret (she is the caller already): it proves she
saw this plan lately. A stale code (two windows on), or one for a plan that has changed
since (a new message, an erasure done), matches nothing and erases nothing (CONFLICT, with
the plan of now and its code). Only the learner may erase: it is her act, not the
operators' nor the agent's.

Disk. The store runs with ``secure_delete``: the rewritten cells leave no old bytes in the
database file, but the WAL keeps the old pages until a TRUNCATE checkpoint: ``purge(store)``
after an erasure (False while a reader holds the WAL: call it again later).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import Field

from robot_skills.adapters.database import purge as checkpoint
from robot_skills.records.errors import ToolError, conflict, not_found, validation
from robot_skills.records.roles import LEARNER, Role
from robot_skills.records.store import Store
from robot_skills.records.tools import Args, Context, ToolResult, tool

WINDOW = timedelta(minutes=10)
COPY_CHARS = 8
MARKER = '〔已抹去〕'
_CHAIN = ('JOIN exercise USING (exercise_id) JOIN lesson USING (lesson_id) '
          'JOIN course USING (course_id) WHERE course.pair_id = ?')
_SESSIONS = 'JOIN live_session USING (live_session_id) WHERE live_session.pair_id = ?'

# kind -> (her words not erased yet in a pair: id, text; the tombstone of one row)
WORDS: dict[str, tuple[str, str]] = {
    'live_responses': (
        f'SELECT response_id AS id, text FROM live_response {_SESSIONS} '
        'AND live_response.erased_at IS NULL',
        "UPDATE live_response SET text = '', erased_at = ? WHERE response_id = ?"),
    'adhoc_messages': (
        'SELECT message_id AS id, text FROM adhoc_message JOIN adhoc_thread USING (thread_id) '
        "WHERE adhoc_thread.pair_id = ? AND role = 'learner' AND adhoc_message.erased_at IS NULL",
        "UPDATE adhoc_message SET text = '', erased_at = ? WHERE message_id = ?"),
    'feedback': (
        'SELECT feedback_id AS id, text FROM feedback WHERE pair_id = ? AND erased_at IS NULL',
        "UPDATE feedback SET text = '', erased_at = ? WHERE feedback_id = ?"),
}

# where copies may stand: (table, key, column, the pair's rows: key AS id, column AS text)
COPIES: tuple[tuple[str, str, str, str], ...] = (
    ('event', 'event_id', 'payload', 'SELECT event_id AS id, payload AS text FROM event '
                                     'WHERE pair_id = ?'),
    ('live_event', 'seq', 'payload', 'SELECT seq AS id, payload AS text FROM live_event '
                                     'WHERE pair_id = ?'),
    ('live_snapshot', 'snapshot_id', 'body', 'SELECT snapshot_id AS id, body AS text FROM '
                                             f'live_snapshot {_SESSIONS}'),
    ('live_evaluation', 'live_evaluation_id', 'agent_observation',
     'SELECT live_evaluation_id AS id, agent_observation AS text FROM live_evaluation '
     f'{_SESSIONS}'),
    *(('live_session', 'live_session_id', column,
       f'SELECT live_session_id AS id, {column} AS text FROM live_session WHERE pair_id = ? '
       f'AND {column} IS NOT NULL') for column in ('summary', 'teacher_reflection',
                                                   'next_action')),
    ('reflection', 'reflection_id', 'body', 'SELECT reflection_id AS id, body AS text FROM '
                                            'reflection WHERE pair_id = ?'),
    ('post_lesson_evaluation', 'evaluation_id', 'body',
     'SELECT evaluation_id AS id, body AS text FROM post_lesson_evaluation WHERE pair_id = ?'),
    ('hypothesis', 'hypothesis_id', 'observation',
     'SELECT hypothesis_id AS id, observation AS text FROM hypothesis WHERE pair_id = ?'),
    ('submission', 'submission_id', 'agent_feedback',
     f'SELECT submission_id AS id, agent_feedback AS text FROM submission {_CHAIN} '
     'AND agent_feedback IS NOT NULL'),
    ('lesson_receipt', 'lesson_id', 'items',
     'SELECT lesson_id AS id, items AS text FROM lesson_receipt JOIN lesson USING (lesson_id) '
     'JOIN course USING (course_id) WHERE course.pair_id = ?'),
    ('adhoc_message', 'message_id', 'text',
     'SELECT message_id AS id, text FROM adhoc_message JOIN adhoc_thread USING (thread_id) '
     "WHERE adhoc_thread.pair_id = ? AND role = 'agent'"),
    ('adhoc_message', 'message_id', 'payload',
     'SELECT message_id AS id, payload AS text FROM adhoc_message JOIN adhoc_thread USING '
     "(thread_id) WHERE adhoc_thread.pair_id = ? AND role = 'agent' AND payload IS NOT NULL"),
)
KEPT = ['the rows, their ids, times and links (tombstones with erased_at)',
        'that she answered, and after which move', 'grades and the teacher\'s feedback',
        'her verdicts on hypotheses', 'event sequence numbers',
        "the teacher's own notes (her quoted words in them are replaced)",
        'her words of consent to void a contract (the proof she was asked)']


class Erase(Args):
    learner_id: str = Field('', max_length=200,
                            description="'' the calling learner herself")
    pair_id: str = Field('', max_length=200, description="'' every pair of hers")
    confirm: str = Field('', max_length=64, description='the code of the first call')


class Counts(ToolResult):
    live_responses: int
    adhoc_messages: int
    feedback: int
    copies: int


class Erased(ToolResult):
    erased: bool
    counts: Counts
    pair_ids: list[str]
    confirm: str
    expires_at: str | None
    kept: list[str]
    human_note: str


Plan = dict[str, list[tuple[object, str]]]


@tool('erase_my_words', Erase, Erased, who=LEARNER)
def erase_my_words(context: Context, args: Erase) -> dict:
    """She erases her own words (two calls: the plan and its code, then the code)."""
    learner_id, pair_ids = _scope(context, args)
    words, copies = _plan(context, pair_ids)
    counts = {kind: len(rows) for kind, rows in words.items()} | {'copies': len(copies)}
    window = int(context.clock().timestamp() // WINDOW.total_seconds())
    code = _code(learner_id, pair_ids, words, copies, window)
    expires = datetime.fromtimestamp((window + 2) * WINDOW.total_seconds(), UTC)
    plan = {'counts': counts, 'pair_ids': pair_ids, 'kept': KEPT}
    if not args.confirm:
        nothing = not any(counts.values())
        return {**plan, 'erased': False, 'confirm': '' if nothing else code,
                'expires_at': None if nothing else expires.isoformat(timespec='seconds'),
                'human_note': '没有可抹去的话。' if nothing else
                '抹去后不可恢复。确定要抹去你说过的这些话吗？确定就带上 confirm 再调用一次。'}
    codes = {code, _code(learner_id, pair_ids, words, copies, window - 1)}
    if args.confirm.strip().upper() not in codes:
        raise conflict('this code does not match what would be erased now (it has expired, or '
                       'her words changed since): nothing was erased; here is the plan of now',
                       counts=counts, confirm=code,
                       expires_at=expires.isoformat(timespec='seconds'))
    now = context.now()
    for kind, rows in words.items():
        for ident, _ in rows:
            context.store.run(WORDS[kind][1], now, ident)
    erased = [text for rows in words.values() for _, text in rows if len(text) >= COPY_CHARS]
    for table, key, column, ident, text in copies:
        context.store.run(f'UPDATE {table} SET {column} = ? WHERE {key} = ?',
                          _scrubbed(text, erased), ident)
    return {**plan, 'erased': True, 'confirm': '', 'expires_at': None,
            'human_note': '你的话已经抹去了；记录的骨架（时间、次数、成绩）还在。'}


def _scope(context: Context, args: Erase) -> tuple[str, list[str]]:
    """Her learner_id (the caller's own by default) and the pairs to erase in."""
    principal = context.principal
    learner_id = args.learner_id or (principal.learner_id if principal is not None and
                                     principal.role is Role.LEARNER else '')
    if not learner_id:
        raise validation('name the learner_id')
    context.learner(learner_id)
    if context.store.one('SELECT 1 FROM learner WHERE learner_id = ?', learner_id) is None:
        raise ToolError('NOT_FOUND', f'no learner {learner_id!r}')
    if args.pair_id:
        pair_id = context.pair(args.pair_id)
        if context.store.one('SELECT 1 FROM pair WHERE pair_id = ? AND learner_id = ?',
                             pair_id, learner_id) is None:
            raise not_found('pair of hers', args.pair_id)
        return learner_id, [pair_id]
    return learner_id, [r['pair_id'] for r in context.store.all(
        'SELECT pair_id FROM pair WHERE learner_id = ? ORDER BY created_at', learner_id)]


def _plan(context: Context, pair_ids: list[str]) -> tuple[Plan, list[tuple]]:
    """Her words not erased yet, per kind, and every place holding a copy of one."""
    words: Plan = {kind: [(r['id'], r['text']) for pair_id in pair_ids
                          for r in context.store.all(select, pair_id)]
                   for kind, (select, _) in WORDS.items()}
    quoted = [text for rows in words.values() for _, text in rows if len(text) >= COPY_CHARS]
    copies = []
    if quoted:
        for table, key, column, select in COPIES:
            for pair_id in pair_ids:
                for row in context.store.all(select, pair_id):
                    if _scrubbed(row['text'], quoted) != row['text']:
                        copies.append((table, key, column, row['id'], row['text']))
    return words, copies


def _scrubbed(text: str, quoted: list[str]) -> str:
    """``text`` with every copy of a quoted text replaced by MARKER: in the strings of a JSON
    object or array (decoded, so an escape is never cut), else in the plain text."""
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict | list):
        return _replaced(text, quoted)
    scrubbed = _walk(value, quoted)
    return text if scrubbed == value else json.dumps(scrubbed, ensure_ascii=False)


def _walk(value: Any, quoted: list[str]) -> Any:
    if isinstance(value, str):
        return _replaced(value, quoted)
    if isinstance(value, list):
        return [_walk(item, quoted) for item in value]
    if isinstance(value, dict):
        return {_replaced(key, quoted): _walk(item, quoted) for key, item in value.items()}
    return value


def _replaced(text: str, quoted: list[str]) -> str:
    for words in sorted(quoted, key=len, reverse=True):
        text = text.replace(words, MARKER)
    return text


def _code(learner_id: str, pair_ids: list[str], words: Plan, copies: list[tuple],
          window: int) -> str:
    """The confirmation of exactly this plan in this window of time."""
    plan = {'learner_id': learner_id, 'pair_ids': pair_ids, 'window': window,
            'words': {kind: sorted([str(ident), hashlib.sha256(text.encode()).hexdigest()]
                                   for ident, text in rows) for kind, rows in words.items()},
            'copies': sorted([table, column, str(ident)] for table, _, column, ident, _ in
                             copies)}
    digest = hashlib.sha256(b'erase_my_words\0' + json.dumps(plan, sort_keys=True).encode())
    return digest.hexdigest()[:10].upper()


def purge(store: Store) -> bool:
    """Checkpoint and truncate the WAL, so erased words leave the disk (False while a reader
    or a write holds it: retry later)."""
    return checkpoint(store.db)


TOOLS = (
    erase_my_words,
)
