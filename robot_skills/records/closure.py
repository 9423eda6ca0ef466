"""Closing a lesson's teaching loop (004: record_post_lesson_evaluation, the closure facts,
close_lesson_loop).

One set of facts (``facts``) serves the read-only call and every receipt:
which items are done, which are missing (the first missing one names the
state), the next tool with its ids filled in, and the incorrect-answer
signal (a plain statement, never a gap). ``close_lesson_loop`` checks on the
server: no submitted work left ungraded; a cognitive update (a post-lesson
evaluation or a hypothesis_update receipt pointing at a real record) or a
stated reason for none; every receipt ref pointing at a real record; receipt
kinds only from the closed enum of seven. Closed is final.

A lesson taught live also needs its sessions ended, a snapshot as evidence
and a live evaluation (those three items appear only then), and closing it
needs a journal_entry receipt pointing at one of its snapshots or its live
evaluation (check ④: "引用其 snapshot/场评 的回执").
A reflection anchored to the lesson is the last item of the facts; it is
not one of the server-side checks of closing.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Literal

from pydantic import Field

from robot_skills.records.errors import ToolError, conflict, validation
from robot_skills.records.exercises import INCORRECT_BELOW
from robot_skills.records.ids import plain
from robot_skills.records.tools import Args, Context, PairArgs, ToolResult, tool

COUNTS = ('flashcards_reviewed_count', 'exercises_submitted_count', 'live_turns_count',
          'duration_minutes')
# The reflections still in force: a weather reflection past its expiry is gone from every
# read-back (过期即焚). Used as a table, with the time now as its one parameter.
REFLECTIONS = ("(SELECT * FROM reflection WHERE main_attribution != 'weather' OR "
               'julianday(weather_expires_at) > julianday(?))')
# Which record a receipt item of each kind points at.
REFERENCES = {
    'exercise_feedback': 'submission', 'forward_revision': 'lesson',
    'teacher_note': 'lesson_patch', 'erratum': 'lesson_patch',
    'flashcard_change': 'flashcard', 'hypothesis_update': 'hypothesis',
    'journal_entry': ('live_snapshot', 'live_evaluation'),
}


class Evaluation(PairArgs):
    lesson_id: str = Field(min_length=1)
    concepts_touched: list[str] = []
    flashcards_reviewed_count: int = Field(0, ge=0)
    flashcards_rating_distribution: dict[str, int] = {}
    exercises_submitted_count: int = Field(0, ge=0)
    live_turns_count: int = Field(0, ge=0)
    duration_minutes: int = Field(0, ge=0, le=24 * 60)
    agent_observation: str = Field('', max_length=5000,
                                   description='overall judgement, against Live, next lesson')
    evidence_refs: list[str] = []


class Action(ToolResult):
    tool: str
    pre_filled_refs: dict[str, str]


class Signal(ToolResult):
    incorrect_submission_count: int
    concepts_with_flashcard: int
    concepts_total: int


class Facts(ToolResult):
    lesson_id: str
    state: str
    completed: list[str]
    missing: list[str]
    next_required_action: Action | None
    incorrect_review_signal: Signal


class Evaluated(ToolResult):
    evaluation_id: str
    updated: bool
    human_note: str
    closure_progress: Facts


@tool('record_post_lesson_evaluation', Evaluation, Evaluated)
def record_post_lesson_evaluation(context: Context, args: Evaluation) -> dict:
    """One evaluation per lesson: empty ones refused; a second call updates in place."""
    pair_id = context.pair(args.pair_id)
    lesson = context.owned('lesson', args.lesson_id, pair_id)
    plain('agent_observation', args.agent_observation)
    body = args.model_dump(exclude={'pair_id', 'lesson_id'})
    if not (args.concepts_touched or args.flashcards_rating_distribution or
            any(getattr(args, name) for name in COUNTS) or args.agent_observation.strip()):
        raise validation('an empty evaluation would pollute the learner brief: give at least '
                         'one fact or an observation')
    for concept in args.concepts_touched:
        context.owned('concept', concept, pair_id)
    now = context.now()
    existing = context.store.one('SELECT evaluation_id FROM post_lesson_evaluation WHERE '
                                 'pair_id = ? AND lesson_id = ?', pair_id, args.lesson_id)
    if existing is None:
        evaluation_id = context.new_id('ple')
        context.store.run('INSERT INTO post_lesson_evaluation VALUES (?, ?, ?, ?, ?, ?)',
                          evaluation_id, pair_id, args.lesson_id,
                          json.dumps(body, ensure_ascii=False), now, now)
    else:
        evaluation_id = existing['evaluation_id']
        context.store.run('UPDATE post_lesson_evaluation SET body = ?, updated_at = ? '
                          'WHERE evaluation_id = ?', json.dumps(body, ensure_ascii=False), now,
                          evaluation_id)
    return {'evaluation_id': evaluation_id, 'updated': existing is not None,
            'human_note': '这是对同一课总评的修订（原地更新），不是新建。' if existing else '',
            'closure_progress': facts(context, lesson)}


class LessonArgs(PairArgs):
    lesson_id: str = Field(min_length=1)


@tool('get_lesson_closure_facts', LessonArgs, Facts, reads=True)
def get_lesson_closure_facts(context: Context, args: LessonArgs) -> dict:
    """Read-only, before closing: state, completed[], missing[], the next action, the signal."""
    pair_id = context.pair(args.pair_id)
    return facts(context, context.owned('lesson', args.lesson_id, pair_id))


class ReceiptItem(Args):
    kind: Literal['exercise_feedback', 'forward_revision', 'teacher_note', 'erratum',
                  'flashcard_change', 'hypothesis_update', 'journal_entry']
    ref_id: str = Field(min_length=1)
    description: str = Field(min_length=1, max_length=500, description='where it changed')


class Close(LessonArgs):
    receipt: list[ReceiptItem] = []
    no_cognitive_update_reason: str = ''


class Closed(ToolResult):
    lesson_id: str
    closed_at: str
    closure_progress: Facts


@tool('close_lesson_loop', Close, Closed)
def close_lesson_loop(context: Context, args: Close) -> dict:
    """Close a lesson's loop after the four server-side checks; closed is final."""
    pair_id = context.pair(args.pair_id)
    lesson = context.owned('lesson', args.lesson_id, pair_id)
    if lesson['progress'] == 'closed':
        raise conflict('this lesson is closed already: closed is final')
    if lesson['published_at'] is None:
        raise conflict('a draft lesson has no loop to close')
    ungraded = _ungraded(context, args.lesson_id)
    if ungraded:                                                          # ①
        raise conflict('submitted work is not graded yet: grade_exercise first',
                       ungraded_submission_ids=ungraded)
    dangling = [item.ref_id for item in args.receipt
                if not _real(context, item, pair_id)]
    cognitive = _evaluated(context, args.lesson_id, pair_id) or any(
        item.kind == 'hypothesis_update' and item.ref_id not in dangling for item in args.receipt)
    if not cognitive and not args.no_cognitive_update_reason.strip():     # ②
        raise conflict('closing needs a cognitive update: record_post_lesson_evaluation, a '
                       'hypothesis_update receipt, or no_cognitive_update_reason',
                       next_required_action={'tool': 'record_post_lesson_evaluation',
                                             'pre_filled_refs': {'lesson_id': args.lesson_id}})
    if dangling:                                                          # ③
        raise ToolError('NOT_FOUND', 'receipt items point at records that do not exist',
                        {'dangling_ref_ids': dangling})
    evidence = _live_evidence(context, args.lesson_id)                    # ④
    if evidence is not None and not any(item.kind == 'journal_entry' and item.ref_id in
                                        evidence['snapshot_ids'] + evidence['live_evaluation_ids']
                                        for item in args.receipt):
        raise conflict('this lesson was taught live: the receipt needs a journal_entry citing '
                       'one of its snapshots or its live evaluation', **evidence)
    now = context.now()
    context.store.run("UPDATE lesson SET progress = 'closed', updated_at = ? WHERE lesson_id = ?",
                      now, args.lesson_id)
    context.store.run('INSERT INTO lesson_receipt VALUES (?, ?, ?, ?)', args.lesson_id,
                      json.dumps([i.model_dump() for i in args.receipt], ensure_ascii=False),
                      args.no_cognitive_update_reason or None, now)
    closed = context.owned('lesson', args.lesson_id, pair_id)
    return {'lesson_id': args.lesson_id, 'closed_at': now, 'closure_progress':
            facts(context, closed)}


