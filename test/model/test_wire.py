"""The one parser for text from the wire: every hostile shape is refused by field, never raised."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from robot_skills.model import wire
from robot_skills.model.wire import INT64_MAX, INT64_MIN, Limits, WireError


@pytest.mark.parametrize('field, text, problem', [
    ('args_json', '[' * 1000, 'args_json: nested deeper than 32 levels'),
    ('args_json', '[' * 200_000, 'args_json: 200,000 characters; at most 100,000'),
    ('args_json', '[' * 90_000, 'args_json: nested deeper than 32 levels'),
    ('args_json', '{"a":' * 40 + '1' + '}' * 40, 'nested deeper than 32 levels'),
    ('args_json', '{"record_id": 9223372036854775808}',
     'args_json.record_id: integer beyond the signed 64-bit'),
    ('args_json', '{"since": -9223372036854775809}', 'args_json.since: integer beyond'),
    ('args_json', '{"a": [1, {"b": 1e400}]}', 'args_json.a[1].b: number is not finite'),
    ('args_json', '[NaN]', 'NaN is not a JSON number'),
    ('args_json', '{"x": -Infinity}', '-Infinity is not a JSON number'),
    ('args_json', '"\\ud800"', 'text holds an unpaired surrogate'),
    ('args_json', '{"\\udfff": 1}', 'text holds an unpaired surrogate'),
    ('args_json', '9' * 5000, 'not valid JSON: number too long'),
    ('args_json', '{"a": 1', 'not valid JSON at line 1, column 8'),
    ('args_json', '', 'not valid JSON'),
    ('material_yaml', 'a: &x [1]\nb: *x', 'anchors and aliases are not accepted'),
    ('material_yaml', '- ' * 1000 + '1', 'nested deeper than 32 levels'),
    ('material_yaml', '[' * 5000, 'nested deeper than 32 levels'),
    ('material_yaml', 'a: .nan', 'material_yaml.a: number is not finite'),
    ('material_yaml', 'a: 99999999999999999999', 'material_yaml.a: integer beyond'),
    ('material_yaml', 'a: [1, 2', 'not valid YAML at line 1'),
    ('material_yaml', 'a: !!python/object:os.system ls', 'not valid YAML'),
    ('material_yaml', 'a: "\x01"', 'not valid YAML'),
])
def test_hostile_text_is_refused_naming_the_field(field, text, problem):
    read = wire.json_value if field == 'args_json' else wire.yaml_value
    with pytest.raises(WireError) as refused:
        read(text, field)
    assert problem in str(refused.value)


def test_the_limits_hold_exactly_at_their_edges():
    deepest = '[' * 32 + ']' * 32
    assert wire.json_value(deepest, 'f') is not None
    with pytest.raises(WireError, match='deeper than 32'):
        wire.json_value('[' + deepest + ']', 'f')
    assert wire.json_value(f'[{INT64_MAX}, {INT64_MIN}]', 'f') == [INT64_MAX, INT64_MIN]
    assert wire.json_value('"' + 'x' * 10 + '"', 'f', Limits(max_chars=12)) == 'x' * 10
    with pytest.raises(WireError, match='13 characters; at most 12'):
        wire.json_value('"' + 'x' * 11 + '"', 'f', Limits(max_chars=12))
    with pytest.raises(WireError, match='more than 10 values'):
        wire.json_value(json.dumps(list(range(10))), 'f', Limits(max_nodes=10))


def test_an_object_is_an_object():
    assert wire.json_object('', 'f') == {} and wire.json_object('  ', 'f') == {}
    with pytest.raises(WireError, match='must be a JSON object, not an array'):
        wire.json_object('[1]', 'update_json')


def test_a_billion_laughs_in_a_trusted_file_is_still_bounded():
    lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    lines += [f'a{n}: &a{n} [*a{n - 1}, *a{n - 1}, *a{n - 1}, *a{n - 1}, *a{n - 1}, *a{n - 1}, '
              f'*a{n - 1}, *a{n - 1}, *a{n - 1}, *a{n - 1}]' for n in range(1, 9)]
    trusted = Limits(max_chars=10_000_000, max_depth=64, max_nodes=1_000_000, aliases=True)
    with pytest.raises(WireError, match='more than 1,000,000 values'):
        wire.yaml_value('\n'.join(lines), 'file', trusted)


def test_an_error_never_quotes_the_text():
    secret = '林晓雨的家在幸福路12号'
    for text, read in ((f'{{"a": "{secret}", "b": NaN}}', wire.json_value),
                       (f'{{"a": "{secret}"', wire.json_value),
                       (f'a: "{secret}"\nb: [', wire.yaml_value)):
        with pytest.raises(WireError) as refused:
            read(text, 'f')
        assert secret not in str(refused.value)


class Card(BaseModel):
    should_speak: bool
    count: int


def test_a_model_error_names_the_field_and_each_problem():
    with pytest.raises(WireError) as refused:
        wire.model({'should_speak': 'perhaps'}, Card, 'previous_state_card_json')
    text = str(refused.value)
    assert 'previous_state_card_json.should_speak: Input should be a valid boolean' in text
    assert 'previous_state_card_json.count: Field required' in text
    assert refused.value.field == 'previous_state_card_json' and refused.value.key == 'should_speak'
    assert refused.value.named(['should_speak']) == 'previous_state_card_json.should_speak'
    assert refused.value.named() == 'previous_state_card_json'


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30)


@given(json_values)
def test_any_value_is_accepted_or_refused_by_field_never_raised_otherwise(value):
    text = json.dumps(value)
    try:
        parsed = wire.json_value(text, 'f')
    except WireError as refused:
        assert str(refused).startswith('f')
        return
    assert parsed == value


@given(st.text(max_size=300))
def test_any_text_is_accepted_or_refused_by_field(text):
    for read in (wire.json_value, wire.yaml_value):
        try:
            read(text, 'f')
        except WireError as refused:
            assert str(refused).startswith('f')
