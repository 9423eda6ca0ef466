"""classroom_presenter over real DDS against mock_hardware: whole lessons, faults, commands."""

from __future__ import annotations

import json
from collections import Counter

import pytest
import rclpy.action
from llm_stub import Stub, lesson_json
from rclpy.parameter import Parameter
from ros_harness import Recorder

from robot_skills.classroom.node import ClassroomPresenter
from robot_skills.mock_hardware.node import MockHardware
from robot_skills_interfaces.msg import AsrEvent, HardwareCommand, SkillEvent

CLASSROOM = '用课堂讲解的方式介绍光合作用'
LESSON = [  # the document's batches as the mock logs them; one set per batch (no order inside)
    {'arm_gesture welcome', 'head_gesture scan', 'tts speak'},
    {'tts speak'},
    {'arm move_pos', 'hand point'}, {'hand open_palm', 'arm move_pos', 'tts speak'},
    {'tts speak'},
    {'head_gesture nod', 'tts speak'}, {'tts speak'},
    {'arm move_pos', 'hand victory'}, {'hand open_palm', 'arm move_pos', 'tts speak'},
    {'tts speak'},
    {'head_gesture tilt', 'tts speak'}, {'tts speak'},
    {'arm move_pos', 'hand set_fingers_raw'}, {'hand open_palm', 'arm move_pos', 'tts speak'},
    {'tts speak'},
    {'head_gesture shake', 'tts speak'},
    {'arm_gesture welcome', 'tts speak'},
]


class Rig:
    def __init__(self, ros, time_scale: float = 0.0, **params) -> None:
        self.ros = ros
        self.mock = ros.add(MockHardware, parameter_overrides=[
            Parameter(k, value=v) for k, v in {'time_scale': time_scale,
                                                'joint_state_rate': 0.0}.items()]
            + [Parameter(k, value=v) for k, v in params.items() if k.startswith('fault.')])
        self.node = ros.add(ClassroomPresenter, parameter_overrides=[
            Parameter(k, value=v) for k, v in params.items() if not k.startswith('fault.')])
        probe = ros.node()
        self.log = Recorder(probe, HardwareCommand, 'mock_hardware/commands')
        self.events = Recorder(probe, SkillEvent, 'skill_events')
        self.asr = probe.create_publisher(AsrEvent, 'asr/events', 10)
        ros.until(lambda: self.asr.get_subscription_count() and 'capabilities' in self.kinds(),
                  what='ready')

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events.messages]

    def traced(self, kind: str) -> list[dict]:
        return [json.loads(e.detail_json) for e in self.events.messages if e.kind == kind]

    def say(self, text: str) -> None:
        """Say something and wait until the presenter has reacted to it completely."""
        idle = self.kinds().count('idle')
        self.asr.publish(AsrEvent(utterance_id=text, text=text, kws_triggered=False,
                                  is_final=True, confidence=1.0))
        self.ros.until(lambda: self.kinds().count('idle') > idle, timeout=30.0,
                       what=f'reaction to {text}')

    def commands(self) -> list[str]:
        return [f'{m.device} {m.action}' for m in self.log.messages]

    def spoken(self) -> list[str]:
        return [json.loads(m.arguments_json)['message'] for m in self.log.messages
                if m.device == 'tts' and m.action == 'speak']

    def finished(self) -> bool:
        return bool(self.traced('course_completed'))


def _groups(commands: list[str], expected: list[set[str]]) -> list[list[str]]:
    groups, start = [], 0
    for group in expected:
        groups.append(commands[start:start + len(group)])
        start += len(group)
    assert start == len(commands), commands[start:]
    return groups


