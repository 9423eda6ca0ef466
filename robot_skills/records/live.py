"""Live teaching (004 part 2): sessions, moves, responses, snapshots, closing, waiting.

Every learner event (a response, the close bell, an ad-hoc message) is
appended to ``live_event`` with a sequence number in the same transaction as
the record itself, so the event stream and the records cannot disagree.
``live_wait`` reads that stream after a cursor (leaving out ad-hoc messages
already acknowledged): a consumer's cursor is stored
(``consumer_id``) and moves only when the consumer acknowledges with
``since`` (at-least-once: a consumer that dies before acknowledging gets the
same events again, none is lost). In this module ``live_wait`` answers at
once; the node makes it wait up to ``timeout_s`` without polling (it parks
the call and answers when a write appends an event for the pair) and also
publishes each event on ``records/live_events``. ``live_pending`` is a
snapshot, with teeth against being used as a polling loop.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Literal

from pydantic import Field, model_validator

from robot_skills.records.closure import Facts, progress_of
from robot_skills.records.errors import ToolError, conflict, validation
from robot_skills.records.frame import read_frame
from robot_skills.records.ids import plain
from robot_skills.records.roles import AGENT, LEARNER, SHARED_READ
from robot_skills.records.tools import Args, Context, Out, PairArgs, tool

CONTRACT_VERSION = 'v3'
RUNTIME_CONTRACT = ('值更契约 v3：等待不烧模型回合（禁止模型层轮询），'
                    '用 live_wait、看门脚本或自己的监听机制；'
                    '先判后收，学习者按下课铃才收课；欠的 move 是你的债。')
MAX_WAIT = 50
EXPLAIN_CHARS = 300
PROBE_WINDOW = timedelta(seconds=90)
WARN_AT, REFUSE_AT = 6, 12
PRIORITY = ('ad_hoc_question', 'ad_hoc_response', 'session_start', 'guided_response')


def emit(context: Context, pair_id: str, kind: str, session_id: str | None,
         payload: dict) -> None:
    context.store.run('INSERT INTO live_event (pair_id, kind, live_session_id, payload, at) '
                      'VALUES (?, ?, ?, ?, ?)', pair_id, kind, session_id,
                      json.dumps(payload, ensure_ascii=False), context.now())


def heartbeat(context: Context, pair_id: str, ttl: int) -> str:
    expires = (context.clock() + timedelta(seconds=ttl)).isoformat(timespec='milliseconds')
    context.store.run('INSERT INTO heartbeat VALUES (?, ?) ON CONFLICT (pair_id) DO UPDATE SET '
                      'expires_at = excluded.expires_at', pair_id, expires)
    return expires


# ---- sessions ------------------------------------------------------------------------------

class Start(PairArgs):
    lesson_id: str = ''
    context_type: str = 'lesson'


class Started(Out):
    live_session_id: str
    status: str
    joined_existing: bool


@tool('live_session_start', Start, Started)
def live_session_start(context: Context, args: Start) -> dict:
    """Open a live session; an active room for the same lesson is joined instead."""
    pair_id = context.pair(args.pair_id)
    if args.lesson_id:
        context.owned('lesson', args.lesson_id, pair_id)
        active = context.store.one("SELECT live_session_id FROM live_session WHERE pair_id = ? "
                                   "AND lesson_id = ? AND status = 'active'", pair_id,
                                   args.lesson_id)
        if active is not None:
            return {'live_session_id': active['live_session_id'], 'status': 'active',
                    'joined_existing': True}
    session_id = context.new_id('lv')
    context.store.run("INSERT INTO live_session (live_session_id, pair_id, lesson_id, "
                      "context_type, status, started_at) VALUES (?, ?, ?, ?, 'active', ?)",
                      session_id, pair_id, args.lesson_id or None, args.context_type,
                      context.now())
    return {'live_session_id': session_id, 'status': 'active', 'joined_existing': False}


class SessionArgs(PairArgs):
    live_session_id: str = Field(min_length=1)


class Whole(Out):
    session: dict
    moves: list[dict]
    responses: list[dict]


@tool('live_session_get', SessionArgs, Whole, reads=True, who=SHARED_READ)
def live_session_get(context: Context, args: SessionArgs) -> dict:
    """The whole session: the session, every move and every response."""
    pair_id = context.pair(args.pair_id)
    session = context.owned('live_session', args.live_session_id, pair_id)
    moves = context.store.all('SELECT * FROM live_move WHERE live_session_id = ? ORDER BY seq',
                              args.live_session_id)
    responses = context.store.all('SELECT * FROM live_response WHERE live_session_id = ? '
                                  'ORDER BY at, rowid', args.live_session_id)
    return {'session': dict(session), 'moves': [dict(m) for m in moves],
            'responses': [dict(r) for r in responses]}


def _active(context: Context, session_id: str, pair_id: str):
    session = context.owned('live_session', session_id, pair_id)
    if session['status'] != 'active':
        raise conflict(f'the session is {session["status"]}', status=session['status'])
    return session


class Move(SessionArgs):
    move_type: Literal['FRAME', 'ASK', 'PROBE', 'CHALLENGE', 'EXPLAIN', 'REFLECT', 'MODEL',
                       'PRACTICE', 'FEEDBACK']
    content: str = Field(min_length=1, max_length=5000)
    response_kind: Literal['text', 'none', 'choice'] = 'none'

    @model_validator(mode='after')
    def _rules(self) -> Move:
        if self.move_type in ('ASK', 'PROBE', 'CHALLENGE') and self.response_kind != 'text':
            raise ValueError(f'{self.move_type} needs response_kind "text"')
        if self.move_type == 'REFLECT' and self.response_kind != 'none':
            raise ValueError('REFLECT needs response_kind "none"')
        if self.move_type == 'EXPLAIN' and len(self.content) > EXPLAIN_CHARS:
            raise ValueError(f'an EXPLAIN is at most {EXPLAIN_CHARS} characters')
        return self


class FrameParts(Out):
    what: str
    how_long: str
    duration_minutes: int | None
    when_done: str


class Moved(Out):
    move_id: str
    seq: int
    awaiting_role: str
    frame: FrameParts | None = None


@tool('live_move_append', Move, Moved)
def live_move_append(context: Context, args: Move) -> dict:
    """Append a teaching move; the first is a FRAME saying what, how long and when done."""
    pair_id = context.pair(args.pair_id)
    _active(context, args.live_session_id, pair_id)
    seq = 1 + context.store.row('SELECT count(*) AS n FROM live_move WHERE live_session_id = ?',
                                args.live_session_id)['n']
    frame = read_frame(args.content) if seq == 1 else None
    if frame is not None:
        if args.move_type != 'FRAME':
            raise validation('the first move of a session is a FRAME')
        if frame.missing:
            raise validation(f'the FRAME does not say {", ".join(frame.missing)} (本场做什么/'
                             '多久/怎么算完)', missing=frame.missing, found=frame.parts())
    move_id = context.new_id('mv')
    awaiting = 'learner' if args.response_kind != 'none' else 'agent'
    context.store.run('INSERT INTO live_move VALUES (?, ?, ?, ?, ?, ?, ?)', move_id,
                      args.live_session_id, seq, args.move_type, args.content,
                      args.response_kind, context.now())
    context.store.run('UPDATE live_session SET awaiting_role = ? WHERE live_session_id = ?',
                      awaiting, args.live_session_id)
    result = {'move_id': move_id, 'seq': seq, 'awaiting_role': awaiting}
    if frame is not None:
        result['frame'] = frame.parts()
    return result


class Respond(SessionArgs):
    text: str = Field(min_length=1, max_length=20000)
    move_id: str = ''


class Responded(Out):
    response_id: str


@tool('live_learner_respond', Respond, Responded, who=LEARNER)
def live_learner_respond(context: Context, args: Respond) -> dict:
    """The learner answers in the live room (learner side): an event for the agent's wait."""
    pair_id = context.pair(args.pair_id)
    _active(context, args.live_session_id, pair_id)
    if args.move_id:
        context.owned('live_move', args.move_id, pair_id)
    response_id = context.new_id('rsp')
    moves = context.store.row('SELECT count(*) AS n FROM live_move WHERE live_session_id = ?',
                              args.live_session_id)['n']
    context.store.run('INSERT INTO live_response (response_id, live_session_id, move_id, text, '
                      'at, after_move_seq) VALUES (?, ?, ?, ?, ?, ?)', response_id,
                      args.live_session_id, args.move_id or None, args.text, context.now(),
                      moves)
    context.store.run("UPDATE live_session SET awaiting_role = 'agent' WHERE live_session_id = ?",
                      args.live_session_id)
    emit(context, pair_id, 'learner_response', args.live_session_id,
         {'response_id': response_id, 'move_id': args.move_id or None})
    return {'response_id': response_id}


