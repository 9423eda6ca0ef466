"""The learner model (004 part 2): hypotheses, reflections, the feedback pen."""

from __future__ import annotations

from datetime import timedelta, timezone

import pytest
from records_desk import FRAME, T0, taught_pair

REFLECTION = {'main_attribution': 'explanation', 'evidence': '她把惯性说成一种力',
              'counterfactual': '先举生活例子就不会混淆',
              'action_link': {'type': 'lesson_revision', 'ref': 'le_next'},
              'method': '先定义后例子', 'next_action': '下一课先做两个生活例子'}


def hypothesis(desk, pair, **extra):
    return desk.call('write_hypothesis', pair_id=pair, domain='解题习惯',
                     observation='她习惯先画图再列式', confidence=0.6, **extra)


def test_no_hypothesis_before_the_third_lesson(desk):
    pair, _ = taught_pair(desk, lessons=2)
    refused = hypothesis(desk, pair)
    assert refused.code == 'CONFLICT' and refused.result['shortfall']['completed_lessons'] == 2


def test_a_domain_on_the_no_go_register_is_silently_not_written(desk):
    pair, _ = taught_pair(desk)
    desk.ok('record_feedback', pair_id=pair, kind='idea', text='别再记录我的解题习惯了',
            boundary_update={'add_domains': ['解题习惯']})
    written = hypothesis(desk, pair)
    assert written.ok and written.result['written'] is False
    assert 'no-go register' in written.result['human_note']
    assert desk.store.one('SELECT count(*) AS n FROM hypothesis')['n'] == 0


@pytest.mark.parametrize('observation', ['她的把握度偏低', '她高估自己', '她低估了自己的水平',
                                         'she is overconfident'])
def test_confidence_calibration_judgements_are_refused(desk, observation):
    pair, _ = taught_pair(desk)
    refused = desk.refused('write_hypothesis', 'VALIDATION', pair_id=pair, domain='自我认知',
                           observation=observation, confidence=0.5)
    assert 'reflect_on_teaching' in refused.error


def test_the_lifecycle_reinforce_revise_retire(desk):
    pair, _ = taught_pair(desk)
    first = hypothesis(desk, pair, evidence_event_ids=['evt_1']).result['hypothesis_id']
    desk.ok('write_hypothesis', pair_id=pair, hypothesis_id=first, action='reinforce',
            evidence_event_ids=['evt_2'])
    revised = desk.ok('write_hypothesis', pair_id=pair, hypothesis_id=first, action='revise',
                      observation='她先画图，但复杂题会跳过')
    assert revised['superseded_hypothesis_id'] == first
    rows = {r['hypothesis_id']: r for r in desk.store.all('SELECT * FROM hypothesis')}
    assert rows[first]['status'] == 'expired' and rows[first]['superseded_by'] == \
        revised['hypothesis_id']
    new = rows[revised['hypothesis_id']]
    assert new['status'] == 'active' and new['evidence_event_ids'] == '["evt_1", "evt_2"]'
    desk.refused('write_hypothesis', 'CONFLICT', pair_id=pair, hypothesis_id=first,
                 action='reinforce')
    desk.ok('write_hypothesis', pair_id=pair, hypothesis_id=new['hypothesis_id'], action='retire')
    assert desk.store.one('SELECT count(*) AS n FROM hypothesis WHERE status = ?',
                          'active')['n'] == 0


@pytest.mark.parametrize('verdict, allowed', [('confirmed', {'reinforce'}), ('rejected', set()),
                                              ('frozen', set())])
def test_her_verdicts_rule(desk, verdict, allowed):
    pair, _ = taught_pair(desk)
    for action in ('reinforce', 'revise', 'retire'):
        made = hypothesis(desk, pair).result['hypothesis_id']
        desk.ok('set_hypothesis_verdict', pair_id=pair, hypothesis_id=made, verdict=verdict)
        result = desk.call('write_hypothesis', pair_id=pair, hypothesis_id=made, action=action,
                           observation='新说法')
        assert result.ok is (action in allowed), (action, result)
        if not result.ok:
            assert result.code == 'PERMISSION'


