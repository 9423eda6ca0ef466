"""The grader on tables of at least 60 answers per tier, over every shipped point."""

from __future__ import annotations

import itertools

import pytest

from robot_skills.classroom.grading import Grader, Tier
from robot_skills.classroom.lesson import Library
from robot_skills.runtime import paths

LIBRARY = Library.load(paths.config('lessons'))
POINTS = [(lesson.topic, point) for lesson in LIBRARY.lessons.values() for point in lesson.points]
WORDS = {topic: lesson.vocabulary() for topic, lesson in LIBRARY.lessons.items()}
INVITE = '你能告诉我答案吗？'

# Wrong answers about the point: (topic, title) -> answers that make no expected point.
WRONG = {
    ('水的沸腾', '沸点'): ['五十度', '零度沸腾', '八十摄氏度', '不是一百度'],
    ('水的沸腾', '气压'): ['沸点会升高', '沸点不变', '沸点升高，比如海边', '气压低沸点更高'],
    ('水的沸腾', '条件'): ['有水就能沸腾', '放在阳光下就沸腾', '加盐就沸腾', '只要有锅就沸腾'],
    ('水的沸腾', '温度'): ['温度一直升高', '温度下降', '热量消失了', '温度越来越高'],
    ('水的沸腾', '蒸发'): ['沸腾，在锅底', '都不能', '沸腾，在中间', '沸腾任何温度都能发生'],
    ('水的沸腾', '白气'): ['是烟', '是空气', '是灰尘', '白气是烟雾'],
    ('水的沸腾', '高压锅'): ['高压锅更厚', '高压锅火更大', '高压锅是铁做的', '高压锅更贵'],
    ('地壳运动', '板块'): ['岩石圈分成国家', '分成大陆，岩石圈不会动', '岩石圈分成海洋', '分成石头，岩石圈不动'],
    ('地壳运动', '交界处'): ['交界处常有台风和暴雨', '洪水和干旱两种灾害', '灾害是下雨和刮风', '交界处有海啸和沙尘暴'],
    ('地壳运动', '山脉'): ['喜马拉雅山是风吹出来的', '喜马拉雅山是人工堆的', '喜马拉雅山是雨水冲刷的', '冰川留下了喜马拉雅山'],
    ('光合作用', '原料'): ['氧气和糖', '土壤', '肥料', '阳光和空气'],
    ('光合作用', '条件'): ['需要黑暗，在根里', '在花里', '光合作用需要肥料', '需要土壤，在叶片里'],
    ('光合作用', '产物'): ['二氧化碳', '二氧化碳和水', '土壤', '产物是肥料和水'],
    ('极限', '数列'): ['接近一', '接近无穷大', '等于二', '接近一百'],
    ('极限', '函数'): ['趋近于五', '趋近于二', '等于零', '是一'],
    ('极限', '区别'): ['一定等于', '当然等于函数值', '肯定等于函数值', '总是等于函数值'],
}
UNRELATED = ['今天天气真好啊', '我想吃冰淇淋', '你会唱歌吗我们去公园', '周末我要去看电影', '我家的猫很可爱',
             '明天要交作业了', '这个机器人好可爱', '我喜欢踢足球', '外面在下雨吧', '妈妈做的饭很好吃',
             '我想去北京旅游', '中午吃什么好呢', '手机快没电了', '我的朋友叫小明', '音乐课很有意思']
FILLERS = ['嗯', '啊', '呃', '嗯嗯', '那个', '这个', '呃呃', '哦', '嗯啊', '我想想', '让我想想', '嗯，那个',
           '', '   ', '啊啊啊']


def _grade(lexicon, answer: str, point, topic: str):
    return Grader(lexicon).grade(answer, point, [_question(point)], WORDS[topic])


def _question(point) -> str:
    return f'{point.question}{INVITE}'


def correct_cases():
    for topic, point in POINTS:
        firsts = [e.synonyms[0] for e in point.expected]
        lasts = [e.synonyms[-1] for e in point.expected]
        yield topic, point, '和'.join(firsts)
        yield topic, point, '，'.join(reversed(lasts)) + '吧'
        yield topic, point, '我觉得是' + '，'.join(firsts) + '。'
        yield topic, point, '，'.join(lasts)


def partial_cases():
    for topic, point in POINTS:
        for expected in point.expected:
            for synonym in dict.fromkeys([expected.synonyms[0], expected.synonyms[-1]]):
                yield topic, point, synonym, expected.label
                yield topic, point, f'应该是{synonym}', expected.label


