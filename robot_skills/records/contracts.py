"""Teaching contracts (004): propose, establish, cadence, void, coverage, completion.

A contract has three final states side by side, never overwriting each
other: established-and-completed (结业), voided (作废), and the proposal
never signed. The "current" contract of a pair is the latest established one
that is neither voided nor completed (``current``): every tool that needs an
active contract asks it. Class C terms (reminder channels) are the learner's
to choose at signing and are refused in a proposal; cadence is the exception
the document makes. At signing she may turn the Class B knobs and the cadence
and sets her Class C choices (``establish_contract``); Class A (the goal, the
time range, the success criteria) is what was agreed and cannot change there.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Literal

from pydantic import Field, field_validator, model_validator

from robot_skills.records.errors import conflict, not_found, validation
from robot_skills.records.roles import LEARNER
from robot_skills.records.tools import Args, Context, PairArgs, ToolResult, tool

CLASS_C = ('reminder_channel', 'reminder_channels', 'notification_channel', 'channels', 'push',
           'ical', 'email', 'sms')
HHMM = re.compile(r'^([01]\d|2[0-3]):[0-5]\d$')


class Slot(Args):
    weekday: int = Field(ge=0, le=6, description='0 = Sunday')
    time: str = Field(description='HH:MM, 24 h')
    tz: str = Field(min_length=1)

    @field_validator('time')
    @classmethod
    def _hhmm(cls, value: str) -> str:
        if not HHMM.match(value):
            raise ValueError('time must be HH:MM (24 h)')
        return value


class Cadence(Args):
    """节奏条款: replaced as a whole, never merged field by field."""

    mode: Literal['scheduled', 'fragmented']
    slots: list[Slot] = []
    reminders: Literal['native', 'none']
    auto_duty: bool = Field(False, description='uses the learner\'s quota: ask her explicitly')
    weekly_review_nudge: bool | None = None
    prep_rhythm: Literal['per_lesson', 'batch'] | None = None


class SourceMaterial(Args):
    """自带教材条款: the learner's own book."""

    title: str = Field(min_length=1)
    reliance: str = Field(min_length=1, description='依赖档位, e.g. primary | reference')
    edition_year: int | None = Field(None, ge=1800, le=2100)


class ProposeContract(PairArgs):
    goal: str = Field(min_length=1, description='Class A, required')
    time_range: str | None = None
    success_criteria: str | None = None
    intensity: str | None = None
    interaction_mode: str | None = None
    content_modality: str | None = None
    pace: str | None = None
    weekly_capacity_hours: float | None = Field(None, gt=0, le=168)
    preferred_time_of_day: str | None = None
    cadence: Cadence | None = None
    source_material: SourceMaterial | None = None
    title: str = ''

    @model_validator(mode='before')
    @classmethod
    def _no_class_c(cls, data: object) -> object:
        refused = sorted(set(data) & set(CLASS_C)) if isinstance(data, dict) else []
        if refused:
            raise ValueError(f'Class C terms ({", ".join(refused)}) are not written by the '
                             'agent: the learner chooses them at signing')
        return data


TERMS = ('goal', 'time_range', 'success_criteria', 'intensity', 'interaction_mode',
         'content_modality', 'pace', 'weekly_capacity_hours', 'preferred_time_of_day', 'title')


class Proposed(ToolResult):
    contract_id: str
    setup_status: Literal['proposed']


@tool('propose_contract', ProposeContract, Proposed)
def propose_contract(context: Context, args: ProposeContract) -> dict:
    """Hand the contract draft to the learner for signing (setup_status: proposed)."""
    pair_id = context.pair(args.pair_id)
    contract_id, now = context.new_id('ct'), context.now()
    terms = {name: getattr(args, name) for name in TERMS if getattr(args, name) is not None}
    context.store.run(
        'INSERT INTO contract (contract_id, pair_id, setup_status, terms, cadence, '
        'source_material, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        contract_id, pair_id, 'proposed', json.dumps(terms, ensure_ascii=False),
        _json(args.cadence), _json(args.source_material), now, now)
    return {'contract_id': contract_id, 'setup_status': 'proposed'}