class Bell(Out):
    live_session_id: str
    learner_close_declared_at: str


@tool('live_declare_close', SessionArgs, Bell, who=LEARNER)
def live_declare_close(context: Context, args: SessionArgs) -> dict:
    """The learner rings the close bell in the live room (learner side)."""
    pair_id = context.pair(args.pair_id)
    session = _active(context, args.live_session_id, pair_id)
    at = session['learner_close_declared_at'] or context.now()
    if session['learner_close_declared_at'] is None:
        context.store.run('UPDATE live_session SET learner_close_declared_at = ? WHERE '
                          'live_session_id = ?', at, args.live_session_id)
        emit(context, pair_id, 'live.learner_close_declared', args.live_session_id, {})
    return {'live_session_id': args.live_session_id, 'learner_close_declared_at': at}


class SnapshotArgs(SessionArgs):
    body: dict = Field(min_length=1, description='the rolling checkpoint')


class Snapshot(Out):
    snapshot_id: str
    live_session_id: str
    at: str
    body: dict | None = None


@tool('live_snapshot_write', SnapshotArgs, Snapshot)
def live_snapshot_write(context: Context, args: SnapshotArgs) -> dict:
    """Flush a rolling mid-lesson checkpoint (every three rounds or so)."""
    pair_id = context.pair(args.pair_id)
    _active(context, args.live_session_id, pair_id)
    snapshot_id, now = context.new_id('snap'), context.now()
    context.store.run('INSERT INTO live_snapshot VALUES (?, ?, ?, ?)', snapshot_id,
                      args.live_session_id, json.dumps(args.body, ensure_ascii=False), now)
    return {'snapshot_id': snapshot_id, 'live_session_id': args.live_session_id, 'at': now}


