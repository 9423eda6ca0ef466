"""The crisis check's folded copy: one table for a text of many runs reads as NFKC does."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_skills.coordinator.folding import LONGEST, RUNS, Folding

KEPT = '，：（）！？'          # full-width punctuation a lexicon allows as it is


@pytest.fixture(scope='module')
def folding():
    return Folding(KEPT)


def by_hand(char: str) -> str:
    if char in KEPT:
        return char
    if 0xD800 <= ord(char) <= 0xDFFF:
        return '\ufffd'
    folded = unicodedata.normalize('NFKC', char)
    return ' ' if len(folded) > LONGEST else folded


FOLDED = st.sampled_from(['Ａ', 'ｚ', '①', 'ﬁ', 'ﬃ', '㍱', '\ufdfa', '𝐬', '𝟏', '丽', '\ud800',
                          '（', '：', 'é', '想', 'a', ' ', '\u200b', '死', '😀'])


@settings(max_examples=200, deadline=None)
@given(st.lists(FOLDED, max_size=40))
def test_a_text_of_many_runs_is_folded_character_by_character(folding, chars):
    """Past RUNS runs (each character apart from the next), the table's fold is each
    character's NFKC (a space when longer than LONGEST, U+FFFD for a lone surrogate)."""
    spaced = 'x'.join(chars)
    text = 'Ａx' * (RUNS + 1) + spaced
    expected = ('ax' * (RUNS + 1) + 'x'.join(by_hand(c) for c in chars)).lower()
    assert folding(text) == expected.replace("'", '')


def test_a_few_runs_are_normalised_as_a_whole(folding):
    assert folding('Ｉ ｗａｎｔ ｔｏ ｄｉｅ') == 'i want to die'
    assert folding('e\u0301') == 'e\u0301'            # a stable letter: its mark is left alone
    assert folding("I don't") == 'i dont'


def test_a_character_nfkc_makes_long_stays_one_character(folding):
    assert folding('\ufdfa' * 1000) == ' ' * 1000
    assert folding('x\ufdfa' * (RUNS + 1)) == 'x ' * (RUNS + 1)
