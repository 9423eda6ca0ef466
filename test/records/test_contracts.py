"""Contracts (004): Class A/B only, cadence, void with consent, coverage, completion."""

from __future__ import annotations

import json

import pytest
from records_desk import CADENCE


def test_propose_writes_class_a_and_b_and_refuses_class_c(desk):
    pair = desk.pair()
    for term in ('reminder_channel', 'push', 'ical', 'email'):
        refused = desk.refused('propose_contract', 'VALIDATION', pair_id=pair, goal='g',
                               **{term: 'x'})
        assert 'Class C' in refused.error and 'at signing' in refused.error
    desk.refused('propose_contract', 'VALIDATION', pair_id=pair)           # goal is required
    made = desk.ok('propose_contract', pair_id=pair, goal='读完力学', time_range='12 周',
                   success_criteria='能独立做完习题', intensity='medium', pace='steady',
                   weekly_capacity_hours=4, preferred_time_of_day='evening', cadence=CADENCE,
                   source_material={'title': '高中物理必修一', 'reliance': 'primary',
                                    'edition_year': 2019})
    assert made['setup_status'] == 'proposed'
    row = desk.store.one('SELECT * FROM contract WHERE contract_id = ?', made['contract_id'])
    assert json.loads(row['terms'])['weekly_capacity_hours'] == 4
    assert json.loads(row['source_material'])['title'] == '高中物理必修一'
    assert row['active'] == 0


@pytest.mark.parametrize('cadence, field', [
    ({**CADENCE, 'mode': 'sometimes'}, "'mode'"),
    ({**CADENCE, 'slots': [{'weekday': 7, 'time': '19:30', 'tz': 'UTC'}]}, "'weekday'"),
    ({**CADENCE, 'slots': [{'weekday': 1, 'time': '7pm', 'tz': 'UTC'}]}, "'time'"),
    ({**CADENCE, 'reminders': 'email'}, "'reminders'"),
    ({**CADENCE, 'prep_rhythm': 'weekly'}, "'prep_rhythm'"),
    ({k: v for k, v in CADENCE.items() if k != 'reminders'}, "'reminders'"),
])
def test_a_malformed_cadence_is_refused_with_the_field(desk, cadence, field):
    pair = desk.pair()
    assert field in desk.refused('propose_contract', 'VALIDATION', pair_id=pair, goal='g',
                                 cadence=cadence).error


def test_the_cadence_is_replaced_whole_and_stamped(desk):
    pair = desk.pair()
    contract = desk.contract(pair)
    before = desk.store.one('SELECT updated_at FROM contract WHERE contract_id = ?', contract)
    updated = desk.ok('update_contract_cadence', pair_id=pair, contract_id=contract,
                      cadence={'mode': 'fragmented', 'reminders': 'none', 'prep_rhythm': 'batch'})
    assert updated['cadence'] == {'mode': 'fragmented', 'slots': [], 'reminders': 'none',
                                  'auto_duty': False, 'prep_rhythm': 'batch',
                                  'updated_at': updated['updated_at']}   # the slots are gone
    row = desk.store.one('SELECT cadence, updated_at FROM contract WHERE contract_id = ?',
                         contract)
    assert json.loads(row['cadence']) == updated['cadence']
    assert row['updated_at'] == updated['updated_at'] > before['updated_at']


def test_only_a_signed_contract_in_force_changes_its_cadence(desk):
    pair = desk.pair()
    proposed = desk.contract(pair, establish=False)
    assert 'not signed yet' in desk.refused('update_contract_cadence', 'CONFLICT', pair_id=pair,
                                            contract_id=proposed, cadence=CADENCE).error


def test_void_needs_consent_keeps_the_row_and_replays_unchanged(desk):
    pair = desk.pair()
    contract = desk.contract(pair)
    desk.refused('void_contract', 'VALIDATION', pair_id=pair, contract_id=contract, reason='r')
    voided = desk.ok('void_contract', pair_id=pair, contract_id=contract, reason='换目标了',
                     learner_consent='好的，作废吧')
    replay = desk.ok('void_contract', pair_id=pair, contract_id=contract, reason='另一个理由',
                     learner_consent='嗯')
    assert replay['replayed'] and replay['void_reason'] == '换目标了'
    assert replay['voided_at'] == voided['voided_at']
    row = desk.store.one('SELECT * FROM contract WHERE contract_id = ?', contract)
    assert (row['active'], row['void_reason'], row['learner_consent']) == (0, '换目标了',
                                                                           '好的，作废吧')


