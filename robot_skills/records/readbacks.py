"""Read-backs (004 part 2): get_context, get_learner_brief, get_teacher_inbox, and a lesson,
an exercise or a submission of the current pair.

All read-only. ``brief_etag`` is a fingerprint of the learner brief's content
(never of the time it was generated): equal etags mean the learner model has
not changed and need not be read again. A frozen (or otherwise not allowed)
hypothesis is never returned with its content, only as ``{id,
allowed_for_teaching: false, redacted: true}``. The inbox's item ids are
deterministic (the same pending thing keeps its id), ordered by priority
then time, filtered by the consumer's own ``since`` cursor: a timestamp with
its offset, compared as an instant (a value that is no timestamp is refused,
never read as "nothing new").
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta

from pydantic import Field, field_validator

from robot_skills.records.closure import REFLECTIONS
from robot_skills.records.contracts import current
from robot_skills.records.live.presence import pending_items
from robot_skills.records.roles import SHARED_READ, Role
from robot_skills.records.tools import Context, PairArgs, ToolResult, tool

STALE_AFTER = timedelta(days=30)
EXCERPT = 120
PRIORITIES = {'high': 0, 'medium': 1, 'low': 2}


def brief(context: Context, pair_id: str, limit: int = 5, lesson_id: str = '') -> dict:
    """The learner brief without its etag (what the etag fingerprints)."""
    now = context.clock()
    active = [dict(r) for r in context.store.all(
        "SELECT * FROM hypothesis WHERE pair_id = ? AND status = 'active' ORDER BY confidence "
        'DESC, created_at', pair_id)]

    def shown(row: dict) -> dict:
        if row['verdict'] in ('frozen', 'rejected'):
            return {'id': row['hypothesis_id'], 'allowed_for_teaching': False, 'redacted': True}
        evidence = row['last_evidence_at']
        return {'id': row['hypothesis_id'], 'domain': row['domain'],
                'observation': row['observation'], 'confidence': row['confidence'],
                'verdict': row['verdict'], 'allowed_for_teaching': True,
                'stale': evidence is None or now - datetime.fromisoformat(evidence) > STALE_AFTER}

    verify = sorted(active, key=lambda r: r['last_verified_at'] or '')[:2]
    evaluations = context.store.all('SELECT lesson_id, body, updated_at FROM '
                                    'post_lesson_evaluation WHERE pair_id = ? ORDER BY '
                                    'updated_at DESC LIMIT 3', pair_id)
    at = context.now()
    reflection = (lesson_id and context.store.one(
        f'SELECT * FROM {REFLECTIONS} WHERE pair_id = ? AND lesson_id = ? ORDER BY created_at '
        'DESC', at, pair_id, lesson_id)) or context.store.one(
        f'SELECT * FROM {REFLECTIONS} WHERE pair_id = ? ORDER BY created_at DESC', at, pair_id)
    latest = None
    if reflection:
        body = json.loads(reflection['body'])
        latest = {'reflection_id': reflection['reflection_id'],
                  'lesson_id': reflection['lesson_id'], 'method': body['method'],
                  'next_action': body['next_action'],
                  'lesson_preference': body['lesson_preference']}
    contract = current(context, pair_id)
    return {
        'top_confidence_hypotheses': [shown(r) for r in active[:limit]],
        'needs_reverification': [shown(r) for r in verify],
        'recent_evaluations': [{'lesson_id': e['lesson_id'], 'at': e['updated_at'],
                                'agent_observation': json.loads(e['body'])['agent_observation']}
                               for e in evaluations],
        'latest_reflection': latest,
        'confidence_facts': confidence_facts(context, pair_id),
        'source_material': source_line(contract['source_material']) if contract else None,
    }


def confidence_facts(context: Context, pair_id: str) -> dict | None:
    """Neutral counts of her stated confidence and accuracy over the last three lessons."""
    lessons = [r['lesson_id'] for r in context.store.all(
        'SELECT DISTINCT exercise.lesson_id FROM submission JOIN exercise USING (exercise_id) '
        'JOIN lesson USING (lesson_id) JOIN course USING (course_id) WHERE course.pair_id = ? '
        "AND submission.status = 'graded' AND submission.confidence IS NOT NULL "
        'ORDER BY submission.graded_at DESC', pair_id)][:3]
    if not lessons:
        return None
    rows = context.store.all(
        'SELECT confidence, agent_score FROM submission JOIN exercise USING (exercise_id) '
        f"WHERE status = 'graded' AND confidence IS NOT NULL AND lesson_id IN "
        f'({",".join("?" * len(lessons))})', *lessons)
    right = [r for r in rows if (r['agent_score'] or 0) >= 60]
    levels = sorted({r['confidence'] for r in rows})
    return {'lesson_ids': lessons, 'total_count': len(rows),
            'overall_accuracy': round(len(right) / len(rows), 3),
            'by_level': [{'level': level,
                          'count': sum(1 for r in rows if r['confidence'] == level),
                          'accuracy': round(sum(1 for r in right if r['confidence'] == level) /
                                            sum(1 for r in rows if r['confidence'] == level), 3)}
                         for level in levels]}


def source_line(raw: str | None) -> str | None:
    if not raw:
        return None
    material = json.loads(raw)
    return f'教材:《{material["title"]}》·{material["reliance"]}'


def etag(content: dict) -> str:
    return hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False,
                                     default=str).encode()).hexdigest()[:16]


class BriefArgs(PairArgs):
    limit: int = 5
    lesson_id: str = ''


class Brief(ToolResult):
    top_confidence_hypotheses: list[dict]
    needs_reverification: list[dict]
    recent_evaluations: list[dict]
    latest_reflection: dict | None
    confidence_facts: dict | None
    source_material: str | None
    brief_etag: str
    generated_at: str


@tool('get_learner_brief', BriefArgs, Brief, reads=True)
def get_learner_brief(context: Context, args: BriefArgs) -> dict:
    """Before a lesson: the learner model read back, frozen hypotheses redacted, with an etag."""
    pair_id = context.pair(args.pair_id)
    if args.lesson_id:
        context.owned('lesson', args.lesson_id, pair_id)
    content = brief(context, pair_id, max(1, min(20, args.limit)), args.lesson_id)
    return {**content, 'brief_etag': etag(content), 'generated_at': context.now()}


class WorkingContext(ToolResult):
    identity: dict
    active_contracts: list[dict]
    recent_lessons: list[dict]
    pending_pool: dict
    live_session: dict | None
    unread_adhoc_count: int
    active_reminder_count: int
    brief_etag: str


@tool('get_context', PairArgs, WorkingContext, reads=True)
def get_context(context: Context, args: PairArgs) -> dict:
    """Cold start: a compact snapshot of where the pair is, with the brief's etag."""
    pair_id = context.pair(args.pair_id)
    pair = context.store.row('SELECT * FROM pair WHERE pair_id = ?', pair_id)
    contracts = context.store.all("SELECT * FROM contract WHERE pair_id = ? AND voided_at IS NULL "
                                  'AND completed_at IS NULL ORDER BY created_at', pair_id)
    evaluated = context.store.all(
        'SELECT lesson.lesson_id, lesson.title, progress FROM post_lesson_evaluation JOIN '
        'lesson USING (lesson_id) WHERE pair_id = ? ORDER BY post_lesson_evaluation.updated_at '
        'DESC LIMIT 2',
        pair_id)
    recent = evaluated or context.store.all(
        'SELECT lesson_id, lesson.title, progress FROM lesson JOIN course USING (course_id) WHERE '
        'pair_id = ? ORDER BY course.created_at, position LIMIT 2', pair_id)
    pool = context.store.all("SELECT content FROM mindmap WHERE pair_id = ? AND source = "
                             "'learner' AND lesson_id IS NULL AND course_id IS NULL ORDER BY "
                             'created_at DESC', pair_id)
    live = context.store.one('SELECT * FROM live_session WHERE pair_id = ? ORDER BY started_at '
                             'DESC', pair_id)
    snapshot = live and context.store.one('SELECT at FROM live_snapshot WHERE live_session_id = ? '
                                          'ORDER BY at DESC', live['live_session_id'])
    unread = sum(1 for item in pending_items(context, pair_id)
                 if item['type'].startswith('ad_hoc'))
    return {
        'identity': {'learner_id': pair['learner_id'], 'agent_id': pair_id},
        'active_contracts': [{'id': c['contract_id'],
                              'title': json.loads(c['terms']).get('title') or
                              json.loads(c['terms'])['goal'],
                              'setup_status': c['setup_status'],
                              'progress': _progress(context, c['contract_id']),
                              'source_material': source_line(c['source_material'])}
                             for c in contracts],
        'recent_lessons': [{'id': r['lesson_id'], 'title': r['title'], 'status': r['progress']}
                           for r in recent],
        'pending_pool': {'count': len(pool), 'latest_titles': [
            _root_title(p['content']) for p in pool[:3]]},
        'live_session': {'id': live['live_session_id'], 'status': live['status'],
                         'ended_at': live['ended_at'], 'latest_snapshot_at':
                         snapshot['at'] if snapshot else None} if live else None,
        'unread_adhoc_count': unread,
        'active_reminder_count': 0,
        'brief_etag': etag(brief(context, pair_id)),
    }


