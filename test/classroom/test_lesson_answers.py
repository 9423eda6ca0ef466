"""Every lesson grades its own expected answers as correct (issue 15, item 3).

Generated from the lesson files, so that a new lesson is covered without a line here: for
every point of every lesson, graded as in a course (the planned question and the re-asks as
what the robot said, the planned lecture as what it taught, the lesson's vocabulary):

* the point's model answer is correct;
* every synonym of every expected point, with one synonym of each other expected point
  (cycling through them), joined as a listener would join them, bare or in a short frame,
  is correct;
* those answers, and the model answer, with their numerals rewritten (Chinese to Arabic,
  Arabic to Chinese, only the first one) are still correct;
* where one expected point earns partial credit, each of its synonyms alone is partial
  (and where it does not, neither partial nor correct);
* a property: one synonym per expected point, in any order, with any separator, is correct.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator

import cn2an
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_skills.adapters.config import load
from robot_skills.classroom.grading import Grader, Tier
from robot_skills.classroom.lesson import Lesson, Library, Phrases, Point
from robot_skills.classroom.quota import DEFAULT_MINUTES, DEFAULT_POINTS, Feedback, plan
from robot_skills.classroom.words import Lexicon
from robot_skills.language.text import HAN, number
from robot_skills.runtime import paths

LIBRARY = Library.load(paths.config('lessons'))
PHRASES = load(paths.config('classroom/phrases.yaml'), Phrases)
GRADER = Grader(load(paths.config('classroom/words.yaml'), Lexicon))

JOINS = ('，', '和', '；', '，还有', '，因为', '')        # '' : recognisers often drop punctuation
FRAMES = ('{}', '我觉得是{}', '答案是{}吧', '嗯，应该是{}。', '是不是{}？')
ALONE = ('{}', '是{}', '我觉得是{}')


class Asked:
    """One point as a course gives it: the texts the grader sees besides the answer."""

    def __init__(self, lesson: Lesson, number_: int, lecture: str, question: str) -> None:
        self.lesson = lesson
        self.number = number_
        self.point: Point = lesson.points[number_ - 1]
        self.robot_said = (question, PHRASES.not_heard, Feedback(PHRASES, self.point).off_topic())
        self.taught = (lecture,)
        self.words = lesson.vocabulary()

    def grade(self, answer: str):
        return GRADER.grade(answer, self.point, self.robot_said, self.words, self.taught)

    def __repr__(self) -> str:
        return f'{self.lesson.topic}#{self.number}({self.point.title})'


def _asked() -> list[Asked]:
    """Every point of every lesson, with its lecture and question as planned for a course of
    the default length (all the lesson's points, at least the default number)."""
    asked = []
    for lesson in LIBRARY.lessons.values():
        course = plan(lesson, PHRASES, DEFAULT_MINUTES, max(DEFAULT_POINTS, len(lesson.points)))
        asked += [Asked(lesson, p.number, p.lecture, p.question) for p in course.points]
    return asked


POINTS = _asked()
IDS = [repr(a) for a in POINTS]


# -- numerals -------------------------------------------------------------------------------

CN_NUMERAL = re.compile(r'[零〇一二两三四五六七八九十百千万]+')
AN_NUMERAL = re.compile(r'(?<![A-Za-z\d.])\d+(?:\.\d+)?(?![A-Za-z\d])')   # not CO2
# After a lone numeral character these make it a quantity (一个, 三度); otherwise a lone
# 一/二 is part of a word (一直, 一样, 不一定, 二氧化碳) and stays as it is.
MEASURES = set('个种次度位条块年天米倍摄℃')


def _cn_spans(text: str) -> list[tuple[int, int, str]]:
    spans = []
    for m in CN_NUMERAL.finditer(text):
        run, after = m.group(), text[m.end():m.end() + 1]
        value = number(run)
        if value is None or (len(run) == 1 and HAN.match(after or ' ')
                             and after not in MEASURES):
            continue
        spans.append((m.start(), m.end(), str(int(value)) if value.is_integer() else str(value)))
    return spans


def _an_spans(text: str) -> list[tuple[int, int, str]]:
    spans = []
    for m in AN_NUMERAL.finditer(text):
        chinese = cn2an.an2cn(m.group())
        if text[m.end():m.end() + 1] == '℃':       # 100℃ is said 一百摄氏度
            spans.append((m.start(), m.end() + 1, f'{chinese}摄氏度'))
        else:
            spans.append((m.start(), m.end(), chinese))
    return spans


def _replace(text: str, spans: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def rewordings(text: str) -> list[str]:
    """``text`` with its numerals as digits, as Chinese, and with only the first converted."""
    cn, an = _cn_spans(text), _an_spans(text)
    first = sorted(cn + an)[:1]
    forms = [_replace(text, cn), _replace(text, an), _replace(text, first)]
    return [form for form in dict.fromkeys(forms) if form != text]


# -- answers --------------------------------------------------------------------------------

def full_answers(point: Point) -> Iterator[str]:
    """Each synonym of each expected point, with a synonym of every other expected point
    (the same index, cycling), in the point's order, with every join and every frame."""
    for i, expected in enumerate(point.expected):
        for j, synonym in enumerate(expected.synonyms):
            parts = [synonym if k == i else other.synonyms[j % len(other.synonyms)]
                     for k, other in enumerate(point.expected)]
            for join, frame in itertools.product(JOINS, FRAMES):
                yield frame.format(join.join(parts))


def _failures(asked: Asked, answers: list[str], tier: Tier,
              check: Callable[[object], bool] = lambda grade: True) -> list[tuple[str, object]]:
    return [(answer, grade) for answer in dict.fromkeys(answers)
            if (grade := asked.grade(answer)).tier is not tier or not check(grade)]


def _all_hit(asked: Asked) -> Callable[[object], bool]:
    labels = {e.label for e in asked.point.expected}
    return lambda grade: set(grade.hit) == labels


@pytest.mark.parametrize('asked', POINTS, ids=IDS)
def test_the_model_answer_is_correct(asked):
    grade = asked.grade(asked.point.answer)
    assert grade.tier is Tier.CORRECT, grade
    assert _all_hit(asked)(grade)


@pytest.mark.parametrize('asked', POINTS, ids=IDS)
def test_every_synonym_with_the_other_points_is_correct(asked):
    answers = list(full_answers(asked.point))
    assert answers
    assert _failures(asked, answers, Tier.CORRECT, _all_hit(asked)) == []


@pytest.mark.parametrize('asked', POINTS, ids=IDS)
def test_numerals_rewritten_stay_correct(asked):
    answers = [form for text in (asked.point.answer, *full_answers(asked.point))
               for form in rewordings(text)]
    assert _failures(asked, answers, Tier.CORRECT, _all_hit(asked)) == []


@pytest.mark.parametrize('asked', [a for a in POINTS if len(a.point.expected) > 1],
                         ids=[i for a, i in zip(POINTS, IDS, strict=True)
                              if len(a.point.expected) > 1])
def test_one_expected_point_alone(asked):
    """Partial where one point earns partial credit; never correct, never partial otherwise."""
    for expected in asked.point.expected:
        answers = [frame.format(s) for s in expected.synonyms for frame in ALONE]
        if asked.point.partial_credit <= 1:
            assert _failures(asked, answers, Tier.PARTIAL,
                             lambda grade, label=expected.label: grade.hit == (label,)) == []
        else:
            assert [a for a in answers
                    if asked.grade(a).tier in (Tier.CORRECT, Tier.PARTIAL)] == []


def test_the_numeral_rewordings_are_natural():
    """The generator itself: numbers are converted, words that contain a numeral are not."""
    assert rewordings('在标准大气压下一百摄氏度') == ['在标准大气压下100摄氏度']
    assert rewordings('100℃和1个大气压') == ['一百摄氏度和一个大气压', '一百摄氏度和1个大气压']
    assert rewordings('一直加热，温度一样，不一定是二氧化碳') == []
    assert rewordings('CO2和水') == []
    assert set(rewordings('接近零，是0')) == {'接近0，是0', '接近零，是零'}


@st.composite
def answers(draw) -> tuple[Asked, str]:
    asked = draw(st.sampled_from(POINTS))
    parts = [draw(st.sampled_from(e.synonyms)) for e in asked.point.expected]
    parts = draw(st.permutations(parts))
    joins = [draw(st.sampled_from(JOINS)) for _ in parts[1:]]
    text = parts[0] + ''.join(j + p for j, p in zip(joins, parts[1:], strict=True))
    return asked, draw(st.sampled_from(FRAMES)).format(text)


@settings(max_examples=300, deadline=None)
@given(case=answers())
def test_one_synonym_per_expected_point_in_any_order_is_correct(case):
    asked, answer = case
    grade = asked.grade(answer)
    assert grade.tier is Tier.CORRECT, (asked, answer, grade)
    assert _all_hit(asked)(grade)
