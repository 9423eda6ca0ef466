"""Section 五 (and 4.2): when to suggest Feynman, a plan or focus support, and when not Feynman."""

from __future__ import annotations

from dataclasses import fields

import pytest
from coordinator_talk import NOW
from hypothesis import given
from hypothesis import strategies as st

from robot_skills.coordinator.core import LearnerView, Request
from robot_skills.coordinator.triggers import (
    CALCULATION_SLIP,
    CONCEPT_UNCLEAR,
    READING_SLIP,
    WRONG_METHOD,
    ErrorContext,
    ExecutionContext,
    feynman_exemptions,
    feynman_reasons,
    focus_reasons,
    plan_reasons,
    suggest_feynman,
)


@pytest.mark.parametrize('error, reason', [
    (ErrorContext(error_type=CONCEPT_UNCLEAR), '错误类型 = 概念模糊'),
    (ErrorContext(error_type=WRONG_METHOD, method_boundary_unclear=True), '错误类型 = 方法用错，且边界感不清'),
    (ErrorContext(occurrences=3), '同一知识点错误次数 >= 3'),
    (ErrorContext(occurrences=7), '同一知识点错误次数 >= 3'),
    (ErrorContext(says_thought_understood=True), '学生说"我以为我懂了"'),
    (ErrorContext(says_understood_after_answer=True), '看过AI或答案后说"我明白了"'),
])
def test_5_1_each_reason_suggests_feynman(error, reason):
    assert feynman_reasons(error) == [reason] and suggest_feynman(error)


@pytest.mark.parametrize('error', [
    ErrorContext(), ErrorContext(error_type=WRONG_METHOD), ErrorContext(occurrences=2),
    ErrorContext(method_boundary_unclear=True), ErrorContext(error_type=CALCULATION_SLIP),
])
def test_5_1_without_a_reason_no_feynman(error):
    assert not suggest_feynman(error)


@pytest.mark.parametrize('error, reason', [
    (ErrorContext(error_type=CALCULATION_SLIP, occurrences=5), '明显的计算失误'),
    (ErrorContext(error_type=READING_SLIP, occurrences=3), '明显的读题失误，且概念本身没问题'),
    (ErrorContext(error_type=CONCEPT_UNCLEAR, record_only=True), '学生明确要求"今天只记录，不做深挖"'),
    (ErrorContext(says_thought_understood=True, record_only=True), '学生明确要求"今天只记录，不做深挖"'),
])
def test_5_3_exemptions_win_over_reasons(error, reason):
    assert feynman_reasons(error) and reason in feynman_exemptions(error)
    assert not suggest_feynman(error)


def test_5_3_a_reading_slip_with_a_shaky_concept_is_not_exempt():
    error = ErrorContext(error_type=READING_SLIP, concept_ok=False, occurrences=3)
    assert feynman_exemptions(error) == [] and suggest_feynman(error)


@given(st.builds(ErrorContext, error_type=st.sampled_from(
    ['', CONCEPT_UNCLEAR, WRONG_METHOD, CALCULATION_SLIP, READING_SLIP]),
    occurrences=st.integers(0, 10)))
def test_suggest_is_reasons_without_exemptions(error):
    assert suggest_feynman(error) == (bool(feynman_reasons(error))
                                      and not feynman_exemptions(error))


@pytest.mark.parametrize('execution, plan, focus', [
    (ExecutionContext(weeks_postponed=2), ['同一任务连续两周拖延'], []),
    (ExecutionContext(weeks_postponed=1), [], []),
    (ExecutionContext(reminder_completion_low=True), [], ['复习提醒收到但完成率持续偏低']),
    (ExecutionContext(fails_at_start=True), ['明知道要做，却总在开始环节失败'], []),
    (ExecutionContext(plan_exists=True, interrupted_by_distraction=True), [], ['计划存在，但执行总被分心打断']),
    (ExecutionContext(interrupted_by_distraction=True), [], []),
    (ExecutionContext(knows_method=True, weeks_postponed=1), ['学生知道方法，但连续拖延没执行'], []),
    (ExecutionContext(plan_exists=True, misses_deadlines=True), [], ['计划写了，但总是无法按时完成']),
    (ExecutionContext(reviews_neglected=True), ['错题长期不回看，费曼测试总约不上：检查计划安排'],
     ['错题长期不回看，费曼测试总约不上：检查专注阻力']),
    (ExecutionContext(), [], []),
])
def test_5_2_and_4_2_plan_and_focus_support(execution, plan, focus):
    assert (plan_reasons(execution), focus_reasons(execution)) == (plan, focus)


