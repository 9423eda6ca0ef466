"""The crisis check's folded copy: one table for a text of many runs reads as NFKC does."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_skills.coordinator.folding import LONGEST, Folding

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


FOLDED = st.sampled_from(['\u0341', 'ｌ', '℃', 'Ａ', 'ｚ', '①', 'ﬁ', 'ﬃ', '㍱', '\ufdfa', '𝐬', '𝟏', '丽', '\ud800',
                          '（', '：', 'é', '想', 'a', ' ', '\u200b', '死', '😀'])


@settings(max_examples=300, deadline=None)
@given(st.lists(FOLDED, max_size=40))
def test_each_character_is_folded_on_its_own(folding, chars):
    """Each character's NFKC (a space when longer than LONGEST, U+FFFD for a lone
    surrogate), never a sequence's: a mark after a letter stays a mark."""
    text = ''.join(chars)
    assert folding(text) == ''.join(by_hand(c) for c in text).lower().replace("'", '')


def test_a_mark_never_joins_the_letter_before_it(folding):
    """NFKC of "ｌ" + U+0341 as a sequence is "ĺ", which would hide "kill"."""
    assert folding('ｋｉｌｌ\u0341 myself') == 'kill\u0301 myself'
    assert folding('Ｉ ｗａｎｔ ｔｏ ｄｉｅ') == 'i want to die'
    assert folding("I don't") == 'i dont'


def test_a_character_nfkc_makes_long_stays_one_character(folding):
    assert folding('\ufdfa' * 1000) == ' ' * 1000
    assert folding('ﬃ℃') == 'ffi°c'
