"""Courses and lessons (004): create, add, revise, patch, publish, verify_prep, progress.

A lesson is a draft until ``publish_lesson`` runs the same validator as
``verify_prep`` (a ❌ blocks, ⚠️ pass). ``update_lesson`` revises only a
lesson the learner has not reached (not started: the text of a lesson she is
learning or has learned is never rewritten, also in the schema); it needs a
reason, snapshots the old text into ``lesson_revision`` and bumps the revision
(``teaching`` by default: shown to the learner; ``technical``: kept, not
shown). ``patch_lesson`` follows the three laws of changing a lesson: not
started → use update_lesson; in progress → teacher_note only; learned →
erratum only, the text itself never rewritten. The learner's side declares
progress (``declare_lesson_progress``); ``closed`` is set only by closing the
lesson loop and is final.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import Field, model_validator

from robot_skills.records import prep
from robot_skills.records.contracts import current_or_refuse
from robot_skills.records.errors import conflict, not_found
from robot_skills.records.roles import LEARNER
from robot_skills.records.tools import Context, PairArgs, ToolResult, tool


class CreateCourse(PairArgs):
    title: str = Field(min_length=1, max_length=200)
    description: str = ''
    contract_id: str = Field('', description='joins the contract\'s coverage in the same step')
    planned_lesson_count: int | None = Field(None, gt=0, le=1000,
                                             description='"一共几节": the completion gate')


class CourseMade(ToolResult):
    course_id: str
    planned_lesson_count: int | None
    joined_contract_id: str | None


@tool('create_course', CreateCourse, CourseMade)
def create_course(context: Context, args: CreateCourse) -> dict:
    """Create a course; with contract_id (in force, this pair's) it joins the coverage too."""
    pair_id = context.pair(args.pair_id)
    if args.contract_id:
        current_or_refuse(context, args.contract_id, pair_id)
    course_id = context.new_id('co')
    context.store.run('INSERT INTO course VALUES (?, ?, ?, ?, ?, ?)', course_id, pair_id,
                      args.title, args.description, args.planned_lesson_count, context.now())
    if args.contract_id:
        context.store.run('INSERT INTO coverage VALUES (?, ?)', args.contract_id, course_id)
    return {'course_id': course_id, 'planned_lesson_count': args.planned_lesson_count,
            'joined_contract_id': args.contract_id or None}


class AddLesson(PairArgs):
    course_id: str = Field(min_length=1)
    title: str = Field(min_length=1, max_length=200)
    content_markdown: str = Field(max_length=200_000)
    position: int | None = Field(None, ge=1, description='default: after the last lesson')
    modality_declarations: dict = Field(default_factory=dict,
                                        description='e.g. {"mindmap": "why no mind map"}')


class LessonAdded(ToolResult):
    lesson_id: str
    position: int
    revision: int
    published: bool


@tool('add_lesson', AddLesson, LessonAdded)
def add_lesson(context: Context, args: AddLesson) -> dict:
    """Add a draft lesson to a course (published_at empty: only the teacher side sees it)."""
    pair_id = context.pair(args.pair_id)
    context.owned('course', args.course_id, pair_id)
    position = args.position or 1 + context.store.row(
        'SELECT coalesce(max(position), 0) AS last FROM lesson WHERE course_id = ?',
        args.course_id)['last']
    lesson_id, now = context.new_id('le'), context.now()
    context.store.run('INSERT INTO lesson (lesson_id, course_id, title, content_markdown, '
                      'position, modality_declarations, created_at, updated_at) '
                      'VALUES (?, ?, ?, ?, ?, ?, ?, ?)', lesson_id, args.course_id, args.title,
                      args.content_markdown, position,
                      json.dumps(args.modality_declarations, ensure_ascii=False), now, now)
    return {'lesson_id': lesson_id, 'position': position, 'revision': 1, 'published': False}


class LessonArgs(PairArgs):
    lesson_id: str = Field(min_length=1)


class UpdateLesson(LessonArgs):
    title: str | None = Field(None, min_length=1, max_length=200)
    content_markdown: str | None = Field(None, max_length=200_000)
    modality_declarations: dict | None = None
    revision_reason: str = Field(min_length=1, description='no reason, no revision')
    revision_kind: Literal['teaching', 'technical'] = 'teaching'

    @model_validator(mode='after')
    def _something(self) -> UpdateLesson:
        if self.title is None and self.content_markdown is None and \
                self.modality_declarations is None:
            raise ValueError('give title, content_markdown or modality_declarations to revise')
        return self


class Revised(ToolResult):
    lesson_id: str
    revision: int
    revision_kind: Literal['teaching', 'technical']
    shown_to_learner: bool


@tool('update_lesson', UpdateLesson, Revised)
def update_lesson(context: Context, args: UpdateLesson) -> dict:
    """Revise a lesson: the old text is snapshotted into lesson_revisions, revision += 1."""
    pair_id = context.pair(args.pair_id)
    lesson = context.owned('lesson', args.lesson_id, pair_id)
    if lesson['progress'] == 'closed':
        raise conflict('a closed lesson is final: its text is never rewritten (patch_lesson '
                       'adds an erratum beside it)', progress='closed', allowed=['erratum'])
    if lesson['progress'] != 'not_started':
        allowed = LAWS[lesson['progress']]
        raise conflict(f'she has reached this lesson ({lesson["progress"]}): its text is never '
                       f'rewritten; revisions apply to lessons she has not reached. Use '
                       f'patch_lesson with kind {allowed[0]}', progress=lesson['progress'],
                       allowed=list(allowed))
    now = context.now()
    snapshot = {k: lesson[k] for k in ('title', 'content_markdown', 'modality_declarations')}
    context.store.run('INSERT INTO lesson_revision VALUES (?, ?, ?, ?, ?, ?)', args.lesson_id,
                      lesson['revision'], json.dumps(snapshot, ensure_ascii=False),
                      args.revision_reason, args.revision_kind, now)
    context.store.run(
        'UPDATE lesson SET title = coalesce(?, title), '
        'content_markdown = coalesce(?, content_markdown), '
        'modality_declarations = coalesce(?, modality_declarations), revision = revision + 1, '
        'updated_at = ? WHERE lesson_id = ?', args.title, args.content_markdown,
        None if args.modality_declarations is None else
        json.dumps(args.modality_declarations, ensure_ascii=False), now, args.lesson_id)
    return {'lesson_id': args.lesson_id, 'revision': lesson['revision'] + 1,
            'revision_kind': args.revision_kind,
            'shown_to_learner': args.revision_kind == 'teaching'}


class PatchLesson(LessonArgs):
    kind: Literal['teacher_note', 'erratum']
    body: str = Field(min_length=1, max_length=5000)
    source: str = Field('', description='e.g. 基于你第3课的作业')


LAWS = {'not_started': (), 'in_progress': ('teacher_note',),
        'completed_declared': ('erratum',), 'closed': ('erratum',)}


class Patched(ToolResult):
    patch_id: str
    lesson_id: str
    kind: Literal['teacher_note', 'erratum']
    text_rewritten: Literal[False]


@tool('patch_lesson', PatchLesson, Patched)
def patch_lesson(context: Context, args: PatchLesson) -> dict:
    """A teacher note (lesson in progress) or an erratum (lesson learned), beside the text."""
    pair_id = context.pair(args.pair_id)
    lesson = context.owned('lesson', args.lesson_id, pair_id)
    allowed = LAWS[lesson['progress']]
    if args.kind not in allowed:
        advice = ('not started: revise it with update_lesson instead' if not allowed else
                  f'{lesson["progress"]}: only {allowed[0]} is allowed')
        raise conflict(f'lesson {args.lesson_id!r} is {advice}', progress=lesson['progress'],
                       allowed=list(allowed))
    patch_id = context.new_id('pt')
    context.store.run('INSERT INTO lesson_patch VALUES (?, ?, ?, ?, ?, ?)', patch_id,
                      args.lesson_id, args.kind, args.body, args.source, context.now())
    return {'patch_id': patch_id, 'lesson_id': args.lesson_id, 'kind': args.kind,
            'text_rewritten': False}


class Published(ToolResult):
    lesson_id: str
    published_at: str
    status: Literal['PASS', 'PASS_WITH_WARNINGS']
    warnings: list[str]


@tool('publish_lesson', LessonArgs, Published)
def publish_lesson(context: Context, args: LessonArgs) -> dict:
    """Publish Gate: verify_prep's validator runs; any ❌ refuses with the red list."""
    pair_id = context.pair(args.pair_id)
    lesson = context.owned('lesson', args.lesson_id, pair_id)
    checked = prep.report(context.store, lesson)
    if checked['status'] == 'FAIL':
        raise conflict('the lesson fails verify_prep: clear every ❌ first',
                       status='FAIL', errors=checked['errors'], warnings=checked['warnings'])
    published = lesson['published_at'] or context.now()
    if lesson['published_at'] is None:
        context.store.run('UPDATE lesson SET published_at = ? WHERE lesson_id = ?', published,
                          args.lesson_id)
    return {'lesson_id': args.lesson_id, 'published_at': published,
            'status': checked['status'], 'warnings': checked['warnings']}


class VerifyPrep(PairArgs):
    lesson_id: str = ''
    course_id: str = ''
    verbose: bool = False

    @model_validator(mode='after')
    def _one(self) -> VerifyPrep:
        if bool(self.lesson_id) == bool(self.course_id):
            raise ValueError('give exactly one of lesson_id and course_id')
        return self


@tool('verify_prep', VerifyPrep, prep.Report, reads=True)
def verify_prep(context: Context, args: VerifyPrep) -> dict:
    """Read-only: a lesson's report, or every lesson of a course in order with the worst status."""
    pair_id = context.pair(args.pair_id)
    if args.lesson_id:
        return prep.report(context.store, context.owned('lesson', args.lesson_id, pair_id),
                           args.verbose)
    context.owned('course', args.course_id, pair_id)
    lessons = context.store.all('SELECT * FROM lesson WHERE course_id = ? ORDER BY position, '
                                'created_at', args.course_id)
    if not lessons:
        raise not_found('lesson in course', args.course_id)
    return {'course_id': args.course_id,
            **prep.course_report(context.store, lessons, args.verbose)}


class DeclareProgress(LessonArgs):
    progress: Literal['in_progress', 'completed_declared']


ORDER = ('not_started', 'in_progress', 'completed_declared', 'closed')


class Progress(ToolResult):
    lesson_id: str
    progress: Literal['in_progress', 'completed_declared']


@tool('declare_lesson_progress', DeclareProgress, Progress, who=LEARNER)
def declare_lesson_progress(context: Context, args: DeclareProgress) -> dict:
    """The learner declares a published lesson started or learned (learner side); never back."""
    pair_id = context.pair(args.pair_id)
    lesson = context.owned('lesson', args.lesson_id, pair_id)
    if lesson['published_at'] is None:
        raise conflict('a draft lesson is not on the learner\'s shelf yet')
    if ORDER.index(args.progress) < ORDER.index(lesson['progress']):
        raise conflict(f'lesson progress never goes back ({lesson["progress"]} -> '
                       f'{args.progress})', progress=lesson['progress'])
    if args.progress != lesson['progress']:
        context.store.run('UPDATE lesson SET progress = ?, updated_at = ? WHERE lesson_id = ?',
                          args.progress, context.now(), args.lesson_id)
    return {'lesson_id': args.lesson_id, 'progress': args.progress}


TOOLS = (
    create_course,
    add_lesson,
    update_lesson,
    patch_lesson,
    publish_lesson,
    verify_prep,
    declare_lesson_progress,
)