@tool('live_snapshot_get_latest', SessionArgs, Snapshot, reads=True, who=SHARED_READ)
def live_snapshot_get_latest(context: Context, args: SessionArgs) -> dict:
    """The session's latest snapshot: with the moves after it, the minimum to resume."""
    pair_id = context.pair(args.pair_id)
    context.owned('live_session', args.live_session_id, pair_id)
    row = context.store.one('SELECT * FROM live_snapshot WHERE live_session_id = ? ORDER BY at '
                            'DESC, rowid DESC', args.live_session_id)
    if row is None:
        raise ToolError('NOT_FOUND', 'this session has no snapshot yet')
    return {'snapshot_id': row['snapshot_id'], 'live_session_id': args.live_session_id,
            'at': row['at'], 'body': json.loads(row['body'])}


class LiveEvaluation(Args):
    agent_observation: str = Field(min_length=1, max_length=5000)
    evidence_refs: list[str] = []


class Complete(SessionArgs):
    summary: str = Field(min_length=1, max_length=2000)
    teacher_reflection: str = Field(min_length=1, max_length=2000)
    next_action: str = Field(min_length=1, max_length=2000)
    evaluation: LiveEvaluation | None = None


class Completed(Out):
    live_session_id: str
    status: Literal['completed']
    ended_at: str
    replayed: bool = False
    human_note: str = ''
    live_evaluation_id: str | None = None


