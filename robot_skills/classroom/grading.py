"""Grading a listener's answer into exactly one tier (pure).

Before any grading, an answer that cannot be judged is "not heard": empty or
only filler words, an echo of what the robot said for this point (the
loudspeaker picked up by the microphone: a large part of the question or a
re-ask, its last words, a long verbatim stretch of the lecture, or at least
``echo_similarity`` per cent similar to any of them by rapidfuzz),
or visibly cut off (it ends with a word a sentence cannot end with and makes
no expected point). Then each expected answer point counts when one of its
phrasings appears (after folding width, case and numerals: 一百度 == 100度),
or sounds the same (pinyin), and is not negated just before (不是一百度; an
A-not-A question such as 是不是一百度 asks, it does not deny).

* every expected point made -> correct;
* at least ``partial_credit`` of them -> partial;
* none: incorrect if the answer is an attempt at the question (it gives a
  number, is very short, or shares a two-character word, made of characters
  less common than 的/是/我, with the lesson and its expected phrasings),
  otherwise off-topic: a clear answer about something else, which is guided
  back to the question.

An answer that also asks something (吗, 为什么, ？ ...) is marked ``asks``; the
course answers it briefly after the feedback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from rapidfuzz import fuzz

from robot_skills.classroom.lesson import Point
from robot_skills.classroom.words import Lexicon
from robot_skills.language.pinyin import PhoneticIndex
from robot_skills.language.text import HAN, fold, fold_segments

OFF_TOPIC_MIN_HANZI = 4
ECHO_MIN_CHARS = 6
ECHO_SHARE = 0.4
ECHO_MIN_TEACHING = 12      # folded characters of a lecture repeated verbatim: an echo


class Tier(StrEnum):
    CORRECT = 'correct'
    PARTIAL = 'partial'
    INCORRECT = 'incorrect'
    OFF_TOPIC = 'off_topic'
    NOT_HEARD = 'not_heard'


@dataclass(frozen=True)
class Grade:
    tier: Tier
    hit: tuple[str, ...] = ()       # labels of the expected points made
    why: str = ''                   # for traces: which rule decided
    asks: bool = False


class Grader:
    def __init__(self, lexicon: Lexicon, echo_similarity: float = 85.0) -> None:
        self.words = lexicon
        self.echo_similarity = echo_similarity
        self._fillers = sorted(lexicon.fillers, key=len, reverse=True)
        self._sounds: dict[tuple[str, ...], PhoneticIndex] = {}
        self._common = set(''.join(lexicon.common))

    def grade(self, answer: str, point: Point, robot_said: Sequence[str],
              lesson_words: str = '', taught: Sequence[str] = ()) -> Grade:
        """``robot_said``: what the robot asked for this point (the question, re-asks);
        ``taught``: what it said that teaches the answer (the lecture). An answer that
        repeats either is an echo, the second only when long and verbatim."""
        folded = fold(answer)
        meaningful = folded
        for filler in self._fillers:
            meaningful = meaningful.replace(fold(filler), '')
        if not meaningful:
            return Grade(Tier.NOT_HEARD, why='empty or filler words only')
        phrasings = [fold(s) for e in point.expected for s in e.synonyms]
        if (any(self._is_echo(folded, fold(speech)) for speech in robot_said)
                or any(self._is_echo(folded, fold(speech), phrasings, teaching=True)
                       for speech in taught)):
            return Grade(Tier.NOT_HEARD, why="an echo of the robot's own speech")
        segments = fold_segments(answer)
        hit = tuple(e.label for e in point.expected
                    if self._made(e.synonyms, answer, folded, segments))
        asks = any(mark in answer for mark in self.words.question_marks)
        if not hit and any(meaningful.endswith(fold(w)) for w in self.words.unfinished):
            return Grade(Tier.NOT_HEARD, why='cut off')
        if len(hit) == len(point.expected):
            return Grade(Tier.CORRECT, hit, 'every expected point', asks)
        if len(hit) >= point.partial_credit:
            return Grade(Tier.PARTIAL, hit, f'{len(hit)} of {len(point.expected)} points', asks)
        if self._about(point, folded, lesson_words):
            return Grade(Tier.INCORRECT, (), 'no expected point', asks)
        return Grade(Tier.OFF_TOPIC, (), 'nothing to do with the point', asks)

    def _is_echo(self, answer: str, speech: str, expected: Sequence[str] = (),
                 teaching: bool = False) -> bool:
        """A large part of something the robot said (not a few words it shares with it).

        A speech that teaches the answer (the lecture) may be repeated by a right answer:
        there only a long verbatim stretch beyond the expected phrasings, or nearly all of
        it, is an echo.
        """
        if not speech or len(answer) < ECHO_MIN_CHARS:
            return False
        if fuzz.ratio(answer, speech) >= self.echo_similarity:
            return True
        if answer not in speech:
            return False
        if teaching:     # beyond the answer's own words: 光合作用的原料是二氧化碳和水 answers
            rest = answer
            for synonym in sorted(expected, key=len, reverse=True):
                rest = rest.replace(synonym, '')
            return len(rest) >= ECHO_MIN_TEACHING
        return len(answer) >= ECHO_SHARE * len(speech) or speech.endswith(answer)

    def _made(self, synonyms: list[str], raw: str, folded: str, segments: str) -> bool:
        """One phrasing found, as whole numbers and not negated: in the folded answer, or
        in its folded clauses (零，零 is 0 then 0, not 00)."""
        for synonym in synonyms:
            phrase = fold(synonym)
            for text in (folded, segments):
                start = text.find(phrase)
                while start >= 0:
                    if _whole_number(text, start, phrase) and not self._negated(text, start,
                                                                                 phrase):
                        return True
                    start = text.find(phrase, start + 1)
        sounds = self._sounds.get(tuple(synonyms))
        if sounds is None:
            sounds = self._sounds[tuple(synonyms)] = PhoneticIndex(synonyms)
        return any(not self._negated(raw, h.start, h.name) for h in sounds.find(raw))

    def _negated(self, text: str, start: int, phrase: str) -> bool:
        if any(phrase.startswith(n) for n in self.words.negations):
            return False
        before = text[max(0, start - 2):start]
        return any(before.endswith(n) and not _a_not_a(text, start - len(n))
                   for n in self.words.negations)

    def _about(self, point: Point, folded: str, lesson_words: str) -> bool:
        """Whether a wrong answer is an attempt at this question or talk about something else."""
        if any(ch.isdigit() for ch in folded) or len(HAN.findall(folded)) < OFF_TOPIC_MIN_HANZI:
            return True
        known = fold(' '.join([lesson_words, point.title, point.question, point.answer,
                               point.reason, *(s for e in point.expected for s in e.synonyms)]))
        words = (folded[i:i + 2] for i in range(len(folded) - 1))
        return any(word in known for word in words if not set(word) & self._common)


CONJUNCTIONS_IN_SHI = ('但是', '可是', '就是', '只是', '还是', '要是', '于是', '而是', '若是',
                      '倒是', '总是', '正是', '也是', '都是', '却是', '说是', '硬是')


def _a_not_a(text: str, at: int) -> bool:
    """Whether the negation at ``at`` stands between a word and its repetition (是不是, 有没有,
    升不升高): a question that offers the answer, not a denial of it. A 是 that ends a
    conjunction (但是不是水: but not water) is not the first half of one."""
    if not (0 < at < len(text) - 1 and text[at - 1] == text[at + 1]):
        return False
    return not any(text[:at].endswith(word) for word in CONJUNCTIONS_IN_SHI)


def _whole_number(text: str, start: int, phrase: str) -> bool:
    """A phrase that starts or ends with a digit matches whole numbers only (100 is not 1000)."""
    before = text[start - 1] if start else ''
    after = text[start + len(phrase):start + len(phrase) + 1]
    return not ((phrase[0].isdigit() and before.isdigit())
                or (phrase[-1].isdigit() and after.isdigit()))
