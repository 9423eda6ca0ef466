"""Section 六 (the five-dimension monthly report) and 七 (the system health check)."""

from __future__ import annotations

import itertools
import re

import pytest
from coordinator_talk import NOW, ask
from hypothesis import given
from hypothesis import strategies as st

from robot_skills.coordinator.records import LinkageRecord
from robot_skills.coordinator.report import health_check, monthly_report

DIMENSIONS = ['错题维度', '理解维度', '知识沉淀维度', '计划执行维度', '时间专注维度']
MONTH = NOW.strftime('%Y-%m')


def record(concept='一次函数', **flags) -> LinkageRecord:
    return LinkageRecord(**{'learner_id': 'l1', 'date': f'{MONTH}-10', 'trigger_source': '错题',
                            'concept': concept, 'skills': ('xiaozhi-correction-notebook',),
                            **flags})


def report(phrases, records, agreed=True, authorised=True, notes=''):
    return monthly_report(records, MONTH, agreed, authorised, notes, phrases.report_offer,
                          phrases.report_session_only, phrases.report)


def sections(text: str) -> list[str]:
    return re.findall(r'^[①②③④⑤] (\S+)$', text, re.M)


def test_without_asking_there_is_only_the_offer(phrases):
    made = report(phrases, [record(correction=True)], agreed=False)
    assert not made.generated and made.text == '这个月要不要做一次全景月报？'


@pytest.mark.parametrize('records, authorised', [([], True), ([record(correction=True)], False),
                                                 ([record(correction=True)._replace(date='2026-10-31')],
                                                  True)])
def test_without_authorised_data_of_the_month_it_covers_only_the_session(phrases, records,
                                                                          authorised):
    made = report(phrases, records, authorised=authorised, notes='我今天又错了三道方程，计划也拖了')
    assert made.session_only and '本报告只覆盖你刚才告诉我的部分' in made.text
    assert sections(made.text) == DIMENSIONS
    assert not re.search(r'\d', made.text.replace('我今天又错了三道方程，计划也拖了', ''))


@given(notes=st.text(alphabet='错题懂笔记计划专注分心我今天的了', max_size=30))
def test_a_session_only_report_never_invents_a_number(phrases, notes):
    assert not re.search(r'\d|%|百分', report(phrases, [], notes=notes).text)


def test_with_data_five_dimensions_a_synthesis_and_one_action(phrases):
    records = [record('一次函数', correction=True, root_cause='概念模糊') for _ in range(3)] + [
        record('浮力', feynman=True, mastered=True, notes=True),
        record('压强', plan=True, needs_plan=True), record('压强', focus=True)]
    text = report(phrases, records).text
    lines = text.splitlines()
    assert lines[0] == '📊 全景月度报告（五维度）' and sections(text) == DIMENSIONS
    synthesis = lines.index('综合判断：')
    assert lines[synthesis + 1].startswith('本月学习系统最强的一环：')
    assert lines[synthesis + 2].startswith('本月最需要补的一环：')
    assert lines[synthesis + 3] == '下月优先动作：' and len(lines) == synthesis + 5
    assert '顽固弱项：一次函数' in text and '错误类型分布' in text
    assert '本报告只覆盖' not in text


def test_the_next_action_is_for_the_weakest_link(phrases):
    records = [record(c, correction=True) for c in 'abc'] + [record('a', notes=True)]
    text = report(phrases, records).text
    assert '本月最需要补的一环：知识沉淀维度' in text
    assert text.endswith(phrases.report.actions['知识沉淀维度'])


def test_the_report_reads_only_the_learners_authorised_records(service):
    service.store.add_record(record(correction=True))
    assert '本报告只覆盖你刚才告诉我的部分' in ask(service, '帮我生成全景月报').reply_text
    service.consent('l1', '{"crossSkillSharing": true}')
    assert '错题联动：1' in ask(service, '帮我生成全景月报').reply_text
    assert '本报告只覆盖' in ask(service, '帮我生成全景月报', learner='l2').reply_text
    service.privacy('l1', 'no_sharing', '', NOW)
    assert '本报告只覆盖' in ask(service, '帮我生成全景月报').reply_text


def test_asking_for_the_report_is_agreeing(service):
    decision = ask(service, '帮我生成全景月报')
    assert decision.action == 'report' and decision.detail == {'session_only': True}
    assert service.monthly_report('l1', False, '', NOW).text == '这个月要不要做一次全景月报？'


# ---- health check ----------------------------------------------------------------------

def _records_with(healthy: set[int]) -> tuple[list[LinkageRecord], int, int]:
    """One record in which indicator n is healthy exactly when n is in ``healthy``."""
    one = record(correction=1 in healthy, root_cause='概念模糊', feynman=2 in healthy,
                 notes=3 in healthy, plan=True, needs_plan=4 not in healthy, focus=True,
                 needs_focus=5 not in healthy)
    return [one], 2, 2 if 6 in healthy else 0


@pytest.mark.parametrize('healthy', [set(c) for k in range(7)
                                     for c in itertools.combinations(range(1, 7), k)])
def test_health_reading_counts_healthy_indicators(phrases, healthy):
    records, sent, answered = _records_with(healthy)
    health = health_check(records, sent, answered, phrases.health)
    assert health.healthy_count == len(healthy)
    assert [n for n, state in enumerate(health.indicators.values(), 1) if state == '健康'] == \
        sorted(healthy)
    expected = ('系统运转良好' if len(healthy) >= 5 else '局部短板，需要补链' if len(healthy) >= 3
                else '系统未真正跑起来，需要从基础环节重建')
    assert health.reading == expected and health.text.endswith(f'{len(healthy)}项健康：{expected}')


def test_no_record_is_not_healthy(phrases):
    health = health_check([], 0, 0, phrases.health)
    assert health.healthy_count == 0 and set(health.indicators.values()) == {'没有记录，不能算健康'}
    assert list(health.indicators) == ['错题有记录', '理解有验证', '知识有沉淀', '计划可执行',
                                       '时间能落地', '提醒有回应']


def test_the_health_check_over_the_service(service):
    assert ask(service, '我的学习系统运转得好吗').detail['healthy'] == 0
    service.consent('l1', '{"crossSkillSharing": true}')
    ask(service, '方程又错了')
    ask(service, '浮力我以为懂了，但说不清')
    decision = ask(service, '我的学习系统运转得好吗')
    assert decision.action == 'health_check' and decision.detail['indicators']['错题有记录'] == '健康'
