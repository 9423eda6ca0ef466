"""Post-lesson evaluation, the closure facts and close_lesson_loop (004)."""

from __future__ import annotations

import json

import pytest

REFLECTION = {'main_attribution': 'explanation', 'evidence': '第2题她把惯性说成一种力',
              'counterfactual': '如果先用生活例子再给定义，她不会混淆',
              'action_link': {'type': 'lesson_revision', 'ref': 'le_next'},
              'method': '先定义后例子', 'next_action': '下一课先做两个生活例子'}
KINDS = ('exercise_feedback', 'forward_revision', 'teacher_note', 'erratum', 'flashcard_change',
         'hypothesis_update', 'journal_entry')


@pytest.fixture
def taught(desk):
    """A published lesson with a concept, an exercise and one submission not graded yet."""
    pair = desk.pair()
    lesson = desk.lesson(pair, desk.course(pair), progress='completed_declared')
    concept = desk.ok('add_concept', pair_id=pair, lesson_id=lesson, name='惯性',
                      short_definition='d')['concept_id']
    exercise = desk.ok('add_exercise', pair_id=pair, lesson_id=lesson, prompt='p',
                       reference_answer='a', expected_concepts=[concept])['exercise_id']
    submission = desk.ok('submit_exercise', pair_id=pair, exercise_id=exercise,
                         learner_answer='x')['submission_id']
    return pair, lesson, concept, submission


def test_an_empty_evaluation_is_refused(desk, taught):
    pair, lesson, _, _ = taught
    refused = desk.refused('record_post_lesson_evaluation', 'VALIDATION', pair_id=pair,
                           lesson_id=lesson, agent_observation='   ')
    assert 'empty evaluation' in refused.error


def test_one_evaluation_per_lesson_updated_in_place(desk, taught):
    pair, lesson, concept, _ = taught
    first = desk.ok('record_post_lesson_evaluation', pair_id=pair, lesson_id=lesson,
                    concepts_touched=[concept], duration_minutes=40,
                    agent_observation='整体掌握；下一课练受力分析。')
    second = desk.ok('record_post_lesson_evaluation', pair_id=pair, lesson_id=lesson,
                     duration_minutes=45, agent_observation='修订：时长记错了。')
    assert (first['updated'], second['updated']) == (False, True)
    assert first['evaluation_id'] == second['evaluation_id'] and '原地更新' in second['human_note']
    rows = desk.store.all('SELECT body FROM post_lesson_evaluation')
    assert len(rows) == 1 and json.loads(rows[0]['body'])['duration_minutes'] == 45
    assert second['closure_progress']['completed'] == ['post_lesson_evaluation']


def test_the_facts_name_the_first_gap_and_prefill_its_ids(desk, taught):
    pair, lesson, concept, submission = taught
    facts = desk.ok('get_lesson_closure_facts', pair_id=pair, lesson_id=lesson)
    assert facts == {
        'lesson_id': lesson, 'state': 'graded', 'completed': [],
        'missing': ['graded', 'post_lesson_evaluation', 'reflection'],
        'next_required_action': {'tool': 'grade_exercise',
                                 'pre_filled_refs': {'submission_id': submission}},
        'incorrect_review_signal': {'incorrect_submission_count': 0,
                                    'concepts_with_flashcard': 0, 'concepts_total': 0}}
    desk.ok('grade_exercise', pair_id=pair, submission_id=submission, score=10, feedback='错')
    desk.ok('add_flashcard', pair_id=pair, front='f', back='b', concept_id=concept)
    facts = desk.ok('get_lesson_closure_facts', pair_id=pair, lesson_id=lesson)
    assert (facts['state'], facts['next_required_action']['tool']) == (
        'post_lesson_evaluation', 'record_post_lesson_evaluation')
    assert facts['incorrect_review_signal'] == {'incorrect_submission_count': 1,
                                                'concepts_with_flashcard': 1,
                                                'concepts_total': 1}
    desk.ok('record_post_lesson_evaluation', pair_id=pair, lesson_id=lesson,
            agent_observation='ok')
    facts = desk.ok('get_lesson_closure_facts', pair_id=pair, lesson_id=lesson)
    assert facts['state'] == 'reflection'
    assert facts['next_required_action'] == {'tool': 'reflect_on_teaching',
                                             'pre_filled_refs': {'lesson_id': lesson}}
    desk.ok('reflect_on_teaching', pair_id=pair, lesson_id=lesson, **REFLECTION)
    facts = desk.ok('get_lesson_closure_facts', pair_id=pair, lesson_id=lesson)
    assert facts['state'] == 'ready_to_close' and facts['missing'] == []
    assert desk.store.one('SELECT count(*) AS n FROM lesson_receipt')['n'] == 0   # read-only


