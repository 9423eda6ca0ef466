"""Each reason to speak, on crafted histories of the shipped pack (community_waste)."""

from __future__ import annotations

import pytest
from pbl_ta_talk import digest, material

from robot_skills.pbl_ta.detectors import (
    Finding,
    Policy,
    abstract,
    findings,
    misreading,
    stall_gap,
    stalled,
    uncovered_point,
)
from robot_skills.pbl_ta.history import HOW_TO

POLICY = Policy()
FINES = '其实罚款就能解决，多罚几次就好了'


# ---- misreading --------------------------------------------------------------------------

@pytest.mark.parametrize('texts, expected', [
    ((FINES,), None),                                   # peers get a turn to correct it
    ((FINES, '嗯'), Finding('misreading', 'm_fines')),  # nobody did
    ((FINES, '可是罚款条款两年都没执行过啊'), None),       # a peer corrected it
    ((FINES, '嗯', 'TA:m_fines'), None),               # the TA already answered it
    ((FINES, '嗯', 'TA:m_fines', '还是罚款就能解决'),       # said again after the TA: blocks
     Finding('misreading', 'm_fines', blocking=True)),
    ((FINES, '对，只要罚款就行'), Finding('misreading', 'm_fines', blocking=True)),
    (('不是罚款就能解决的',), None),                     # negated: not a misreading
    (('我觉得大家意识差', '是啊'), Finding('misreading', 'm_awareness')),
    (('我觉得大家意识差', '可清运车把垃圾混着拉走了'), None),
], ids=['grace', 'standing', 'corrected', 'answered', 'said-again', 'repeated', 'negated',
        'awareness', 'awareness-corrected'])
def test_misreading(texts, expected):
    assert misreading(material(), digest(*texts), POLICY) == expected


def test_a_misreading_corrected_and_said_again_starts_over():
    history = digest(FINES, '可是罚款条款没执行过', '我还是觉得罚款就能解决')
    assert history.misread['m_fines'].count == 1 and history.misread['m_fines'].corrected is None
    assert misreading(material(), history, POLICY) is None     # a new grace


def test_a_misreading_that_blocks_by_the_pack_needs_no_grace():
    pack = material()
    blocking = pack.model_copy(update={'misreadings': [
        pack.misreadings[0].model_copy(update={'blocks': True}), *pack.misreadings[1:]]})
    assert misreading(blocking, digest(FINES, pack=blocking), POLICY) == \
        Finding('misreading', 'm_fines', blocking=True)


# ---- stall ---------------------------------------------------------------------------------

@pytest.mark.parametrize('texts, expected', [
    (('嗯', '对', '我同意'), True),
    (('嗯', '对'), False),                                      # not long enough yet
    (('嗯', '清运车把垃圾混着拉走了', '对'), False),              # new content in the window
    (('清运车把垃圾混着拉走了', '清运车把垃圾混着拉走了', '清运车把垃圾混着拉走了', '嗯'), True),
    (('嗯', '对', 'TA:p_success', '嗯'), False),                 # counted since the TA spoke
    (('嗯', '对', 'TA:p_success', '嗯', '是的', '不知道'), True),
    (('我们可以让楼长排班', '我也觉得', '对对', '没错'), True),
], ids=['three-empty', 'two-empty', 'fresh', 'repeated', 'after-ta', 'again', 'late'])
def test_stall(texts, expected):
    assert stalled(digest(*texts), POLICY) is expected


def test_stall_gap_prefers_an_open_conflict_then_a_point_then_how_to():
    assert stall_gap(material(), digest('嗯')) == 'p_success'
    both_sides = digest('定时定点最管用', '可是清运车混运的话就白分了')
    assert stall_gap(material(), both_sides) == 'x_front_back'
    settled = digest('定时定点最管用', '可是清运车混运的话就白分了', '我觉得先做前端')
    assert stall_gap(material(), settled) == 'p_people'
    assert stall_gap(material(), digest('嗯'), order=('p_people',)) == 'p_people'
    everything = digest('定时定点让准确率上去了', '清运车混运也要管', '比较一下，先做前端',
                        '楼长招募志愿者')
    assert stall_gap(material(), everything) == ''   # concrete action said: nothing to push
    without_action = digest('定时定点让准确率上去了', '清运车混运也要管', '比较一下，前端更要紧',
                            '楼长很辛苦')
    assert stall_gap(material(), without_action) == HOW_TO


# ---- uncovered point -------------------------------------------------------------------------

def test_a_point_is_raised_only_after_uncovered_turns():
    seven = ['我们讨论一下', *(f'第{n}个想法' for n in range(6))]
    assert uncovered_point(material(), digest(*seven), POLICY) is None
    assert uncovered_point(material(), digest(*seven, '还有别的'), POLICY) == \
        Finding('uncovered_point', 'p_success')


def test_a_covered_point_is_not_raised_and_the_previous_card_orders_them():
    covered = digest('定时定点让准确率上去了', *(f'想法{n}' for n in range(8)))
    assert uncovered_point(material(), covered, POLICY) == Finding('uncovered_point', 'p_backend')
    ordered = uncovered_point(material(), covered, POLICY, order=('p_people', 'p_backend'))
    assert ordered == Finding('uncovered_point', 'p_people')


def test_a_raised_point_waits_another_window():
    texts = [f'想法{n}' for n in range(8)]
    raised = digest(*texts, 'TA:p_success', *texts[:7])
    assert uncovered_point(material(), raised, POLICY) == Finding('uncovered_point', 'p_backend')
    everything_raised = digest(*texts, 'TA:p_success', 'TA:p_backend', 'TA:p_people', '再想想')
    assert uncovered_point(material(), everything_raised, POLICY) is None


# ---- abstract ----------------------------------------------------------------------------------

@pytest.mark.parametrize('texts, expected', [
    (('意识很重要', '态度是根本', '关键在于观念', '所以应该重视'), True),
    (('意识很重要', '态度是根本', '关键在于观念'), False),            # not long enough
    (('意识很重要', '态度是根本', '我们先让楼长排班', '所以应该重视'), False),  # an action
    (('嗯', '哦', '好吧', '意识很重要'), False),                        # no analysis to speak of
    (('意识很重要', '态度是根本', '关键在于观念', '所以应该重视', 'TA:how_to', '重要'), False),
], ids=['abstract', 'short', 'acted', 'no-analysis', 'after-push'])
def test_abstract(texts, expected):
    assert (abstract(digest(*texts), POLICY) == Finding('abstract', HOW_TO)) is expected


def test_findings_put_a_misreading_first():
    texts = ['意识很重要', '态度是根本', '关键在于观念', FINES, '所以应该重视']
    found = findings(material(), digest(*texts), POLICY)
    assert [f.reason for f in found] == ['misreading', 'abstract']
    assert findings(material(), digest('定时定点让准确率上去了'), POLICY) == []
