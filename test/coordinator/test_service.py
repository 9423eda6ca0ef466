"""The coordinator over its store: dedupe, reminders, consent gates, privacy controls by text."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from coordinator_talk import NOW, ask

from robot_skills.coordinator.core import Request
from robot_skills.coordinator.service import PRIVACY_ACTIONS, CoordinatorService, Windows
from robot_skills.coordinator.store import Store

SHARE = '{"crossSkillSharing": true}'


@pytest.fixture
def shared(service):
    service.consent('l1', SHARE)
    return service


def test_the_same_concept_and_skill_is_not_dispatched_twice_in_the_window(service):
    first = ask(service, '方程又错了')
    again = ask(service, '方程又错了，帮我看看', now=NOW + timedelta(minutes=29))
    assert first.target_skill == again.target_skill == 'xiaozhi-correction-notebook'
    assert again.detail['deduplicated'] and '不重复派' in again.reply_text
    assert not again.writes
    later = ask(service, '方程又错了', now=NOW + timedelta(minutes=31))
    assert 'deduplicated' not in later.detail


def test_dedupe_is_per_learner_concept_and_skill(service):
    ask(service, '方程又错了')
    assert 'deduplicated' not in ask(service, '方程又错了', learner='l2').detail
    assert 'deduplicated' not in ask(service, '这个方程怎么解').detail         # another SKILL
    assert 'deduplicated' not in ask(service, '浮力又错了').detail             # another concept


def test_the_dedupe_window_is_a_setting(coordinator):
    store = Store(':memory:')
    service = CoordinatorService(coordinator, store, Windows(dedupe=0))
    ask(service, '方程又错了')
    assert 'deduplicated' not in ask(service, '方程又错了').detail
    store.close()


def test_a_reminder_needs_consent_and_promises_no_time(service):
    declined = ask(service, '提醒我明天晚上七点复习浮力')
    assert declined.action == 'declined' and service.store.reminders('l1') == []
    service.consent('l1', '{"reminderConsent": true}')
    queued = ask(service, '提醒我明天晚上七点复习浮力')
    assert queued.action == 'reminder' and queued.reply_text == '我把它加进你的提醒队列了。'
    assert not any(ch.isdigit() or ch in '点时分' for ch in queued.reply_text)
    assert len(service.store.reminders('l1')) == 1


def test_duplicate_reminders_are_merged(service):
    service.consent('l1', '{"reminderConsent": true}')
    ask(service, '提醒我复习浮力')
    merged = ask(service, '提醒我复习浮力', now=NOW + timedelta(hours=1))
    assert merged.action == 'reminder' and 'merged_into' in merged.detail
    assert service.store.reminders('l1') == [('plan_task', '提醒我复习浮力', 1)]
    ask(service, '提醒我复习浮力', now=NOW + timedelta(days=2))
    assert len(service.store.reminders('l1')) == 2


def test_linkage_records_only_with_cross_skill_sharing(service):
    ask(service, '方程又错了')
    assert service.store.records('l1') == []
    service.consent('l1', SHARE)
    ask(service, '浮力又错了，概念不理解')
    [stored] = service.store.records('l1')
    assert (stored.trigger_source, stored.concept, stored.correction, stored.root_cause) == \
        ('错题', '浮力', True, '概念模糊')


@pytest.mark.parametrize('update, error', [('{"crossSkillSharing": "maybe"}', 'crossSkillSharing'),
                                           ('{"everything": true}', 'everything'),
                                           ('not json', 'JSON'), ('[true]', '')])
def test_a_bad_consent_update_changes_nothing(service, update, error):
    ok, consent, message = service.consent('l1', update)
    assert not ok and error in message and consent == service.store.consent('l1')
    assert not service.store.consent('l1').crossSkillSharing


def test_view_and_correct(shared):
    ask(shared, '浮力又错了')
    viewed = ask(shared, '查看我的联动记录')
    assert viewed.action == 'privacy' and viewed.detail['data'][0]['concept'] == '浮力'
    rid = viewed.detail['data'][0]['record_id']
    fixed = shared.privacy('l1', 'correct', json.dumps({'record_id': rid, 'fields': {
        'concept': '压强', 'mastered': True}}), NOW)
    assert fixed.ok and shared.store.records('l1')[0].concept == '压强'
    assert not shared.privacy('l1', 'correct', json.dumps({'record_id': rid, 'fields': {
        'learner_id': 'l2'}}), NOW).ok
    assert not shared.privacy('l2', 'correct', json.dumps({'record_id': rid, 'fields': {}}), NOW).ok


def test_delete_takes_one_confirmation(shared):
    ask(shared, '浮力又错了')
    asked = ask(shared, '删除我的联动记录')
    assert '确定要删除' in asked.reply_text and len(shared.store.records('l1')) == 1
    done = ask(shared, '确定')
    assert done.action == 'privacy' and done.reply_text == '你的联动记录已经全部删除了。'
    assert shared.store.records('l1') == []


def test_anything_but_a_confirmation_cancels_the_delete(shared):
    ask(shared, '浮力又错了')
    ask(shared, '删除我的联动记录')
    assert ask(shared, '压强又错了').action == 'route'
    assert ask(shared, '确定').action != 'privacy'
    assert len(shared.store.records('l1')) == 2


def test_a_confirmation_without_a_delete_deletes_nothing(shared):
    ask(shared, '浮力又错了')
    assert not shared.privacy('l1', 'confirm_delete', '', NOW).ok
    assert len(shared.store.records('l1')) == 1


def test_pausing_a_linkage_for_this_time(shared):
    paused = ask(shared, '这次不要联动错题本')
    assert paused.reply_text == '好的，这次不联动错题本。'
    declined = ask(shared, '浮力又错了')
    assert declined.action == 'declined' and declined.detail['why'] == 'the learner paused this SKILL'
    assert ask(shared, '浮力又错了', now=NOW + timedelta(hours=2)).action == 'route'


def test_pausing_needs_a_skill_named(shared):
    assert not shared.privacy('l1', 'pause_linkage', '{}', NOW).ok
    assert shared.privacy('l1', 'resume_linkage', '{"skill": "xiaozhi-feynman-learning"}', NOW).ok


def test_no_memory_this_time(shared):
    assert ask(shared, '这次不要记忆').reply_text == '好的，这次的内容不会记下来。'
    routed = ask(shared, '浮力又错了')
    assert routed.action == 'route' and shared.store.records('l1') == []
    ask(shared, '压强又错了', now=NOW + timedelta(hours=2))
    assert len(shared.store.records('l1')) == 1


def test_no_sharing_makes_the_report_session_only_and_writes_no_record(shared):
    ask(shared, '浮力又错了')
    assert ask(shared, '不要共享给其他SKILL').detail['privacy'] == 'no_sharing'
    assert '本报告只覆盖你刚才告诉我的部分' in ask(shared, '帮我生成全景月报').reply_text
    ask(shared, '压强又错了')
    assert [r.concept for r in shared.store.records('l1')] == ['浮力']


PARENTS = '{"crossSkillSharing": true, "parentSharingConsent": true, "emotionSharingWithParent": true}'


@pytest.mark.parametrize('said', ['不要给家长看', '别让我爸妈知道', '这些别告诉我妈', '不想让父母看到',
                                  '对家长保密'])
def test_not_for_parents_withdraws_only_the_parents_consent(service, said):
    service.consent('l1', PARENTS)
    answer = ask(service, said)
    assert answer.detail['privacy'] == 'no_parent_sharing'
    assert answer.reply_text == '好的，不会给家长看；其他SKILL的联动不受影响。'
    consent = service.store.consent('l1')
    assert not consent.parentSharingConsent and not consent.emotionSharingWithParent
    assert consent.crossSkillSharing and not service.store.privacy('l1').no_sharing
    ask(service, '浮力又错了')
    assert [r.concept for r in service.store.records('l1')] == ['浮力']      # sharing goes on
    assert '本报告只覆盖' not in ask(service, '帮我生成全景月报').reply_text


@pytest.mark.parametrize('said', ['不要写回档案', '这次别写进我的档案', '不用提醒我了', '不要加提醒',
                                  '不要写回档案/提醒'])
def test_no_write_back_stops_records_and_reminders(service, said):
    service.consent('l1', '{"crossSkillSharing": true, "reminderConsent": true}')
    answer = ask(service, said)
    assert answer.detail['privacy'] == 'no_writeback'
    assert answer.reply_text == '好的，这次不写回档案，也不加提醒。'
    routed = ask(service, '浮力又错了')
    assert routed.action == 'route' and service.store.records('l1') == []
    assert ask(service, '浮力又错了').detail['deduplicated']      # dedupe still holds (in memory)
    reminder = ask(service, '提醒我明天复习浮力')
    assert reminder.action == 'declined' and '不要写回提醒' in reminder.reply_text
    assert service.store.reminders('l1') == []
    later = NOW + timedelta(hours=2)
    ask(service, '压强又错了', now=later)
    assert ask(service, '提醒我明天复习压强', now=later).action == 'reminder'
    assert len(service.store.records('l1')) == 1 and len(service.store.reminders('l1')) == 1


def test_export_is_text_in_the_documents_layout(shared):
    ask(shared, '浮力又错了')
    exported = ask(shared, '导出我的记录')
    text = exported.detail['data']
    assert exported.action == 'privacy' and '📊 全景月度报告（五维度）' in text
    for label in ('日期：', '触发来源：错题', '涉及知识点：浮力', '参与SKILL：', '错题本：是', '费曼测试：否',
                  '联动结果：', '根因判断：', '是否真正掌握：未知', '是否需要复测：是'):
        assert label in text


@pytest.mark.parametrize('action, argument', [('fly', ''), ('view', '{'), ('correct', '{"record_id": "x"}'),
                                              ('correct', '[1]')])
def test_bad_privacy_calls_get_an_answer(shared, action, argument):
    result = shared.privacy('l1', action, argument, NOW)
    assert not result.ok and result.reply_text


@pytest.mark.parametrize('text', ['', ' ', '\x00', '�' * 50, '题' * 100000, '<script>alert(1)</script>',
                                  "'; DROP TABLE linkage; --", '\u202e反向'])
def test_hostile_input_gets_an_answer_and_loses_nothing(shared, text):
    ask(shared, '浮力又错了')
    decision = shared.request(Request('r', 'l1', text), NOW)
    assert decision.action in ('declined', 'clarify')
    assert len(shared.store.records('l1')) >= 1


def test_the_weekly_review_is_handed_over_and_never_answered_here(shared):
    handed = ask(shared, '帮我做一下这周的复盘')
    assert (handed.action, handed.stage, handed.target_skill) == \
        ('route', 'weekly_review', 'xiaozhi-weekly-review')
    assert handed.reply_text == '周报归每周学习复盘，我把它交给每周学习复盘。'
    assert shared.store.records('l1') == []          # no linkage record: 本SKILL不介入周报


def test_every_privacy_action_the_node_accepts_has_its_handler(service):
    assert set(service._privacy_controls) == set(PRIVACY_ACTIONS)
