"""Reading what a listener says to the classroom presenter (pure).

Requests ("用课堂讲解的方式介绍地壳运动，讲两分钟"), replies to the mode question,
course commands (暂停, 继续, 停止) and the number words inside them. The words
themselves are data (``config/classroom/words.yaml``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from robot_skills.language.pinyin import PhoneticIndex
from robot_skills.language.text import number

DURATION = re.compile(r'([\d.]+|[零一二两三四五六七八九十百半]+)\s*(?:个)?(分钟|分|小时|钟头)')
POINTS = re.compile(r'([\d]+|[一二两三四五六七八九十]+)\s*个?\s*(?:知识点|要点|重点)')
PUNCTUATION = re.compile(r'[\s,.!?;:，。！？；：、~～…"“”\'‘’()（）《》]+')
HALF_HOUR = '半小时'


class Lexicon(BaseModel):
    model_config = ConfigDict(extra='forbid', frozen=True)

    teaching: list[str] = Field(min_length=1)
    classroom: list[str] = Field(min_length=1)
    direct: list[str] = Field(min_length=1)
    agree: list[str] = Field(min_length=1)
    refuse: list[str] = Field(min_length=1)
    pause: list[str] = Field(min_length=1)
    resume: list[str] = Field(min_length=1)
    stop: list[str] = Field(min_length=1)
    again: list[str] = Field(min_length=1)
    fillers: list[str] = []
    unfinished: list[str] = []
    question_marks: list[str] = []
    negations: list[str] = []
    common: list[str] = Field([], description='characters too common to tie an answer to a lesson')


class Command(StrEnum):
    PAUSE = 'pause'
    RESUME = 'resume'
    STOP = 'stop'


class Mode(StrEnum):
    CLASSROOM = 'classroom'
    DIRECT = 'direct'


@dataclass(frozen=True)
class Request:
    """What a request asks for; None where the listener did not say."""

    teaching: bool                 # asks for an explanation at all
    topic: str | None              # a topic of the library
    other_topic: str               # the words naming a topic the library lacks
    mode: Mode | None
    minutes: float | None
    points: int | None
    again: bool


class Reader:
    """The lexicon and the library's topic names, ready to read utterances."""

    def __init__(self, lexicon: Lexicon, topics: dict[str, str]) -> None:
        self.words = lexicon
        self._topics = topics                      # name or alias -> topic
        self._names = sorted(topics, key=len, reverse=True)
        self._sounds = PhoneticIndex(topics)

    def command(self, text: str) -> Command | None:
        for command, words in ((Command.STOP, self.words.stop), (Command.PAUSE, self.words.pause),
                               (Command.RESUME, self.words.resume)):
            if any(w in text for w in words):
                return command
        return None

    def mode(self, text: str) -> Mode | None:
        if any(w in text for w in self.words.direct):
            return Mode.DIRECT
        if any(w in text for w in self.words.classroom):
            return Mode.CLASSROOM
        return None

    def mode_reply(self, text: str) -> Mode | None:
        """A reply to "课堂…还是直接语音讲解？": explicit, or yes (classroom) / no (direct)."""
        explicit = self.mode(text)
        if explicit is not None:
            return explicit
        bare = PUNCTUATION.sub('', text)
        if any(bare.startswith(w) for w in self.words.refuse):
            return Mode.DIRECT
        if any(bare.startswith(w) for w in self.words.agree):
            return Mode.CLASSROOM
        return None

    def topic(self, text: str) -> str | None:
        hits = [name for name in self._names if name in text]
        if hits:
            return self._topics[hits[0]]
        heard = self._sounds.find(text)
        return self._topics[heard[0].name] if heard else None

    def request(self, text: str) -> Request:
        topic = self.topic(text)
        teaching = (any(w in text for w in self.words.teaching) or self.mode(text) is not None
                    or (topic is not None and '讲' in text))
        return Request(teaching, topic, '' if topic else self._other_topic(text), self.mode(text),
                       self._minutes(text), self._points(text),
                       any(w in text for w in self.words.again))

    @staticmethod
    def _minutes(text: str) -> float | None:
        if HALF_HOUR in text:
            return 30.0
        match = DURATION.search(text)
        if not match:
            return None
        value = number(match.group(1))
        if value is None:
            return None
        return value * 60 if match.group(2) in ('小时', '钟头') else value

    @staticmethod
    def _points(text: str) -> int | None:
        match = POINTS.search(text)
        value = number(match.group(1)) if match else None
        return int(value) if value else None

    def _other_topic(self, text: str) -> str:
        """The topic words of a request for a topic the library lacks ("介绍一下量子力学")."""
        rest = text
        for word in sorted([*self.words.teaching, *self.words.classroom, *self.words.direct],
                           key=len, reverse=True):
            rest = rest.replace(word, ' ')
        rest = DURATION.sub(' ', POINTS.sub(' ', rest.replace(HALF_HOUR, ' ')))
        for word in ('一下', '请', '给我', '我们', '的方式', '方式', '用', '吧', '讲', '下'):
            rest = rest.replace(word, ' ')
        return PUNCTUATION.sub('', rest)
