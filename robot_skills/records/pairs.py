"""Learners and learner-agent pairs (004: 建立一段新的 learner-agent 关系).

The learner registers her own name (``register_learner``, the learner side's
first-run page); ``create_pair`` accepts only that name, character for
character: the name is the learner's sovereign act and an agent that guesses
or fills it in oversteps. One active pair per learner: a second is refused
with a pointer to the existing one. The agent states its own provider, model
and display name.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from robot_skills.records.errors import ToolError, conflict, validation
from robot_skills.records.roles import LEARNER
from robot_skills.records.tools import Args, Context, ToolResult, tool

Text = Field(min_length=1, max_length=200)


class RegisterLearner(Args):
    learner_id: str = Text
    display_name: str = Text


class Registered(ToolResult):
    learner_id: str
    registered: Literal['now', 'already']


@tool('register_learner', RegisterLearner, Registered, who=LEARNER)
def register_learner(context: Context, args: RegisterLearner) -> dict:
    """The learner registers her own display name (learner side, first-run page)."""
    context.learner(args.learner_id)
    existing = context.store.one('SELECT display_name FROM learner WHERE learner_id = ?',
                                 args.learner_id)
    if existing is not None:
        if existing['display_name'] != args.display_name:
            raise conflict(f'learner {args.learner_id!r} registered already; her name is hers '
                           'to change, not a tool\'s')
        return {'learner_id': args.learner_id, 'registered': 'already'}
    context.store.run('INSERT INTO learner VALUES (?, ?, ?)', args.learner_id,
                      args.display_name, context.now())
    return {'learner_id': args.learner_id, 'registered': 'now'}


class CreatePair(Args):
    learner_id: str = Text
    learner_display_name: str = Field(min_length=1, max_length=200,
                                      description='exactly the name she registered herself')
    provider: str = Text
    model: str = Text
    display_name: str = Field(min_length=1, max_length=200,
                              description="the agent's own display name")


class Agent(ToolResult):
    provider: str
    model: str
    display_name: str


class PairMade(ToolResult):
    pair_id: str
    learner_id: str
    status: Literal['active']
    agent: Agent


@tool('create_pair', CreatePair, PairMade)
def create_pair(context: Context, args: CreatePair) -> dict:
    """Create a learner-agent pair: only with her registered name, verbatim; one active pair."""
    context.learner(args.learner_id)
    learner = context.store.one('SELECT display_name FROM learner WHERE learner_id = ?',
                                args.learner_id)
    if learner is None:
        raise ToolError('CONFLICT', f'learner {args.learner_id!r} has not registered her name '
                                    'yet: guide her to the first-run page to type it herself; '
                                    'never fill it in for her')
    if args.learner_display_name != learner['display_name']:
        raise validation('learner_display_name must be exactly the name she registered '
                         '(character for character); ask her, do not guess')
    existing = context.store.one("SELECT pair_id, created_at FROM pair WHERE learner_id = ? "
                                 "AND status = 'active'", args.learner_id)
    if existing is not None:
        raise conflict(f'learner {args.learner_id!r} has an active pair already: '
                       f'{existing["pair_id"]}', existing_pair_id=existing['pair_id'],
                       created_at=existing['created_at'])
    pair_id = context.new_id('pair')
    context.store.run('INSERT INTO pair (pair_id, learner_id, provider, model, '
                      'agent_display_name, created_at) VALUES (?, ?, ?, ?, ?, ?)',
                      pair_id, args.learner_id, args.provider, args.model, args.display_name,
                      context.now())
    return {'pair_id': pair_id, 'learner_id': args.learner_id, 'status': 'active',
            'agent': {'provider': args.provider, 'model': args.model,
                      'display_name': args.display_name}}


TOOLS = (
    register_learner,
    create_pair,
)