@tool('live_session_complete', Complete, Completed)
def live_session_complete(context: Context, args: Complete) -> dict:
    """收课: REFLECT's three parts, only after her close bell; a replay changes nothing."""
    pair_id = context.pair(args.pair_id)
    session = context.owned('live_session', args.live_session_id, pair_id)
    for name in ('summary', 'teacher_reflection', 'next_action'):
        plain(name, getattr(args, name))
    if args.evaluation is not None:
        plain('evaluation.agent_observation', args.evaluation.agent_observation)
    if session['status'] == 'cancelled':
        raise conflict('a cancelled session cannot be completed')
    evaluation_id = None
    if session['status'] == 'completed':
        if args.evaluation is not None:
            evaluation_id = _evaluate(context, pair_id, args.live_session_id, args.evaluation)
        return {'live_session_id': args.live_session_id, 'status': 'completed',
                'ended_at': session['ended_at'], 'replayed': True,
                'human_note': f'已于 {session["ended_at"]} 完成，本次为幂等重放，未改动。',
                'live_evaluation_id': evaluation_id}
    if session['learner_close_declared_at'] is None:
        raise conflict('she has not rung the close bell: ask her to press it in the live room '
                       'before completing')
    now = context.now()
    context.store.run("UPDATE live_session SET status = 'completed', awaiting_role = 'none', "
                      'ended_at = ?, summary = ?, teacher_reflection = ?, next_action = ? '
                      'WHERE live_session_id = ?', now, args.summary, args.teacher_reflection,
                      args.next_action, args.live_session_id)
    if args.evaluation is not None:
        evaluation_id = _evaluate(context, pair_id, args.live_session_id, args.evaluation)
    return {'live_session_id': args.live_session_id, 'status': 'completed', 'ended_at': now,
            'live_evaluation_id': evaluation_id}


def _evaluate(context: Context, pair_id: str, session_id: str,
              evaluation: LiveEvaluation) -> str:
    """One evaluation per session: an existing one is returned, never overwritten."""
    existing = context.store.one('SELECT live_evaluation_id FROM live_evaluation WHERE '
                                 'live_session_id = ?', session_id)
    if existing is not None:
        return existing['live_evaluation_id']
    for ref in evaluation.evidence_refs:
        if not any(context.exists(table, ref, pair_id)
                   for table in ('live_move', 'live_response', 'live_snapshot')):
            raise ToolError('NOT_FOUND', f'evidence ref {ref!r} is not a move, response or '
                                         'snapshot of this pair')
    evaluation_id = context.new_id('lve')
    context.store.run('INSERT INTO live_evaluation VALUES (?, ?, ?, ?, ?)', evaluation_id,
                      session_id, evaluation.agent_observation,
                      json.dumps(evaluation.evidence_refs), context.now())
    return evaluation_id


class RecordLive(SessionArgs, LiveEvaluation):
    pass


class LiveEvaluated(Out):
    live_evaluation_id: str
    existing: bool
    closure_progress: Facts | None


@tool('record_live_evaluation', RecordLive, LiveEvaluated)
def record_live_evaluation(context: Context, args: RecordLive) -> dict:
    """The late-written evaluation of a completed session; one per session, idempotent."""
    pair_id = context.pair(args.pair_id)
    plain('agent_observation', args.agent_observation)
    session = context.owned('live_session', args.live_session_id, pair_id)
    if session['status'] != 'completed':
        raise conflict('complete the session first (live_session_complete)')
    before = context.store.one('SELECT 1 FROM live_evaluation WHERE live_session_id = ?',
                               args.live_session_id)
    evaluation_id = _evaluate(context, pair_id, args.live_session_id,
                              LiveEvaluation(agent_observation=args.agent_observation,
                                             evidence_refs=args.evidence_refs))
    return {'live_evaluation_id': evaluation_id, 'existing': before is not None,
            'closure_progress': progress_of(context, session['lesson_id'])}


class Cancel(SessionArgs):
    reason: str = ''


class Cancelled(Out):
    live_session_id: str
    status: str


