"""Hostile input on every channel of learning_coordinator over DDS: every request gets a decision
(or a traced refusal), every service call an answer, a refusal writes nothing, and the node
answers the next input. Also: 20 concurrent callers lose no call; a refused store leaves no
AttributeError behind."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from coordinator_talk import SERVICES, Rig
from hostile import ids, json_texts, per_node, texts
from hypothesis import given
from hypothesis import strategies as st
from rclpy.parameter import Parameter
from ros_harness import Harness

from robot_skills.adapters.database import StoreError
from robot_skills.coordinator.node import LearningCoordinator
from robot_skills.coordinator.service import PRIVACY_ACTIONS
from robot_skills.interface import DEEP_QOS
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.msg import LearningRequest
from robot_skills_interfaces.srv import HealthCheck


def _rows(rig) -> int:
    db = rig.node.store._db
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    return sum(db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables)


def test_hostile_requests_and_calls_are_answered_and_the_node_goes_on(ros, store_path):
    rig = Rig(ros, store_path)
    rig.call('consent', learner_id='l1', update_json='{"crossSkillSharing": true}')

    @per_node
    @given(st.data())
    def send(data):
        channel = data.draw(st.sampled_from(['request', *SERVICES]))
        learner = data.draw(st.one_of(st.just('l1'), ids()))
        before = _rows(rig)
        if channel == 'request':
            rig.sent += 1
            request_id = f'h{rig.sent}'
            rig.requests.publish(LearningRequest(request_id=request_id, learner_id=learner,
                                                 text=data.draw(texts()),
                                                 image_tags=data.draw(st.lists(ids(),
                                                                               max_size=5))))
            rig.ros.until(lambda: any(d.request_id == request_id for d in
                                      rig.decisions.messages), what='a decision')
        elif channel == 'handover':
            answer = rig.call('handover', handover_json=data.draw(json_texts()))
            assert not answer.accepted and answer.errors
            assert _rows(rig) == before
        elif channel == 'consent':
            answer = rig.call('consent', learner_id=learner, update_json=data.draw(json_texts({
                'crossSkillSharing': st.booleans(), 'reminderConsent': st.integers()})))
            assert answer.ok or (answer.error and _rows(rig) == before)
        elif channel == 'privacy':
            action = data.draw(st.one_of(st.sampled_from(PRIVACY_ACTIONS), texts(40)))
            answer = rig.call('privacy', learner_id=learner, action=action,
                              argument_json=data.draw(json_texts({
                                  'record_id': st.integers(-2 ** 70, 2 ** 70),
                                  'skill': texts(40), 'fields': st.dictionaries(
                                      st.text(max_size=12), st.integers(-2 ** 70, 2 ** 70))})))
            assert answer.reply_text or answer.error.startswith(('argument_json', 'action',
                                                                  'learner_id'))
        elif channel == 'monthly_report':
            answer = rig.call('monthly_report', learner_id=learner, agreed=data.draw(
                st.booleans()), session_notes=data.draw(texts()))
            assert answer.error == '' or not answer.generated
        else:
            assert rig.call('health_check', learner_id=learner).error == ''
        assert rig.ask('浮力又错了').action in ('route', 'privacy', 'declined')   # alive

    send()
    assert not [e for e in rig.events.messages if e.kind == 'error']
    assert '林' not in ''.join(e.detail_json for e in rig.events.messages)


def test_a_request_beyond_the_transport_cap_is_read_for_crisis_first(rig):
    crisis = rig.ask('我不想活了。' + '作业' * 60_000)
    assert crisis.action == 'crisis_referral'
    declined = rig.ask('作业' * 60_000, learner='l2')       # l1 is in the crisis flow now
    assert declined.action == 'declined'
    traced = rig.ros.until(lambda: [d for d in (json.loads(e.detail_json) for e in
                                                rig.events.messages if e.kind == 'input')
                                    if d['request_id'] == declined.request_id], what='traced')
    assert traced[0]['chars'] == 120_000


def test_twenty_concurrent_callers_lose_no_call(rig):
    """Rclpy's default service queue (10) lost half of 20 concurrent calls without an error."""
    clients = [rig.probe.create_client(HealthCheck, 'coordinator/health_check',
                                       qos_profile=profile(DEEP_QOS)) for _ in range(20)]
    rig.ros.until(lambda: all(c.service_is_ready() for c in clients), what='clients ready')
    for _ in range(3):
        calls = [c.call_async(HealthCheck.Request(learner_id='l1')) for c in clients]
        for call in calls:
            assert rig.ros.wait(call).reading


def test_a_refused_store_stops_the_node_without_a_second_error(tmp_path, capfd):
    bad = tmp_path / 'not-a-db.sqlite3'
    bad.write_bytes(b'garbage' * 500)
    ros = Harness()
    try:
        with pytest.raises(StoreError, match='not an SQLite database'):
            ros.add(LearningCoordinator, parameter_overrides=[Parameter('store_path',
                                                                        value=str(bad))])
    finally:
        ros.close()                      # the context destroys the half-built node
    assert 'AttributeError' not in capfd.readouterr().err


def test_while_memory_is_paused_no_word_reaches_the_store_traces_or_logs(rig, capfd):
    rig.call('consent', learner_id='l1', update_json='{"crossSkillSharing": true}')
    rig.ask('这次不要记忆')
    words = '林晓雨住在幸福路12号，这道一次函数题我算错了'
    assert rig.ask(words).action == 'route'
    assert rig.ask(words).action == 'route'                # deduplicated from memory
    rig.ros.until(lambda: sum(e.kind == 'decision' for e in rig.events.messages) >= 3,
                  what='decisions traced')
    folder = Path(rig.node.store.path).parent
    stored = b''.join(f.read_bytes() for f in folder.iterdir())
    published = ''.join(e.detail_json for e in rig.events.messages)
    logged = capfd.readouterr().err
    for word in ('林晓雨', '幸福路'):
        assert word.encode() not in stored and word not in published and word not in logged


def test_a_deletion_a_reader_delays_is_finished_by_the_node_and_said_so(rig):
    rig.call('consent', learner_id='l1', update_json='{"crossSkillSharing": true}')
    marker = '浮力'                                  # the record's 涉及知识点
    rig.ask('浮力又错了，这道物理题我算错了')
    assert rig.call('privacy', learner_id='l1', action='view').data_json.count('"record_id"') == 1
    folder = Path(rig.node.store.path).parent
    assert marker.encode() in b''.join(f.read_bytes() for f in folder.iterdir())
    reader = sqlite3.connect(rig.node.store.path, isolation_level=None)
    reader.execute('BEGIN')
    reader.execute('SELECT count(*) FROM linkage').fetchone()          # holds the WAL
    rig.ask('删除我的联动记录')
    done = rig.ask('确定')
    assert done.reply_text == '你的联动记录已经全部删除了。存储里的残留正在清除，清除完成后就彻底没有了。'
    reader.execute('COMMIT')
    reader.close()
    rig.ros.until(lambda: any(e.kind == 'purged' for e in rig.events.messages), what='purged')
    assert marker.encode() not in b''.join(f.read_bytes() for f in folder.iterdir())
