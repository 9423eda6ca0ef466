"""The crisis check's folded copy: one table for a text of many runs reads as NFKC does."""

from __future__ import annotations

import re
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
    if unicodedata.category(char) == 'Cf':                      # zero-width, bidi: a space
        return ' '
    if unicodedata.category(char) in ('Mn', 'Me') or (         # marks, variation selectors
            ord(char) >= 0x1F000 and unicodedata.category(char) in ('So', 'Sk')):   # emoji
        return ''
    folded = unicodedata.normalize('NFKC', char)
    many = len(folded) > 1 and not all(ord(c) < 128 for c in folded)
    return ' ' if len(folded) > LONGEST or many else folded


FOLDED = st.sampled_from(['1', '3', '@', 'k', '\u0341', 'ｌ', '℃', 'Ａ', 'ｚ', '①', 'ﬁ', 'ﬃ', '㍱', '\ufdfa', '𝐬', '𝟏', '丽', '\ud800',
                          '（', '：', 'é', '想', 'a', ' ', '\u200b', '死', '😀', '\u0336', '\u20dd',
                          '\ufe00', '\U0001d160', '㈠', '½', '…'])


@settings(max_examples=300, deadline=None)
@given(st.lists(FOLDED, max_size=40))
def test_each_character_is_folded_on_its_own(folding, chars):
    """Each character's NFKC (a space when longer than one character unless at most LONGEST
    ASCII ones, U+FFFD for a lone surrogate, nothing for a combining mark), never a
    sequence's: a mark never joins the letter before it."""
    text = ''.join(chars)
    folded = ''.join(by_hand(c) for c in text).lower().replace("'", '')
    folded = re.sub(r'(?<=[a-z])[013457@$](?=[a-z])', lambda found: LEET[found.group()], folded)
    assert folding(text) == re.sub(
        '(?<=[\u4e00-\u9fff])[ \t](?=[\u4e00-\u9fff](?![\u4e00-\u9fff]))', '', folded)


LEET = {'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's'}


def test_a_digit_between_letters_reads_as_the_letter_it_stands_for(folding):
    assert folding('i want to k1ll myself, d1e, su1c1de, h0pel3ss') == \
        'i want to kill myself, die, suicide, hopeless'
    assert folding('die!nobody') == 'die!nobody'      # a sentence end between words stays
    assert folding('3.5 kg, 10 km, 2x3') == '3.5 kg, 10 km, 2x3'      # numbers stay numbers


def test_letters_that_only_look_latin_read_as_latin():
    folding = Folding('', {'ɪ': 'i', 'ᴅ': 'd', 'ᴇ': 'e', 'і': 'i'})
    assert folding('ɪ ᴅɪᴇ, kіll') == 'i die, kill'


def test_a_mark_never_joins_the_letter_before_it(folding):
    """NFKC of "ｌ" + U+0341 as a sequence is "ĺ", which would hide "kill"; marks written
    over every letter (strikethrough) hide no word either."""
    assert folding('ｋｉｌｌ\u0341 myself') == 'kill myself'
    assert folding('k\u0336i\u0336l\u0336l\u0336 \u0336myself') == 'kill myself'
    assert folding('我想\u0336死\u20dd') == '我想死'
    assert folding('Ｉ ｗａｎｔ ｔｏ ｄｉｅ') == 'i want to die'
    assert folding("I don't") == 'i dont'


def test_a_character_nfkc_makes_long_stays_one_character(folding):
    assert folding('\ufdfa' * 1000) == ' ' * 1000
    assert folding('ﬃ℃㎏') == 'ffi kg'          # ℃ is "°C": not ASCII, a space


def test_no_text_grows_by_more_than_a_third_of_its_utf8(folding):
    """U+1D160 is three 4-byte symbols under NFKC: 100,000 of them read as 1.2 MB."""
    for code in [*range(0x1D15E, 0x1D1C1), *range(0xF900, 0xFB00), *range(0x2000, 0x3400)]:
        char = chr(code)
        assert len(folding(char * 10).encode()) <= len((char * 10).encode()) * 4 // 3, hex(code)


@pytest.mark.parametrize('text, folded', [
    ('我 不 想 活 了', '我不想活了'), ('好 想 死 啊', '好想死啊'), ('活 不 下 去。', '活不下去。'),
    ('我\t不\t想', '我不想'),
    ('不想活了 活着有什么意思', '不想活了 活着有什么意思'),     # a space that ends a clause stays
    ('hopeless 和 helpless', 'hopeless 和 helpless'), ('a 我 b', 'a 我 b'),
])
def test_han_characters_spaced_out_one_by_one_read_together(folding, text, folded):
    assert folding(text) == folded


SEPARATORS = {'·': 0, '～': 1, '，': 1, '\n': 2, '.': 2, '。': 3, '！': 3}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*SEPARATORS, '想', '死', 'a', '了']), max_size=40))
def test_a_run_of_separators_is_its_first_of_the_highest_rank(chars):
    """想～～～～～死 reads 想～死: a run longer than the gap hides no phrase, and a sentence
    end in a run outranks a comma, which outranks a space (the run keeps its sentence)."""
    folded, run = [], []
    for char in [*chars, 'x']:
        if char in SEPARATORS:
            run.append(char)
            continue
        if run:
            folded.append(max(run, key=lambda c: SEPARATORS[c]))   # max keeps the first
            run = []
        folded.append(char)
    assert Folding(''.join(SEPARATORS), separators=SEPARATORS)(''.join(chars) + 'x') == \
        ''.join(folded)


def test_format_characters_fold_to_a_space(folding):
    assert folding('想\u200b死\u202e\u2066\u00ad') == '想死   '    # (runs: a lexicon's separators)
    assert folding('kill\u200bmyself') == 'kill myself'
