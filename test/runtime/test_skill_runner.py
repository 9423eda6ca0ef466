"""The skill runner: input channels, serial core steps, effects, traces, robustness."""

from __future__ import annotations

import json

import pytest
from echo_core import EchoNode
from rclpy.parameter import Parameter
from ros_harness import Recorder
from std_msgs.msg import String

from robot_skills.mock_hardware.node import MockHardware
from robot_skills_interfaces.msg import (
    AsrEvent,
    HardwareCommand,
    RemoteMessage,
    SkillEvent,
    TextReply,
)


class Rig:
    def __init__(self, ros, mock: bool = True, **params) -> None:
        self.ros = ros
        if mock:
            ros.add(MockHardware, parameter_overrides=[Parameter('time_scale', value=0.02)])
        self.skill = ros.add(EchoNode, parameter_overrides=[
            Parameter(k, value=v) for k, v in params.items()])
        probe = ros.node()
        self.events = Recorder(probe, SkillEvent, 'skill_events')
        self.replies = Recorder(probe, TextReply, 'remote_reply')
        self.log = Recorder(probe, HardwareCommand, 'mock_hardware/commands')
        self.asr = probe.create_publisher(AsrEvent, 'asr/events', 10)
        self.remote = probe.create_publisher(RemoteMessage, 'remote_message', 10)
        self.json = probe.create_publisher(String, 'asr/json', 10)
        ros.until(lambda: self.asr.get_subscription_count() and self.remote.get_subscription_count()
                  and self.json.get_subscription_count() and self.events.subscription
                  .get_publisher_count(), what='discovery')
        if mock:
            ros.until(lambda: 'capabilities' in self.kinds(), what='devices found')

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events.messages]

    def details(self, kind: str) -> list[dict]:
        return [json.loads(e.detail_json) for e in self.events.messages if e.kind == kind]

    def idle_count(self) -> int:
        return self.kinds().count('idle')

    def settle(self, count: int) -> None:
        self.ros.until(lambda: self.idle_count() >= count, what=f'idle #{count}')

    def say(self, text: str, awake: bool = True, final: bool = True, uid: str = 'u') -> None:
        self.asr.publish(AsrEvent(utterance_id=uid, text=text, kws_triggered=awake,
                                  is_final=final, confidence=1.0))


@pytest.fixture
def rig(ros):
    return lambda **kw: Rig(ros, **kw)


def test_an_utterance_runs_one_traced_turn(rig):
    r = rig()
    r.say('你好', uid='u1')
    r.settle(1)
    kinds = r.kinds()
    turn = kinds[kinds.index('input'):]
    assert turn == ['input', 'state_changed', 'batch_sent', 'batch_returned', 'batch_completed',
                    'state_changed', 'answered', 'idle']
    assert r.details('input')[0]['utterance_id'] == 'u1'
    assert r.details('batch_sent')[0]['commands'] == [
        {'device': 'tts', 'message': '你好', 'force': False}]
    assert r.details('batch_completed')[0]['outcomes'][0]['status'] == 'succeeded'
    assert [m.action for m in r.ros.until(lambda: r.log.messages)] == ['speak']
    assert {e.skill for e in r.events.messages} == {'echo'}
    assert [e.session_id for e in r.events.messages if e.kind == 'answered'] == ['turn-1']


def test_remote_messages_get_a_reply(rig):
    r = rig()
    r.remote.publish(RemoteMessage(message_id='m9', sender_id='visitor', text='三层厕所'))
    r.ros.until(lambda: r.replies.messages, what='reply')
    reply = r.replies.messages[0]
    assert (reply.in_reply_to, reply.recipient_id, reply.skill, reply.text) == \
        ('m9', 'visitor', 'echo', 'done')
    traced = r.ros.until(lambda: r.details('reply'), what='reply trace')
    assert traced == [{'in_reply_to': 'm9', 'text': 'done'}]