def _progress(context: Context, contract_id: str) -> str:
    courses = context.store.all('SELECT course_id FROM coverage WHERE contract_id = ?',
                                contract_id)
    lessons = context.store.row(
        "SELECT count(*) AS total, sum(progress IN ('completed_declared', 'closed')) AS done "
        'FROM lesson JOIN coverage USING (course_id) WHERE contract_id = ? AND published_at IS '
        'NOT NULL', contract_id)
    return f'{len(courses)} 门课 · 已学 {lessons["done"] or 0}/{lessons["total"]} 节'


def _root_title(content: str) -> str:
    nodes = json.loads(content).get('nodes', [])
    return next((n['title'] for n in nodes if n.get('level') == 'root'), '')


class InboxArgs(PairArgs):
    since: str = Field('', description='an ISO 8601 timestamp with its offset (Z or +08:00): '
                                       'only items that occurred after that instant')

    @field_validator('since')
    @classmethod
    def _instant(cls, value: str) -> str:
        if value:
            instant(value)
        return value


def instant(value: str) -> datetime:
    """An ISO 8601 timestamp with its offset as an aware datetime; anything else is refused
    (a wrong cursor must never read as an empty inbox that hides work)."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f'{value[:40]!r} is not an ISO 8601 timestamp') from None
    if parsed.tzinfo is None:
        raise ValueError('the timestamp needs its offset (Z or +08:00): without one it names '
                         'no instant')
    return parsed


class Inbox(ToolResult):
    items: list[dict]
    open_feedback: dict


@tool('get_teacher_inbox', InboxArgs, Inbox, reads=True)
def get_teacher_inbox(context: Context, args: InboxArgs) -> dict:
    """The teacher's to-do list: typed items with stable ids, by priority then time."""
    pair_id = context.pair(args.pair_id)
    items = []
    for row in context.store.all(
            'SELECT submission_id, submitted_at FROM submission JOIN exercise USING '
            '(exercise_id) JOIN lesson USING (lesson_id) JOIN course USING (course_id) WHERE '
            "pair_id = ? AND status IN ('submitted', 'pending_grade')", pair_id):
        items.append(_item('submission_to_grade', 'high', {'submission_id':
                                                           row['submission_id']},
                           'grade_exercise', row['submitted_at']))
    for row in context.store.all(
            "SELECT live_session_id, ended_at FROM live_session WHERE pair_id = ? AND status = "
            f"'completed' AND NOT EXISTS (SELECT 1 FROM {REFLECTIONS} AS kept WHERE "
            'kept.live_session_id = live_session.live_session_id)', pair_id, context.now()):
        items.append(_item('live_without_reflection', 'medium',
                           {'live_session_id': row['live_session_id']}, 'reflect_on_teaching',
                           row['ended_at']))
    for pending in pending_items(context, pair_id):
        if pending['type'].startswith('ad_hoc'):
            items.append(_item('adhoc_message', 'high', {'message_id': pending['message_id']},
                               'adhoc_message_send', pending['at']))
    day_ago = (context.clock() - timedelta(hours=24)).isoformat(timespec='milliseconds')
    struggles: dict[str, list[str]] = {}
    for row in context.store.all("SELECT payload, at FROM event WHERE pair_id = ? AND kind = "
                                 "'flashcard.reviewed' AND at >= ? ORDER BY at", pair_id,
                                 day_ago):
        payload = json.loads(row['payload'])
        if payload['rating'] == 'again':
            struggles.setdefault(payload['flashcard_id'], []).append(row['at'])
    for card, times in struggles.items():
        if len(times) >= 3:
            items.append(_item('card_struggle', 'medium', {'flashcard_id': card},
                               'update_flashcard', times[2]))
    for row in context.store.all("SELECT contract_id, created_at FROM contract WHERE pair_id = ? "
                                 "AND setup_status = 'proposed' AND voided_at IS NULL", pair_id):
        items.append(_item('contract_unsigned', 'low', {'contract_id': row['contract_id']},
                           'get_context', row['created_at']))
    if args.since:
        since = instant(args.since)
        items = [item for item in items if instant(item['occurred_at']) > since]
    items.sort(key=lambda item: (PRIORITIES[item['priority']], instant(item['occurred_at'])))
    feedback = context.store.all("SELECT * FROM feedback WHERE pair_id = ? AND status = 'open' "
                                 'ORDER BY created_at DESC', pair_id)
    return {'items': items, 'open_feedback': {'count': len(feedback), 'recent': [
        {'feedback_id': f['feedback_id'], 'kind': f['kind'], 'excerpt': f['text'][:60],
         'anchors': json.loads(f['anchors']), 'age_hours': age_hours(context, f['created_at'])}
        for f in feedback[:5]]}}