@tool('live_session_cancel', Cancel, Cancelled)
def live_session_cancel(context: Context, args: Cancel) -> dict:
    """End a session early (learner left, timeout); idempotent; no close bell needed."""
    pair_id = context.pair(args.pair_id)
    session = context.owned('live_session', args.live_session_id, pair_id)
    if session['status'] == 'active':
        context.store.run("UPDATE live_session SET status = 'cancelled', awaiting_role = 'none', "
                          'ended_at = ? WHERE live_session_id = ?', context.now(),
                          args.live_session_id)
        return {'live_session_id': args.live_session_id, 'status': 'cancelled'}
    return {'live_session_id': args.live_session_id, 'status': session['status']}


# ---- being there: heartbeat, pending, wait ------------------------------------------------

class Heartbeat(PairArgs):
    ttl_seconds: int = Field(60, ge=5, le=600, description='the online window, not a poll period')


class Alive(Out):
    online_until: str


@tool('live_heartbeat', Heartbeat, Alive)
def live_heartbeat(context: Context, args: Heartbeat) -> dict:
    """Agent keep-alive: the bridge counts as online for ttl_seconds."""
    return {'online_until': heartbeat(context, context.pair(args.pair_id), args.ttl_seconds)}


class Pending(Out):
    bridge: dict
    sessions: list[dict]
    warning: dict | None = None


@tool('live_pending', PairArgs, Pending)
def live_pending(context: Context, args: PairArgs) -> dict:
    """A snapshot of what waits for the agent (never a waiting loop: live_wait is)."""
    pair_id = context.pair(args.pair_id)
    items = pending_items(context, pair_id)
    online = context.store.one('SELECT expires_at FROM heartbeat WHERE pair_id = ?', pair_id)
    result: dict = {'bridge': {'online': online is not None and
                                          online['expires_at'] >= context.now()},
                    'sessions': items}
    if items:
        context.store.run('DELETE FROM pending_probe WHERE pair_id = ?', pair_id)
        return result
    probe = context.store.one('SELECT * FROM pending_probe WHERE pair_id = ?', pair_id)
    window_start = (context.clock() - PROBE_WINDOW).isoformat(timespec='milliseconds')
    count = 1 if probe is None or probe['first_at'] < window_start else probe['empty_calls'] + 1
    first = probe['first_at'] if probe is not None and count != 1 else context.now()
    if count >= REFUSE_AT:
        raise conflict(f'{count} empty live_pending calls within 90 s: this is a polling loop. '
                       'Wait with live_wait instead', empty_calls=count)
    context.store.run('INSERT INTO pending_probe VALUES (?, ?, ?) ON CONFLICT (pair_id) DO '
                      'UPDATE SET empty_calls = excluded.empty_calls, first_at = '
                      'excluded.first_at', pair_id, count, first)
    if count >= WARN_AT:
        result['warning'] = {'empty_calls': count, 'refused_at': REFUSE_AT,
                             'message': 'live_pending is a snapshot, not a watch: use live_wait'}
    return result


def pending_items(context: Context, pair_id: str) -> list[dict]:
    items = []
    thread = context.store.one('SELECT thread_id FROM adhoc_thread WHERE pair_id = ?', pair_id)
    if thread is not None:
        messages = context.store.all('SELECT * FROM adhoc_message WHERE thread_id = ? ORDER BY '
                                     'message_id', thread['thread_id'])
        last_agent = max((m['message_id'] for m in messages if m['role'] == 'agent'), default=0)
        for message in messages:
            if message['role'] == 'learner' and message['acked_at'] is None and \
                    message['message_id'] > last_agent:
                kind = 'ad_hoc_response' if last_agent else 'ad_hoc_question'
                items.append({'type': kind, 'pending_reason': 'learner_response_waiting',
                              'message_id': message['message_id'], 'at': message['at']})
    for session in context.store.all("SELECT * FROM live_session WHERE pair_id = ? AND "
                                     "status = 'active' ORDER BY started_at", pair_id):
        moves = context.store.row('SELECT count(*) AS n FROM live_move WHERE '
                                  'live_session_id = ?', session['live_session_id'])['n']
        if moves == 0:
            reason, kind = 'session_start', 'session_start'
        elif session['awaiting_role'] == 'agent':
            # waiting only while her latest response has no agent move after it
            unanswered = context.store.one('SELECT 1 FROM live_response WHERE '
                                           'live_session_id = ? AND after_move_seq >= ?',
                                           session['live_session_id'], moves)
            reason = 'learner_response_waiting' if unanswered else 'agent_owes_move'
            kind = 'guided_response'
        else:
            continue
        items.append({'type': kind, 'pending_reason': reason,
                      'live_session_id': session['live_session_id'],
                      'at': session['started_at']})
    return sorted(items, key=lambda item: (PRIORITY.index(item['type']), item['at']))


