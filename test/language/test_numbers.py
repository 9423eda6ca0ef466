"""Numerals a learner writes: read when a person means a count, never at any length."""

from __future__ import annotations

import pytest

from robot_skills.language.text import LONGEST_NUMERAL, MAX_NUMBER, number


@pytest.mark.parametrize('numeral, value', [
    ('12', 12), ('十二', 12), ('两', 2), ('半', 0.5), ('九十九万九千九百九十九', 999_999),
    ('3.5', 3.5), (str(MAX_NUMBER), MAX_NUMBER),
])
def test_a_count_a_person_means_is_read(numeral, value):
    assert number(numeral) == value


@pytest.mark.parametrize('numeral', [
    '9' * 400, str(MAX_NUMBER + 1), '一二三四五六七八九' * 600, '十' * (LONGEST_NUMERAL + 1), '个',
])
def test_noise_is_no_number(numeral):
    """Past ``MAX_NUMBER`` or ``LONGEST_NUMERAL`` characters a numeral is noise (cn2an's time
    grows with the square of its length: 5,000 numerals took 66 ms in a routed request)."""
    assert number(numeral) is None
