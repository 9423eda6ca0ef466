"""The routing table: subject first (tags > units > cross-subject > keywords > language), then stage."""

from __future__ import annotations

import pytest
from coordinator_talk import NOW
from hypothesis import given
from hypothesis import strategies as st

from robot_skills.coordinator.core import LearnerView, Request

MATH_COACH, PHYSICS_COACH = 'xiaozhi-math-problem-solving-coach', 'xiaozhi-physics-problem-coach'
ENGLISH, CHINESE = 'xiaozhi-english-grammar-coach', 'xiaozhi-chinese-reading-decoder'
NOTEBOOK, FEYNMAN = 'xiaozhi-correction-notebook', 'xiaozhi-feynman-learning'
CROSS = 'xiaozhi-cross-subject-detective'
UNSURE = ('clarify', '', 'problem', '')
MODERN_PASSAGE = ('春天来了，小河里的冰慢慢化开，河边的柳树抽出了嫩绿的新芽。孩子们脱下厚厚的棉衣，在田野里奔跑，'
                  '放起了五颜六色的风筝。老爷爷坐在门口晒太阳，笑眯眯地看着他们。这段话写了什么，这道题怎么做')

# (text, image tags, action, subject, stage, target SKILL)
TABLE = [
    # units beat keywords: physics
    ('一个物体受到10N的力，这个方程怎么解', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('压强是200Pa，面积怎么求，这道题怎么做', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('电阻是5Ω，这道题怎么做', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('电阻是5\u2126，这道题怎么做', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('电流0.5A，函数图像怎么画，不会做', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('电压12V，为什么不对', (), 'route', 'physics', 'correction', NOTEBOOK),
    ('做功100J，这题怎么算', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('功率60W的灯泡这道题怎么做', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('速度3m/s，求解几何关系', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('速度是5m·s⁻¹，这题怎么算', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('频率50Hz的方程怎么解', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('72km/h是多少，怎么解', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('密度1000kg/m³，这道题怎么做', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('１０Ｎ的拉力，三角形怎么解', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('5cm长的弹簧挂了2N的物体怎么解', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('拉力 20 N 时的加速度，这题怎么算', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    # units beat keywords: math
    ('三角形的边长是5cm，这道题怎么做', (), 'route', 'math', 'problem', MATH_COACH),
    ('面积是12cm²，求解边长', (), 'route', 'math', 'problem', MATH_COACH),
    ('一个角是30°，这道题怎么做', (), 'route', 'math', 'problem', MATH_COACH),
    ('长10mm宽20mm怎么解', (), 'route', 'math', 'problem', MATH_COACH),
    ('受力分析里有个30°的角，这题怎么算', (), 'route', 'math', 'problem', MATH_COACH),
    ('速度题里有一段8cm的线段，不会做', (), 'route', 'math', 'problem', MATH_COACH),
    ('3dm等于多少，这道题错了', (), 'route', 'math', 'correction', NOTEBOOK),
    # image tags beat text (and units)
    ('这个方程怎么解', ('circuit_diagram',), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('电流怎么求，这道题怎么做', ('coordinate_system',), 'route', 'math', 'problem', MATH_COACH),
    ('这个怎么画，不会做', ('force_diagram',), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('这题怎么算', ('english_passage',), 'route', 'english', 'problem', ENGLISH),
    ('这道题怎么做', ('classical_chinese',), 'route', 'chinese', 'problem', CHINESE),
    ('10N的力，这题怎么算', ('coordinate_system',), 'route', 'math', 'problem', MATH_COACH),
    ('这道题错了', ('geometry_figure',), 'route', 'math', 'correction', NOTEBOOK),
    ('这道题错了', ('circuit_diagram',), 'route', 'physics', 'correction', NOTEBOOK),
    ('帮我看看这道题', ('holiday_photo',), *UNSURE),
    ('这道题怎么做', ('holiday_photo', 'light_path'), 'route', 'physics', 'problem', PHYSICS_COACH),
    # keywords
    ('这个方程怎么解', (), 'route', 'math', 'problem', MATH_COACH),
    ('一次函数的图像这道题怎么做', (), 'route', 'math', 'problem', MATH_COACH),
    ('浮力怎么求，这题怎么算', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('电路图看不懂，这道题怎么做', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('三角形面积不会做', (), 'route', 'math', 'problem', MATH_COACH),
    ('摩擦力的方向不会做', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('这道题的不等式怎么解', (), 'route', 'math', 'problem', MATH_COACH),
    ('杠杆平衡这题怎么算', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('定语从句不会做', (), 'route', 'english', 'problem', ENGLISH),
    ('被动语态这道题怎么做', (), 'route', 'english', 'problem', ENGLISH),
    ('这首古诗怎么赏析，不会做', (), 'route', 'chinese', 'problem', CHINESE),
    ('病句这道题怎么做', (), 'route', 'chinese', 'problem', CHINESE),
    ('概率题怎么解', (), 'route', 'math', 'problem', MATH_COACH),
    ('透镜成像不会做', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    ('电流和电压的关系，还有一个函数，怎么解', (), 'route', 'physics', 'problem', PHYSICS_COACH),
    # unsure: ask, never guess
    ('速度和函数的关系怎么解', (), *UNSURE),
    ('这道题怎么做', (), *UNSURE),
    ('帮我看看这道题', (), *UNSURE),
    ('这题怎么算', (), *UNSURE),
    ('我做错了不知道为什么', (), 'clarify', '', 'correction', ''),
    ('这道题错了', (), 'clarify', '', 'correction', ''),
    ('I a boy，这题怎么算', (), *UNSURE),
    ('第3题我又错了', (), 'clarify', '', 'correction', ''),
    # continuous English sentences
    ('What is the main idea of this passage? 这道题怎么做', (), 'route', 'english', 'problem', ENGLISH),
    ('I do not know why the answer is wrong', (), 'route', 'english', 'problem', ENGLISH),
    ('She has been living here since 2010, why not for?', (), 'route', 'english', 'problem', ENGLISH),
    ('Tom goes to school by bus every day 这句话错在哪', (), 'route', 'english', 'correction', NOTEBOOK),
    # long Chinese passages and classical texts
    (MODERN_PASSAGE, (), 'route', 'chinese', 'problem', CHINESE),
    ('学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？这道题怎么做', (),
     'route', 'chinese', 'problem', CHINESE),
    ('子曰：三人行，必有我师焉。择其善者而从之，其不善者而改之。不会做', (), 'route', 'chinese', 'problem',
     CHINESE),
    # cross-subject themes
    ('丝绸之路和地理有什么关系', (), 'route', 'cross_subject', 'cross_subject', CROSS),
    ('气候变化跟物理的浮力有关吗', (), 'route', 'cross_subject', 'cross_subject', CROSS),
    ('我觉得这两科好像有关系', (), 'route', 'cross_subject', 'cross_subject', CROSS),
    ('全球变暖的原理是什么', (), 'route', 'cross_subject', 'cross_subject', CROSS),
    ('工业革命为什么先在英国', (), 'route', 'cross_subject', 'cross_subject', CROSS),
    ('碳中和的方程怎么解', (), 'route', 'cross_subject', 'cross_subject', CROSS),
    # stages
    ('我以为我懂了但是说不清', (), 'route', '', 'feynman', FEYNMAN),
    ('浮力我以为懂了，一讲就讲不出来', (), 'route', 'physics', 'feynman', FEYNMAN),
    ('学完就忘，记不住', (), 'route', '', 'notes', 'xiaozhi-cornell-notes'),
    ('我一直拖，作业没开始', (), 'route', '', 'plan', 'xiaozhi-study-planner'),
    ('我不知道先做什么', (), 'route', '', 'plan', 'xiaozhi-study-planner'),
    ('总是分心，专注不了', (), 'route', '', 'focus', 'xiaozhi-time-focus-coach'),
    ('计划完不成', (), 'route', '', 'focus', 'xiaozhi-time-focus-coach'),
    ('方程我总是错', (), 'route', 'math', 'correction', NOTEBOOK),
    ('电路题又错了', (), 'route', 'physics', 'correction', NOTEBOOK),
    ('10N的力算错了', (), 'route', 'physics', 'correction', NOTEBOOK),
    ('函数题为什么不对', (), 'route', 'math', 'correction', NOTEBOOK),
    ('英语语法题做错了', (), 'route', 'english', 'correction', NOTEBOOK),
    ('古诗赏析的答案不对', (), 'route', 'chinese', 'correction', NOTEBOOK),
    # whole system, privacy, reminders (no consent yet)
    ('帮我生成全景月报', (), 'report', '', '', ''),
    ('这个月的报告给我看看', (), 'report', '', '', ''),
    ('我的学习系统运转得好吗', (), 'health_check', '', '', ''),
    ('做一次健康检查', (), 'health_check', '', '', ''),
    ('查看我的联动记录', (), 'privacy', '', '', ''),
    ('删除我的联动记录', (), 'privacy', '', '', ''),
    ('这次不要联动费曼', (), 'privacy', '', '', ''),
    ('这次不要记忆', (), 'privacy', '', '', ''),
    ('导出我的月报', (), 'privacy', '', '', ''),
    ('不要给家长看', (), 'privacy', '', '', ''),
    ('提醒我明天复习浮力', (), 'declined', '', 'reminder', ''),
    # not a learning request
    ('今天天气怎么样', (), 'declined', '', '', ''),
    ('', (), 'declined', '', '', ''),
    ('讲个笑话吧', (), 'declined', '', '', ''),
]


def test_the_table_has_at_least_eighty_requests():
    assert len(TABLE) >= 80


@pytest.mark.parametrize('text, tags, action, subject, stage, target', TABLE)
def test_routing_table(coordinator, text, tags, action, subject, stage, target):
    decision = coordinator.decide(Request('r', 'l', text, tags), LearnerView(), NOW)
    assert (decision.action, decision.subject, decision.stage, decision.target_skill) == \
        (action, subject, stage, target)


@pytest.mark.parametrize('text, tags', [(row[0], row[1]) for row in TABLE if row[2] == 'clarify'])
def test_unsure_asks_exactly_the_documents_question(coordinator, text, tags):
    assert coordinator.decide(Request('r', 'l', text, tags), LearnerView(), NOW).reply_text == \
        '这题是数学还是物理的？'


def test_the_decision_says_which_rule_decided(coordinator):
    detail = coordinator.decide(Request('r', 'l', '10N的力，这个方程怎么解'), LearnerView(), NOW).detail
    assert detail['subject_rule'] == 'unit' and 'N' in detail['evidence']


@given(text=st.text(max_size=200), tags=st.lists(st.sampled_from(
    ['circuit_diagram', 'coordinate_system', 'force_diagram', 'english_passage', 'classical_chinese',
     'x']), max_size=3))
def test_errors_never_go_straight_to_a_subject_skill(coordinator, text, tags):
    """Subject skills receive errors only through the correction notebook's handover."""
    decision = coordinator.decide(Request('r', 'l', text, tuple(tags)), LearnerView(), NOW)
    assert not decision.target_skill.endswith('error-dna')
    if decision.stage == 'correction':
        assert decision.target_skill in ('', NOTEBOOK)
    assert decision.action in ('route', 'clarify', 'crisis_referral', 'report', 'health_check',
                               'privacy', 'reminder', 'declined')


@given(text=st.text(max_size=120))
def test_routing_is_deterministic(coordinator, text):
    first = coordinator.decide(Request('r', 'l', text), LearnerView(), NOW)
    assert coordinator.decide(Request('r', 'l', text), LearnerView(), NOW) == first