class Wait(PairArgs):
    timeout_s: float = Field(MAX_WAIT, ge=0, le=MAX_WAIT)
    consumer_id: str = ''
    since: int | None = Field(None, ge=0, description='acknowledges every event up to it')
    known_contract_version: str = ''


class Waited(Out):
    events: list[dict]
    timeout: bool
    cursor: int
    contract_version: str
    may_end_turn: bool
    live_runtime_contract: str | None = None


@tool('live_wait', Wait, Waited)
def live_wait(context: Context, args: Wait) -> dict:
    """The next live and ad-hoc events after the cursor (records/call waits up to timeout_s)."""
    pair_id = context.pair(args.pair_id)
    heartbeat(context, pair_id, 60)
    start = args.since
    if args.consumer_id:
        stored = context.store.one('SELECT pair_id, seq FROM consumer_cursor WHERE '
                                   'consumer_id = ?', args.consumer_id)
        if stored is not None and stored['pair_id'] != pair_id:
            # a cursor is one pair's: another pair's caller may neither read nor move it
            raise conflict('consumer_id is in use for another pair: name a consumer of your '
                           'own for this pair')
        if start is None:
            start = stored['seq'] if stored is not None else last_seq(context, pair_id)
        context.store.run('INSERT INTO consumer_cursor VALUES (?, ?, ?) ON CONFLICT '
                          '(consumer_id) DO UPDATE SET seq = max(seq, excluded.seq)',
                          args.consumer_id, pair_id, start)
    elif start is None:
        start = last_seq(context, pair_id)
    rows = context.store.all(
        "SELECT * FROM live_event WHERE pair_id = ? AND seq > ? AND NOT (kind LIKE 'ad_hoc_%' "
        'AND EXISTS (SELECT 1 FROM adhoc_message WHERE message_id = '
        "json_extract(live_event.payload, '$.message_id') AND acked_at IS NOT NULL)) "
        'ORDER BY seq LIMIT 100', pair_id, start)
    events = [{'seq': r['seq'], 'kind': r['kind'], 'live_session_id': r['live_session_id'],
               'payload': json.loads(r['payload']), 'at': r['at']} for r in rows]
    result = {'events': events, 'timeout': not events,
              'cursor': events[-1]['seq'] if events else start,
              'contract_version': CONTRACT_VERSION, 'may_end_turn': not events}
    if args.known_contract_version != CONTRACT_VERSION:
        result['live_runtime_contract'] = RUNTIME_CONTRACT
    return result


def last_seq(context: Context, pair_id: str) -> int:
    return context.store.row('SELECT coalesce(max(seq), 0) AS s FROM live_event WHERE '
                             'pair_id = ?', pair_id)['s']


# ---- ad-hoc threads -----------------------------------------------------------------------------

def thread_of(context: Context, pair_id: str) -> str:
    row = context.store.one('SELECT thread_id FROM adhoc_thread WHERE pair_id = ?', pair_id)
    if row is not None:
        return row['thread_id']
    thread_id = context.new_id('th')
    context.store.run('INSERT INTO adhoc_thread VALUES (?, ?, ?)', thread_id, pair_id,
                      context.now())
    return thread_id


class ThreadGet(PairArgs):
    after_message_id: int | None = Field(None, ge=0)


class Thread(Out):
    thread_id: str
    messages: list[dict]