def test_a_whole_lesson_in_the_documents_order_and_concurrency(ros):
    rig = Rig(ros)
    rig.say(CLASSROOM)
    for answer in ('二氧化碳和水', '需要阳光', '二氧化碳'):
        rig.say(answer)
    rig.ros.until(rig.finished, timeout=30.0, what='course completed')
    commands = rig.commands()
    for got, wanted in zip(_groups(commands, LESSON), LESSON, strict=True):
        assert Counter(got) == Counter(wanted)      # each batch together, batches in order
    spoken = rig.spoken()
    assert spoken[0] == '你好，今天讲光合作用，共三个知识点。' and spoken[1] == '下面我们进入第一个知识点。'
    assert spoken[-1] == '今天我们学习了光合作用。植物用光把二氧化碳和水变成有机物和氧气。再见！'
    moves = [json.loads(m.arguments_json) for m in rig.log.messages if m.device == 'arm']
    assert moves[0]['right_positions'] == [0, 0, 0, -100, 90, 0, -70]
    assert moves[1]['right_positions'] == [0] * 7 and moves[1]['left_positions'] == [0] * 7
    waves = [json.loads(m.arguments_json) for m in rig.log.messages if m.device == 'arm_gesture']
    assert [(w['side'], w['cycles']) for w in waves] == [('both', 1), ('right', 2)]


def test_every_barrier_released_batch_is_timed(ros):
    rig = Rig(ros)
    rig.say(CLASSROOM)
    timed = [d for d in rig.traced('batch_sent') if 'release_to_send_ms' in d]
    assert len(timed) >= 4 and all(d['release_to_send_ms'] >= 0 for d in timed)


def test_a_welcome_error_over_dds_makes_the_lesson_voice_only(ros):
    rig = Rig(ros, **{'fault.arm_gesture.mode': 'error'})
    rig.say(CLASSROOM)
    rig.say('二氧化碳和水')
    after_welcome = rig.commands()[3:]
    assert after_welcome and all(c == 'tts speak' for c in after_welcome)
    assert rig.traced('degraded')[0]['why'] == 'motion fault: the rest of the lesson is voice only'


def test_a_rejected_hand_stops_every_motion_over_dds(ros):
    rig = Rig(ros, **{'fault.hand.mode': 'reject'})
    rig.say(CLASSROOM)
    rig.say('二氧化碳和水')
    assert rig.commands().count('arm move_pos') == 1       # the display pose, then nothing
    assert 'hand victory' not in rig.commands() and 'head_gesture nod' not in rig.commands()


def test_a_head_error_is_retried_once_over_dds(ros):
    rig = Rig(ros, **{'fault.head_gesture.mode': 'empty_receipt'})
    rig.say('用课堂讲解的方式介绍光合作用，两分钟')
    rig.say('二氧化碳和水')
    assert rig.commands().count('head_gesture nod') == 2
    assert rig.spoken().count('回答正确！这两样是植物合成有机物的原料。') == 1


def test_an_arm_error_disables_numbers_over_dds(ros):
    rig = Rig(ros, **{'fault.arm.mode': 'error'})
    rig.say(CLASSROOM)
    rig.say('二氧化碳和水')
    assert 'hand victory' not in rig.commands() and 'head_gesture nod' not in rig.commands()
    assert rig.traced('degraded')[0]['why'] == 'motion fault: the rest of the lesson is voice only'


def test_no_client_for_anything_the_document_forbids(ros):
    rig = Rig(ros)
    node = rig.node
    actions = {name.split(node.get_namespace() + '/', 1)[-1] for name, _ in
               rclpy.action.get_action_client_names_and_types_by_node(
                   node, node.get_name(), node.get_namespace())}
    assert actions == {'tts/speak', 'arm_gesture', 'head_gesture', 'arm/move_pos', 'hand'}
    services = {name.split(node.get_namespace() + '/', 1)[-1] for name, _ in
                node.get_client_names_and_types_by_node(node.get_name(), node.get_namespace())}
    assert {'tts/pause', 'tts/resume', 'tts/interrupt', 'arm_gesture/cancel',
            'head_gesture/cancel'} <= services
    forbidden = ('head/', 'nav', 'waist', 'raise', 'shake_hands', 'salute', 'high_five', 'chat')
    assert not any(word in name for name in actions | services for word in forbidden)


