"""learning_coordinator over real DDS: decisions, services, privacy end to end, restarts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from coordinator_talk import Rig
from rclpy.parameter import Parameter
from ros_harness import Harness

from robot_skills.adapters.database import StoreError
from robot_skills.coordinator.node import LearningCoordinator
from robot_skills.runtime import paths


def test_a_physics_error_with_units_goes_to_the_correction_notebook(rig):
    decision = rig.ask('一个10N的力拉物体，这道题我做错了不知道为什么')
    assert (decision.action, decision.subject, decision.stage, decision.target_skill) == \
        ('route', 'physics', 'correction', 'xiaozhi-correction-notebook')
    assert json.loads(decision.detail_json)['subject_rule'] == 'unit'


def test_unsure_asks_and_image_tags_decide(rig):
    assert rig.ask('这道题怎么做').reply_text == '这题是数学还是物理的？'
    assert rig.ask('这道题怎么做', tags=['circuit_diagram']).subject == 'physics'


def test_a_crisis_is_referred_and_traced_without_the_words(rig):
    decision = rig.ask('我在上海，我真的不想活了')
    assert decision.action == 'crisis_referral' and '110或120' in decision.reply_text
    traced = rig.ros.until(lambda: [e for e in rig.events.messages if e.kind == 'decision'],
                           what='the decision traced')
    assert '不想活' not in traced[-1].detail_json and '已转介' in traced[-1].detail_json


def test_handover_service_accepts_refuses_and_degrades(rig):
    raw = Path(paths.config('schemas/examples/wrong-answer-handover.example.json')).read_text(
        encoding='utf-8')
    assert rig.call('handover', handover_json=raw).accepted
    bad = raw.replace('"crossSkillSharing": true', '"crossSkillSharing": false')
    first = rig.call('handover', handover_json=bad)
    assert not first.accepted and any('crossSkillSharing' in e for e in first.errors)
    assert first.reply_text == ''
    assert '这条记录我没能存进去' in rig.call('handover', handover_json=bad).reply_text


def test_report_and_health_without_and_with_data(rig):
    offer = rig.call('monthly_report', learner_id='l1', agreed=False)
    assert not offer.generated and offer.report_text == '这个月要不要做一次全景月报？'
    empty = rig.call('monthly_report', learner_id='l1', agreed=True, session_notes='方程总错')
    assert empty.session_only and '本报告只覆盖你刚才告诉我的部分' in empty.report_text
    assert rig.call('health_check', learner_id='l1').healthy_count == 0
    assert rig.call('consent', learner_id='l1', update_json='{"crossSkillSharing": true}').ok
    rig.ask('方程又错了')
    full = rig.call('monthly_report', learner_id='l1', agreed=True)
    assert full.generated and not full.session_only and json.loads(full.report_json)['records'] == 1
    health = rig.call('health_check', learner_id='l1')
    assert json.loads(health.indicators_json)['错题有记录'] == '健康'


def test_a_bad_consent_update_is_refused_by_name(rig):
    refused = rig.call('consent', learner_id='l1', update_json='{"reminderConsent": "soon"}')
    assert not refused.ok and 'reminderConsent' in refused.error
    assert json.loads(refused.consent_json)['reminderConsent'] is False


def test_reminders_need_consent(rig):
    assert rig.ask('提醒我复习浮力').action == 'declined'
    rig.call('consent', learner_id='l1', update_json='{"reminderConsent": true}')
    assert rig.ask('提醒我复习浮力').reply_text == '我把它加进你的提醒队列了。'


def test_privacy_controls_end_to_end(rig):
    rig.call('consent', learner_id='l1', update_json='{"crossSkillSharing": true}')
    rig.ask('浮力又错了')
    viewed = rig.call('privacy', learner_id='l1', action='view')
    [record] = json.loads(viewed.data_json)
    corrected = rig.call('privacy', learner_id='l1', action='correct', argument_json=json.dumps(
        {'record_id': record['record_id'], 'fields': {'concept': '压强'}}))
    assert corrected.ok and json.loads(corrected.data_json)['concept'] == '压强'
    exported = rig.call('privacy', learner_id='l1', action='export')
    assert '涉及知识点：压强' in json.loads(exported.data_json)
    assert rig.ask('这次不要联动错题本').action == 'privacy'
    assert rig.ask('函数题又错了').action == 'declined'
    assert rig.call('privacy', learner_id='l1', action='resume_linkage',
                    argument_json='{"skill": "xiaozhi-correction-notebook"}').ok
    rig.ask('这次不要记忆')
    rig.ask('函数题又错了')
    assert len(json.loads(rig.call('privacy', learner_id='l1', action='view').data_json)) == 1
    assert '确定' in rig.ask('删除我的联动记录').reply_text
    assert rig.ask('确定').reply_text == '你的联动记录已经全部删除了。'
    assert json.loads(rig.call('privacy', learner_id='l1', action='view').data_json) == []
    assert not rig.call('privacy', learner_id='l1', action='teleport').ok


def test_a_restart_loses_nothing(store_path):
    first = Harness()
    try:
        rig = Rig(first, store_path)
        rig.call('consent', learner_id='l1',
                 update_json='{"crossSkillSharing": true, "reminderConsent": true}')
        rig.ask('浮力又错了')
        rig.ask('提醒我复习浮力')
    finally:
        first.close()
    second = Harness()
    try:
        rig = Rig(second, store_path)
        consent = json.loads(rig.call('consent', learner_id='l1').consent_json)
        assert consent['crossSkillSharing'] and consent['reminderConsent']
        [record] = json.loads(rig.call('privacy', learner_id='l1', action='view').data_json)
        assert record['concept'] == '浮力'
        assert json.loads(rig.ask('浮力又错了').detail_json)['deduplicated']
        assert json.loads(rig.ask('提醒我复习浮力').detail_json)['merged_into'] >= 1
    finally:
        second.close()


@pytest.mark.parametrize('text', ['', '题' * 100000, '\x00\x01', '{"action": "delete"}'])
def test_bad_requests_get_a_decision_and_the_node_lives(rig, text):
    assert rig.ask(text).action in ('declined', 'clarify')
    assert rig.ask('这个方程怎么解').subject == 'math'


def test_an_unusable_store_stops_the_node_with_the_reason(ros, tmp_path):
    (tmp_path / 'not-a-db').write_bytes(b'garbage' * 1000)
    with pytest.raises(StoreError, match='not-a-db'):
        ros.add(LearningCoordinator, parameter_overrides=[
            Parameter('store_path', value=str(tmp_path / 'not-a-db'))])
