"""Reading utterances: numerals, dashes, floors, the wake word."""

from __future__ import annotations

import pytest

from robot_skills.wayfinding.text import floors_mentioned, normalise, room_numbers, strip_wake_word


@pytest.mark.parametrize('said, number', [
    ('503', '5-03'), ('5杠03', '5-03'), ('5-03', '5-03'), ('5 03', '5-03'), ('五零三', '5-03'),
    ('五百零三', '5-03'), ('5-03B1112', '5-03'), ('5－03', '5-03'), ('5—03', '5-03'),
    ('５０３', '5-03'), ('3 - 01', '3-01'), ('三零一', '3-01'), ('五杠零三', '5-03'), ('〇', None),
    ('12345', None), ('B1112', None), ('S-1', None), ('N杠2', None), ('2楼', None),
])
def test_room_numbers_in_every_form(said, number):
    found = room_numbers(normalise(said))
    assert (found[0].number if found else None) == number


def test_a_room_number_is_spoken_with_gang():
    (number,) = room_numbers(normalise('3—01'))
    assert number.spoken == '3杠01' and number.floor == 3


@pytest.mark.parametrize('said, floor', [('二层', 2), ('2层', 2), ('二楼', 2), ('2楼', 2), ('第二层', 2),
                                         ('六楼', 6), ('七楼', 7), ('十一层', 11), ('第1层', 1),
                                         ('两楼', 2), ('楼梯', None), ('大楼', None), ('几层', None),
                                         ('四21层', None)])
def test_floors_in_any_range(said, floor):
    found = floors_mentioned(said)
    assert (found[0][0] if found else None) == floor


@pytest.mark.parametrize('said, left', [
    ('小范小范，贝旺路怎么走', '贝旺路怎么走'), ('小范小范', ''), ('贝旺路', '贝旺路'),
    ('小帆小帆 初心', '初心'), ('请问小范小范贝旺路', '请问贝旺路'), ('  小范小范。。', ''),
])
def test_the_wake_word_is_removed_even_as_asr_spells_it(said, left):
    assert strip_wake_word(said, '小范小范') == left