class ContractArgs(PairArgs):
    contract_id: str = Field(min_length=1)


CLASS_B = ('intensity', 'interaction_mode', 'content_modality', 'pace', 'weekly_capacity_hours',
           'preferred_time_of_day')
Channel = Literal['push', 'ical', 'email', 'sms']


class ClassC(Args):
    """The learner's own choices, made at signing (the agent never writes them)."""

    reminder_channels: list[Channel] = Field(default_factory=list, max_length=4,
                                             description='[] = no reminders')

    @field_validator('reminder_channels')
    @classmethod
    def _once(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError('each reminder channel once')
        return value


class Establish(ContractArgs):
    """Signing: she may turn the Class B knobs and the cadence first, and sets Class C."""

    intensity: str | None = Field(None, min_length=1)
    interaction_mode: str | None = Field(None, min_length=1)
    content_modality: str | None = Field(None, min_length=1)
    pace: str | None = Field(None, min_length=1)
    weekly_capacity_hours: float | None = Field(None, gt=0, le=168)
    preferred_time_of_day: str | None = Field(None, min_length=1)
    cadence: Cadence | None = Field(None, description='the learner may turn the knobs first')
    class_c: ClassC | None = Field(None, description="her reminder channels, hers to choose")


class Established(ToolResult):
    contract_id: str
    setup_status: Literal['established']
    established_at: str
    terms: dict
    cadence: dict | None
    class_c: dict | None
    adjusted: list[str] = []
    replayed: bool = False


@tool('establish_contract', Establish, Established, who=LEARNER)
def establish_contract(context: Context, args: Establish) -> dict:
    """The learner signs a proposed contract (learner side, the /contract page), having
    turned the Class B knobs and the cadence if she wished, and chosen her Class C terms."""
    pair_id = context.pair(args.pair_id)
    row = context.owned('contract', args.contract_id, pair_id)
    if row['voided_at'] is not None:
        raise conflict('a voided contract cannot be signed')
    terms = json.loads(row['terms'])
    knobs = {name: getattr(args, name) for name in CLASS_B if getattr(args, name) is not None}
    signed_terms = {**terms, **knobs}
    cadence = (args.cadence.model_dump(exclude_none=True) if args.cadence is not None else
               _loads(row['cadence']))
    class_c = (args.class_c.model_dump() if args.class_c is not None else
               _loads(row['class_c']))
    if row['setup_status'] == 'established':          # a replay: the same signing, or refused
        stored_cadence = {k: v for k, v in (_loads(row['cadence']) or {}).items()
                          if k != 'updated_at'}
        if signed_terms != terms or class_c != _loads(row['class_c']) or (
                args.cadence is not None and cadence != stored_cadence):
            raise conflict('this contract is signed already: its knobs were turned at signing '
                           '(the cadence changes with update_contract_cadence)')
        return {'contract_id': args.contract_id, 'setup_status': 'established',
                'established_at': row['established_at'], 'terms': terms,
                'cadence': _loads(row['cadence']), 'class_c': class_c, 'replayed': True}
    adjusted = [name for name, value in knobs.items() if terms.get(name) != value]
    if args.cadence is not None and cadence != _loads(row['cadence']):
        adjusted.append('cadence')
    now = context.now()
    context.store.run("UPDATE contract SET setup_status = 'established', active = 1, "
                      'established_at = ?, terms = ?, cadence = ?, class_c = ?, updated_at = ? '
                      'WHERE contract_id = ?', now, json.dumps(signed_terms, ensure_ascii=False),
                      None if cadence is None else json.dumps(cadence, ensure_ascii=False),
                      None if class_c is None else json.dumps(class_c), now, args.contract_id)
    context.store.event(pair_id, 'contract.established', {
        'contract_id': args.contract_id, 'adjusted': adjusted,
        'class_c_set': args.class_c is not None}, now)
    return {'contract_id': args.contract_id, 'setup_status': 'established', 'established_at': now,
            'terms': signed_terms, 'cadence': cadence, 'class_c': class_c, 'adjusted': adjusted}


class UpdateCadence(ContractArgs):
    cadence: Cadence


class CadenceSet(ToolResult):
    contract_id: str
    cadence: dict
    updated_at: str


@tool('update_contract_cadence', UpdateCadence, CadenceSet)
def update_contract_cadence(context: Context, args: UpdateCadence) -> dict:
    """Replace the cadence of a signed contract, whole; stamps updated_at in it and on the row."""
    pair_id = context.pair(args.pair_id)
    row = current_or_refuse(context, args.contract_id, pair_id)
    now = context.now()
    cadence = {**args.cadence.model_dump(exclude_none=True), 'updated_at': now}
    context.store.run('UPDATE contract SET cadence = ?, updated_at = ? WHERE contract_id = ?',
                      json.dumps(cadence, ensure_ascii=False), now, row['contract_id'])
    return {'contract_id': row['contract_id'], 'cadence': cadence, 'updated_at': now}


class Void(ContractArgs):
    reason: str = Field(min_length=1)
    learner_consent: str = Field(min_length=1, description="the learner's own words of consent")


class Voided(ToolResult):
    contract_id: str
    active: Literal[False]
    voided_at: str
    void_reason: str
    replayed: bool = False


@tool('void_contract', Void, Voided)
def void_contract(context: Context, args: Void) -> dict:
    """Void with the learner's verbatim consent; the row is kept; a replay changes nothing."""
    pair_id = context.pair(args.pair_id)
    row = context.owned('contract', args.contract_id, pair_id)
    if row['voided_at'] is not None:
        return {'contract_id': args.contract_id, 'active': False, 'voided_at': row['voided_at'],
                'void_reason': row['void_reason'], 'replayed': True}
    if row['completed_at'] is not None:
        raise conflict('a completed contract is final: it cannot be voided',
                       completed_at=row['completed_at'])
    now = context.now()
    context.store.run('UPDATE contract SET active = 0, voided_at = ?, void_reason = ?, '
                      'learner_consent = ?, updated_at = ? WHERE contract_id = ?',
                      now, args.reason, args.learner_consent, now, args.contract_id)
    return {'contract_id': args.contract_id, 'active': False, 'voided_at': now,
            'void_reason': args.reason}


class Coverage(ContractArgs):
    add_course_ids: list[str] = []
    remove_course_ids: list[str] = []


class Covered(ToolResult):
    contract_id: str
    covered_course_ids: list[str]


@tool('update_contract_coverage', Coverage, Covered)
def update_contract_coverage(context: Context, args: Coverage) -> dict:
    """Add or remove taught courses; de-duplicated, owned by the pair, frozen once completed."""
    if not args.add_course_ids and not args.remove_course_ids:
        raise validation('give add_course_ids or remove_course_ids (a non-empty list)')
    pair_id = context.pair(args.pair_id)
    row = context.owned('contract', args.contract_id, pair_id)
    if row['completed_at'] is not None:
        raise conflict('a completed contract\'s coverage is frozen: open a new contract to '
                       'teach on', completed_at=row['completed_at'])
    if row['voided_at'] is not None:
        raise conflict('a voided contract\'s coverage cannot change')
    for course_id in {*args.add_course_ids, *args.remove_course_ids}:
        context.owned('course', course_id, pair_id)
    for course_id in dict.fromkeys(args.add_course_ids):
        context.store.run('INSERT OR IGNORE INTO coverage VALUES (?, ?)', args.contract_id,
                          course_id)
    for course_id in args.remove_course_ids:
        context.store.run('DELETE FROM coverage WHERE contract_id = ? AND course_id = ?',
                          args.contract_id, course_id)
    context.store.run('UPDATE contract SET updated_at = ? WHERE contract_id = ?', context.now(),
                      args.contract_id)
    return {'contract_id': args.contract_id, 'covered_course_ids': covered(context,
                                                                           args.contract_id)}


class Complete(ContractArgs):
    completion_note: str = Field(min_length=1, description='结业词: a testimony, written with care')


class Completed(ToolResult):
    contract_id: str
    completed_at: str
    completion_note: str
    replayed: bool = False


@tool('complete_contract', Complete, Completed)
def complete_contract(context: Context, args: Complete) -> dict:
    """结业: only when current, covering courses, and every covered course goal-complete."""
    pair_id = context.pair(args.pair_id)
    row = context.owned('contract', args.contract_id, pair_id)
    if row['completed_at'] is not None:
        return {'contract_id': args.contract_id, 'completed_at': row['completed_at'],
                'completion_note': row['completion_note'], 'replayed': True}
    current_or_refuse(context, args.contract_id, pair_id)
    courses = covered(context, args.contract_id)
    if not courses:
        raise conflict('the contract covers no course: update_contract_coverage first (or '
                       'create_course with contract_id)', covered_course_ids=[])
    shortfall = [gap for gap in (course_gap(context, c) for c in courses) if gap]
    if shortfall:
        raise conflict(f'{len(shortfall)} covered course(s) are not goal-complete',
                       courses=shortfall)
    now = context.now()
    context.store.run('UPDATE contract SET active = 0, completed_at = ?, completion_note = ?, '
                      'updated_at = ? WHERE contract_id = ?', now, args.completion_note, now,
                      args.contract_id)
    return {'contract_id': args.contract_id, 'completed_at': now,
            'completion_note': args.completion_note}


# ---- shared reads ------------------------------------------------------------------------------

def current(context: Context, pair_id: str) -> sqlite3.Row | None:
    """The pair's current contract: the latest signed one neither voided nor completed."""
    return context.store.one(
        "SELECT * FROM contract WHERE pair_id = ? AND setup_status = 'established' "
        'AND voided_at IS NULL AND completed_at IS NULL ORDER BY established_at DESC, rowid DESC',
        pair_id)


def current_or_refuse(context: Context, contract_id: str, pair_id: str) -> sqlite3.Row:
    row = context.owned('contract', contract_id, pair_id)
    if row['voided_at'] is not None or row['completed_at'] is not None or \
            row['setup_status'] != 'established':
        state = ('voided' if row['voided_at'] else 'completed' if row['completed_at'] else
                 'not signed yet')
        raise conflict(f'contract {contract_id!r} is not in force ({state})', state=state)
    return row


def covered(context: Context, contract_id: str) -> list[str]:
    return [r['course_id'] for r in context.store.all(
        'SELECT course_id FROM coverage WHERE contract_id = ? ORDER BY rowid', contract_id)]


def course_gap(context: Context, course_id: str) -> dict:
    """What keeps a course from goal_completion_ready ({} when nothing does)."""
    course = context.store.one('SELECT * FROM course WHERE course_id = ?', course_id)
    if course is None:
        raise not_found('course', course_id)
    published = context.store.all('SELECT lesson_id, title, progress FROM lesson WHERE '
                                  'course_id = ? AND published_at IS NOT NULL ORDER BY position',
                                  course_id)
    unread = [{'lesson_id': r['lesson_id'], 'title': r['title'], 'progress': r['progress']}
              for r in published if r['progress'] not in ('completed_declared', 'closed')]
    gap: dict = {}
    planned = course['planned_lesson_count']
    if planned is None:
        gap['missing_planned_count'] = True
    elif len(published) < planned:
        gap['below_planned_count'] = {'planned': planned, 'published': len(published),
                                      'missing': planned - len(published)}
    if unread:
        gap['lessons_not_finished'] = unread
    return {'course_id': course_id, 'title': course['title'], **gap} if gap else {}


def _json(model: Args | None) -> str | None:
    return model.model_dump_json(exclude_none=True) if model is not None else None


def _loads(raw: str | None) -> dict | None:
    return json.loads(raw) if raw else None


TOOLS = (
    propose_contract,
    establish_contract,
    update_contract_cadence,
    void_contract,
    update_contract_coverage,
    complete_contract,
)
