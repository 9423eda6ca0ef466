"""Ad-hoc threads: messages between the learner and the agent outside a session."""

from __future__ import annotations

import json
from typing import Literal

from pydantic import Field

from robot_skills.records.errors import ToolError
from robot_skills.records.live.stream import emit
from robot_skills.records.roles import AGENT, LEARNER
from robot_skills.records.tools import Args, Context, PairArgs, ToolResult, tool


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


class Thread(ToolResult):
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


class Sent(ToolResult):
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


class Acked(ToolResult):
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
    adhoc_thread_get,
    adhoc_message_send,
    adhoc_learner_send,
    adhoc_ack,
)
