"""The building file is the document's data, verbatim, and bad files are refused by name."""

from __future__ import annotations

import re

import pytest
from config_files import refusal, seed, shipped

from robot_skills.wayfinding.building import Building


@pytest.fixture(scope='module')
def document() -> str:
    return seed('001_83b9583f01629411.txt')


def _document_locations(text: str) -> dict[str, tuple[str, str]]:
    pattern = re.compile(r'- 正式名称：(\S+)\ndirection：(\w+)\nroute：(.+)')
    return {name: (direction, route) for name, direction, route in pattern.findall(text)}


def _document_public_areas(text: str) -> dict[str, tuple[str, str]]:
    template = text.split('【三至五层公共区域模板】')[1].split('【')[0]
    pattern = re.compile(r'\d+\. (\S+)\ndirection：(\w+)\n基础路线：(.+)')
    return {name: (direction, route) for name, direction, route in pattern.findall(template)}


def test_every_location_of_the_document_is_in_the_file_verbatim(document, building):
    expected = _document_locations(document)
    assert len(expected) == 28
    found = {loc.formal_name: (loc.direction, loc.route) for loc in building.locations}
    assert found == expected


def test_every_public_area_of_the_template_is_in_the_file_verbatim(document, building):
    expected = _document_public_areas(document)
    assert len(expected) == 10
    found = {a.name: (a.direction, a.route) for a in building.public_areas.areas}
    assert found == expected
    assert building.public_areas.floors == [3, 4, 5]
    assert building.public_areas.other_floor_prefix == '您出电梯后，'


def test_fixed_answers_and_phrases_are_the_documents(document, building):
    tea = next(g for g in building.combined if g.key == 'tea')
    for answer in tea.fixed.values():
        assert f'"{answer}"' in document
    for absent in building.absent:
        assert f'"{absent.answer}"' in document
    phrases = building.phrases
    for phrase in (phrases.stop, phrases.clarify_any):
        assert phrase in document
    assert phrases.unknown in document
    assert phrases.other_floor.replace('{floor}', '{楼层}') in document
    assert phrases.home_floor in document
    assert phrases.clarify_floor.replace('{floor}', '{楼层}') in document
    assert phrases.clarify_name.replace('{name}', '{名称}') in document
    assert building.wake_word in document and building.home_floor == 5
    for phrase in building.stop_phrases:
        assert f'- {phrase}' in document


def test_synonym_lists_are_the_documents(document, building):
    groups = {g.key: g for g in building.combined}
    for word in groups['tea'].triggers:
        assert f'- {word}\n' in document
    assert groups['talk'].triggers == ['洽谈间', '洽谈室', '洽谈区']
    assert groups['print'].triggers == ['打印区', '打印机', '哪里打印']
    assert groups['talk'].areas == ['talk_1', 'talk_2', 'talk_3']
    assert groups['print'].areas == ['print_s1', 'print_n2']


def test_floor_forms_are_the_documents(document, building):
    for floor in building.floors:
        assert '、'.join(floor.forms) in document


def _shipped() -> dict:
    return shipped('wayfinding/building.yaml')


def _refused(data: dict) -> str:
    return refusal(data, Building, 'building.yaml')


def test_a_bad_direction_is_named_by_entry_and_field():
    data = _shipped()
    data['locations'][2]['direction'] = 'up'
    assert "building.yaml: entry locations[2] (formal_name '3-01初心'), field 'direction'" in \
        _refused(data)


def test_a_missing_route_is_named():
    data = _shipped()
    del data['locations'][0]['route']
    assert "entry locations[0] (formal_name '二层会议室'), field 'route': Field required" in \
        _refused(data)


@pytest.mark.parametrize('index, route, problem', [
    (2, '穿过前方茶水区后左转', 'a route on another floor must start with 您出电梯后'),
    (16, '您出电梯后，穿过前方茶水区', 'a route on the home floor must not start with 您出电梯后'),
])
def test_lift_exit_rule_is_checked_on_the_data(index, route, problem):
    data = _shipped()
    data['locations'][index]['route'] = route
    assert problem in _refused(data)


def test_names_never_to_be_said_cannot_enter_the_data():
    data = _shipped()
    data['locations'][18]['aliases'] = ['品尚居']
    assert "location '5-03B1112' contains '品尚居', which must never be said" in _refused(data)


def test_a_number_must_agree_with_the_formal_name_and_floor():
    data = _shipped()
    data['locations'][2]['number'] = '4-01'
    assert "number '4-01' must start the formal name and the floor" in _refused(data)


def test_duplicate_names_unknown_areas_and_floors_are_refused():
    data = _shipped()
    data['locations'].append(dict(data['locations'][2]))
    data['combined'][1]['areas'] = ['talk_1', 'talk_9']
    data['home_floor'] = 9
    message = _refused(data)
    assert "formal_name '3-01初心' appears twice" in message
    assert "combined talk: unknown area 'talk_9'" in message
    assert 'home_floor 9 is not among the floors' in message