def _item(kind: str, priority: str, refs: dict, tool_name: str, at: str) -> dict:
    ident = ':'.join([kind, *refs.values()]) if all(isinstance(v, str) for v in refs.values()) \
        else f'{kind}:{"-".join(str(v) for v in refs.values())}'
    return {'item_id': ident, 'type': kind, 'priority': priority, 'resource_refs': refs,
            'recommended_tool': tool_name, 'occurred_at': at}


class LessonRead(PairArgs):
    lesson_id: str = Field(min_length=1)
    include_content: bool = False


class LessonBack(ToolResult):
    lesson_id: str
    title: str
    course_id: str
    published: bool
    published_at: str | None
    progress: str
    revision: int
    concepts: list[dict]
    exercises: list[dict]
    content_chars: int
    excerpt: str
    content_markdown: str | None = None


@tool('get_lesson', LessonRead, LessonBack, reads=True, who=SHARED_READ)
def get_lesson(context: Context, args: LessonRead) -> dict:
    """A lesson of this pair: structure and metadata; the whole text only when asked."""
    pair_id = context.pair(args.pair_id)
    lesson = context.owned('lesson', args.lesson_id, pair_id)
    text = lesson['content_markdown']
    result = {'lesson_id': args.lesson_id, 'title': lesson['title'],
              'course_id': lesson['course_id'], 'published': lesson['published_at'] is not None,
              'published_at': lesson['published_at'], 'progress': lesson['progress'],
              'revision': lesson['revision'],
              'concepts': [dict(r) for r in context.store.all(
                  'SELECT concept_id, name FROM concept WHERE lesson_id = ?', args.lesson_id)],
              'exercises': [dict(r) for r in context.store.all(
                  'SELECT exercise_id, prompt FROM exercise WHERE lesson_id = ?',
                  args.lesson_id)],
              'content_chars': len(text), 'excerpt': text[:EXCERPT]}
    if args.include_content:
        result['content_markdown'] = text
    return result


