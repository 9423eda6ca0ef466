"""The hypothesis guard on confidence judgements covers the class, not its two examples
(004: Confidence 主权立法; issue 16, records item 2), and ordinary hypotheses still pass."""

from __future__ import annotations

import itertools

import pytest
from records_desk import taught_pair

from robot_skills.records.calibration import confidence_judgement

SUBJECTS = ('她', '林小雨', '这位学习者', '小雨同学')
TOPICS = ('受力分析', '斜面题', '矢量分解', '选择题')

# {s}: the learner, {t}: a topic. Each family of the class, in many phrasings.
JUDGEMENTS = {
    'confidence_level': (
        '{s}的把握度偏低', '{s}在{t}上的把握度普遍很高', '{s}对{t}没什么把握', '{s}做{t}时信心不足',
        '{s}对{t}很有信心', '{s}很自信', '{s}缺乏自信', '{s}做{t}时心里没底', '{s}对{t}的答案拿不准',
        '{s}标注的把握很高', '{s}的自我效能感偏低', '{s}做{t}底气不足', '{s}对自己的答案很有把握',
        '{s}在{t}上把握不大', '{s}做{t}时有点心虚', '{s}碰到{t}就发怵', '{s}不确定自己会不会{t}',
        '{s}对{t}吃不准', '{s}选了低把握但答对了', '{s}的信心在{t}之后明显上升',
    ),
    'over_under_confidence': (
        '{s}高估自己', '{s}低估了自己的水平', '{s}高估了自己的{t}能力', '{s}在{t}上过度自信',
        '{s}有点盲目自信', '{s}总是看低自己', '{s}小看了自己', '{s}在{t}上妄自菲薄',
        '{s}自视过高', '{s}做{t}眼高手低', '{s}过于自信，{t}错得多', '{s}对{t}过高估计了自己',
        '{s}在{t}上不够自信',
    ),
    'self_assessment_vs_accuracy': (
        '{s}的自评和实际正确率对不上', '{s}的自我评估与{t}的正确率脱节',
        '{s}觉得自己已经会了{t}，但正确率只有一半', '{s}以为自己做对了{t}，其实错了',
        '{s}对自己水平的估计偏高', '{s}对自己{t}成绩的预估过于乐观', '{s}自认为掌握了{t}',
        '{s}说有把握的{t}反而错得多', '{t}的正确率和{s}的把握度不匹配', '{s}的把握度校准很差',
        '{s}自我感觉良好，{t}却常错', '{s}认为自己{t}没问题，但错了三道', '{s}的自我评价总比实际低',
        '{s}对自己的判断偏保守，{t}其实都做对了', '{s}的自估分数和{t}得分差很多',
    ),
}
ENGLISH = (
    'she is overconfident', 'she is under-confident on {t}', 'she overestimates herself',
    'she underestimates her own ability in {t}', 'her confidence is low', 'she lacks confidence',
    'she thinks she knows {t} but gets it wrong', "her self-assessment doesn't match her accuracy",
    'she is poorly calibrated', 'her confidence calibration is off', 'she sells herself short',
    'she doubts herself on {t}', 'she is sure of herself even when wrong',
    'her self-ratings exceed her scores', 'she feels unsure about {t}',
    'she underestimates what she can do', 'she seems badly calibrated on {t}',
    'She is confident with {t}', 'she answers confidently but often wrongly',
)

# Ordinary hypotheses about her skills, habits and misconceptions: written, even when they
# share a word with the class (高估 a force, 把握住 a point, 校准 an instrument, 自信息, a
# confidence interval, 以为 a misconception, 自己 as a habit).
NEAR_MISSES = (
    '{s}习惯先画图再列式', '{s}高估了摩擦力的作用', '{s}低估了斜面倾角对加速度的影响',
    '{s}已经把握住{t}的要点', '{s}没把握好{t}的解题节奏', '{s}能校准弹簧测力计',
    '{s}对置信区间的概念还不熟', '{s}总把自信息和熵混淆', '{s}喜欢自己先推导一遍{t}',
    '{s}能自己发现{t}里的计算错误', '{s}以为惯性是一种力', '{s}觉得{t}比平抛难',
    '{s}对{t}掌握得很扎实', '{s}在小组讨论中很少发言', '{s}独自评估了两种解法的优劣',
    '{s}对自己要求很高，作业总是写得很整齐', '{s}的估算能力很强', '{s}来自信息工程专业',
    '{s}做{t}时常常漏掉单位', '{s}亲自设计了一个{t}的小实验', '{s}的{t}正确率在上升',
    '{s}的表现和上周相比更稳定', '{s}会用校准过的天平称量', '{s}的自学能力强',
    '{s}独自认真地完成了{t}', '{s}把仪器校准得很准', '{s}觉得自己需要更多练习{t}',
    '{s}的自我纠错能力在提升', '{s}把握时间的能力不错', '{s}的笔记把握了{t}的重点',
    '{s}认为惯性和质量无关', '{s}常常把自己的错题整理成卡片',
)
ENGLISH_NEAR_MISSES = (
    'she underestimates friction in {t}', 'she struggles with confidence intervals',
    'she can calibrate the spring scale', 'she estimates quantities well before computing',
    'she checks her own answers against the key', 'she used a well-calibrated balance',
    'I think she can handle {t} next week', 'she thinks in pictures before equations',
    'she overestimates the normal force on inclines', 'her self-study habits are steady',
    'she studies {t} by herself in the evenings', 'she feels tired after long sessions',
    'she believes {t} is hard', 'she rates the difficulty of problems before starting',
)


