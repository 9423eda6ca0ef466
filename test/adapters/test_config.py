"""Data files are validated with errors that name the file, the entry and the field."""

import pytest
from pydantic import BaseModel

from robot_skills.adapters.config import ConfigError, load, parse


class Room(BaseModel):
    name: str
    floor: int
    route: str


class Building(BaseModel):
    rooms: list[Room]


def test_a_valid_file_loads(tmp_path):
    path = tmp_path / 'b.yaml'
    path.write_text('rooms:\n  - {name: 初心, floor: 3, route: 右转}\n', encoding='utf-8')
    assert load(path, Building).rooms[0].name == '初心'


def test_error_names_file_entry_label_and_field(tmp_path):
    path = tmp_path / 'b.yaml'
    path.write_text('rooms:\n  - {name: 初心, floor: 3, route: 右转}\n'
                    '  - {name: 北冥, floor: three}\n', encoding='utf-8')
    with pytest.raises(ConfigError) as caught:
        load(path, Building)
    message = str(caught.value)
    assert f"{path}: entry rooms[1] (name '北冥'), field 'floor'" in message
    assert f"{path}: entry rooms[1] (name '北冥'), field 'route': Field required" in message
    assert len(caught.value.problems) == 2


def test_missing_file_and_bad_yaml_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match='cannot read'):
        load(tmp_path / 'absent.yaml', Building)
    with pytest.raises(ConfigError, match='not valid YAML'):
        parse('rooms: [', Building, 'x.yaml')
    with pytest.raises(ConfigError, match='not valid JSON'):
        parse('{', Building, 'x.json')


def test_an_empty_file_reports_the_missing_top_level_field():
    with pytest.raises(ConfigError, match="x.yaml: field 'rooms': Field required"):
        parse('', Building, 'x.yaml')


def test_a_wrong_top_level_type_is_reported():
    with pytest.raises(ConfigError, match='x.yaml: top level'):
        parse('- 1\n- 2\n', Building, 'x.yaml')