def test_every_context_field_matters_somewhere():
    """No field of the contexts is dead: flipping each alone (with its partner) changes a reading."""
    partners = {'interrupted_by_distraction': {'plan_exists': True},
                'misses_deadlines': {'plan_exists': True}, 'knows_method': {'weeks_postponed': 1},
                'method_boundary_unclear': {'error_type': WRONG_METHOD},
                'concept_ok': {'error_type': READING_SLIP}}
    for field in fields(ExecutionContext):
        if field.name == 'plan_exists':
            continue
        value = 2 if field.type == 'int' else True
        base = ExecutionContext(**{k: v for k, v in partners.get(field.name, {}).items()
                                   if k != 'weeks_postponed'})
        changed = ExecutionContext(**{**partners.get(field.name, {}), field.name: value})
        assert (plan_reasons(changed), focus_reasons(changed)) != \
            (plan_reasons(base), focus_reasons(base)), field.name
    for field in fields(ErrorContext):
        if field.name in ('error_type', 'concept_ok'):
            continue
        value = 3 if field.type == 'int' else True
        changed = ErrorContext(**{**partners.get(field.name, {}), field.name: value})
        base = ErrorContext(**partners.get(field.name, {}))
        assert (feynman_reasons(changed), feynman_exemptions(changed)) != \
            (feynman_reasons(base), feynman_exemptions(base)), field.name


# The learner's own words about an error (5.1, 5.3): Feynman suggested or not, and why.
WORDS = [
    ('方程这道题做错了，我以为我懂了', True, '学生说"我以为我懂了"'),
    ('这个概念搞不清，函数题又错了', True, '错误类型 = 概念模糊'),
    ('函数题算错了', False, ''),
    ('浮力题又错了，概念不理解，不过今天只记录，不做深挖', False, '学生明确要求"今天只记录，不做深挖"'),
    ('电路题错了，看了答案我明白了', True, '看过AI或答案后说"我明白了"'),
    # a count of repeated failures, in words or digits
    ('浮力这道题错了三次', True, '同一知识点错误次数 >= 3'),
    ('这是我第四遍做错这个方程了', True, '同一知识点错误次数 >= 3'),
    ('电路题做了5遍还是错', True, '同一知识点错误次数 >= 3'),
    ('函数题三回都做错了', True, '同一知识点错误次数 >= 3'),
    ('压强题错了两次', False, ''),
    ('第一次做这道方程就错了', False, ''),
    ('第二次做错这道电路题', False, ''),
    ('每次都错在受力分析上', True, '同一知识点错误次数 >= 3'),
    ('浮力题一错再错', True, '同一知识点错误次数 >= 3'),
    ('这类函数题我反反复复错了好多次', True, '同一知识点错误次数 >= 3'),
    # understood only after the answer, in any phrasing
    ('看完解析我就懂了，但方程题还是做错了', True, '看过AI或答案后说"我明白了"'),
    ('对完答案感觉理解了，可压强题又错了', True, '看过AI或答案后说"我明白了"'),
    ('讲解视频看完之后明白了，但是浮力题又错了', True, '看过AI或答案后说"我明白了"'),
    ('问了AI以后才清楚，可是这道方程做错了', True, '看过AI或答案后说"我明白了"'),
    ('方程的答案一看就会了，自己做就错了', True, '看过AI或答案后说"我明白了"'),
    ('我以为自己会了，结果函数题做错了', True, '学生说"我以为我懂了"'),
    # obvious slips and "只记录" skip the hint, whatever else is said
    ('浮力题错了三次，不过这次只是粗心算错了', False, '明显的计算失误'),
    ('方程错了三次，今天只记录，不做深挖', False, '学生明确要求"今天只记录，不做深挖"'),
    ('看了答案才明白，原来是我把浮力题的题目看错了', False, '明显的读题失误，且概念本身没问题'),
    ('电路题第四次错了，这次是单位看错了', False, '明显的读题失误，且概念本身没问题'),
    ('电路题第四次错了，看错题了，而且概念也模糊', True, '同一知识点错误次数 >= 3'),
]


@pytest.mark.parametrize('text, feynman, reason', WORDS)
def test_the_learners_words_decide_the_feynman_hint(coordinator, text, feynman, reason):
    decision = coordinator.decide(Request('r', 'l', text), LearnerView(), NOW)
    assert (decision.action, decision.stage, decision.target_skill) == \
        ('route', 'correction', 'xiaozhi-correction-notebook')
    assert (coordinator.phrases.feynman_hint in decision.reply_text) is feynman
    if reason:
        assert reason in decision.detail['feynman'] + decision.detail['no_feynman']


@pytest.mark.parametrize('text, feynman', [(text, feynman) for text, feynman, _ in WORDS[:5]])
def test_the_correction_reply_suggests_feynman_by_5_1_and_5_3(coordinator, text, feynman):
    decision = coordinator.decide(Request('r', 'l', text), LearnerView(), NOW)
    assert decision.stage == 'correction'
    assert (coordinator.phrases.feynman_hint in decision.reply_text) is feynman
