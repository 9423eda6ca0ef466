"""The learner's right of access (issue 18): ``export_learner_records``, everything about her.

Who: the learner (her own records only, ``Context.learner``) and the operators (who answer a
request she makes to them). Not the agent: an export is not a teaching act.

What is hers. Document 004 keeps parts of the records out of her pages (a reflection is
"呈现全静默", a frozen hypothesis is redacted from the brief, a reference answer is the
teacher's key), but those are choices of what the product *shows* while teaching, made to
protect her; they are not secrets kept from her. The right of access is to every record
about her, so the export holds all of it: her learner row, and for each of her pairs its
contracts and coverage, courses, quizzes, lessons (revisions, patches, receipts), documents
and highlights, concepts, flashcards with their FSRS state, mind maps, exercises,
submissions, post-lesson evaluations, hypotheses of every status with her verdicts, the
teacher's reflections, her feedback and her observation no-go register, live sessions with
their moves, responses, snapshots and evaluations, the ad-hoc thread and its messages, and
both event streams. Rows are given as stored (JSON columns as their text), erased words as
their tombstones (``erased_at``).

Left out, deliberately: an exercise's ``reference_answer`` (the grading key is teaching
material, not data about her; document 004 keeps it from her while she may still answer),
and the deployment's machinery, which is not about her: consumer cursors, heartbeats,
polling counters and access tokens (their secrets' hashes).

Size. A year of one pair is about 0.9 MB of JSON, read in 20 ms (bench.school: 30 lessons,
200 cards, 1,700 reviews, 1,800 events); a learner may have had several pairs, so one call
answers one pair: the learner row, the ids of all her pairs, that pair's records,
and ``next_cursor`` (the next pair, or None). Every read is scoped to the pair and indexed
(test/test_query_plans.py). It reads a snapshot: a page is consistent in itself.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from robot_skills.records.errors import ToolError, validation
from robot_skills.records.roles import Role
from robot_skills.records.tools import Args, Context, ToolResult, tool

WHO = frozenset({Role.LEARNER, Role.OPERATOR})
_LESSONS = 'JOIN lesson USING (lesson_id) JOIN course USING (course_id) WHERE course.pair_id = ?'
_SESSIONS = 'JOIN live_session USING (live_session_id) WHERE live_session.pair_id = ?'
EXERCISE = ('exercise_id', 'lesson_id', 'prompt', 'expected_concepts', 'tags', 'created_at')

# section -> the statement reading it for one pair (its one parameter)
SECTIONS: dict[str, str] = {
    'contracts': 'SELECT * FROM contract WHERE pair_id = ? ORDER BY created_at',
    'coverage': 'SELECT coverage.* FROM coverage JOIN contract USING (contract_id) '
                'WHERE contract.pair_id = ?',
    'courses': 'SELECT * FROM course WHERE pair_id = ? ORDER BY created_at',
    'quizzes': 'SELECT quiz.* FROM quiz JOIN course USING (course_id) WHERE course.pair_id = ?',
    'lessons': 'SELECT lesson.* FROM lesson JOIN course USING (course_id) '
               'WHERE course.pair_id = ? ORDER BY course.created_at, lesson.position',
    'lesson_revisions': f'SELECT lesson_revision.* FROM lesson_revision {_LESSONS}',
    'lesson_patches': f'SELECT lesson_patch.* FROM lesson_patch {_LESSONS}',
    'lesson_receipts': f'SELECT lesson_receipt.* FROM lesson_receipt {_LESSONS}',
    'documents': 'SELECT * FROM document WHERE pair_id = ? ORDER BY created_at',
    'highlights': 'SELECT highlight.* FROM highlight JOIN document USING (document_id) '
                  'WHERE document.pair_id = ?',
    'concepts': 'SELECT * FROM concept WHERE pair_id = ? ORDER BY created_at',
    'flashcards': 'SELECT * FROM flashcard WHERE pair_id = ?',
    'mindmaps': 'SELECT * FROM mindmap WHERE pair_id = ?',
    'exercises': f'SELECT {", ".join("exercise." + c for c in EXERCISE)} FROM exercise '
                 f'{_LESSONS}',
    'submissions': f'SELECT submission.* FROM submission JOIN exercise USING (exercise_id) '
                   f'{_LESSONS}',
    'post_lesson_evaluations': 'SELECT * FROM post_lesson_evaluation WHERE pair_id = ?',
    'hypotheses': 'SELECT * FROM hypothesis WHERE pair_id = ?',
    'reflections': 'SELECT * FROM reflection WHERE pair_id = ? ORDER BY created_at',
    'feedback': 'SELECT * FROM feedback WHERE pair_id = ?',
    'boundaries': 'SELECT * FROM boundary WHERE pair_id = ?',
    'live_sessions': 'SELECT * FROM live_session WHERE pair_id = ?',
    'live_moves': f'SELECT live_move.* FROM live_move {_SESSIONS}',
    'live_responses': f'SELECT live_response.* FROM live_response {_SESSIONS}',
    'live_snapshots': f'SELECT live_snapshot.* FROM live_snapshot {_SESSIONS}',
    'live_evaluations': f'SELECT live_evaluation.* FROM live_evaluation {_SESSIONS}',
    'adhoc_threads': 'SELECT * FROM adhoc_thread WHERE pair_id = ?',
    'adhoc_messages': 'SELECT adhoc_message.* FROM adhoc_message JOIN adhoc_thread '
                      'USING (thread_id) WHERE adhoc_thread.pair_id = ?',
    'events': 'SELECT * FROM event WHERE pair_id = ? ORDER BY event_id',
    'live_events': 'SELECT * FROM live_event WHERE pair_id = ? ORDER BY seq',
}

Rows = list[dict[str, Any]]


class ExportArgs(Args):
    learner_id: str = Field(min_length=1, max_length=200)
    cursor: str = Field('', max_length=200,
                        description="'' her first pair; then the answer's next_cursor")


class PairRecords(ToolResult):
    """Every record of one pair, table by table, as stored."""

    pair: dict[str, Any]
    contracts: Rows
    coverage: Rows
    courses: Rows
    quizzes: Rows
    lessons: Rows
    lesson_revisions: Rows
    lesson_patches: Rows
    lesson_receipts: Rows
    documents: Rows
    highlights: Rows
    concepts: Rows
    flashcards: Rows
    mindmaps: Rows
    exercises: Rows
    submissions: Rows
    post_lesson_evaluations: Rows
    hypotheses: Rows
    reflections: Rows
    feedback: Rows
    boundaries: Rows
    live_sessions: Rows
    live_moves: Rows
    live_responses: Rows
    live_snapshots: Rows
    live_evaluations: Rows
    adhoc_threads: Rows
    adhoc_messages: Rows
    events: Rows
    live_events: Rows


class Exported(ToolResult):
    learner: dict[str, Any]
    pair_ids: list[str]
    page: PairRecords | None
    next_cursor: str | None


@tool('export_learner_records', ExportArgs, Exported, reads=True, who=WHO)
def export_learner_records(context: Context, args: ExportArgs) -> dict:
    """Everything the records hold about her, one pair per call (next_cursor: the next)."""
    learner_id = context.learner(args.learner_id)
    learner = context.store.one('SELECT * FROM learner WHERE learner_id = ?', learner_id)
    if learner is None:
        raise ToolError('NOT_FOUND', f'no learner {learner_id!r}')
    pair_ids = [r['pair_id'] for r in context.store.all(
        'SELECT pair_id FROM pair WHERE learner_id = ? ORDER BY created_at', learner_id)]
    if args.cursor and args.cursor not in pair_ids:
        raise validation('cursor is not one of her pairs: pass the next_cursor of the last '
                         "answer, or '' to start")
    if not pair_ids:
        return {'learner': dict(learner), 'pair_ids': [], 'page': None, 'next_cursor': None}
    at = pair_ids.index(args.cursor) if args.cursor else 0
    pair_id = context.pair(pair_ids[at])
    page: dict[str, Any] = {
        'pair': dict(context.store.row('SELECT * FROM pair WHERE pair_id = ?', pair_id))}
    for section, sql in SECTIONS.items():
        page[section] = [dict(row) for row in context.store.all(sql, pair_id)]
    return {'learner': dict(learner), 'pair_ids': pair_ids, 'page': page,
            'next_cursor': pair_ids[at + 1] if at + 1 < len(pair_ids) else None}


TOOLS = (
    export_learner_records,
)