def test_a_speech_error_stops_the_lesson_over_dds(ros):
    rig = Rig(ros, **{'fault.tts.mode': 'error'})
    rig.say(CLASSROOM)
    assert rig.traced('error')[0]['why'] == 'tts failed: the physical lesson stops'
    rig.ros.until(rig.finished, what='course ended')
    sent = len(rig.log.messages)
    rig.say('二氧化碳和水')
    assert len(rig.log.messages) == sent


def test_pause_continue_and_stop_over_dds(ros):
    rig = Rig(ros, time_scale=1.0)

    def after(text: str, command: str) -> None:
        rig.asr.publish(AsrEvent(utterance_id=text, text=text, is_final=True))
        rig.ros.until(lambda: command in rig.commands(), what=f'{command} after {text}')

    after(CLASSROOM, 'tts speak')                           # the welcome is being said
    after('暂停', 'tts pause')
    rig.ros.until(lambda: {'head_gesture cancel', 'arm_gesture cancel'} <= set(rig.commands()))
    rig.ros.until(lambda: rig.traced('paused'), what='paused trace')
    assert len(rig.spoken()) == 1                           # no spoken confirmation
    after('继续', 'tts resume')
    after('停止', 'tts interrupt')
    rig.ros.until(rig.finished, what='stopped')
    tail = rig.commands()[-6:]
    assert Counter(tail) == Counter(['tts interrupt', 'head_gesture cancel', 'arm_gesture cancel',
                                     'hand open_palm', 'head_gesture reset', 'arm move_pos'])


def test_a_topic_without_a_lesson_comes_from_the_provider(ros):
    stub = Stub([lesson_json()])
    try:
        rig = Rig(ros, llm_base_url=stub.url, llm_model='stub')
        rig.say('用课堂方式介绍一下月相变化')
        rig.ros.until(lambda: rig.spoken(), timeout=20.0, what='the provided lesson starts')
        assert rig.spoken()[0] == '你好，今天讲月相变化，共三个知识点。'
        assert rig.traced('effect') == [{'type': 'FetchLesson'}]
    finally:
        stub.close()


def test_a_topic_without_a_lesson_and_no_provider_is_said_honestly(ros):
    rig = Rig(ros)
    rig.say('用课堂方式介绍一下量子力学')
    assert rig.spoken() == ['关于量子力学，我还没有准备好的讲解材料，不能随便讲，抱歉。']


def test_a_bad_lesson_stops_the_node(ros, tmp_path):
    (tmp_path / 'bad.yaml').write_text('topic: x\npoints: []\n', encoding='utf-8')
    with pytest.raises(Exception, match=r"bad.yaml: .*field 'summary'"):
        ros.add(ClassroomPresenter,
                parameter_overrides=[Parameter('lessons_dir', value=str(tmp_path))])


# ---- issue 15 over DDS: where the timing and the devices matter -------------------------------

def _seconds(stamp) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


def test_at_real_speed_the_number_is_formed_and_held_before_the_lecture(ros):
    rig = Rig(ros, time_scale=1.0, number_display_s=0.5)
    rig.asr.publish(AsrEvent(utterance_id='u1', text=CLASSROOM, is_final=True))
    rig.ros.until(lambda: 'hand open_palm' in rig.commands(), timeout=30.0,
                  what='the lecture batch')
    formed = [e for e in rig.events.messages if e.kind == 'command_completed'
              and json.loads(e.detail_json)['device'] == 'hand']
    assert formed, 'the number hand never completed before the lecture'
    hand = json.loads(formed[0].detail_json)
    assert (hand['status'], hand['state'], hand['gesture']) == ('succeeded', 'completed', 'point')
    palm = next(m for m in rig.log.messages if (m.device, m.action) == ('hand', 'open_palm'))
    point = next(m for m in rig.log.messages if (m.device, m.action) == ('hand', 'point'))
    held = _seconds(palm.stamp) - _seconds(formed[0].stamp)
    assert held >= 0.5, f'the number was shown {held:.3f} s'
    assert _seconds(formed[0].stamp) > _seconds(point.stamp)
    lecture = [m for m in rig.log.messages if m.device == 'tts'][-1]
    assert json.loads(lecture.arguments_json)['message'].startswith('第一个知识点')
    assert rig.traced('number_held') == [{'number': 1, 'seconds': 0.5}]