def test_a_reflection_needs_a_matching_action_link_and_weather_an_expiry(desk):
    pair, lessons = taught_pair(desk)
    wrong = {**REFLECTION, 'action_link': {'type': 'cadence'}}
    assert 'links a lesson_revision action' in desk.refused(
        'reflect_on_teaching', 'VALIDATION', pair_id=pair, lesson_id=lessons[0], **wrong).error
    weather = {**REFLECTION, 'main_attribution': 'weather', 'action_link': {'type': 'none'}}
    desk.refused('reflect_on_teaching', 'VALIDATION', pair_id=pair, **weather)
    made = desk.ok('reflect_on_teaching', pair_id=pair, lesson_id=lessons[0], **weather,
                   weather_expires_at=(T0 + timedelta(days=1)).isoformat())
    assert made['profile_written'] is False
    assert desk.store.one('SELECT count(*) AS n FROM hypothesis')['n'] == 0


def test_anchoring_explicit_then_inferred_in_the_document_s_order(desk):
    pair, lessons = taught_pair(desk)
    explicit = desk.ok('reflect_on_teaching', pair_id=pair, lesson_id=lessons[0], **REFLECTION)
    assert (explicit['anchor_source'], explicit['created_refs']['anchored_lesson_id']) == (
        'explicit', lessons[0])
    assert 'reflection' in explicit['closure_progress']['completed']
    assert '⚠️' not in explicit['human_note'] and '没有挂到' not in explicit['human_note']
    unanchored = desk.ok('reflect_on_teaching', pair_id=pair, **REFLECTION)
    assert unanchored['anchor_source'] == 'unanchored' and '⚠️' in unanchored['human_note']
    assert unanchored['closure_progress'] is None
    room = desk.ok('live_session_start', pair_id=pair, lesson_id=lessons[1])['live_session_id']
    active = desk.ok('reflect_on_teaching', pair_id=pair, **REFLECTION)
    assert (active['anchor_source'], active['created_refs']['anchored_lesson_id']) == (
        'active_live_room', lessons[1])
    via = desk.ok('reflect_on_teaching', pair_id=pair, live_session_id=room, **REFLECTION)
    assert via['anchor_source'] == 'live_session'
    desk.ok('live_move_append', pair_id=pair, live_session_id=room, move_type='FRAME',
            content=FRAME)
    desk.ok('live_session_cancel', pair_id=pair, live_session_id=room)
    recent = desk.ok('reflect_on_teaching', pair_id=pair, **REFLECTION)
    assert (recent['anchor_source'], recent['created_refs']['anchored_lesson_id']) == (
        'recent_live', lessons[1])
    assert sum(recent['recent_attributions'].values()) == 5
    other = desk.pair('l2', '王芳')
    desk.refused('reflect_on_teaching', 'NOT_FOUND', pair_id=other, lesson_id=lessons[0],
                 **REFLECTION)


def test_the_feedback_pen_keeps_her_words_and_real_anchors(desk):
    pair, lessons = taught_pair(desk)
    words = '第二课的例子太难了……能不能换一个？'
    made = desk.ok('record_feedback', pair_id=pair, kind='issue', text=words,
                   lesson_id=lessons[1], source_message_ref='bridge:evt_77')
    assert made['boundary'] == [] and '原样记录' in made['human_note']
    assert desk.store.one('SELECT text FROM feedback')['text'] == words
    desk.refused('record_feedback', 'NOT_FOUND', pair_id=pair, kind='issue', text='x',
                 exercise_id='ex_nope')
    added = desk.ok('record_feedback', pair_id=pair, kind='idea', text='不要记录我的作息',
                    boundary_update={'add_domains': ['作息', '情绪']})
    assert added['boundary'] == ['作息', '情绪']
    removed = desk.ok('record_feedback', pair_id=pair, kind='idea', text='情绪可以记',
                      boundary_update={'remove_domains': ['情绪']})
    assert removed['boundary'] == ['作息']
    untouched = desk.ok('record_feedback', pair_id=pair, kind='idea', text='我不想被观察了')
    assert untouched['boundary'] == ['作息']          # never inferred from the words


def test_the_feedback_lifecycle(desk):
    pair, _ = taught_pair(desk)
    feedback = desk.ok('record_feedback', pair_id=pair, kind='issue', text='x')['feedback_id']
    desk.refused('update_feedback_status', 'CONFLICT', pair_id=pair, feedback_id=feedback,
                 status='addressed')
    desk.ok('update_feedback_status', pair_id=pair, feedback_id=feedback, status='acknowledged')
    desk.refused('update_feedback_status', 'VALIDATION', pair_id=pair, feedback_id=feedback,
                 status='declined')
    done = desk.ok('update_feedback_status', pair_id=pair, feedback_id=feedback,
                   status='declined', note='这个例子是考纲要求的')
    assert done['final'] is True
    for status in ('acknowledged', 'addressed', 'declined'):
        desk.refused('update_feedback_status', 'CONFLICT', pair_id=pair, feedback_id=feedback,
                     status=status, note='n')