# ---- the facts ----------------------------------------------------------------------------------

def progress_of(context: Context, lesson_id: str | None) -> dict | None:
    """The closure facts of a lesson, for the receipts of the tools that feed them."""
    if not lesson_id:
        return None
    return facts(context, context.store.row('SELECT * FROM lesson WHERE lesson_id = ?',
                                            lesson_id))


def facts(context: Context, lesson: sqlite3.Row) -> dict:
    lesson_id = lesson['lesson_id']
    pair_id = context.store.row('SELECT pair_id FROM course WHERE course_id = ?',
                                lesson['course_id'])['pair_id']
    ungraded = _ungraded(context, lesson_id)
    done = {'graded': not ungraded, **_live_items(context, lesson_id),
            'post_lesson_evaluation': _evaluated(context, lesson_id, pair_id),
            'reflection': context.store.one(f'SELECT 1 FROM {REFLECTIONS} WHERE lesson_id = ?',
                                            context.now(), lesson_id) is not None}
    completed = [item for item, ok in done.items() if ok]
    missing = [item for item, ok in done.items() if not ok]
    closed = lesson['progress'] == 'closed'
    if closed:
        state, action = 'closed', None
    elif missing:
        state = missing[0]
        action = _action(context, state, lesson_id, ungraded)
    else:
        state, action = 'ready_to_close', {'tool': 'close_lesson_loop',
                                           'pre_filled_refs': {'lesson_id': lesson_id}}
    return {'lesson_id': lesson_id, 'state': state, 'completed': completed,
            'missing': [] if closed else missing, 'next_required_action': action,
            'incorrect_review_signal': _signal(context, lesson_id)}


