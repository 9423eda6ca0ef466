"""Hostile input on the voice channels of both voice skills (asr/events, remote_message,
asr/json): every message is traced as heard or refused, the skill answers the next input, no
fault is traced, and no device outside the skill's own is ever commanded."""

from __future__ import annotations

import json

import pytest
from hostile import ids, json_texts, per_node, texts
from hypothesis import given
from hypothesis import strategies as st
from rclpy.parameter import Parameter
from ros_harness import Recorder
from std_msgs.msg import String

from robot_skills.classroom.node import ClassroomPresenter
from robot_skills.mock_hardware.node import MockHardware
from robot_skills.wayfinding.node import WayfindingGuide
from robot_skills_interfaces.msg import AsrEvent, HardwareCommand, RemoteMessage, SkillEvent

SKILLS = {WayfindingGuide: {'tts', 'arm_gesture'},
          ClassroomPresenter: {'tts', 'arm_gesture', 'head_gesture', 'arm', 'hand'}}
HEARD = ('input', 'input_rejected')


class Voice:
    def __init__(self, ros, skill) -> None:
        self.ros = ros
        ros.add(MockHardware, parameter_overrides=[Parameter('time_scale', value=0.0),
                                                   Parameter('joint_state_rate', value=0.0)])
        ros.add(skill)
        probe = ros.node()
        self.events = Recorder(probe, SkillEvent, 'skill_events')
        self.log = Recorder(probe, HardwareCommand, 'mock_hardware/commands')
        self.asr = probe.create_publisher(AsrEvent, 'asr/events', 1000)
        self.remote = probe.create_publisher(RemoteMessage, 'remote_message', 1000)
        self.json = probe.create_publisher(String, 'asr/json', 1000)
        ros.until(lambda: all(p.get_subscription_count() for p in (self.asr, self.remote,
                                                                   self.json))
                  and {'capabilities', 'degraded'} & {e.kind for e in self.events.messages},
                  what='skill ready')
        self.probes = 0
        self._heard: set[str] = set()
        self._read = 0

    def heard(self, utterance_id: str) -> bool:
        """Whether the input was traced (an id is a C string on the wire: it ends at NUL)."""
        for event in self.events.messages[self._read:]:
            if event.kind in HEARD:
                self._heard.add(json.loads(event.detail_json).get('utterance_id'))
        self._read = len(self.events.messages)
        sent = utterance_id.split('\x00', 1)[0]
        return not sent or sent in self._heard

    def alive(self) -> None:
        """The next input is heard."""
        self.probes += 1
        uid = f'probe-{self.probes}'
        self.remote.publish(RemoteMessage(message_id=uid, sender_id='v', text='你好'))
        self.ros.until(lambda: self.heard(uid), what='the next input heard')


@pytest.mark.parametrize('skill', list(SKILLS), ids=lambda s: s.__name__)
def test_hostile_voice_input_is_heard_or_refused_and_the_skill_goes_on(ros, skill):
    voice = Voice(ros, skill)

    @per_node
    @given(st.data())
    def send(data):
        channel = data.draw(st.sampled_from(['asr', 'remote', 'json']))
        if channel == 'asr':
            uid, final = data.draw(ids()), data.draw(st.booleans())
            voice.asr.publish(AsrEvent(utterance_id=uid, text=data.draw(texts()),
                                       kws_triggered=data.draw(st.booleans()), is_final=final,
                                       confidence=data.draw(st.floats(width=32))))
            if final and uid:
                voice.ros.until(lambda: voice.heard(uid), what='the utterance traced')
        elif channel == 'remote':
            uid = data.draw(ids().filter(bool))
            voice.remote.publish(RemoteMessage(message_id=uid, sender_id=data.draw(ids()),
                                               text=data.draw(texts())))
            voice.ros.until(lambda: voice.heard(uid), what='the message traced')
        else:
            voice.json.publish(String(data=data.draw(json_texts({
                'text': texts(), 'kws_triggered': st.booleans(), 'utterance_id': ids()}))))
        voice.alive()

    send()
    assert not [e for e in voice.events.messages if e.kind == 'error']
    assert {m.device for m in voice.log.messages} <= SKILLS[skill]
