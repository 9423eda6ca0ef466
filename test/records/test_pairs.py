"""Pairs (004): the learner's own name, verbatim; one active pair; the agent's three facts."""

from __future__ import annotations

import pytest


def test_a_pair_needs_the_learner_to_have_registered_first(desk):
    refused = desk.refused('create_pair', 'CONFLICT', learner_id='l1',
                           learner_display_name='林小雨', provider='p', model='m',
                           display_name='小智')
    assert 'first-run page' in refused.error and 'never fill it in' in refused.error


@pytest.mark.parametrize('typed', ['林小雨 ', '林小語', 'lin xiaoyu', '小雨', '林 小雨'])
def test_the_name_must_match_character_for_character(desk, typed):
    desk.ok('register_learner', learner_id='l1', display_name='林小雨')
    refused = desk.refused('create_pair', 'VALIDATION', learner_id='l1',
                           learner_display_name=typed, provider='p', model='m',
                           display_name='小智')
    assert 'character for character' in refused.error


def test_a_second_active_pair_is_refused_with_the_existing_one(desk):
    pair = desk.pair()
    refused = desk.refused('create_pair', 'CONFLICT', learner_id='l1',
                           learner_display_name='林小雨', provider='p', model='m',
                           display_name='另一个')
    assert refused.result['shortfall']['existing_pair_id'] == pair
    assert pair in refused.error


def test_the_agent_states_provider_model_and_display_name(desk):
    desk.ok('register_learner', learner_id='l1', display_name='林小雨')
    for missing in ('provider', 'model', 'display_name'):
        args = {'learner_id': 'l1', 'learner_display_name': '林小雨', 'provider': 'p',
                'model': 'm', 'display_name': '小智'}
        del args[missing]
        assert f"field '{missing}'" in desk.refused('create_pair', 'VALIDATION', **args).error
    made = desk.ok('create_pair', learner_id='l1', learner_display_name='林小雨', provider='p',
                   model='m', display_name='小智')
    assert made['agent'] == {'provider': 'p', 'model': 'm', 'display_name': '小智'}


def test_registration_is_the_learner_s_and_idempotent(desk):
    desk.ok('register_learner', learner_id='l1', display_name='林小雨')
    assert desk.ok('register_learner', learner_id='l1', display_name='林小雨')['registered'] == \
        'already'
    desk.refused('register_learner', 'CONFLICT', learner_id='l1', display_name='别的名字')


def test_a_call_without_pair_id_uses_the_one_active_pair(desk):
    assert 'no active pair' in desk.refused('propose_contract', 'VALIDATION', goal='g').error
    first = desk.pair()
    assert desk.ok('propose_contract', goal='g')['contract_id']
    desk.pair('l2', '王芳')
    refused = desk.refused('propose_contract', 'VALIDATION', goal='g')
    assert '2 pairs are active' in refused.error
    assert refused.result['shortfall']['available_pairs'][0] == first
    unknown = desk.refused('propose_contract', 'NOT_FOUND', pair_id='nope', goal='g')
    assert unknown.result['shortfall']['available_pairs']


@pytest.mark.parametrize('arguments, message', [
    ('not json', 'args_json: not valid JSON'),
    ('[1, 2]', 'args_json: must be a JSON object, not an array'),
    ('[' * 1000, 'args_json: nested deeper than 32 levels'),
    ('{"learner_id": "l1", "display_name": "林", "n": 9223372036854775808}',
     'args_json.n: integer beyond the signed 64-bit range'),
    ('{"learner_id": "l1", "display_name": NaN}', 'NaN is not a JSON number'),
    ('{"learner_id": "l1", "display_name": "林", "extra": 1}', "field 'extra'"),
    ('{"learner_id": "", "display_name": "林"}', "field 'learner_id'"),
])
def test_malformed_arguments_are_validation_errors(desk, arguments, message):
    result = desk.records.call('register_learner', arguments)
    assert (result.ok, result.code) == (False, 'VALIDATION') and message in result.error


def test_an_unknown_tool_lists_the_tools(desk):
    result = desk.records.call('drop_tables', {})
    assert result.code == 'VALIDATION' and 'create_pair' in result.error
