"""The document's text budgets, as properties over any lesson, duration and point count."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_skills.classroom.lesson import Expected, Lesson, Point
from robot_skills.classroom.quota import Budget, Feedback, PlanError, plan, plan_direct
from robot_skills.language.text import hanzi

HAN = '的一是在了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子'


def han(lo: int, hi: int) -> st.SearchStrategy[str]:
    return st.text(alphabet=HAN, min_size=lo, max_size=hi)


@st.composite
def sentences(draw, lo: int, hi: int) -> str:
    parts = draw(st.lists(han(1, hi), min_size=1, max_size=3))
    return '。'.join(parts)[: max(lo, hi)] + '。'


@st.composite
def points(draw) -> Point:
    labels = draw(st.lists(han(1, 6), min_size=2, max_size=3, unique=True))
    return Point(title=draw(han(1, 6)), body=draw(sentences(5, 60)), short=draw(han(2, 25)),
                 question=draw(han(2, 35)) + '？', answer=draw(han(1, 15)),
                 reason=draw(han(1, 25)) + '。',
                 expected=[Expected(label=label, synonyms=[label]) for label in labels])


lessons = st.builds(Lesson, topic=han(2, 6), aliases=st.just([]), summary=han(2, 30),
                    points=st.lists(points(), min_size=1, max_size=8,
                                    unique_by=lambda p: p.title))


@pytest.mark.parametrize('minutes, total, per', [(1, 160, 60), (2, 220, 60), (3, None, 60),
                                                 (5, None, 100), (30, None, 100)])
def test_budget_by_duration(minutes, total, per):
    budget = Budget.for_minutes(minutes)
    assert (budget.total, budget.per_utterance) == (total, per)
    assert (budget.welcome, budget.question, budget.farewell) == (50, 40, 45)
    assert (budget.correct, budget.partial, budget.incorrect) == (35, 45, 50)


@settings(max_examples=300, deadline=None)
@given(lesson=lessons, minutes=st.sampled_from([1, 2, 3, 5, 10]), count=st.integers(1, 8))
def test_a_planned_course_never_breaks_a_budget(phrases, lesson, minutes, count):
    count = min(count, len(lesson.points))
    try:
        course = plan(lesson, phrases, minutes, count)
    except PlanError as error:
        assert error.problems and all(': ' in p for p in error.problems)
        return
    budget = course.budget
    assert len(course.points) == count                     # taught in full
    assert hanzi(course.welcome) <= min(50, budget.per_utterance)
    assert hanzi(course.farewell) <= min(45, budget.per_utterance)
    for planned in course.points:
        assert hanzi(planned.lecture) <= budget.per_utterance
        assert hanzi(planned.question) <= min(40, budget.per_utterance)
        assert planned.question.endswith('你能告诉我答案吗？')
        text = planned.point.short if budget.short else None
        if text is not None:
            assert planned.lecture.endswith(text)            # 1-2 minutes: the short form
        feedback = Feedback(phrases, planned.point)
        assert hanzi(feedback.correct()) <= 35 and '回答正确' in feedback.correct()
        assert hanzi(feedback.incorrect()) <= 50 and feedback.incorrect().startswith(
            '回答不正确。正确答案是')
        assert all(hanzi(t) <= 45 for t in feedback.every_partial())
    if budget.total is not None:
        assert course.planned_chars <= budget.total
    every = [course.welcome, course.farewell, *(p.lecture for p in course.points)]
    assert not any('同学' in text for text in every)


@settings(max_examples=200, deadline=None)
@given(lesson=lessons, minutes=st.sampled_from([1, 2, 3, 5]), count=st.integers(1, 8))
def test_a_direct_explanation_is_never_cut_mid_sentence(phrases, lesson, minutes, count):
    count = min(count, len(lesson.points))
    try:
        direct = plan_direct(lesson, phrases, minutes, count)
    except PlanError:
        return
    assert all(hanzi(u) <= direct.budget.per_utterance for u in direct.utterances)
    spoken = ''.join(direct.utterances)
    texts = [p.short if direct.budget.short else p.body for p in lesson.points[:count]]
    assert spoken == phrases.direct_intro.format(topic=lesson.topic) + ''.join(texts)
    if direct.budget.total is not None:
        assert sum(hanzi(u) for u in direct.utterances) <= direct.budget.total


def test_a_course_too_long_for_its_minutes_names_the_whole(library, phrases):
    long = max(library.lessons.values(), key=lambda lesson: len(lesson.points))
    with pytest.raises(PlanError) as caught:
        plan(long, phrases, 1, len(long.points))
    assert any(p.startswith('the whole course: ') and 'limit 160' in p
               for p in caught.value.problems)


def test_feedback_over_budget_is_named(phrases, library):
    point = library.lessons['光合作用'].points[0]
    long = point.model_copy(update={'reason': '因为' * 20 + '。'})
    lesson = library.lessons['光合作用'].model_copy(update={'points': [long]})
    with pytest.raises(PlanError) as caught:
        plan(lesson, phrases, 5, 1)
    assert any(p.startswith('point 1 (原料), correct feedback: ') for p in caught.value.problems)


def test_the_audience_is_never_called_students(phrases, library):
    lesson = library.lessons['光合作用']
    point = lesson.points[0].model_copy(update={'short': '同学们好', 'body': '同学们好'})
    with pytest.raises(PlanError, match="says '同学'"):
        plan(lesson.model_copy(update={'points': [point]}), phrases, 5, 1)