def test_only_an_unanchored_reflection_carries_the_warning(desk):
    pair, lessons = taught_pair(desk)
    room = desk.ok('live_session_start', pair_id=pair, lesson_id=lessons[1])['live_session_id']
    answers = {
        'explicit': desk.ok('reflect_on_teaching', pair_id=pair, lesson_id=lessons[0],
                            **REFLECTION),
        'explicit with its session': desk.ok('reflect_on_teaching', pair_id=pair,
                                             lesson_id=lessons[1], live_session_id=room,
                                             **REFLECTION),
        'inferred': desk.ok('reflect_on_teaching', pair_id=pair, **REFLECTION)}
    for case, answer in answers.items():
        assert answer['created_refs']['anchored_lesson_id'], case
        assert answer['closure_progress'] is not None, case
        assert '⚠️' not in answer['human_note'], case
    assert answers['explicit with its session']['anchor_source'] == 'explicit'
    desk.ok('live_session_cancel', pair_id=pair, live_session_id=room)
    desk.skip(25 * 3600)                       # no live lesson within 24 h: nothing to infer
    alone = desk.ok('reflect_on_teaching', pair_id=pair, **REFLECTION)
    assert alone['anchor_source'] == 'unanchored' and '⚠️' in alone['human_note']


WEATHER = {**REFLECTION, 'main_attribution': 'weather', 'action_link': {'type': 'none'},
           'method': '她今天很累，节奏放慢', 'next_action': '看她状态再定'}


def test_a_weather_reflection_past_its_expiry_is_gone_from_every_read_back(desk):
    pair, lessons = taught_pair(desk)
    room = desk.ok('live_session_start', pair_id=pair, lesson_id=lessons[0])['live_session_id']
    desk.ok('live_declare_close', pair_id=pair, live_session_id=room)
    desk.ok('live_session_complete', pair_id=pair, live_session_id=room, summary='s',
            teacher_reflection='t', next_action='n')
    older = desk.ok('reflect_on_teaching', pair_id=pair, lesson_id=lessons[1], **REFLECTION)
    # two hours from now, written in Beijing time: compared as an instant, not as text
    expires = (T0 + timedelta(hours=2)).astimezone(timezone(timedelta(hours=8)))
    weather = desk.ok('reflect_on_teaching', pair_id=pair, lesson_id=lessons[0],
                      live_session_id=room, **WEATHER, weather_expires_at=expires.isoformat())
    assert weather['recent_attributions'] == {'explanation': 1, 'weather': 1}

    def read_backs() -> dict:
        brief = desk.ok('get_learner_brief', pair_id=pair, lesson_id=lessons[0])
        return {'brief': brief['latest_reflection'], 'etag': brief['brief_etag'],
                'facts': 'reflection' in desk.ok('get_lesson_closure_facts', pair_id=pair,
                                                 lesson_id=lessons[0])['completed'],
                'inbox': [i['type'] for i in desk.ok('get_teacher_inbox', pair_id=pair)[
                    'items']]}

    before = read_backs()
    assert before['brief']['reflection_id'] == weather['created_refs']['reflection_id']
    assert before['facts'] and 'live_without_reflection' not in before['inbox']
    desk.skip(2 * 3600 - 60)                    # a minute before: still in force
    assert read_backs()['brief'] == before['brief']
    desk.skip(120)                              # a minute after: burnt
    after = read_backs()
    assert after['brief']['reflection_id'] == older['created_refs']['reflection_id']
    assert '她今天很累' not in str(after) and after['etag'] != before['etag']
    assert after['facts'] is False and 'live_without_reflection' in after['inbox']
    again = desk.ok('reflect_on_teaching', pair_id=pair, lesson_id=lessons[2], **REFLECTION)
    assert again['recent_attributions'] == {'explanation': 2}
    assert desk.store.one("SELECT count(*) FROM reflection WHERE main_attribution = "
                          "'weather'")[0] == 0          # burnt, not only hidden


@pytest.mark.parametrize('expiry', ['2026-12-01T09:00:00', '2026-11-30T08:00:00+00:00',
                                    '2026-11-30T16:59:59+08:00', 'tomorrow'])
def test_a_weather_expiry_is_a_future_instant_with_its_offset(desk, expiry):
    pair, lessons = taught_pair(desk)
    desk.refused('reflect_on_teaching', 'VALIDATION', pair_id=pair, lesson_id=lessons[0],
                 **WEATHER, weather_expires_at=expiry)
    assert desk.store.one('SELECT count(*) FROM reflection')[0] == 0