class ExerciseRead(PairArgs):
    exercise_id: str = Field(min_length=1)


class ExerciseBack(ToolResult):
    exercise_id: str
    prompt: str
    reference_answer: str | None = Field(description="the grading key; None for the learner "
                                         '(document 004 keeps it from her)')
    expected_concepts: list[str]
    tags: list[str]
    lesson_id: str
    lesson_title: str
    course_id: str


@tool('get_exercise', ExerciseRead, ExerciseBack, reads=True, who=SHARED_READ)
def get_exercise(context: Context, args: ExerciseRead) -> dict:
    """An exercise of this pair, with its reference answer (teacher side only: None for
    the learner)."""
    pair_id = context.pair(args.pair_id)
    row = context.owned('exercise', args.exercise_id, pair_id)
    teacher = context.principal is None or context.principal.role is not Role.LEARNER
    lesson = context.store.row('SELECT title, course_id FROM lesson WHERE lesson_id = ?',
                               row['lesson_id'])
    return {'exercise_id': args.exercise_id, 'prompt': row['prompt'],
            'reference_answer': row['reference_answer'] if teacher else None,
            'expected_concepts': json.loads(row['expected_concepts']),
            'tags': json.loads(row['tags']), 'lesson_id': row['lesson_id'],
            'lesson_title': lesson['title'], 'course_id': lesson['course_id']}


class SubmissionRead(PairArgs):
    submission_id: str = Field(min_length=1)


class SubmissionBack(ToolResult):
    submission_id: str
    learner_answer: str
    status: str
    agent_score: float | None
    agent_feedback: str | None
    confidence: str | None
    exercise_id: str
    exercise_prompt_excerpt: str
    lesson_id: str
    course_id: str


@tool('get_submission', SubmissionRead, SubmissionBack, reads=True, who=SHARED_READ)
def get_submission(context: Context, args: SubmissionRead) -> dict:
    """A submission of this pair with its exercise chain."""
    pair_id = context.pair(args.pair_id)
    row = context.owned('submission', args.submission_id, pair_id)
    chain = context.store.row('SELECT exercise.prompt, exercise.lesson_id, lesson.course_id FROM '
                              'exercise JOIN lesson USING (lesson_id) WHERE exercise_id = ?',
                              row['exercise_id'])
    return {'submission_id': args.submission_id, 'learner_answer': row['learner_answer'],
            'status': row['status'], 'agent_score': row['agent_score'],
            'agent_feedback': row['agent_feedback'], 'confidence': row['confidence'],
            'exercise_id': row['exercise_id'], 'exercise_prompt_excerpt': chain['prompt'][:EXCERPT],
            'lesson_id': chain['lesson_id'], 'course_id': chain['course_id']}


def age_hours(context: Context, at: str) -> float:
    return round((context.clock() - datetime.fromisoformat(at)).total_seconds() / 3600, 1)


TOOLS = (
    get_learner_brief,
    get_context,
    get_teacher_inbox,
    get_lesson,
    get_exercise,
    get_submission,
)
