"""The shipped lessons, the lesson file format and its validation."""

from __future__ import annotations

import pytest
import yaml
from config_files import refusal, shipped

from robot_skills.adapters.config import ConfigError
from robot_skills.classroom.lesson import Lesson, Library
from robot_skills.classroom.node import check_library
from robot_skills.classroom.quota import plan


def test_at_least_four_lessons_on_distinct_topics_one_with_seven_points(library):
    assert len(library.lessons) >= 4
    assert max(len(lesson.points) for lesson in library.lessons.values()) >= 7


def test_every_question_has_two_expected_points_and_every_point_a_short_form(library):
    for lesson in library.lessons.values():
        for point in lesson.points:
            assert len(point.expected) >= 2, (lesson.topic, point.title)
            assert point.short and point.partial_credit < len(point.expected)


@pytest.mark.parametrize('minutes', [1, 2, 3, 5, 10, 30])
def test_every_lesson_fits_every_duration_with_three_points(library, phrases, minutes):
    for lesson in library.lessons.values():
        course = plan(lesson, phrases, minutes, 3)
        assert len(course.points) == 3


def test_the_long_lesson_is_given_in_full_in_five_minutes(library, phrases):
    long = max(library.lessons.values(), key=lambda lesson: len(lesson.points))
    course = plan(long, phrases, 5, len(long.points))
    assert [p.number for p in course.points] == list(range(1, len(long.points) + 1))


def test_the_library_check_passes_for_the_shipped_lessons(library, phrases):
    check_library(library, phrases)


def _shipped(name: str = 'boiling.yaml') -> dict:
    return shipped(f'lessons/{name}')


def _refused(data: dict) -> str:
    return refusal(data, Lesson, 'lesson.yaml')


def test_a_missing_field_is_named_by_entry_and_field():
    data = _shipped()
    del data['points'][1]['question']
    assert "lesson.yaml: entry points[1] (title '气压'), field 'question': Field required" in \
        _refused(data)


def test_more_than_three_expected_points_are_refused():
    data = _shipped()
    data['points'][0]['expected'] *= 2
    assert "entry points[0] (title '沸点'), field 'expected'" in _refused(data)


def test_partial_credit_must_leave_room_for_a_partial_answer():
    data = _shipped()
    data['points'][0]['partial_credit'] = 2
    assert 'partial_credit must be below the number of expected points' in _refused(data)


def test_duplicate_topics_across_files_are_refused(tmp_path):
    for name in ('a.yaml', 'b.yaml'):
        (tmp_path / name).write_text(yaml.safe_dump(_shipped('crust.yaml'), allow_unicode=True),
                                     encoding='utf-8')
    with pytest.raises(ConfigError, match="topic '地壳运动' is also in another file"):
        Library.load(tmp_path)


def test_an_empty_lessons_folder_is_refused(tmp_path):
    with pytest.raises(ConfigError, match='no lesson files'):
        Library.load(tmp_path)


def test_a_lesson_over_budget_stops_the_library_with_the_text_named(phrases, tmp_path):
    data = _shipped('crust.yaml')
    data['points'][0]['body'] = '板块' * 60
    data['points'][0]['short'] = '板块' * 50
    (tmp_path / 'crust.yaml').write_text(yaml.safe_dump(data, allow_unicode=True),
                                         encoding='utf-8')
    with pytest.raises(ConfigError) as caught:
        check_library(Library.load(tmp_path), phrases)
    assert "lesson '地壳运动': point 1 (板块), lecture: 108 characters, limit 100" in str(caught.value)