def _action(context: Context, state: str, lesson_id: str, ungraded: list[str]) -> dict:
    """The tool that fills the first gap, with the ids it needs."""
    live = context.store.one("SELECT live_session_id FROM live_session WHERE lesson_id = ? AND "
                             "status != 'cancelled' ORDER BY started_at DESC", lesson_id)
    session = {'live_session_id': live['live_session_id']} if live else {}
    return {'graded': {'tool': 'grade_exercise',
                       'pre_filled_refs': {'submission_id': ungraded[0]} if ungraded else {}},
            'live_completed': {'tool': 'live_session_complete', 'pre_filled_refs': session},
            'live_evidence': {'tool': 'live_snapshot_write', 'pre_filled_refs': session},
            'live_evaluation': {'tool': 'record_live_evaluation', 'pre_filled_refs': session},
            'post_lesson_evaluation': {'tool': 'record_post_lesson_evaluation',
                                       'pre_filled_refs': {'lesson_id': lesson_id}},
            'reflection': {'tool': 'reflect_on_teaching',
                           'pre_filled_refs': {'lesson_id': lesson_id}}}[state]


def _live_items(context: Context, lesson_id: str) -> dict[str, bool]:
    """live_completed / live_evidence / live_evaluation, only for a lesson taught live."""
    sessions = context.store.all("SELECT * FROM live_session WHERE lesson_id = ? AND "
                                 "status != 'cancelled'", lesson_id)
    if not sessions:
        return {}
    completed = [s['live_session_id'] for s in sessions if s['status'] == 'completed']
    marks = ','.join('?' * len(completed))
    evidence = completed and context.store.row(
        f'SELECT count(DISTINCT live_session_id) AS n FROM live_snapshot WHERE live_session_id '
        f'IN ({marks})', *completed)['n'] == len(completed)
    evaluated = completed and context.store.row(
        f'SELECT count(*) AS n FROM live_evaluation WHERE live_session_id IN ({marks})',
        *completed)['n'] == len(completed)
    return {'live_completed': len(completed) == len(sessions),
            'live_evidence': bool(evidence), 'live_evaluation': bool(evaluated)}


def _live_evidence(context: Context, lesson_id: str) -> dict[str, list[str]] | None:
    """What a journal_entry may cite: the snapshots and live evaluations of the lesson's
    completed live sessions (None: never taught live)."""
    if context.store.one("SELECT 1 FROM live_session WHERE lesson_id = ? AND status = "
                         "'completed'", lesson_id) is None:
        return None
    return {'snapshot_ids': sorted(r['snapshot_id'] for r in context.store.all(
                'SELECT snapshot_id FROM live_snapshot JOIN live_session USING '
                "(live_session_id) WHERE lesson_id = ? AND status = 'completed'", lesson_id)),
            'live_evaluation_ids': sorted(r['live_evaluation_id'] for r in context.store.all(
                'SELECT live_evaluation_id FROM live_evaluation JOIN live_session USING '
                "(live_session_id) WHERE lesson_id = ? AND status = 'completed'", lesson_id))}


def _ungraded(context: Context, lesson_id: str) -> list[str]:
    return [r['submission_id'] for r in context.store.all(
        'SELECT submission_id FROM submission JOIN exercise USING (exercise_id) WHERE '
        "lesson_id = ? AND status IN ('submitted', 'pending_grade') ORDER BY submitted_at",
        lesson_id)]


def _evaluated(context: Context, lesson_id: str, pair_id: str) -> bool:
    return context.store.one('SELECT 1 FROM post_lesson_evaluation WHERE lesson_id = ? AND '
                             'pair_id = ?', lesson_id, pair_id) is not None


def _real(context: Context, item: ReceiptItem, pair_id: str) -> bool:
    tables = REFERENCES[item.kind]
    return any(context.exists(table, item.ref_id, pair_id)
               for table in ((tables,) if isinstance(tables, str) else tables))


def _signal(context: Context, lesson_id: str) -> dict:
    wrong = context.store.all(
        'SELECT exercise.expected_concepts FROM submission JOIN exercise USING (exercise_id) '
        "WHERE lesson_id = ? AND status = 'graded' AND agent_score < ?", lesson_id,
        INCORRECT_BELOW)
    concepts = {c for row in wrong for c in json.loads(row['expected_concepts'])}
    carded = sum(1 for c in concepts if json.loads(context.store.row(
        'SELECT flashcard_ids FROM concept WHERE concept_id = ?', c)['flashcard_ids']))
    return {'incorrect_submission_count': len(wrong), 'concepts_with_flashcard': carded,
            'concepts_total': len(concepts)}


TOOLS = (
    record_post_lesson_evaluation,
    get_lesson_closure_facts,
    close_lesson_loop,
)