def test_coverage_deduplicates_checks_ownership_and_freezes_at_completion(desk):
    pair = desk.pair()
    contract = desk.contract(pair)
    course = desk.course(pair, planned=1)
    desk.refused('update_contract_coverage', 'VALIDATION', pair_id=pair, contract_id=contract)
    twice = desk.ok('update_contract_coverage', pair_id=pair, contract_id=contract,
                    add_course_ids=[course, course])
    again = desk.ok('update_contract_coverage', pair_id=pair, contract_id=contract,
                    add_course_ids=[course])
    assert twice['covered_course_ids'] == again['covered_course_ids'] == [course]
    desk.refused('update_contract_coverage', 'NOT_FOUND', pair_id=pair, contract_id=contract,
                 add_course_ids=['co_nope'])
    other = desk.pair('l2', '王芳')
    foreign = desk.course(other)
    desk.refused('update_contract_coverage', 'NOT_FOUND', pair_id=pair, contract_id=contract,
                 add_course_ids=[foreign])
    desk.refused('update_contract_coverage', 'NOT_FOUND', pair_id=other, contract_id=contract,
                 add_course_ids=[foreign])                   # another pair's contract
    desk.lesson(pair, course, progress='completed_declared')
    desk.ok('complete_contract', pair_id=pair, contract_id=contract, completion_note='结业')
    assert 'frozen' in desk.refused('update_contract_coverage', 'CONFLICT', pair_id=pair,
                                    contract_id=contract, remove_course_ids=[course]).error


def test_create_course_with_a_contract_joins_its_coverage(desk):
    pair = desk.pair()
    contract = desk.contract(pair)
    course = desk.course(pair, contract)
    assert [r['course_id'] for r in desk.store.all('SELECT course_id FROM coverage')] == [course]
    proposed = desk.contract(pair, establish=False)
    desk.refused('create_course', 'CONFLICT', pair_id=pair, title='t', contract_id=proposed)
    assert desk.store.one('SELECT count(*) AS n FROM course')['n'] == 1   # no orphan course
    desk.refused('create_course', 'VALIDATION', pair_id=pair, title='t', planned_lesson_count=0)


def test_completion_gives_a_structured_shortfall(desk):
    pair = desk.pair()
    contract = desk.contract(pair)
    refused = desk.refused('complete_contract', 'CONFLICT', pair_id=pair, contract_id=contract,
                           completion_note='结业')
    assert refused.result['shortfall'] == {'covered_course_ids': []}
    unplanned = desk.course(pair, contract, planned=None)
    planned = desk.course(pair, contract, planned=3)
    read = desk.lesson(pair, planned, progress='completed_declared')
    unread = desk.lesson(pair, planned, progress='in_progress')
    desk.lesson(pair, planned, publish=False)                    # a draft does not count
    courses = desk.refused('complete_contract', 'CONFLICT', pair_id=pair, contract_id=contract,
                           completion_note='结业').result['shortfall']['courses']
    assert courses == [
        {'course_id': unplanned, 'title': '力学', 'missing_planned_count': True},
        {'course_id': planned, 'title': '力学',
         'below_planned_count': {'planned': 3, 'published': 2, 'missing': 1},
         'lessons_not_finished': [{'lesson_id': unread, 'title': '牛顿第一定律',
                                   'progress': 'in_progress'}]}]
    assert read not in str(courses)


def test_completion_succeeds_then_replays_the_original_note(desk):
    pair = desk.pair()
    contract = desk.contract(pair)
    course = desk.course(pair, contract, planned=1)
    desk.lesson(pair, course, progress='completed_declared')
    done = desk.ok('complete_contract', pair_id=pair, contract_id=contract,
                   completion_note='三个月，你把力学从公式读成了世界。')
    replay = desk.ok('complete_contract', pair_id=pair, contract_id=contract,
                     completion_note='完成了')
    assert replay == {**done, 'replayed': True}
    desk.refused('void_contract', 'CONFLICT', pair_id=pair, contract_id=contract, reason='r',
                 learner_consent='好')


@pytest.mark.parametrize('state', ['proposed', 'voided'])
def test_completion_needs_a_contract_in_force(desk, state):
    pair = desk.pair()
    contract = desk.contract(pair, establish=state != 'proposed')
    if state == 'voided':
        desk.ok('void_contract', pair_id=pair, contract_id=contract, reason='r',
                learner_consent='好')
    refused = desk.refused('complete_contract', 'CONFLICT', pair_id=pair, contract_id=contract,
                           completion_note='结业')
    assert refused.result['shortfall']['state'] == ('not signed yet' if state == 'proposed'
                                                    else 'voided')


