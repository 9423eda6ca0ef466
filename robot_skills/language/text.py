"""Counting and folding Chinese text: what the budgets count, what answers compare.

The skill documents count budgets in 汉字 (Chinese characters); punctuation,
digits and Latin letters are not characters of the budget. Answers and the
expected phrases are compared after ``fold``: full-width folded, lower case,
numerals as digits (cn2an: 一百度 -> 100度), spaces and punctuation gone.
"""

from __future__ import annotations

import contextlib
import math
import re
import unicodedata
import warnings
from functools import lru_cache

import cn2an

HAN = re.compile(r'[\u4e00-\u9fff]')
NOT_WORD = re.compile(r'[^\w\u4e00-\u9fff.%℃°]+')
NUMERAL = re.compile(r'^[零〇一二两三四五六七八九十百千万点半]+$')


def hanzi(text: str) -> int:
    """How many Chinese characters ``text`` has (the unit of every budget)."""
    return len(HAN.findall(text))


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """A form of ``text`` in which equal answers are equal strings (cached: the same
    lesson phrases are folded for every answer)."""
    text = unicodedata.normalize('NFKC', text).lower()
    with warnings.catch_warnings(), contextlib.suppress(ValueError, KeyError, IndexError):
        warnings.simplefilter('ignore')     # cn2an warns about words it leaves alone
        text = cn2an.transform(text, 'cn2an')   # numerals it cannot read stay as they are
    return NOT_WORD.sub('', text)


SEGMENT = '|'


@lru_cache(maxsize=4096)
def fold_segments(text: str) -> str:
    """``fold`` of each clause (between spaces and punctuation), joined by ``SEGMENT``: numerals
    stay apart where the speaker set them apart (零，零 is 0|0, where ``fold`` gives 00)."""
    return SEGMENT.join(part for part in (fold(piece) for piece in NOT_WORD.split(text))
                        if part)


def bigram_share(phrase: str, text: str) -> float:
    """How much of ``phrase``'s wording ``text`` repeats: the share of its character pairs
    found in ``text`` (both already folded)."""
    grams = {phrase[i:i + 2] for i in range(len(phrase) - 1)}
    return sum(1 for gram in grams if gram in text) / len(grams) if grams else 0.0


MAX_NUMBER = 1_000_000
LONGEST_NUMERAL = 24        # 九十九万九千九百九十九 is 11; 999999.5 with decimals to spare


def number(numeral: str) -> float | None:
    """The value of ``12``, ``十二``, ``两``, ``半``; None when it is not a number, or not one a
    person means (beyond ``MAX_NUMBER``: 400 nines are noise, not a count). A numeral longer
    than ``LONGEST_NUMERAL`` is none either, unread (cn2an takes quadratic time: 5,000
    一二三… took 66 ms)."""
    if len(numeral) > LONGEST_NUMERAL:
        return None
    if re.fullmatch(r'\d+(\.\d+)?', numeral):
        return _plausible(float(numeral))
    if numeral == '半':
        return 0.5
    if not NUMERAL.match(numeral):
        return None
    try:
        return _plausible(float(cn2an.cn2an(numeral.replace('两', '二'), 'smart')))
    except (ValueError, KeyError, IndexError, OverflowError):
        return None


def _plausible(value: float) -> float | None:
    return value if math.isfinite(value) and value <= MAX_NUMBER else None


def ordinal(n: int) -> str:
    """一, 二 ... 十二: how the robot says a point's number."""
    return cn2an.an2cn(n)
