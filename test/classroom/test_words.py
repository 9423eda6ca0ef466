"""Reading requests, mode choices and course commands."""

from __future__ import annotations

import pytest

from robot_skills.classroom.words import Command, Mode, Reader


@pytest.fixture(scope='module')
def read(lexicon, library) -> Reader:
    return Reader(lexicon, library.names())


@pytest.mark.parametrize('text, topic, mode', [
    ('帮我介绍一下地壳运动', '地壳运动', None),
    ('用课堂讲解的方式介绍地壳运动', '地壳运动', Mode.CLASSROOM),
    ('直接介绍一下地壳运动，不用互动', '地壳运动', Mode.DIRECT),
    ('讲讲极限', '极限', None),
    ('解释一下光合作用', '光合作用', None),
    ('科普一下水的沸腾', '水的沸腾', None),
    ('用课堂方式讲讲板块运动', '地壳运动', Mode.CLASSROOM),
    ('给我讲讲沸点，只说就行', '水的沸腾', Mode.DIRECT),
    ('讲讲光和作用', '光合作用', None),                     # ASR homophone of 光合作用
    ('开始上课', None, Mode.CLASSROOM),
    ('做一段课程演示', None, Mode.CLASSROOM),
    ('普通介绍一下极限', '极限', Mode.DIRECT),
    ('加入互动，讲讲地壳', '地壳运动', Mode.CLASSROOM),
])
def test_requests_with_topic_and_mode(read, text, topic, mode):
    request = read.request(text)
    assert request.teaching and (request.topic, request.mode) == (topic, mode)


@pytest.mark.parametrize('text, minutes', [
    ('讲讲极限，两分钟', 2), ('用3分钟讲解沸腾', 3), ('半小时讲水的沸腾', 30), ('介绍地壳运动，一分钟', 1),
    ('讲十分钟光合作用', 10), ('讲讲极限，1小时', 60), ('讲讲极限', None), ('讲讲极限，五分钟', 5),
])
def test_durations_in_chinese_or_arabic_numerals(read, text, minutes):
    assert read.request(text).minutes == minutes


@pytest.mark.parametrize('text, points', [
    ('讲四个知识点的沸腾', 4), ('讲讲极限，讲两个知识点', 2), ('介绍光合作用，3个知识点', 3),
    ('讲7个知识点的水的沸腾', 7), ('讲讲地壳运动，讲一个要点', 1), ('讲讲极限', None),
])
def test_numbers_of_points(read, text, points):
    assert read.request(text).points == points


@pytest.mark.parametrize('text', ['讲讲光合作用，' + '9' * 400 + '个知识点',
                                  '用' + '9' * 400 + '分钟直接讲解光合作用',
                                  '讲讲光合作用，9999999个知识点', '用1e309分钟讲光合作用'])
def test_absurd_numbers_are_not_read_as_counts(read, text):
    """400 nines once overflowed the core and made a course of Infinity minutes."""
    request = read.request(text)
    assert request.points is None and (request.minutes is None or request.minutes < 1e7)


@pytest.mark.parametrize('text, other', [
    ('介绍一下量子力学', '量子力学'), ('用课堂方式讲讲相对论', '相对论'), ('科普一下黑洞，两分钟', '黑洞'),
])
def test_topics_without_a_lesson_are_named(read, text, other):
    request = read.request(text)
    assert request.teaching and request.topic is None and request.other_topic == other


@pytest.mark.parametrize('text', ['平流层有多高', '今天天气怎么样', '你好', '谢谢', ''])
def test_simple_questions_and_chatter_are_not_requests(read, text):
    assert not read.request(text).teaching


@pytest.mark.parametrize('text, mode', [
    ('课堂讲解', Mode.CLASSROOM), ('上课方式', Mode.CLASSROOM), ('加入互动', Mode.CLASSROOM),
    ('可以', Mode.CLASSROOM), ('好，用课堂方式', Mode.CLASSROOM), ('好的', Mode.CLASSROOM),
    ('直接讲解', Mode.DIRECT), ('普通介绍', Mode.DIRECT), ('不用互动', Mode.DIRECT),
    ('只说就行', Mode.DIRECT), ('不用', Mode.DIRECT), ('不要了', Mode.DIRECT),
    ('随便', None), ('嗯', None), ('你说呢', None), ('', None),
])
def test_replies_to_the_mode_question(read, text, mode):
    assert read.mode_reply(text) == mode


@pytest.mark.parametrize('text, command', [
    ('暂停', Command.PAUSE), ('先等等', Command.PAUSE), ('我还有问题', Command.PAUSE),
    ('继续', Command.RESUME), ('继续课堂', Command.RESUME), ('继续上课', Command.RESUME),
    ('停止', Command.STOP), ('结束', Command.STOP), ('取消', Command.STOP), ('不讲了', Command.STOP),
    ('二氧化碳和水', None), ('一百度', None),
])
def test_course_commands(read, text, command):
    assert read.command(text) == command
