"""Read-backs (004 part 2): context, the learner brief, the inbox, lesson/exercise/submission."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from records_desk import taught_pair


@pytest.fixture
def taught(desk):
    pair, lessons = taught_pair(desk)
    concept = desk.ok('add_concept', pair_id=pair, lesson_id=lessons[0], name='惯性',
                      short_definition='d')['concept_id']
    exercise = desk.ok('add_exercise', pair_id=pair, lesson_id=lessons[0], prompt='急刹车为什么前倾？',
                       reference_answer='惯性', expected_concepts=[concept])['exercise_id']
    return pair, lessons, exercise


def test_the_brief_redacts_frozen_hypotheses_and_its_etag_follows_the_content(desk, taught):
    pair, lessons, exercise = taught
    ids = [desk.ok('write_hypothesis', pair_id=pair, domain=d, observation=f'关于{d}的观察',
                   confidence=c, evidence_event_ids=['evt_1'] if d == '画图' else [])[
        'hypothesis_id'] for d, c in (('画图', 0.9), ('审题', 0.7), ('计算', 0.5))]
    first = desk.ok('get_learner_brief', pair_id=pair)
    again = desk.ok('get_learner_brief', pair_id=pair)
    assert first['brief_etag'] == again['brief_etag'] and first['generated_at'] != \
        again['generated_at']
    assert [h['id'] for h in first['top_confidence_hypotheses']] == ids
    assert [h['stale'] for h in first['top_confidence_hypotheses']] == [False, True, True]
    desk.ok('set_hypothesis_verdict', pair_id=pair, hypothesis_id=ids[0], verdict='frozen')
    frozen = desk.ok('get_learner_brief', pair_id=pair)
    assert frozen['top_confidence_hypotheses'][0] == {'id': ids[0],
                                                      'allowed_for_teaching': False,
                                                      'redacted': True}
    assert '画图' not in str(frozen)
    assert frozen['brief_etag'] != first['brief_etag']
    assert len(desk.ok('get_learner_brief', pair_id=pair, limit=1)[
        'top_confidence_hypotheses']) == 1
    assert [h['id'] for h in frozen['needs_reverification']] == ids[1:]


def test_the_brief_reads_evaluations_reflections_confidence_and_the_book(desk, taught):
    pair, lessons, exercise = taught
    assert desk.ok('get_learner_brief', pair_id=pair)['confidence_facts'] is None
    for answer, confidence, score in (('惯性', 'high', 90), ('不知道', 'high', 10),
                                      ('惯性吧', 'low', 70)):
        submission = desk.ok('submit_exercise', pair_id=pair, exercise_id=exercise,
                             learner_answer=answer, confidence=confidence)['submission_id']
        desk.ok('grade_exercise', pair_id=pair, submission_id=submission, score=score,
                feedback='f')
    desk.ok('record_post_lesson_evaluation', pair_id=pair, lesson_id=lessons[0],
            agent_observation='整体稳')
    desk.ok('reflect_on_teaching', pair_id=pair, lesson_id=lessons[0], main_attribution='pacing',
            evidence='e', counterfactual='c', action_link={'type': 'cadence'}, method='慢讲',
            next_action='下次加快', lesson_preference='喜欢先例子')
    brief = desk.ok('get_learner_brief', pair_id=pair, lesson_id=lessons[0])
    assert brief['recent_evaluations'][0]['agent_observation'] == '整体稳'
    assert brief['latest_reflection']['lesson_preference'] == '喜欢先例子'
    assert brief['confidence_facts'] == {
        'lesson_ids': [lessons[0]], 'total_count': 3, 'overall_accuracy': 0.667,
        'by_level': [{'level': 'high', 'count': 2, 'accuracy': 0.5},
                     {'level': 'low', 'count': 1, 'accuracy': 1.0}]}
    assert brief['source_material'] is None


def test_the_context_is_compact_and_names_unknown_pairs(desk, taught):
    pair, lessons, _ = taught
    contract = desk.contract(pair)
    desk.ok('adhoc_learner_send', pair_id=pair, text='在吗？')
    room = desk.ok('live_session_start', pair_id=pair, lesson_id=lessons[0])['live_session_id']
    context = desk.ok('get_context', pair_id=pair)
    assert context['identity'] == {'learner_id': 'l1', 'agent_id': pair}
    assert context['active_contracts'][0]['id'] == contract
    assert context['unread_adhoc_count'] == 1 and context['live_session']['id'] == room
    assert context['brief_etag'] == desk.ok('get_learner_brief', pair_id=pair)['brief_etag']
    unknown = desk.refused('get_context', 'NOT_FOUND', pair_id='pair_x')
    assert unknown.result['shortfall']['available_pairs'] == [pair]


def test_the_inbox_orders_typed_items_with_stable_ids(desk, taught):
    pair, lessons, exercise = taught
    desk.contract(pair, establish=False)
    submission = desk.ok('submit_exercise', pair_id=pair, exercise_id=exercise,
                         learner_answer='a')['submission_id']
    desk.ok('adhoc_learner_send', pair_id=pair, text='老师？')
    card = desk.ok('add_flashcard', pair_id=pair, front='f', back='b')['flashcard_id']
    for _ in range(3):
        desk.ok('review_flashcard', pair_id=pair, flashcard_id=card, rating='again')
    room = desk.ok('live_session_start', pair_id=pair, lesson_id=lessons[1])['live_session_id']
    desk.ok('live_declare_close', pair_id=pair, live_session_id=room)
    desk.ok('live_session_complete', pair_id=pair, live_session_id=room, summary='s',
            teacher_reflection='t', next_action='n')
    desk.ok('record_feedback', pair_id=pair, kind='issue', text='第二课太难了', lesson_id=lessons[1])
    inbox = desk.ok('get_teacher_inbox', pair_id=pair)
    assert [(i['type'], i['priority']) for i in inbox['items']] == [
        ('submission_to_grade', 'high'), ('adhoc_message', 'high'), ('card_struggle', 'medium'),
        ('live_without_reflection', 'medium'), ('contract_unsigned', 'low')]
    assert inbox['items'][0]['item_id'] == f'submission_to_grade:{submission}'
    assert desk.ok('get_teacher_inbox', pair_id=pair)['items'] == inbox['items']
    later = desk.ok('get_teacher_inbox', pair_id=pair, since=inbox['items'][2]['occurred_at'])
    assert {i['type'] for i in later['items']} == {'live_without_reflection'}
    assert inbox['open_feedback']['count'] == 1
    assert inbox['open_feedback']['recent'][0]['excerpt'] == '第二课太难了'


def test_lesson_exercise_and_submission_read_backs_stay_in_the_pair(desk, taught):
    pair, lessons, exercise = taught
    compact = desk.ok('get_lesson', pair_id=pair, lesson_id=lessons[0])
    assert 'content_markdown' not in compact and compact['content_chars'] > len(compact['excerpt'])
    assert compact['published'] and compact['exercises'][0]['exercise_id'] == exercise
    full = desk.ok('get_lesson', pair_id=pair, lesson_id=lessons[0], include_content=True)
    assert len(full['content_markdown']) == compact['content_chars']
    read = desk.ok('get_exercise', pair_id=pair, exercise_id=exercise)
    assert (read['reference_answer'], read['lesson_id']) == ('惯性', lessons[0])
    submission = desk.ok('submit_exercise', pair_id=pair, exercise_id=exercise,
                         learner_answer='因为惯性', confidence='medium')['submission_id']
    back = desk.ok('get_submission', pair_id=pair, submission_id=submission)
    assert (back['status'], back['confidence'], back['exercise_prompt_excerpt']) == (
        'submitted', 'medium', '急刹车为什么前倾？')
    other = desk.pair('l2', '王芳')
    desk.refused('get_lesson', 'NOT_FOUND', pair_id=other, lesson_id=lessons[0])
    desk.refused('get_exercise', 'NOT_FOUND', pair_id=other, exercise_id=exercise)
    desk.refused('get_submission', 'NOT_FOUND', pair_id=other, submission_id=submission)


def test_the_inbox_since_is_an_instant_with_its_offset(desk, taught):
    pair, lessons, exercise = taught
    submissions = []
    for answer in ('一', '二', '三'):
        submissions.append(desk.ok('submit_exercise', pair_id=pair, exercise_id=exercise,
                                   learner_answer=answer)['submission_id'])
        desk.skip(3600)
    items = desk.ok('get_teacher_inbox', pair_id=pair)['items']
    assert [i['resource_refs']['submission_id'] for i in items] == submissions
    middle = datetime.fromisoformat(items[1]['occurred_at'])
    for zone in (UTC, timezone(timedelta(hours=8)), timezone(timedelta(hours=-5)),
                 timezone(timedelta(hours=5, minutes=45))):
        local = middle.astimezone(zone)
        for text in (local.isoformat(), local.isoformat(timespec='seconds'),
                     local.isoformat().replace('+00:00', 'Z')):
            later = desk.ok('get_teacher_inbox', pair_id=pair, since=text)['items']
            assert [i['resource_refs']['submission_id'] for i in later] == submissions[2:], text
            earlier = (local - timedelta(seconds=1)).isoformat()
            assert len(desk.ok('get_teacher_inbox', pair_id=pair, since=earlier)['items']) == 2


@pytest.mark.parametrize('since', ['yesterday', '2026-11-30T09:00:00', '2026-11-30',
                                   '1764493200', '2026-13-01T00:00:00Z', '09:00+08:00',
                                   'zzzz-11-30T09:00:00Z', '2026-11-30T25:00:00+00:00'])
def test_a_since_that_is_not_a_timestamp_is_refused(desk, taught, since):
    pair, _, exercise = taught
    desk.ok('submit_exercise', pair_id=pair, exercise_id=exercise, learner_answer='a')
    refused = desk.refused('get_teacher_inbox', 'VALIDATION', pair_id=pair, since=since)
    assert refused.field == 'args_json.since'


def test_live_wait_keeps_an_integer_cursor(desk, taught):
    pair, _, _ = taught
    desk.refused('live_wait', 'VALIDATION', pair_id=pair, timeout_s=0,
                 since='2026-11-30T09:00:00Z')
    assert desk.ok('live_wait', pair_id=pair, timeout_s=0, since=0)['cursor'] == 0