def test_partial_asr_results_are_ignored_silently(rig):
    r = rig()
    r.say('小范', final=False, uid='p1')
    r.say('第二句', uid='u2')
    r.settle(1)
    assert [d['utterance_id'] for d in r.details('input')] == ['u2']
    assert 'input_rejected' not in r.kinds()


def test_malformed_json_is_refused_with_a_trace_and_nothing_breaks(rig):
    r = rig()
    r.json.publish(String(data='{"text": 42'))
    r.json.publish(String(data=json.dumps({'text': '好的', 'kws_triggered': True})))
    r.settle(2)
    (rejected,) = r.details('input_rejected')
    assert rejected['reason'] == 'malformed_json' and rejected['source'] == 'asr'
    (heard,) = r.details('input')
    assert heard['chars'] == 2 and 'text' not in heard      # the words stay out of traces
    assert '好的' not in ''.join(e.detail_json for e in r.events.messages if e.kind == 'input')


def test_a_batch_that_cannot_be_sent_comes_back_failed_and_nothing_waits_for_it(rig):
    r = rig()
    r.say('forbidden', uid='f1')
    r.settle(1)
    (error,) = r.details('error')
    assert error['where'] == 'effect SendBatch' and error['error'] == 'ValueError'
    assert r.details('returned') == [{'accepted': False}]      # both barriers came back ...
    assert r.details('answered') == [{'ok': False}]            # ... as refused and failed
    assert not r.log.messages                                   # nothing reached the robot
    r.say('还在吗', uid='u2')
    r.settle(2)
    assert r.details('answered')[-1] == {'ok': True}


def test_too_long_remote_text_is_refused_and_answered(rig):
    r = rig(max_input_chars=50)
    r.remote.publish(RemoteMessage(message_id='m1', sender_id='v', text='路' * 10_000))
    r.ros.until(lambda: r.replies.messages, what='refusal reply')
    assert r.replies.messages[0].text == 'refused: too_long'
    traced = r.ros.until(lambda: r.details('input_rejected'), what='refusal trace')
    assert traced[0]['detail'] == '10000 characters'
    assert not r.log.messages


def test_a_core_exception_is_traced_and_the_node_keeps_working(rig):
    r = rig()
    r.say('boom', uid='b1')
    r.say('还在吗', uid='u2')
    r.settle(2)
    (error,) = r.details('error')
    assert error['event'] == 'Heard' and error['error'] == 'RuntimeError'
    assert 'echo_core.py:' in error['stack'][-1] and 'the core has a bug' not in str(error)
    assert [m.action for m in r.ros.until(lambda: r.log.messages)] == ['speak']


def test_a_both_barrier_reports_the_return_then_the_completion(rig):
    r = rig()
    r.say('both')
    r.settle(1)
    kinds = [k for k in r.kinds() if k in ('batch_returned', 'returned', 'batch_completed',
                                            'answered')]
    assert kinds == ['batch_returned', 'returned', 'batch_completed', 'answered']
    assert r.details('returned') == [{'accepted': True}]
    assert [m.action for m in r.ros.until(lambda: len(r.log.messages) == 2 and r.log.messages)
            ] == ['speak', 'speak']


def test_timers_fire_back_into_the_core(rig):
    r = rig()
    r.say('timer')
    r.ros.until(lambda: r.details('timer'), what='timer event')
    assert r.details('timer') == [{'name': 'wake'}]


def test_missing_devices_are_reported_as_degraded(rig):
    r = rig(mock=False, discovery_timeout=0.1, acceptance_timeout=0.2)
    r.ros.until(lambda: r.details('degraded'), what='degraded trace')
    assert 'tts/speak' in r.details('degraded')[0]['missing_capabilities']
    r.say('有人吗')
    r.ros.until(lambda: r.details('batch_completed'), what='batch end')
    assert r.details('batch_completed')[0]['outcomes'][0]['status'] == 'unavailable'


def test_invalid_runtime_settings_refuse_to_start(ros):
    with pytest.raises(Exception, match='acceptance_timeout'):
        ros.add(EchoNode, parameter_overrides=[Parameter('acceptance_timeout', value=-1.0)])
