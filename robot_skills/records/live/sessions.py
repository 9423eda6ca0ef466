"""A live session from its start to its close: moves, responses, snapshots, the
learner's bell, completion and evaluation."""

from __future__ import annotations

import json
from typing import Literal

from pydantic import Field, model_validator

from robot_skills.records.closure import Facts, progress_of
from robot_skills.records.errors import ToolError, conflict, validation
from robot_skills.records.frame import read_frame
from robot_skills.records.ids import plain
from robot_skills.records.live.stream import emit
from robot_skills.records.roles import LEARNER, SHARED_READ
from robot_skills.records.tools import Args, Context, PairArgs, ToolResult, tool

EXPLAIN_CHARS = 300


class Start(PairArgs):
    lesson_id: str = ''
    context_type: str = 'lesson'


class Started(ToolResult):
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


class LiveSession(ToolResult):
    session: dict
    moves: list[dict]
    responses: list[dict]


@tool('live_session_get', SessionArgs, LiveSession, reads=True, who=SHARED_READ)
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


class FrameParts(ToolResult):
    what: str
    how_long: str
    duration_minutes: int | None
    when_done: str


class MoveAppended(ToolResult):
    move_id: str
    seq: int
    awaiting_role: str
    frame: FrameParts | None = None


@tool('live_move_append', Move, MoveAppended)
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


class Responded(ToolResult):
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


class CloseDeclared(ToolResult):
    live_session_id: str
    learner_close_declared_at: str


@tool('live_declare_close', SessionArgs, CloseDeclared, who=LEARNER)
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


class Snapshot(ToolResult):
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


class Completed(ToolResult):
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


class LiveEvaluated(ToolResult):
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


class Cancelled(ToolResult):
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
)