KNOBS = {'intensity': 'high', 'interaction_mode': 'socratic', 'content_modality': 'text',
         'pace': 'slow', 'weekly_capacity_hours': 2.5, 'preferred_time_of_day': 'morning'}


@pytest.mark.parametrize('knob', sorted(KNOBS))
def test_signing_may_turn_each_class_b_knob(desk, knob):
    pair = desk.pair()
    contract = desk.ok('propose_contract', pair_id=pair, goal='读完力学', intensity='medium',
                       pace='steady', weekly_capacity_hours=4, cadence=CADENCE)['contract_id']
    signed = desk.ok('establish_contract', pair_id=pair, contract_id=contract,
                     **{knob: KNOBS[knob]})
    assert signed['adjusted'] == [knob] and signed['terms'][knob] == KNOBS[knob]
    terms = json.loads(desk.store.one('SELECT terms FROM contract')['terms'])
    proposed = {'goal': '读完力学', 'intensity': 'medium', 'pace': 'steady',
                'weekly_capacity_hours': 4, 'title': ''}
    assert terms == {**proposed, knob: KNOBS[knob]}            # the rest as proposed


def test_signing_turns_knobs_and_cadence_and_records_her_class_c(desk):
    pair = desk.pair()
    contract = desk.contract(pair, establish=False)
    cadence = {'mode': 'fragmented', 'reminders': 'native', 'auto_duty': False}
    signed = desk.ok('establish_contract', pair_id=pair, contract_id=contract, **KNOBS,
                     cadence=cadence, class_c={'reminder_channels': ['ical', 'email']})
    assert sorted(signed['adjusted']) == sorted([*KNOBS, 'cadence'])
    row = desk.store.one('SELECT * FROM contract WHERE contract_id = ?', contract)
    assert json.loads(row['class_c']) == {'reminder_channels': ['ical', 'email']}
    assert json.loads(row['cadence']) == {**cadence, 'slots': []}
    assert json.loads(row['terms']) == {'goal': '三个月读完高一力学', 'title': '', **KNOBS}
    assert (row['setup_status'], row['active']) == ('established', 1)
    replay = desk.ok('establish_contract', pair_id=pair, contract_id=contract, **KNOBS,
                     class_c={'reminder_channels': ['ical', 'email']})
    assert replay['replayed'] and replay['established_at'] == signed['established_at']
    changed = desk.refused('establish_contract', 'CONFLICT', pair_id=pair, contract_id=contract,
                           pace='fast')
    assert 'signed already' in changed.error
    desk.refused('establish_contract', 'CONFLICT', pair_id=pair, contract_id=contract,
                 class_c={'reminder_channels': ['push']})
    assert json.loads(desk.store.one('SELECT terms FROM contract')['terms'])['pace'] == 'slow'


@pytest.mark.parametrize('args', [
    {'goal': '换个目标'}, {'time_range': '一年'}, {'success_criteria': '随便'},
    {'reminder_channels': ['push']},                      # Class C goes in class_c
    {'class_c': {'reminder_channels': ['pigeon']}},
    {'class_c': {'reminder_channels': ['push', 'push']}},
    {'class_c': {'reminder_channels': ['push'], 'channel_time': '08:00'}},
    {'weekly_capacity_hours': 0}, {'pace': ''},
])
def test_signing_changes_no_class_a_term_and_only_known_choices(desk, args):
    pair = desk.pair()
    contract = desk.contract(pair, establish=False)
    desk.refused('establish_contract', 'VALIDATION', pair_id=pair, contract_id=contract, **args)
    assert desk.store.one('SELECT setup_status FROM contract')['setup_status'] == 'proposed'


def test_signing_without_knobs_keeps_the_proposal_and_no_reminders_is_a_choice(desk):
    pair = desk.pair()
    contract = desk.contract(pair, establish=False)
    signed = desk.ok('establish_contract', pair_id=pair, contract_id=contract,
                     class_c={'reminder_channels': []})
    assert signed['adjusted'] == [] and signed['cadence'] == CADENCE | {'auto_duty': False}
    assert json.loads(desk.store.one('SELECT class_c FROM contract')['class_c']) == {
        'reminder_channels': []}
    still = desk.contract(pair, establish=False)
    assert desk.ok('establish_contract', pair_id=pair, contract_id=still)['class_c'] is None
