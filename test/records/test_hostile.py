"""Issue 12 reproduced against learning_records: deep JSON and numbers beyond 64 bits are refused
by field and write nothing; over ROS the node answers and goes on."""

from __future__ import annotations

import json

import pytest
from hostile import ids, json_texts, per_node, texts
from hypothesis import given
from hypothesis import strategies as st
from rclpy.parameter import Parameter
from records_ros import Client

from robot_skills.records.api import TOOLS
from robot_skills.records.node import LearningRecords
from robot_skills_interfaces.srv import RecordsCall

HUGE = 2 ** 63
CODES = ('VALIDATION', 'NOT_FOUND', 'CONFLICT', 'PERMISSION', 'UNAVAILABLE')


def _pair(desk) -> str:
    desk.ok('register_learner', learner_id='l1', display_name='林小雨')
    return desk.ok('create_pair', learner_id='l1', learner_display_name='林小雨', provider='p',
                   model='m', display_name='小智')['pair_id']


def _count(desk) -> int:
    tables = [r[0] for r in desk.store.all("SELECT name FROM sqlite_master WHERE type='table'")]
    return sum(desk.store.one(f'SELECT count(*) AS n FROM "{t}"')['n'] for t in tables)


@pytest.mark.parametrize('tool, arguments, field', [
    ('live_wait', {'since': HUGE}, 'args_json.since'),
    ('live_wait', {'since': '99999999999999999999'}, 'args_json.since'),
    ('adhoc_thread_get', {'after_message_id': HUGE}, 'args_json.after_message_id'),
    ('adhoc_thread_get', {'after_message_id': -HUGE - 1}, 'args_json.after_message_id'),
    ('live_wait', {'timeout_s': float('nan')}, 'args_json.timeout_s'),
    ('live_wait', {'timeout_s': float('inf')}, 'args_json.timeout_s'),
    ('create_course', {'title': 'x', 'planned_lesson_count': HUGE * 4}, 'args_json.planned'),
])
def test_numbers_no_store_can_hold_are_refused_by_field(desk, tool, arguments, field):
    _pair(desk)
    before = _count(desk)
    refused = desk.records.call(tool, arguments)
    assert (refused.ok, refused.code) == (False, 'VALIDATION')
    assert refused.field.startswith(field) and field in refused.error
    assert _count(desk) == before


@pytest.mark.parametrize('text', ['[' * 1000, '{"a":' * 1000 + '1' + '}' * 1000,
                                  '{"pair_id": "\\ud800"}', '{"since": NaN}'])
def test_deep_or_malformed_json_is_refused_and_writes_nothing(desk, text):
    _pair(desk)
    before = _count(desk)
    refused = desk.records.call('live_wait', text)
    assert (refused.ok, refused.code) == (False, 'VALIDATION') and refused.field.startswith(
        'args_json')
    assert _count(desk) == before


def test_the_node_answers_hostile_calls_and_the_next_one(ros, tmp_path):
    ros.add(LearningRecords, parameter_overrides=[
        Parameter('store_path', value=str(tmp_path / 'r.sqlite3'))])
    client = Client(ros)
    for tool, args in (('live_wait', '[' * 1000), ('adhoc_thread_get',
                                                   json.dumps({'after_message_id': HUGE})),
                       ('create_pair', '{"learner_id": 1e999}'), ('x' * 5000, '{}')):
        answer = client.ros.wait(client.client.call_async(RecordsCall.Request(
            tool=tool, args_json=args)))
        assert (answer.ok, answer.code) == (False, 'VALIDATION')
    for args in ('{"learner_id": 1e999}', json.dumps({'learner_id': 'l1',
                                                     'display_name': '林小雨'})):
        refused = ros.wait(client.client.call_async(RecordsCall.Request(
            tool='register_learner', args_json=args)))     # her name is her own act: refused
        assert (refused.ok, refused.code) == (False, 'PERMISSION')   # before its arguments
    her = client.learner('l1')
    for tool, args in (('adhoc_learner_send', '[' * 1000),
                       ('register_learner', '{"learner_id": 1e999}'), ('x' * 5000, '{}')):
        answer = ros.wait(her.client.call_async(her.request(tool, args)))
        assert (answer.ok, answer.code) == (False, 'VALIDATION')
    assert her.call('register_learner', learner_id='l1', display_name='林小雨').ok
    traced = [json.loads(e.detail_json) for e in client.events.messages if e.kind == 'call']
    assert all('error' not in t for t in traced)
    states = [e.state for e in client.events.messages if e.kind == 'call']
    assert 'x' * 50 not in ''.join(states)


@pytest.mark.parametrize('side', ['agent', 'learner', 'operator'])
def test_hostile_calls_are_answered_write_nothing_when_refused_and_the_node_goes_on(ros,
                                                                                  tmp_path,
                                                                                  side):
    """Any tool, any arguments, on each role's service (the learner's as a learner who has
    a pair and as one who has none): answered, nothing written when refused, and the next
    call is answered."""
    node = ros.add(LearningRecords, parameter_overrides=[
        Parameter('store_path', value=str(tmp_path / 'r.sqlite3'))])
    client = Client(ros)
    client.learner('l1').ok('register_learner', learner_id='l1', display_name='林小雨')
    client.ok('create_pair', learner_id='l1', learner_display_name='林小雨', provider='p',
              model='m', display_name='小智')
    sides = {'agent': [client], 'learner': [client.learner('l1'), client.learner('l2')],
             'operator': [client.operator]}[side]
    names = st.sampled_from(sorted(TOOLS))
    fields = {'learner_id': ids(), 'pair_id': ids(), 'since': st.integers(-2 ** 70, 2 ** 70),
              'after_message_id': st.integers(-2 ** 70, 2 ** 70), 'timeout_s': st.floats(),
              'title': texts(), 'text': texts(), 'position': st.integers(-2 ** 70, 2 ** 70)}
    learners = iter(range(10 ** 6))

    @per_node
    @given(st.sampled_from(sides), st.one_of(names, texts(40)), json_texts(fields))
    def call(caller, tool, args):
        before = _count_rows(node)
        answer = ros.wait(caller.client.call_async(caller.request(tool, args)), timeout=60.0)
        assert answer.ok or (answer.code in CODES and _count_rows(node) == before)
        probe = f'p{next(learners)}'                              # the next call is answered
        assert client.learner(probe).call('register_learner', learner_id=probe,
                                          display_name='探针').ok

    call()
    assert not [e for e in client.events.messages if e.kind == 'error']


def _count_rows(node) -> int:
    store = node.store
    tables = [r[0] for r in store.all("SELECT name FROM sqlite_master WHERE type='table'")]
    return sum(store.one(f'SELECT count(*) AS n FROM "{t}"')['n'] for t in tables)
