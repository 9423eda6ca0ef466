"""wayfinding_guide over real DDS against mock_hardware: ordering, failures, stop, bad input."""

from __future__ import annotations

import json

import pytest
import rclpy.action
from rclpy.parameter import Parameter
from rclpy.time import Time
from ros_harness import Recorder

from robot_skills.mock_hardware.node import MockHardware
from robot_skills.wayfinding.node import WayfindingGuide
from robot_skills_interfaces.msg import (
    AsrEvent,
    HardwareCommand,
    RemoteMessage,
    SkillEvent,
    TextReply,
)

BEIWANG = '贝旺路在穿过前方茶水区，右手边第一个会议室就是贝旺路。'
GENERIC = '请问您要去几层，或者哪个会议室？'


class Rig:
    def __init__(self, ros, time_scale: float = 0.02, **faults) -> None:
        self.ros = ros
        self.mock = ros.add(MockHardware, parameter_overrides=[
            Parameter(k, value=v) for k, v in {'time_scale': time_scale, **faults}.items()])
        self.guide = ros.add(WayfindingGuide)
        probe = ros.node()
        self.probe = probe
        self.log = Recorder(probe, HardwareCommand, 'mock_hardware/commands')
        self.events = Recorder(probe, SkillEvent, 'skill_events')
        self.replies = Recorder(probe, TextReply, 'remote_reply')
        self.asr = probe.create_publisher(AsrEvent, 'asr/events', 10)
        self.remote = probe.create_publisher(RemoteMessage, 'remote_message', 10)
        ros.until(lambda: self.asr.get_subscription_count() and self.remote
                  .get_subscription_count() and 'capabilities' in self.kinds(), what='ready')
        self.sent = 0

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events.messages]

    def traced(self, kind: str) -> list[dict]:
        return [json.loads(e.detail_json) for e in self.events.messages if e.kind == kind]

    def say(self, text: str, awake: bool = True, final: bool = True) -> None:
        self.sent += 1
        self.asr.publish(AsrEvent(stamp=self.probe.get_clock().now().to_msg(),
                                  utterance_id=f'u{self.sent}', text=text, kws_triggered=awake,
                                  is_final=final, confidence=1.0))

    def type(self, text: str) -> None:
        self.sent += 1
        self.remote.publish(RemoteMessage(message_id=f'm{self.sent}', sender_id='visitor',
                                          text=text))

    def settle(self, count: int) -> None:
        """Wait until the guide traced ``idle`` ``count`` times (each handled input ends so)."""
        self.ros.until(lambda: self.kinds().count('idle') >= count, timeout=20.0,
                       what=f'{count} idle traces')

    def commands(self) -> list[tuple[str, str]]:
        return [(m.device, m.action) for m in self.log.messages]

    def spoken(self) -> list[str]:
        return [json.loads(m.arguments_json)['message'] for m in self.log.messages
                if m.device == 'tts']


def test_speech_result_comes_back_before_the_gesture_starts(ros):
    rig = Rig(ros, time_scale=0.1)
    rig.say('小范小范，贝旺路怎么走')
    rig.settle(1)
    rig.ros.until(lambda: len(rig.log.messages) == 2, what='two commands')
    speak, wave = rig.log.messages
    assert (speak.device, wave.device, wave.action) == ('tts', 'arm_gesture', 'welcome')
    assert json.loads(wave.arguments_json)['side'] == 'left'
    assert json.loads(speak.arguments_json)['message'] == BEIWANG
    spoken_for = len(BEIWANG) / 4.5 * 0.1
    gap = (Time.from_msg(wave.stamp) - Time.from_msg(speak.stamp)).nanoseconds / 1e9
    assert gap >= spoken_for - 0.01          # never in parallel: the gesture waits the speech
    kinds = rig.kinds()
    completed = [i for i, e in enumerate(rig.events.messages) if e.kind == 'batch_completed']
    sent = [i for i, e in enumerate(rig.events.messages) if e.kind == 'batch_sent']
    assert completed[0] < sent[1]
    assert kinds.count('batch_sent') == 2


def test_a_failed_speech_means_no_gesture(ros):
    rig = Rig(ros, **{'fault.tts.mode': 'error'})
    rig.say('贝旺路怎么走')
    rig.settle(1)
    assert rig.commands() == [('tts', 'speak')]
    (done,) = rig.traced('turn_done')
    assert done['speech'] == 'failed' and done['gesture'] == 'skipped: speech failed'