def incorrect_cases():
    for (topic, title), answers in WRONG.items():
        point = next(p for t, p in POINTS if t == topic and p.title == title)
        for answer in answers:
            yield topic, point, answer


def off_topic_cases():
    for (topic, point), sentence in itertools.product(POINTS[::4], UNRELATED):
        yield topic, point, sentence


def not_heard_cases():
    for topic, point in POINTS[::3]:
        for filler in FILLERS[:8]:
            yield topic, point, filler
        yield topic, point, _question(point)                       # the loudspeaker's echo
        yield topic, point, INVITE
        yield topic, point, point.question
        yield topic, point, '我觉得是'                              # cut off
        yield topic, point, '因为'


CORRECT = list(correct_cases())
PARTIAL = list(partial_cases())
INCORRECT = list(incorrect_cases())
OFF_TOPIC = list(off_topic_cases())
NOT_HEARD = list(not_heard_cases())


def test_each_table_has_at_least_60_answers():
    assert min(len(CORRECT), len(PARTIAL), len(INCORRECT), len(OFF_TOPIC), len(NOT_HEARD)) >= 60


@pytest.mark.parametrize('topic, point, answer', CORRECT)
def test_correct_answers(lexicon, topic, point, answer):
    grade = _grade(lexicon, answer, point, topic)
    assert grade.tier is Tier.CORRECT, (answer, grade)
    assert set(grade.hit) == {e.label for e in point.expected}


@pytest.mark.parametrize('topic, point, answer, label', PARTIAL)
def test_partly_correct_answers(lexicon, topic, point, answer, label):
    grade = _grade(lexicon, answer, point, topic)
    assert grade.tier is Tier.PARTIAL, (answer, grade)
    assert label in grade.hit


@pytest.mark.parametrize('topic, point, answer', INCORRECT)
def test_wrong_answers(lexicon, topic, point, answer):
    grade = _grade(lexicon, answer, point, topic)
    assert grade.tier is Tier.INCORRECT, (answer, grade)


@pytest.mark.parametrize('topic, point, answer', OFF_TOPIC)
def test_clear_answers_about_something_else(lexicon, topic, point, answer):
    assert _grade(lexicon, answer, point, topic).tier is Tier.OFF_TOPIC


@pytest.mark.parametrize('topic, point, answer', NOT_HEARD)
def test_answers_that_cannot_be_judged(lexicon, topic, point, answer):
    assert _grade(lexicon, answer, point, topic).tier is Tier.NOT_HEARD


@pytest.mark.parametrize('answer, tier', [
    ('一百度', Tier.PARTIAL), ('100℃', Tier.PARTIAL), ('１００度，标准大气压', Tier.CORRECT),
    ('一百摄氏度，一个大气压下', Tier.CORRECT), ('不是一百度', Tier.INCORRECT),
    ('标准大气压下一百度吗？', Tier.CORRECT),
])
def test_numerals_widths_and_negation(lexicon, answer, tier):
    point = LIBRARY.lessons['水的沸腾'].points[0]
    assert _grade(lexicon, answer, point, '水的沸腾').tier is tier


@pytest.mark.parametrize('answer, asks', [('标准大气压下一百度吗？', True), ('一百度，为什么呢', True),
                                          ('一百度', False)])
def test_an_answer_that_asks_is_marked(lexicon, answer, asks):
    point = LIBRARY.lessons['水的沸腾'].points[0]
    assert _grade(lexicon, answer, point, '水的沸腾').asks is asks


@pytest.mark.parametrize('heard', ['二羊化碳和水', '二氧化探和水'])
def test_asr_homophones_still_count(lexicon, heard):
    point = LIBRARY.lessons['光合作用'].points[0]
    assert _grade(lexicon, heard, point, '光合作用').tier is Tier.CORRECT


@pytest.mark.parametrize('answer', ['二氧化碳，但是不是水', '二氧化碳，可是不是水', '就是二氧化碳，就是不是水'])
def test_a_denial_after_a_conjunction_ending_in_shi_is_a_denial(lexicon, library, answer):
    """是不是 offers an answer (an A-not-A question); 但是不是 (but not) denies it."""
    point = library.lessons['光合作用'].points[0]
    grade = _grade(lexicon, answer, point, '光合作用')
    assert (grade.tier, grade.hit) == (Tier.PARTIAL, ('二氧化碳',))