@tool('adhoc_thread_get', ThreadGet, Thread, who=AGENT | LEARNER)
def adhoc_thread_get(context: Context, args: ThreadGet) -> dict:
    """Get or create the pair's long-lived thread; only messages after an id when given."""
    pair_id = context.pair(args.pair_id)
    thread_id = thread_of(context, pair_id)
    rows = context.store.all('SELECT * FROM adhoc_message WHERE thread_id = ? AND message_id > ? '
                             'ORDER BY message_id', thread_id, args.after_message_id or 0)
    return {'thread_id': thread_id, 'messages': [
        {**dict(r), 'payload': json.loads(r['payload']) if r['payload'] else None}
        for r in rows]}


class Payload(Args):
    component_type: Literal['interactive_html', 'whiteboard_svg', 'tts_audio']
    body: str = Field(min_length=1, max_length=200_000)


class Send(PairArgs):
    text: str = Field(min_length=1, max_length=20000)
    payload: Payload | None = None
    is_learning_related: bool = False


class Sent(Out):
    thread_id: str
    message_id: int


@tool('adhoc_message_send', Send, Sent)
def adhoc_message_send(context: Context, args: Send) -> dict:
    """The agent answers in the thread; learning-related messages become a session event."""
    pair_id = context.pair(args.pair_id)
    thread_id = thread_of(context, pair_id)
    cursor = context.store.run('INSERT INTO adhoc_message (thread_id, role, text, payload, '
                               "is_learning_related, at) VALUES (?, 'agent', ?, ?, ?, ?)",
                               thread_id, args.text,
                               args.payload.model_dump_json() if args.payload else None,
                               int(args.is_learning_related), context.now())
    if args.is_learning_related:
        context.store.event(pair_id, 'session_event.adhoc', {'message_id': cursor.lastrowid},
                            context.now())
    return {'thread_id': thread_id, 'message_id': cursor.lastrowid}


class LearnerSend(PairArgs):
    text: str = Field(min_length=1, max_length=20000)


@tool('adhoc_learner_send', LearnerSend, Sent, who=LEARNER)
def adhoc_learner_send(context: Context, args: LearnerSend) -> dict:
    """The learner writes in the thread (learner side): an event for the agent's wait."""
    pair_id = context.pair(args.pair_id)
    thread_id = thread_of(context, pair_id)
    answered = context.store.one("SELECT 1 FROM adhoc_message WHERE thread_id = ? AND "
                                 "role = 'agent'", thread_id)
    cursor = context.store.run("INSERT INTO adhoc_message (thread_id, role, text, at) VALUES "
                               "(?, 'learner', ?, ?)", thread_id, args.text, context.now())
    emit(context, pair_id, 'ad_hoc_response' if answered else 'ad_hoc_question', None,
         {'thread_id': thread_id, 'message_id': cursor.lastrowid})
    return {'thread_id': thread_id, 'message_id': cursor.lastrowid}


class Ack(PairArgs):
    message_id: int | None = Field(None, ge=1, description='default: the latest message')


class Acked(Out):
    thread_id: str
    acked_through: int
    kept: Literal[True]


@tool('adhoc_ack', Ack, Acked)
def adhoc_ack(context: Context, args: Ack) -> dict:
    """Take messages out of pending and the inbox (idempotent); the messages stay readable."""
    pair_id = context.pair(args.pair_id)
    thread_id = thread_of(context, pair_id)
    latest = context.store.row('SELECT coalesce(max(message_id), 0) AS m FROM adhoc_message '
                               'WHERE thread_id = ?', thread_id)['m']
    through = args.message_id or latest
    if through > latest:
        raise ToolError('NOT_FOUND', f'no message {through} in this thread')
    context.store.run('UPDATE adhoc_message SET acked_at = ? WHERE thread_id = ? AND '
                      'message_id <= ? AND acked_at IS NULL', context.now(), thread_id, through)
    return {'thread_id': thread_id, 'acked_through': through, 'kept': True}


TOOLS = (
    live_session_start,
    live_session_get,
    live_move_append,
    live_learner_respond,
    live_declare_close,
    live_snapshot_write,
    live_snapshot_get_latest,
    live_session_complete,
    record_live_evaluation,
    live_session_cancel,
    live_heartbeat,
    live_pending,
    live_wait,
    adhoc_thread_get,
    adhoc_message_send,
    adhoc_learner_send,
    adhoc_ack,
)
