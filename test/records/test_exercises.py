"""Exercises, quizzes, submissions and grading (004)."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def exercise(desk):
    pair = desk.pair()
    lesson = desk.lesson(pair, desk.course(pair))
    concept = desk.ok('add_concept', pair_id=pair, lesson_id=lesson, name='惯性',
                      short_definition='d')['concept_id']
    made = desk.ok('add_exercise', pair_id=pair, lesson_id=lesson, prompt='为什么急刹车时人会前倾？',
                   reference_answer='人由于惯性保持原来的运动状态', expected_concepts=[concept])
    return pair, lesson, concept, made['exercise_id']


def test_an_exercise_references_only_this_pair_s_concepts(desk, exercise):
    pair, lesson, _, _ = exercise
    desk.refused('add_exercise', 'NOT_FOUND', pair_id=pair, lesson_id=lesson, prompt='p',
                 reference_answer='a', expected_concepts=['cpt_nope'])


@pytest.mark.parametrize('question, ok', [
    ({'prompt': 'p', 'question_type': 'single_choice', 'choices': ['A', 'B'],
      'reference_answer': 'A'}, True),
    ({'prompt': 'p', 'question_type': 'single_choice', 'choices': ['A', 'B'],
      'reference_answer': 'C'}, False),
    ({'prompt': 'p', 'question_type': 'single_choice', 'reference_answer': 'A'}, False),
    ({'prompt': 'p', 'question_type': 'multi_choice', 'choices': ['A', 'B', 'C'],
      'reference_answer': 'A,C'}, True),
    ({'prompt': 'p', 'question_type': 'multi_choice', 'choices': ['A', 'B', 'C'],
      'reference_answer': 'A,D'}, False),
    ({'prompt': 'p', 'question_type': 'essay', 'reference_answer': '自评参考'}, True),
    ({'prompt': 'p'}, True),                                           # open, not graded
])
def test_quiz_choice_answers_must_be_among_the_choices(desk, question, ok):
    pair = desk.pair()
    course = desk.course(pair)
    result = desk.call('add_simulated_quiz', pair_id=pair, course_id=course, title='期中模拟',
                       questions=[question])
    assert result.ok is ok, result
    if ok:
        assert result.result['graded_questions'] == int(
            question.get('question_type', '').endswith('choice'))


def test_a_quiz_needs_questions_and_a_course_of_this_pair(desk):
    pair = desk.pair()
    desk.refused('add_simulated_quiz', 'VALIDATION', pair_id=pair, course_id='x', title='t',
                 questions=[])
    desk.refused('add_simulated_quiz', 'NOT_FOUND', pair_id=pair, course_id='co_nope',
                 title='t', questions=[{'prompt': 'p'}])


def test_grading_refuses_a_regrade_without_the_flag_and_keeps_the_old_verdict(desk, exercise):
    pair, _, _, exercise_id = exercise
    submission = desk.ok('submit_exercise', pair_id=pair, exercise_id=exercise_id,
                         learner_answer='因为有惯性', confidence='medium')['submission_id']
    first = desk.ok('grade_exercise', pair_id=pair, submission_id=submission, score=80,
                    feedback='对，补一句“保持原来的运动状态”。')
    assert 'concept_refs' not in first
    refused = desk.refused('grade_exercise', 'CONFLICT', pair_id=pair, submission_id=submission,
                           score=90, feedback='改判')
    assert 'regrade: true' in refused.error
    regraded = desk.ok('grade_exercise', pair_id=pair, submission_id=submission, score=95,
                       feedback='改判：完整', regrade=True)
    assert regraded['regraded'] is True
    events = [json.loads(e['payload']) for e in desk.store.all(
        "SELECT payload FROM event WHERE kind = 'exercise.graded' ORDER BY event_id")]
    assert events[0]['regrade'] is False and 'previous_score' not in events[0]
    assert (events[1]['previous_score'], events[1]['previous_feedback']) == (
        80, '对，补一句“保持原来的运动状态”。')
    assert desk.store.one('SELECT agent_score FROM submission')['agent_score'] == 95


def test_a_wrong_answer_hands_back_the_concepts(desk, exercise):
    pair, _, concept, exercise_id = exercise
    submission = desk.ok('submit_exercise', pair_id=pair, exercise_id=exercise_id,
                         learner_answer='因为车停了')['submission_id']
    graded = desk.ok('grade_exercise', pair_id=pair, submission_id=submission, score=20,
                     feedback='没有提到惯性。')
    assert graded['concept_refs'] == [concept] and graded['human_note']


def test_submissions_of_another_pair_are_not_found(desk, exercise):
    pair, _, _, exercise_id = exercise
    submission = desk.ok('submit_exercise', pair_id=pair, exercise_id=exercise_id,
                         learner_answer='a')['submission_id']
    other = desk.pair('l2', '王芳')
    desk.refused('grade_exercise', 'NOT_FOUND', pair_id=other, submission_id=submission,
                 score=1, feedback='f')
    desk.refused('submit_exercise', 'NOT_FOUND', pair_id=other, exercise_id=exercise_id,
                 learner_answer='a')