def test_an_estop_during_a_lesson_stops_every_motion_but_not_the_lesson(ros):
    from std_srvs.srv import SetBool
    rig = Rig(ros)
    rig.say(CLASSROOM)
    client = rig.ros.node().create_client(SetBool, 'estop')
    assert client.wait_for_service(timeout_sec=5.0)
    future = client.call_async(SetBool.Request(data=True))
    rig.ros.until(future.done, what='e-stop engaged')
    stopped = len(rig.log.messages)
    for answer in ('二氧化碳和水', '需要阳光', '二氧化碳'):
        rig.say(answer)
    rig.ros.until(rig.finished, what='course completed')
    after = [c for c in rig.commands()[stopped:] if c not in ('tts speak', 'arm estop')]
    assert after == ['head_gesture nod'], after    # the one that found the e-stop; no retry
    assert rig.spoken()[-1].startswith('今天我们学习了光合作用')
    assert 'motion fault' in rig.traced('degraded')[0]['why']


def test_a_feedback_gesture_that_never_returns_does_not_hold_the_lesson(ros):
    rig = Rig(ros, gesture_result_timeout=0.3, **{'fault.head_gesture.mode': 'never_finish'})
    rig.say('用课堂讲解的方式介绍光合作用，两分钟')        # no scan in a short course
    rig.say('二氧化碳和水')
    rig.ros.until(lambda: rig.spoken()[-1].endswith('你能告诉我答案吗？')
                  and rig.spoken().count('下面我们开始下一个知识点。') == 1, timeout=10.0,
                  what='the next question, well before the 120 s result timeout')
    assert rig.commands().count('head_gesture nod') == 2          # retried once, then voice
    assert 'nod failed twice' in rig.traced('degraded')[-1]['why']


def test_a_pause_during_the_welcome_keeps_the_number_gestures(ros):
    rig = Rig(ros, time_scale=0.3)
    rig.asr.publish(AsrEvent(utterance_id='u1', text=CLASSROOM, is_final=True))
    rig.ros.until(lambda: 'tts speak' in rig.commands(), what='the welcome')
    rig.asr.publish(AsrEvent(utterance_id='u2', text='暂停', is_final=True))
    rig.ros.until(lambda: 'arm_gesture cancel' in rig.commands(), what='the wave cancelled')
    rig.ros.until(lambda: rig.traced('paused'), what='paused')
    rig.asr.publish(AsrEvent(utterance_id='u3', text='继续', is_final=True))
    rig.ros.until(lambda: 'hand point' in rig.commands(), timeout=30.0, what='the number one')
    assert not any('voice only' in d.get('why', '') for d in rig.traced('degraded'))


def test_a_request_before_any_device_is_found_moves_nothing(ros):
    node = ros.add(ClassroomPresenter, parameter_overrides=[
        Parameter('discovery_timeout', value=1.0)])
    probe = ros.node()
    events = Recorder(probe, SkillEvent, 'skill_events')
    asr = probe.create_publisher(AsrEvent, 'asr/events', 10)
    ros.until(lambda: asr.get_subscription_count() and node.active, what='subscribed')
    asr.publish(AsrEvent(utterance_id='u1', text=CLASSROOM, is_final=True))
    ros.until(lambda: any(e.kind == 'refused' for e in events.messages), timeout=10.0,
              what='the refusal once the devices are known')
    kinds = [e.kind for e in events.messages]
    assert 'waiting_for_devices' in kinds and 'batch_sent' not in kinds


def test_a_slow_arm_acceptance_does_not_hold_the_number_forever(ros):
    """The hand forms the number before the arm accepts its goal: the hold still starts."""
    rig = Rig(ros, **{'fault.arm.mode': 'delay_accept', 'fault.arm.delay': 0.3})
    rig.say(CLASSROOM)
    rig.ros.until(lambda: any(s.startswith('第一个知识点') for s in rig.spoken()),
                  timeout=10.0, what='the lecture')
    assert rig.traced('number_held') == [{'number': 1, 'seconds': 0.5}]