def test_close_refuses_ungraded_work_first(desk, taught):
    pair, lesson, _, submission = taught
    refused = desk.refused('close_lesson_loop', 'CONFLICT', pair_id=pair, lesson_id=lesson,
                           no_cognitive_update_reason='r')
    assert refused.result['shortfall']['ungraded_submission_ids'] == [submission]


def test_close_needs_a_cognitive_update_or_a_reason(desk, taught):
    pair, lesson, _, submission = taught
    desk.ok('grade_exercise', pair_id=pair, submission_id=submission, score=90, feedback='好')
    refused = desk.refused('close_lesson_loop', 'CONFLICT', pair_id=pair, lesson_id=lesson)
    assert refused.result['shortfall']['next_required_action']['tool'] == \
        'record_post_lesson_evaluation'
    closed = desk.ok('close_lesson_loop', pair_id=pair, lesson_id=lesson,
                     no_cognitive_update_reason='这节课是复习，没有新的判断。')
    assert closed['closure_progress']['state'] == 'closed'


def test_every_receipt_ref_must_be_real_and_of_its_kind(desk, taught):
    pair, lesson, _, submission = taught
    desk.ok('grade_exercise', pair_id=pair, submission_id=submission, score=90, feedback='好')
    desk.ok('record_post_lesson_evaluation', pair_id=pair, lesson_id=lesson,
            agent_observation='ok')
    refused = desk.refused('close_lesson_loop', 'NOT_FOUND', pair_id=pair, lesson_id=lesson,
                           receipt=[{'kind': 'exercise_feedback', 'ref_id': submission,
                                     'description': '批改了作业'},
                                    {'kind': 'flashcard_change', 'ref_id': submission,
                                     'description': '不是一张卡'},
                                    {'kind': 'journal_entry', 'ref_id': 'snap_1',
                                     'description': '没有这条'}])
    assert refused.result['shortfall']['dangling_ref_ids'] == [submission, 'snap_1']
    invented = desk.refused('close_lesson_loop', 'VALIDATION', pair_id=pair, lesson_id=lesson,
                            receipt=[{'kind': 'summary', 'ref_id': submission,
                                      'description': 'x'}])
    assert "field 'kind'" in invented.error


def test_closed_is_final(desk, taught):
    pair, lesson, _, submission = taught
    desk.ok('grade_exercise', pair_id=pair, submission_id=submission, score=90, feedback='好')
    patch = desk.ok('patch_lesson', pair_id=pair, lesson_id=lesson, kind='erratum',
                    body='第二段的单位应为 N。')['patch_id']
    desk.ok('record_post_lesson_evaluation', pair_id=pair, lesson_id=lesson,
            agent_observation='ok')
    closed = desk.ok('close_lesson_loop', pair_id=pair, lesson_id=lesson, receipt=[
        {'kind': 'exercise_feedback', 'ref_id': submission, 'description': '第1题已批改'},
        {'kind': 'erratum', 'ref_id': patch, 'description': '第二段单位'}])
    assert closed['closure_progress']['next_required_action'] is None
    assert 'closed is final' in desk.refused('close_lesson_loop', 'CONFLICT', pair_id=pair,
                                             lesson_id=lesson).error
    desk.refused('update_lesson', 'CONFLICT', pair_id=pair, lesson_id=lesson, title='x',
                 revision_reason='r')
    desk.refused('declare_lesson_progress', 'CONFLICT', pair_id=pair, lesson_id=lesson,
                 progress='in_progress')
    desk.refused('add_concept', 'CONFLICT', pair_id=pair, lesson_id=lesson, name='n',
                 short_definition='d')            # the schema's trigger: the lesson list is final


def test_receipt_kinds_are_the_closed_enum_of_seven():
    from robot_skills.records.closure import REFERENCES, ReceiptItem
    assert tuple(REFERENCES) == KINDS
    assert ReceiptItem.model_fields['kind'].annotation.__args__ == KINDS
