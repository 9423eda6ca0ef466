"""What a visitor said, cleaned up so that places can be found in it.

ASR and keyboards write the same thing many ways: full-width characters, four
kinds of dash, room numbers in Chinese numerals (五零三, 五百零三), spaces inside
numbers, the wake word at the start. ``normalise`` folds those into one form;
``room_numbers`` and ``floors_mentioned`` read numbers and floors out of it.
Numerals go through cn2an, sounds through ``robot_skills.language.pinyin``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import cn2an

from robot_skills.language.pinyin import syllables
from robot_skills.language.text import number

CN_DIGIT = '零〇一二三四五六七八九'
CN_VALUE = {ch: str(max(0, i - 1)) for i, ch in enumerate(CN_DIGIT)}   # 零 and 〇 are 0
DASHES = re.compile(r'\s*[-‐‑‒–—―－−]\s*')
CN_ROOM = re.compile(rf'(?<![{CN_DIGIT}十百])([一二三四五六七八九]百零?[一二三四五六七八九]|'
                     rf'[{CN_DIGIT}]{{3}})(?![{CN_DIGIT}十百])')
CN_DASH_ROOM = re.compile(rf'([二三四五六\d])\s*杠\s*([{CN_DIGIT}\d]{{2}})')
ROOM = re.compile(r'(?<![\dA-Z])(\d)\s*(?:-|杠|\s)?\s*(\d{2})(?![\d])')
ANY_FLOOR = re.compile(r'第?([零一二三四五六七八九十百两\d]+)\s*(?:层|楼)')


@dataclass(frozen=True)
class RoomNumber:
    """A room number as the visitor said it, e.g. ``3-01`` at text[start:end]."""

    floor: int
    number: str
    start: int
    end: int

    @property
    def spoken(self) -> str:
        return self.number.replace('-', '杠')


def normalise(text: str) -> str:
    """Full-width to half-width, one kind of dash, upper-case Latin, numerals as digits."""
    text = unicodedata.normalize('NFKC', text).upper()
    text = DASHES.sub('-', text)
    text = CN_DASH_ROOM.sub(lambda m: f'{_digits(m.group(1))}-{_digits(m.group(2))}', text)
    return CN_ROOM.sub(lambda m: str(cn2an.cn2an(m.group(1), 'smart')), text)


def _digits(numeral: str) -> str:
    return ''.join(CN_VALUE.get(ch, ch) for ch in numeral)


def strip_wake_word(text: str, wake_word: str) -> str:
    """Remove the wake word, also when ASR wrote it with homophones (小帆小帆)."""
    text = text.replace(wake_word, '')
    wake = syllables(wake_word)
    head = text.lstrip(' ，,。.!！?？、')
    if syllables(head[:len(wake_word)]) == wake:
        text = head[len(wake_word):]
    return text.strip(' ，,。.!！?？、')


def room_numbers(text: str) -> list[RoomNumber]:
    return [RoomNumber(int(m.group(1)), f'{m.group(1)}-{m.group(2)}', m.start(), m.end())
            for m in ROOM.finditer(text)]


def floors_mentioned(text: str) -> list[tuple[int, int, int]]:
    """Every ``<numeral>层/楼`` as (floor number, start, end), in any range."""
    found = []
    for match in ANY_FLOOR.finditer(text):
        value = number(match.group(1))      # None for mixed forms such as 四21
        if value is not None and value == int(value):
            found.append((int(value), match.start(), match.end()))
    return found
