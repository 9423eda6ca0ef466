"""mock_hardware over real DDS: timing, pause/resume/interrupt, validation, faults, log."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass

import pytest
from hostile import per_node, texts
from hypothesis import given
from hypothesis import strategies as st
from rcl_interfaces.srv import SetParameters
from rclpy.action import ActionClient
from rclpy.node import Node
from rclpy.parameter import Parameter
from ros_harness import Harness, Recorder
from sensor_msgs.msg import JointState
from std_srvs.srv import SetBool, Trigger

from robot_skills.mock_hardware.node import MockHardware
from robot_skills.model.commands import (
    ArmGesture,
    ArmMovePos,
    Call,
    Command,
    Control,
    Device,
    Fingers,
    Hand,
    HeadGesture,
    Speak,
)
from robot_skills.model.outcomes import Outcome, Status
from robot_skills.runtime.devices import ACTIONS
from robot_skills.runtime.robot import Batch, Robot, Timeouts
from robot_skills_interfaces.action import Speak as SpeakAction
from robot_skills_interfaces.msg import HardwareCommand

DISPLAY = (0.0, 0.0, 0.0, -100.0, 90.0, 0.0, -70.0)
NEUTRAL = (0.0,) * 7


@dataclass
class Rig:
    ros: Harness
    mock: MockHardware
    probe: Node
    robot: Robot
    log: Recorder

    def send(self, *commands: Command) -> Batch:
        return self.robot.send('test', commands)

    def complete(self, *commands: Command) -> tuple[Outcome, ...]:
        return self.ros.wait(self.send(*commands).completed)

    def call(self, name: str, srv=Trigger, request=None):
        client = self.probe.create_client(srv, name)
        assert client.wait_for_service(timeout_sec=5.0)
        return self.ros.wait(client.call_async(request or srv.Request()))

    def set_params(self, **values) -> list:
        """Set parameters through the parameter service, as ``ros2 param set`` does."""
        response = self.call('mock_hardware/set_parameters', SetParameters,
                             SetParameters.Request(parameters=[
                                 Parameter(k, value=v).to_parameter_msg()
                                 for k, v in values.items()]))
        return response.results

    def speak_with_feedback(self, message: str):
        """A raw tts/speak goal: its handle and the feedback list it fills."""
        client = ActionClient(self.probe, SpeakAction, 'tts/speak')
        assert client.wait_for_server(timeout_sec=5.0)
        feedback = []
        handle = self.ros.wait(client.send_goal_async(
            SpeakAction.Goal(message=message),
            feedback_callback=lambda msg: feedback.append(msg.feedback)))
        return handle, feedback

    def dispositions(self, count: int) -> list[tuple[str, str, str]]:
        self.ros.until(lambda: len(self.log.messages) >= count, what=f'{count} commands')
        return [(m.device, m.action, m.disposition) for m in self.log.messages]


@pytest.fixture
def rig(ros):
    def make(**params) -> Rig:
        mock = ros.add(MockHardware, parameter_overrides=[
            Parameter(k, value=v) for k, v in {'time_scale': 0.02, **params}.items()])
        probe = ros.node()
        robot = Robot(probe, list(Device), lambda: Timeouts(3.0, 15.0))
        log = Recorder(probe, HardwareCommand, 'mock_hardware/commands')
        return Rig(ros, mock, probe, robot, log)
    return make


def test_speech_completes_after_its_modelled_duration(rig):
    r = rig(time_scale=0.2)
    message = '一二三四五六七八九'            # 9 characters: 2 s at 4.5/s, 0.4 s scaled
    start = time.monotonic()
    (outcome,) = r.complete(Speak(message))
    elapsed = time.monotonic() - start
    assert outcome.ok and outcome.receipt.state == 'completed'
    assert outcome.receipt.action_id.startswith('tts-')
    assert elapsed >= 0.4 - 0.01


def test_speech_feedback_reports_speaking_and_progress(rig):
    r = rig(time_scale=0.2, feedback_period=0.05)
    handle, feedback = r.speak_with_feedback('一二三四五六七八九')
    result = r.ros.wait(handle.get_result_async()).result
    assert result.state == 'completed'
    assert feedback and all(f.state == 'speaking' for f in feedback)
    spoken = [f.chars_spoken for f in feedback]
    assert spoken == sorted(spoken) and spoken[-1] <= 9
    assert {f.action_id for f in feedback} == {result.action_id}


def test_pause_holds_the_speech_and_resume_continues_it(rig):
    r = rig(time_scale=0.25, feedback_period=0.02)
    handle, feedback = r.speak_with_feedback('一二三四五六七八九')
    result = handle.get_result_async()
    r.ros.until(lambda: any(f.chars_spoken >= 2 for f in feedback), what='some speech')
    paused_at = time.monotonic()
    assert r.call('tts/pause').success
    r.ros.until(lambda: any(f.state == 'paused' for f in feedback), what='paused feedback')
    held = next(f.chars_spoken for f in feedback if f.state == 'paused')
    assert not r.call('tts/pause').success               # nothing left to pause
    assert not result.done()
    resumed_at = time.monotonic()
    assert r.call('tts/resume').success
    assert r.ros.wait(result).result.state == 'completed'
    after = [f for f in feedback[feedback.index(next(f for f in feedback
                                                    if f.state == 'paused')) + 1:]]
    assert after and after[0].state == 'speaking' and after[0].chars_spoken == held
    assert not r.call('tts/resume').success               # nothing paused any more
    assert resumed_at >= paused_at


def test_interrupt_ends_the_speech_and_the_queue(rig):
    r = rig(time_scale=1.0)
    first = r.send(Speak('这是一段需要说很久很久的话，大约要好几秒钟才能说完。'))
    second = r.send(Speak('排队的第二句话。'))
    r.ros.wait(second.returned)
    response = r.call('tts/interrupt')
    assert response.success and '2 speech' in response.message
    assert [o.receipt.state for o in r.ros.wait(first.completed)] == ['interrupted']
    assert [o.receipt.state for o in r.ros.wait(second.completed)] == ['interrupted']
    assert r.dispositions(3)[:2] == [('tts', 'speak', 'accepted'), ('tts', 'speak', 'queued')]


def test_a_second_speech_is_queued_and_spoken_after_the_first(rig):
    r = rig()
    order = []
    first, second = r.send(Speak('第一句。')), r.send(Speak('第二句。'))
    first.completed.add_done_callback(lambda _: order.append('first'))
    second.completed.add_done_callback(lambda _: order.append('second'))
    assert r.ros.wait(second.completed)[0].ok
    assert order == ['first', 'second']
    assert [d for *_, d in r.dispositions(2)] == ['accepted', 'queued']


def test_overlap_can_be_rejected_instead(rig):
    r = rig(time_scale=1.0, speak_overlap='reject')
    first = r.send(Speak('这一句要说好几秒钟才会结束。'))
    r.ros.wait(first.returned)
    (refused,) = r.ros.wait(r.send(Speak('插话')).completed)
    assert refused.status is Status.REJECTED
    r.call('tts/interrupt')


def test_force_interrupts_the_current_speech(rig):
    r = rig(time_scale=1.0)
    long = r.send(Speak('这是一段需要说很久很久的话，大约要好几秒钟才能说完。'))
    r.ros.wait(long.returned)
    (forced,) = r.complete(Speak('好的，有需要再问我。', force=True))
    assert forced.ok
    assert r.ros.wait(long.completed)[0].receipt.state == 'interrupted'


def test_every_device_runs_its_gestures_with_receipts(rig):
    r = rig()
    outcomes = r.complete(
        ArmGesture('welcome', 'both', 1, 1.0), HeadGesture('nod'), Hand('victory', 'right'),
        Hand('set_fingers_raw', 'left', Fingers(little=100, thumb_bend=92)),
        ArmMovePos(NEUTRAL, DISPLAY, 1.0))
    assert all(o.ok for o in outcomes), [o.reason for o in outcomes]
    assert [o.receipt.gesture for o in outcomes] == ['welcome', 'nod', 'victory',
                                                    'set_fingers_raw', '']
    assert len({o.receipt.action_id for o in outcomes}) == 5


@pytest.mark.parametrize('command, error', [
    (ArmGesture('raise', 'left'), "unknown arm gesture 'raise'"),
    (ArmGesture('welcome', 'up'), 'side must be left, right or both'),
    (HeadGesture('spin'), "unknown head gesture 'spin'"),
    (Hand('reset', 'right'), "unknown hand action 'reset'"),
    (Hand('set_fingers_raw', 'right', Fingers(index=150)), 'finger values must be 0-100'),
    (ArmMovePos(NEUTRAL[:6], DISPLAY), 'left_positions needs 7 values, got 6'),
    (ArmMovePos(NEUTRAL, (math.nan,) * 7), 'right_positions: shoulder_pitch is not finite'),
    (ArmMovePos(NEUTRAL, (0, 0, 0, 45, 0, 0, 0)), 'elbow=45 is outside its limits'),
    (Speak('   '), 'empty message'),
])
def test_invalid_goals_end_in_error_with_a_clear_reason(rig, command, error):
    r = rig()
    (outcome,) = r.complete(command)
    assert outcome.status is Status.FAILED and outcome.receipt.state == 'error'
    assert error in outcome.receipt.error


def test_a_new_gesture_preempts_the_running_one(rig):
    r = rig(time_scale=1.0)
    first = r.send(ArmGesture('welcome', 'left', 3))
    r.ros.wait(first.returned)
    assert r.complete(ArmGesture('reset', 'both'))[0].ok
    (preempted,) = r.ros.wait(first.completed)
    assert preempted.receipt.state == 'cancelled' and 'preempted' in preempted.receipt.error


def test_cancel_services_end_running_gestures(rig):
    r = rig(time_scale=1.0)
    arm, head = r.send(ArmGesture('welcome', 'left', 3)), r.send(HeadGesture('scan'))
    r.ros.wait(arm.returned)
    r.ros.wait(head.returned)
    assert r.call('arm_gesture/cancel').success
    assert r.call('head_gesture/cancel').success
    assert r.ros.wait(arm.completed)[0].receipt.state == 'cancelled'
    assert r.ros.wait(head.completed)[0].receipt.state == 'cancelled'
    assert r.call('arm_gesture/cancel').message == 'nothing was running'


@pytest.mark.parametrize('mode, status, state', [
    ('reject', Status.REJECTED, ''),
    ('error', Status.FAILED, 'error'),
    ('empty_receipt', Status.FAILED, ''),
])
def test_faults_injected_at_run_time(rig, mode, status, state):
    r = rig()
    assert r.complete(ArmGesture('welcome', 'left'))[0].ok
    assert all(result.successful for result in r.set_params(**{'fault.arm_gesture.mode': mode}))
    (outcome,) = r.complete(ArmGesture('welcome', 'left'))
    assert outcome.status is status and outcome.receipt.state == state
    assert r.complete(HeadGesture('nod'))[0].ok           # other devices are unaffected
    r.set_params(**{'fault.arm_gesture.mode': 'none'})
    assert r.complete(ArmGesture('welcome', 'left'))[0].ok


def test_delayed_acceptance(rig):
    r = rig(**{'fault.tts.mode': 'delay_accept', 'fault.tts.delay': 0.3})
    start = time.monotonic()
    batch = r.send(Speak('你好'))
    (acceptance,) = r.ros.wait(batch.returned)
    assert acceptance.accepted and time.monotonic() - start >= 0.3 - 0.01
    assert r.ros.wait(batch.completed)[0].ok


def test_a_goal_that_never_finishes_ends_only_when_cancelled(rig):
    r = rig(**{'fault.head_gesture.mode': 'never_finish'})
    batch = r.send(HeadGesture('nod'))
    r.ros.wait(batch.returned)
    assert r.complete(Speak('你好'))[0].ok                # time passes; the nod goes on
    assert not batch.completed.done()
    r.call('head_gesture/cancel')
    assert r.ros.wait(batch.completed)[0].receipt.state == 'cancelled'


def test_invalid_runtime_parameter_changes_are_refused_with_a_reason(rig):
    r = rig()
    (result,) = r.set_params(**{'fault.hand.mode': 'explode'})
    assert not result.successful and 'must be one of' in result.reason
    (result,) = r.set_params(chars_per_second=-1.0)
    assert not result.successful
    assert r.mock.settings.value.chars_per_second == 4.5
    assert r.mock.faults[Device.HAND].value.mode == 'none'


def test_emergency_stop_fails_motion_but_not_speech(rig):
    r = rig(time_scale=1.0)
    running = r.send(ArmGesture('welcome', 'right', 3))
    r.ros.wait(running.returned)
    assert r.call('estop', SetBool, SetBool.Request(data=True)).success
    assert r.ros.wait(running.completed)[0].receipt.error == 'estop'
    r.set_params(time_scale=0.02)
    for command in (ArmGesture('welcome', 'left'), HeadGesture('nod'), Hand('point', 'right'),
                    ArmMovePos(NEUTRAL, NEUTRAL)):
        (outcome,) = r.complete(command)
        assert outcome.receipt.state == 'error' and outcome.receipt.error == 'estop'
    assert r.complete(Speak('我还能说话。'))[0].ok
    r.call('estop', SetBool, SetBool.Request(data=False))
    assert r.complete(ArmGesture('welcome', 'left'))[0].ok


def test_every_command_is_logged_in_order_with_its_arguments(rig):
    r = rig()
    r.complete(Speak('你好'), ArmGesture('welcome', 'left', 1, 1.0))
    r.complete(Call(Control.TTS_PAUSE))
    log = r.ros.until(lambda: r.log.messages if len(r.log.messages) >= 3 else None)
    assert [m.sequence for m in log] == sorted(m.sequence for m in log)
    assert len({m.sequence for m in log}) == len(log)
    by_device = {m.device: m for m in log[:2]}
    speak, wave = by_device['tts'], by_device['arm_gesture']
    assert json.loads(speak.arguments_json) == {'message': '你好', 'force': False}
    assert json.loads(wave.arguments_json)['side'] == 'left' and wave.action == 'welcome'
    assert len(speak.goal_id) == 32 and speak.disposition == 'accepted'
    assert (log[2].device, log[2].action, log[2].goal_id, log[2].disposition) == \
        ('tts', 'pause', '', 'called')


def test_joint_states_follow_commanded_motions(rig):
    r = rig(joint_state_rate=50.0)
    states = Recorder(r.probe, JointState, 'joint_states')
    assert r.complete(ArmMovePos(NEUTRAL, DISPLAY, 2.0))[0].ok
    r.ros.until(lambda: states.messages, what='joint states')
    count = len(states.messages)
    latest = r.ros.until(lambda: states.messages[-1] if len(states.messages) > count else None)
    positions = dict(zip(latest.name, latest.position, strict=True))
    assert len(latest.name) == 28
    assert positions['right_elbow'] == pytest.approx(math.radians(-100))
    assert positions['left_elbow'] == 0.0


def test_a_bad_body_file_stops_the_node_with_the_entry_named(ros, tmp_path):
    bad = tmp_path / 'body.yaml'
    bad.write_text('arm: {joints: [a], limits: {}, move_seconds: 1}\n', encoding='utf-8')
    with pytest.raises(Exception, match=r"body.yaml: entry arm, field 'joints'"):
        ros.add(MockHardware, parameter_overrides=[Parameter('body_file', value=str(bad))])


def test_hostile_goals_are_refused_or_fail_and_the_mock_goes_on(ros):
    """Any goal anyone sends: rejected, or accepted and ended with a result; never a crash."""
    mock = ros.add(MockHardware, parameter_overrides=[Parameter('time_scale', value=0.0),
                                                      Parameter('joint_state_rate', value=0.0)])
    probe = ros.node()
    clients = {device: ActionClient(probe, ACTIONS[device].action_type, ACTIONS[device].name)
               for device in Device}
    ros.until(lambda: all(c.server_is_ready() for c in clients.values()), what='servers')
    floats = st.floats(width=32)
    arrays = st.lists(st.floats(), max_size=12)
    goals = {
        Device.TTS: st.builds(SpeakAction.Goal, message=texts(), force=st.booleans()),
        Device.ARM_GESTURE: st.builds(ACTIONS[Device.ARM_GESTURE].action_type.Goal,
                                      action=texts(20), side=texts(10),
                                      cycles=st.integers(-2 ** 31, 2 ** 31 - 1), speed=floats),
        Device.HEAD_GESTURE: st.builds(ACTIONS[Device.HEAD_GESTURE].action_type.Goal,
                                       action=texts(20)),
        Device.ARM: st.builds(ACTIONS[Device.ARM].action_type.Goal, left_positions=arrays,
                              right_positions=arrays, speed=floats),
        Device.HAND: st.builds(ACTIONS[Device.HAND].action_type.Goal, action=texts(20),
                               side=texts(10), **{f: st.integers(-2 ** 31, 2 ** 31 - 1)
                                                  for f in ('little', 'ring', 'middle', 'index',
                                                            'thumb_bend', 'thumb_rotation')}),
    }

    @per_node
    @given(st.data())
    def send(data):
        device = data.draw(st.sampled_from(sorted(goals)))
        handle = ros.wait(clients[device].send_goal_async(data.draw(goals[device])))
        if handle.accepted:
            result = ros.wait(handle.get_result_async()).result
            assert result.state in ('completed', 'running', 'error', 'cancelled',
                                    'interrupted')
        spoken = ros.wait(clients[Device.TTS].send_goal_async(SpeakAction.Goal(message='好')))
        assert ros.wait(spoken.get_result_async()).result.state in ('completed', 'interrupted')

    send()
    assert mock.context.ok()


def test_an_action_callback_that_raises_ends_the_goal_in_error_and_the_mock_goes_on(ros,
                                                                                   monkeypatch):
    mock = ros.add(MockHardware, parameter_overrides=[Parameter('time_scale', value=0.0)])
    start, calls = mock._start, []

    def fragile(device, handle):
        calls.append(device)
        if len(calls) == 1:
            raise KeyError('a bug in the mock')
        return start(device, handle)

    monkeypatch.setattr(mock, '_start', fragile)
    probe = ros.node()
    client = ActionClient(probe, SpeakAction, 'tts/speak')
    ros.until(client.server_is_ready, what='tts/speak')
    results = []
    for _ in range(2):
        handle = ros.wait(client.send_goal_async(SpeakAction.Goal(message='好')))
        results.append(ros.wait(handle.get_result_async()).result)
    assert [r.state for r in results] == ['error', 'completed']
    assert results[0].error == 'internal error (traced)'


def test_a_goal_beyond_the_transport_cap_is_rejected(rig):
    r = rig()
    client = ActionClient(r.probe, SpeakAction, 'tts/speak')
    assert client.wait_for_server(timeout_sec=5.0)
    handle = r.ros.wait(client.send_goal_async(SpeakAction.Goal(message='话' * 100_001)))
    assert not handle.accepted
    assert r.dispositions(1)[-1] == ('tts', 'speak', 'rejected')