def fill(templates, subjects=SUBJECTS, topics=TOPICS):
    return sorted({t.format(s=s, t=topic) for t in templates
                   for s, topic in itertools.product(subjects, topics)})


@pytest.mark.parametrize('family', sorted(JUDGEMENTS))
def test_every_phrasing_of_each_family_is_recognised(family):
    for text in fill(JUDGEMENTS[family]):
        assert confidence_judgement(text) is not None, text


def test_english_phrasings_are_recognised():
    for text in fill(ENGLISH, subjects=('',), topics=('vectors', 'word problems')):
        assert confidence_judgement(text) is not None, text


def test_near_misses_are_ordinary_hypotheses():
    for text in fill(NEAR_MISSES) + fill(ENGLISH_NEAR_MISSES, subjects=('',),
                                         topics=('vectors', 'word problems')):
        assert confidence_judgement(text) is None, (text, confidence_judgement(text))


@pytest.mark.parametrize('text', [
    '她评估自己的能力偏高', '她倾向于低估她自己', '她对自己的判断总是过于乐观', '她自我怀疑',
    '她估计自己能考90分但只考了60', '她预期得分远高于实际得分', '她的确定程度和正确率不一致',
    '她对答案很笃定但常常错', '她经常过分确定', 'She is too sure of her answers',
    'She doubts her own ability', 'her certainty exceeds her accuracy',
    'She rates her understanding higher than her test results show'])
def test_phrasings_a_reviewer_found_are_judgements(text):
    assert confidence_judgement(text) is not None


@pytest.mark.parametrize('text', [
    '她预计下周完成第三章', '她怀疑这道题的条件不全', '她经常过分依赖公式', '她评估了三种解法',
    'She rates the three methods', 'She expects the test on Friday', '她对答案的单位常常写错'])
def test_their_near_misses_are_still_written(text):
    assert confidence_judgement(text) is None


def test_the_family_named_is_the_one_the_judgement_belongs_to():
    assert confidence_judgement('她的把握度偏低') == 'confidence_level'
    assert confidence_judgement('她高估自己') == 'over_under_confidence'
    assert confidence_judgement('她的自评和实际正确率对不上') == 'self_assessment_vs_accuracy'


@pytest.mark.parametrize('observation', [JUDGEMENTS[f][i].format(s='她', t='受力分析')
                                         for f in sorted(JUDGEMENTS) for i in (0, 3, 6)])
def test_write_hypothesis_refuses_the_class_and_writes_nothing(desk, observation):
    pair, _ = taught_pair(desk)
    refused = desk.refused('write_hypothesis', 'VALIDATION', pair_id=pair, domain='解题',
                           observation=observation, confidence=0.5)
    assert 'reflect_on_teaching' in refused.error
    assert refused.result['shortfall']['judgement'] == confidence_judgement(observation)
    assert desk.store.one('SELECT count(*) FROM hypothesis')[0] == 0


@pytest.mark.parametrize('domain', ['把握度', '自信心', '自我评估', 'confidence', 'self-assessment'])
def test_a_confidence_domain_is_refused_too(desk, domain):
    pair, _ = taught_pair(desk)
    desk.refused('write_hypothesis', 'VALIDATION', pair_id=pair, domain=domain,
                 observation='她做题前会停顿很久', confidence=0.5)


def test_near_miss_hypotheses_are_written(desk):
    pair, _ = taught_pair(desk)
    observations = fill(NEAR_MISSES, subjects=('她',), topics=('受力分析',))
    for observation in observations:
        assert desk.ok('write_hypothesis', pair_id=pair, domain='解题', observation=observation,
                       confidence=0.6)['written'] is True
    assert desk.store.one('SELECT count(*) FROM hypothesis')[0] == len(observations)


def test_revising_into_a_confidence_judgement_is_refused(desk):
    pair, _ = taught_pair(desk)
    made = desk.ok('write_hypothesis', pair_id=pair, domain='解题', observation='她习惯先画图',
                   confidence=0.6)['hypothesis_id']
    desk.refused('write_hypothesis', 'VALIDATION', pair_id=pair, hypothesis_id=made,
                 action='revise', observation='她画图时很没把握')
    assert desk.store.one("SELECT count(*) FROM hypothesis WHERE status = 'active'")[0] == 1