def test_a_failed_gesture_is_not_retried_and_the_guide_stays_active(ros):
    rig = Rig(ros, **{'fault.arm_gesture.mode': 'error'})
    rig.say('摇光怎么走')
    rig.settle(1)
    assert rig.commands() == [('tts', 'speak'), ('arm_gesture', 'welcome')]
    assert rig.traced('turn_done')[0]['gesture'] == 'failed'
    rig.say('初心在哪')
    rig.settle(2)
    assert rig.commands()[2:] == [('tts', 'speak')]


def test_an_empty_gesture_receipt_is_a_failure_too(ros):
    rig = Rig(ros, **{'fault.arm_gesture.mode': 'empty_receipt'})
    rig.say('摇光怎么走')
    rig.settle(1)
    assert rig.traced('turn_done')[0]['gesture'] == 'failed'
    assert rig.commands().count(('arm_gesture', 'welcome')) == 1


def test_a_remote_visitor_gets_the_reply_before_the_speech(ros):
    rig = Rig(ros)
    rig.type('三层厕所在哪')
    rig.settle(1)
    rig.ros.until(lambda: rig.replies.messages and rig.log.messages, what='reply and speech')
    (reply,) = rig.replies.messages
    assert reply.text == ('厕所在三层，请先前往三层。您出电梯后，沿左手边的走廊直走到头左拐，'
                          '厕所就在您的左手边。')
    assert (reply.in_reply_to, reply.recipient_id, reply.skill) == ('m1', 'visitor',
                                                                     'wayfinding_guide')
    assert Time.from_msg(reply.stamp) <= Time.from_msg(rig.log.messages[0].stamp)
    assert rig.spoken() == [reply.text] and rig.commands() == [('tts', 'speak')]


def test_a_stop_preempts_the_speech_and_the_gesture_never_starts(ros):
    rig = Rig(ros, time_scale=1.0)
    rig.say('小范小范，贝旺路怎么走')
    rig.ros.until(lambda: rig.log.messages, what='speech started')
    rig.say('小范小范，不用了')
    rig.ros.until(lambda: any(t.get('turn') == 2 for t in rig.traced('turn_done')),
                  timeout=20.0, what='stop answered')
    assert rig.spoken() == [BEIWANG, '好的，有需要再问我。']
    assert json.loads(rig.log.messages[1].arguments_json)['force'] is True
    assert ('arm_gesture', 'welcome') not in rig.commands()
    assert rig.traced('decision')[1]['dropped_gesture'] is True


def test_no_client_for_anything_the_document_forbids(ros):
    rig = Rig(ros)
    node = rig.guide
    actions = {name.rsplit('/', 1)[-1] for name, _ in
               rclpy.action.get_action_client_names_and_types_by_node(
                   node, node.get_name(), node.get_namespace())}
    assert actions == {'speak', 'arm_gesture'}
    services = {name for name, _ in node.get_client_names_and_types_by_node(
        node.get_name(), node.get_namespace())}
    assert not any(s.endswith(('/pause', '/resume', '/interrupt', '/cancel')) for s in services)
    assert not any(word in name for name in services | actions
                   for word in ('base', 'nav', 'head', 'waist', 'leg', 'speaker'))


@pytest.mark.parametrize('text, outcome', [
    ('', 'input_rejected'),                         # ASR with the wake word but no text
    ('小范小范', GENERIC),                            # only the wake word
    ('路' * 10_000, 'input_rejected'),              # 10,000 characters
    ('😀😀😀', GENERIC),                              # emoji
    ('where is the meeting room', GENERIC),         # English
    ('小范小范 where is 初心', '初心在三层'),             # mixed scripts
])
def test_bad_voice_input_has_a_defined_outcome(ros, text, outcome):
    rig = Rig(ros)
    rig.say(text)
    rig.settle(1)
    if outcome == 'input_rejected':
        assert rig.traced('input_rejected')
        assert rig.spoken() == [GENERIC]
    else:
        assert rig.spoken()[0].startswith(outcome)
    assert 'error' not in rig.kinds()


def test_partial_and_unwoken_voice_get_no_output_at_all(ros):
    rig = Rig(ros)
    rig.say('贝旺路怎么走', final=False)
    rig.say('贝旺路怎么走', awake=False)
    rig.say('路' * 10_000, awake=False)
    rig.say('初心')
    rig.settle(3)
    assert rig.spoken() == ['初心在三层，请先前往三层。您出电梯后，穿过前方茶水区后左转，经过一个电话间，'
                            '左手边第一个会议室就是初心会议室。']
    assert rig.replies.messages == []


def test_a_huge_remote_message_gets_a_written_and_spoken_question(ros):
    rig = Rig(ros)
    rig.type('请问' * 5000)
    rig.settle(1)
    rig.ros.until(lambda: rig.replies.messages, what='reply')
    assert [r.text for r in rig.replies.messages] == [GENERIC]
    assert rig.spoken() == [GENERIC]
