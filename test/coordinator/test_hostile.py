"""Issue 12 reproduced against the coordinator: deep JSON, huge numbers, the delete confirmation,
"这次不要记忆", words in traces, queues, a locked store."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta

import pytest
from coordinator_talk import NOW, ask

from robot_skills.coordinator.core import Request
from robot_skills.coordinator.service import CoordinatorService, Windows
from robot_skills.coordinator.store import Store

NESTED = '[' * 1000
DEEP_OBJECT = '{"a":' * 1000 + '1' + '}' * 1000
HUGE = 2 ** 63


def stored(service) -> list[tuple[str, str, str]]:
    """Every stored handover, read by the test itself (no request path reads them all)."""
    return service.store._db.execute('SELECT session_id, kind, body FROM handover '
                                     'ORDER BY handover_id').fetchall()


@pytest.fixture
def shared(service):
    service.consent('l1', '{"crossSkillSharing": true}')
    return service


@pytest.mark.parametrize('raw', [NESTED, DEEP_OBJECT, '{"sessionId": ' + str(HUGE) + '}',
                                 '{"payload": [NaN]}', '"\\ud800"'])
def test_a_hostile_handover_is_refused_and_writes_nothing(service, raw):
    for _ in range(3):                  # resubmitted: still an answer, never a write
        result = service.handover(raw, NOW)
        assert not result.accepted and result.errors
    assert stored(service) == []
    tables = service.store._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    assert 'handover_failure' not in {row[0] for row in tables}


@pytest.mark.parametrize('update', [NESTED, DEEP_OBJECT, '{"crossSkillSharing": ' + str(HUGE) + '}',
                                    '{"crossSkillSharing": NaN}'])
def test_a_hostile_consent_update_is_refused(service, update):
    ok, consent, error = service.consent('l1', update)
    assert not ok and error.startswith('update_json') and not consent.crossSkillSharing


@pytest.mark.parametrize('action, argument, named', [
    ('correct', NESTED, 'argument_json: nested deeper'),
    ('correct', DEEP_OBJECT, 'argument_json: nested deeper'),
    ('correct', json.dumps({'record_id': HUGE, 'fields': {}}), 'argument_json.record_id'),
    ('correct', json.dumps({'record_id': '99999999999999999999999', 'fields': {}}),
     'argument_json.record_id'),
    ('correct', json.dumps({'record_id': True, 'fields': {}}), 'argument_json.record_id'),
    ('correct', json.dumps({'record_id': 1, 'fields': {'mastered': HUGE}}),
     'argument_json.fields.mastered'),
    ('pause_linkage', NESTED, 'argument_json'),
    ('pause_linkage', '{"skill": 5}', 'argument_json.skill'),
    ('pause_linkage', '{"skill": "' + 'k' * 5000 + '"}', 'argument_json.skill: not a SKILL'),
])
def test_a_hostile_privacy_argument_is_refused_by_field(shared, action, argument, named):
    ask(shared, '浮力又错了')
    result = shared.privacy('l1', action, argument, NOW)
    assert not result.ok and named in result.reply_text
    assert [r.concept for r in shared.store.records('l1')] == ['浮力']


# ---- the one confirmation of a deletion ---------------------------------------------------

DELETES = ['确定', '确认', '是的', '对', '对，删除', '删吧', '删除吧', '确定删除', '我确定', '是的，删除我的联动记录',
           '好的', '可以', '删吧删吧', '確定', 'yes', 'Yes, delete it', '删掉吧', '全部删除',
           '确定！', '要删']
KEEPS = ['我不确定，先别删', '先别删', '不要删', '别删了', '不删了', '算了', '再想想', '等一下', '我想想',
         '确定吗', '确定？', '你确定?', '真的要删吗', '删了还能恢复吗', '可以不删吗', '不确定', '确定不删',
         '嗯', '嗯……', '好像可以吧？', '如果能恢复就删', '删不删都行', '等我问问妈妈', '不是', '不行',
         '暂时不要', '以后再说', 'no', 'not now', '删除我的作业', '确定是这个吗', '', '   ', '？',
         '我没说要删除', '没想好', '还是留着吧', '让我再考虑一下', '这道物理题怎么做',
         # words that are a yes elsewhere, not here: tag questions, "enough", "either",
         # statements, a change of subject (found by a hostile tester)
         '行吧', '好吧', '是吧', '对吧', '可以吧', '是的吧', '要删吧', '都行', '都可以', '我都行',
         '对了', '行了', '好了', '好了好了', '可以了', '是我', '是我的记录', '是我删的', '删了',
         '我删', '好的好的好的我的', '嗯，删吧', '随便', '删也行', '你看着办']


@pytest.mark.parametrize('answer', DELETES)
def test_an_unambiguous_yes_deletes(shared, answer):
    ask(shared, '浮力又错了')
    ask(shared, '删除我的联动记录')
    done = ask(shared, answer)
    assert done.action == 'privacy' and done.reply_text.startswith('你的联动记录已经全部删除了。')
    assert shared.store.records('l1') == []


@pytest.mark.parametrize('answer', KEEPS)
def test_anything_else_cancels_the_deletion_and_says_so(shared, answer):
    ask(shared, '浮力又错了')
    ask(shared, '删除我的联动记录')
    kept = ask(shared, answer)
    assert kept.reply_text.startswith('好的，没有删除，你的联动记录都还在。')
    assert [r.concept for r in shared.store.records('l1')][0] == '浮力'   # then the answer's own
    assert shared.store.privacy('l1').delete_asked_at == 0
    assert ask(shared, '确定').reply_text != '你的联动记录已经全部删除了。'   # the question is over


@pytest.mark.parametrize('answer', ['确定，' * 100, '确定' * 50_000, '\ufdfa' * 100_000])
def test_an_answer_longer_than_any_yes_cancels_without_reading_it_all(shared, answer):
    """Yes pieces past ``LONGEST`` characters are no unambiguous yes; U+FDFA (18 characters
    under NFKC) read as a yes took 425 ms for 100,000."""
    ask(shared, '浮力又错了')
    ask(shared, '删除我的联动记录')
    assert ask(shared, answer).reply_text.startswith('好的，没有删除，你的联动记录都还在。')
    assert shared.store.records('l1')


@pytest.mark.parametrize('text, too_long', [
    ('\ufdfa' * 1000, True),                 # 1,000 as sent, 18,000 once normalised
    ('浮力又错了' + '\ufdfa' * 200, False),     # 3,605: routed
])
def test_a_request_longer_than_the_limit_once_normalised_is_declined(service, text, too_long):
    decision = ask(service, text)
    assert (decision.detail.get('why', '').startswith('longer than')) == too_long


def test_the_question_expires(shared):
    ask(shared, '浮力又错了')
    ask(shared, '删除我的联动记录')
    late = ask(shared, '确定', now=NOW + timedelta(minutes=11))
    assert late.reply_text != '你的联动记录已经全部删除了。'
    assert len(shared.store.records('l1')) == 1
    ask(shared, '删除我的联动记录', now=NOW + timedelta(minutes=12))
    assert ask(shared, '确定', now=NOW + timedelta(minutes=13)).reply_text == \
        '你的联动记录已经全部删除了。'


def test_a_crisis_in_the_answer_is_referred_first_and_nothing_is_deleted(shared):
    ask(shared, '浮力又错了')
    ask(shared, '删除我的联动记录')
    referred = ask(shared, '删不删无所谓了，我不想活了')
    assert referred.action == 'crisis_referral'
    assert len(shared.store.records('l1')) == 1 and shared.store.privacy('l1').delete_asked_at == 0


# ---- "这次不要记忆": nothing of the next requests reaches the store ---------------------------

def test_paused_memory_stores_no_word_of_the_next_requests(tmp_path, coordinator):
    path = tmp_path / 'c.sqlite3'
    store = Store(path)
    service = CoordinatorService(coordinator, store, Windows())
    service.consent('l1', '{"crossSkillSharing": true, "reminderConsent": true}')
    ask(service, '这次不要记忆')
    words = ['林晓雨住在幸福路12号，这道一次函数题我算错了', '提醒我明天复习幸福路的那道题']
    first = ask(service, words[0])
    assert first.action == 'route'
    again = ask(service, words[0])                 # deduplicated from memory alone
    assert again.detail.get('deduplicated')
    assert ask(service, words[1]).action == 'reminder'
    store.close()
    raw = b''.join(p.read_bytes() for p in tmp_path.iterdir())
    for word in ('林晓雨', '幸福路'):
        assert word.encode() not in raw
    reopened = Store(path)
    assert reopened.recent_dispatches('l1', 0) == [] and reopened.reminders('l1') == []
    reopened.close()


def test_memory_comes_back_when_the_pause_ends(shared):
    ask(shared, '这次不要记忆')
    ask(shared, '浮力又错了')
    later = NOW + timedelta(hours=2)
    ask(shared, '压强又错了', now=later)
    assert [r.concept for r in shared.store.records('l1')] == ['压强']


def test_a_decision_carries_a_concept_key_never_the_words(shared):
    decision = ask(shared, '林晓雨想问这道题为什么错了，帮我看看')
    shown = json.dumps(decision.detail, ensure_ascii=False)
    assert '林晓雨' not in shown
    keyword = ask(shared, '浮力又错了')
    assert keyword.detail['concept'] == '浮力'


# ---- a store another process keeps locked ----------------------------------------------

def test_a_locked_store_still_routes_and_refers_and_says_what_it_could_not_do(tmp_path,
                                                                              coordinator):
    path = tmp_path / 'c.sqlite3'
    store = Store(path, busy_timeout=0.05)
    service = CoordinatorService(coordinator, store, Windows())
    other = sqlite3.connect(path, isolation_level=None)
    other.execute('BEGIN EXCLUSIVE')
    try:
        routed = service.request(Request('r1', 'l1', '浮力又错了'), NOW)
        assert routed.action == 'route' and routed.detail['store'] == 'unavailable'
        referred = service.request(Request('r2', 'l1', '我不想活了'), NOW)
        assert referred.action == 'crisis_referral'
        deleting = service.privacy('l1', 'delete', '', NOW)
        assert not deleting.ok and '稍后' in deleting.reply_text
        ok, _, error = service.consent('l1', '{"reminderConsent": true}')
        assert not ok and 'retry' in error
    finally:
        other.execute('ROLLBACK')
        other.close()
    store._db.unavailable_until = 0.0                         # one busy timeout later ...
    assert service.privacy('l1', 'delete', '', NOW).ok        # works again once released
    store.close()


@pytest.mark.parametrize('row', ['not json', '5', '{"paused_skills": 7}', '{"no_memory_until": "x"}'])
def test_a_damaged_privacy_row_refers_first_and_then_remembers_nothing(shared, row):
    shared.store._db.execute('INSERT OR REPLACE INTO learner (learner_id, privacy) VALUES (?, ?)',
                             ('l1', row))
    assert ask(shared, '我不想活了').action == 'crisis_referral'
    routed = ask(shared, '浮力又错了')
    assert routed.action == 'route' and shared.store.records('l1') == []      # nothing kept
    assert ask(shared, '删除我的联动记录').reply_text.startswith('删除后不可恢复')
    assert shared.store.privacy('l1').remembers(NOW.timestamp())     # a fresh row, not DAMAGED


def test_a_damaged_consent_row_grants_nothing(shared):
    shared.store._db.execute("UPDATE learner SET consent = '{\"crossSkillSharing\": \"zz\"}'")
    assert ask(shared, '浮力又错了').action == 'route' and shared.store.records('l1') == []
