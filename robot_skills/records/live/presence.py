"""Being there: the bridge's heartbeat, what is pending, and live_wait."""

from __future__ import annotations

import json
from datetime import timedelta

from pydantic import Field

from robot_skills.records.errors import conflict
from robot_skills.records.tools import Context, PairArgs, ToolResult, tool

CONTRACT_VERSION = 'v3'
RUNTIME_CONTRACT = ('值更契约 v3：等待不烧模型回合（禁止模型层轮询），'
                    '用 live_wait、看门脚本或自己的监听机制；'
                    '先判后收，学习者按下课铃才收课；欠的 move 是你的债。')
MAX_WAIT = 50
PROBE_WINDOW = timedelta(seconds=90)
WARN_AT, REFUSE_AT = 6, 12
PRIORITY = ('ad_hoc_question', 'ad_hoc_response', 'session_start', 'guided_response')


def heartbeat(context: Context, pair_id: str, ttl: int) -> str:
    expires = (context.clock() + timedelta(seconds=ttl)).isoformat(timespec='milliseconds')
    context.store.run('INSERT INTO heartbeat VALUES (?, ?) ON CONFLICT (pair_id) DO UPDATE SET '
                      'expires_at = excluded.expires_at', pair_id, expires)
    return expires


class Heartbeat(PairArgs):
    ttl_seconds: int = Field(60, ge=5, le=600, description='the online window, not a poll period')


class Alive(ToolResult):
    online_until: str


@tool('live_heartbeat', Heartbeat, Alive)
def live_heartbeat(context: Context, args: Heartbeat) -> dict:
    """Agent keep-alive: the bridge counts as online for ttl_seconds."""
    return {'online_until': heartbeat(context, context.pair(args.pair_id), args.ttl_seconds)}


class Pending(ToolResult):
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


class LiveEvents(ToolResult):
    events: list[dict]
    timeout: bool
    cursor: int
    contract_version: str
    may_end_turn: bool
    live_runtime_contract: str | None = None


@tool('live_wait', Wait, LiveEvents)
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


TOOLS = (
    live_heartbeat,
    live_pending,
    live_wait,
)
