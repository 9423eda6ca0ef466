"""Exercises, simulated quizzes, submissions and grading (004).

A choice question's reference answers must be among its choices
(multi_choice encodes several as "A,C"); open questions are not graded.
``grade_exercise`` refuses to re-grade a graded submission unless
``regrade: true``, and then keeps the previous verdict in the appended
``exercise.graded`` event. A score in the incorrect band (below
``INCORRECT_BELOW`` of 100) hands back the exercise's concept ids and one
human note; whether to make a flashcard of it is the teacher's call.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import Field, model_validator

from robot_skills.records.errors import conflict
from robot_skills.records.roles import LEARNER
from robot_skills.records.tools import Args, Context, PairArgs, ToolResult, tool

INCORRECT_BELOW = 60.0


class AddExercise(PairArgs):
    lesson_id: str = Field(min_length=1)
    prompt: str = Field(min_length=1, max_length=5000)
    reference_answer: str = Field(min_length=1, max_length=5000)
    expected_concepts: list[str] = Field([], description='concept ids of this pair')
    tags: list[str] = []


class ExerciseAdded(ToolResult):
    exercise_id: str


@tool('add_exercise', AddExercise, ExerciseAdded)
def add_exercise(context: Context, args: AddExercise) -> dict:
    """Add an exercise after a lesson; its expected concepts must be this pair's."""
    pair_id = context.pair(args.pair_id)
    context.owned('lesson', args.lesson_id, pair_id)
    for concept in args.expected_concepts:
        context.owned('concept', concept, pair_id)
    exercise_id = context.new_id('ex')
    context.store.run('INSERT INTO exercise VALUES (?, ?, ?, ?, ?, ?, ?)', exercise_id,
                      args.lesson_id, args.prompt, args.reference_answer,
                      json.dumps(args.expected_concepts), json.dumps(args.tags,
                                                                     ensure_ascii=False),
                      context.now())
    return {'exercise_id': exercise_id}


class Question(Args):
    prompt: str = Field(min_length=1)
    question_type: Literal['single_choice', 'multi_choice', 'short_answer', 'essay'] | None = None
    choices: list[str] = []
    reference_answer: str = ''

    @model_validator(mode='after')
    def _choices(self) -> Question:
        if self.question_type in ('single_choice', 'multi_choice'):
            answers = [a.strip() for a in self.reference_answer.split(',')] \
                if self.question_type == 'multi_choice' else [self.reference_answer]
            if not self.choices:
                raise ValueError(f'a {self.question_type} question needs choices')
            missing = [a for a in answers if a not in self.choices]
            if missing or not self.reference_answer:
                raise ValueError(f'reference answers {missing or ["(none)"]} are not among the '
                                 'choices')
        return self


class AddQuiz(PairArgs):
    course_id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    questions: list[Question] = Field(min_length=1)


class QuizAdded(ToolResult):
    quiz_id: str
    questions: int
    graded_questions: int


@tool('add_simulated_quiz', AddQuiz, QuizAdded)
def add_simulated_quiz(context: Context, args: AddQuiz) -> dict:
    """Add a simulated quiz to a course (choice answers among the choices; open ones ungraded)."""
    pair_id = context.pair(args.pair_id)
    context.owned('course', args.course_id, pair_id)
    quiz_id = context.new_id('qz')
    context.store.run('INSERT INTO quiz VALUES (?, ?, ?, ?, ?)', quiz_id, args.course_id,
                      args.title, json.dumps([q.model_dump() for q in args.questions],
                                             ensure_ascii=False), context.now())
    graded = sum(1 for q in args.questions if q.question_type in ('single_choice',
                                                                   'multi_choice'))
    return {'quiz_id': quiz_id, 'questions': len(args.questions), 'graded_questions': graded}


class Submit(PairArgs):
    exercise_id: str = Field(min_length=1)
    learner_answer: str = Field(min_length=1, max_length=20000)
    confidence: Literal['low', 'medium', 'high'] | None = None


class Submitted(ToolResult):
    submission_id: str
    status: Literal['submitted']


@tool('submit_exercise', Submit, Submitted, who=LEARNER)
def submit_exercise(context: Context, args: Submit) -> dict:
    """The learner submits an answer (learner side): pending until graded."""
    pair_id = context.pair(args.pair_id)
    context.owned('exercise', args.exercise_id, pair_id)
    submission_id = context.new_id('sub')
    context.store.run("INSERT INTO submission VALUES (?, ?, ?, ?, 'submitted', NULL, NULL, ?, "
                      'NULL)', submission_id, args.exercise_id, args.learner_answer,
                      args.confidence, context.now())
    return {'submission_id': submission_id, 'status': 'submitted'}


class Grade(PairArgs):
    submission_id: str = Field(min_length=1)
    score: float | None = Field(None, ge=0, le=100)
    feedback: str = Field(min_length=1, max_length=5000)
    regrade: bool = False


class Graded(ToolResult):
    submission_id: str
    status: Literal['graded']
    score: float | None
    regraded: bool = False
    concept_refs: list[str] = []
    human_note: str = ''


@tool('grade_exercise', Grade, Graded)
def grade_exercise(context: Context, args: Grade) -> dict:
    """Grade a submission; a graded one only with regrade: true, the old verdict kept."""
    pair_id = context.pair(args.pair_id)
    submission = context.owned('submission', args.submission_id, pair_id)
    previous = {}
    if submission['status'] == 'graded':
        if not args.regrade:
            raise conflict('this submission is graded already: pass regrade: true to change '
                           'the verdict', previous_score=submission['agent_score'])
        previous = {'previous_score': submission['agent_score'],
                    'previous_feedback': submission['agent_feedback']}
    elif submission['status'] == 'draft':
        raise conflict('a draft is not submitted yet')
    now = context.now()
    context.store.run("UPDATE submission SET status = 'graded', agent_score = ?, "
                      'agent_feedback = ?, graded_at = ? WHERE submission_id = ?', args.score,
                      args.feedback, now, args.submission_id)
    context.store.event(pair_id, 'exercise.graded', {
        'submission_id': args.submission_id, 'score': args.score, 'regrade': bool(previous),
        **previous}, now)
    result: dict = {'submission_id': args.submission_id, 'status': 'graded',
                    'score': args.score, **({'regraded': True} if previous else {})}
    if args.score is not None and args.score < INCORRECT_BELOW:
        exercise = context.store.row('SELECT expected_concepts FROM exercise WHERE '
                                     'exercise_id = ?', submission['exercise_id'])
        result['concept_refs'] = json.loads(exercise['expected_concepts'])
        result['human_note'] = ('判错：这些概念可以配一张针对性的闪卡（由你决定，不是义务）。'
                                if result['concept_refs'] else '判错：这道题没有登记概念。')
    return result


TOOLS = (
    add_exercise,
    add_simulated_quiz,
    submit_exercise,
    grade_exercise,
)
