"""The robot facade against real servers: barriers, refusals, timeouts, capabilities."""

from __future__ import annotations

import pytest
import rclpy.action
from rclpy.parameter import Parameter
from ros_harness import Recorder

from robot_skills.mock_hardware.node import MockHardware
from robot_skills.model.commands import ArmGesture, Call, Control, Device, HeadGesture, Speak
from robot_skills.model.outcomes import Status
from robot_skills.runtime.robot import Robot, Timeouts
from robot_skills_interfaces.msg import HardwareCommand


def _mock(ros, **params):
    return ros.add(MockHardware, parameter_overrides=[
        Parameter(k, value=v) for k, v in {'time_scale': 0.02, **params}.items()])


def test_a_batch_returns_before_it_completes(ros):
    _mock(ros, time_scale=0.5)
    robot = Robot(ros.node(), [Device.TTS, Device.ARM_GESTURE], lambda: Timeouts(3.0, 10.0))
    batch = robot.send('b', [Speak('欢迎来到课堂'), ArmGesture('welcome', 'both')])
    acceptances = ros.wait(batch.returned)
    assert [a.accepted for a in acceptances] == [True, True]
    assert not batch.completed.done()
    outcomes = ros.wait(batch.completed)
    assert [o.command for o in outcomes] == list(batch.commands)
    assert all(o.ok for o in outcomes)


def test_an_empty_batch_is_done_at_once(ros):
    batch = Robot(ros.node(), [Device.TTS], Timeouts).send('empty', [])
    assert batch.returned.result() == () and batch.completed.result() == ()


def test_a_missing_server_is_reported_as_a_missing_capability(ros):
    robot = Robot(ros.node(), [Device.TTS, Device.HEAD_GESTURE], lambda: Timeouts(0.2, 1.0))
    assert robot.missing() == ['head_gesture', 'head_gesture/cancel', 'tts/interrupt',
                               'tts/pause', 'tts/resume', 'tts/speak']
    batch = robot.send('b', [Speak('你好'), Call(Control.TTS_PAUSE)])
    outcomes = ros.wait(batch.completed)
    assert [o.status for o in outcomes] == [Status.UNAVAILABLE, Status.UNAVAILABLE]
    assert 'no server for tts/speak: missing capability' in outcomes[0].reason
    assert [a.accepted for a in batch.returned.result()] == [False, False]


def test_a_server_that_appears_later_is_waited_for(ros):
    robot = Robot(ros.node(), [Device.TTS], lambda: Timeouts(5.0, 10.0))
    batch = robot.send('b', [Speak('你好')])
    _mock(ros)
    assert ros.wait(batch.completed)[0].ok


def test_rejection_is_a_value(ros):
    _mock(ros, **{'fault.head_gesture.mode': 'reject'})
    robot = Robot(ros.node(), [Device.HEAD_GESTURE], lambda: Timeouts(3.0, 10.0))
    (acceptance,) = ros.wait(robot.send('b', [HeadGesture('nod')]).returned)
    assert not acceptance.accepted and acceptance.status is Status.REJECTED


def test_a_result_timeout_cancels_the_goal(ros):
    _mock(ros, **{'fault.arm_gesture.mode': 'never_finish'})
    probe = ros.node()
    log = Recorder(probe, HardwareCommand, 'mock_hardware/commands')
    robot = Robot(probe, [Device.ARM_GESTURE], lambda: Timeouts(3.0, 0.3))
    (outcome,) = ros.wait(robot.send('b', [ArmGesture('welcome', 'left')]).completed)
    assert outcome.status is Status.TIMEOUT and outcome.reason == 'no result within 0.3 s'
    accepted = ros.until(lambda: [m for m in log.messages if m.disposition == 'accepted'])
    ros.until(lambda: any(m.action == 'cancel' and m.goal_id == accepted[0].goal_id
                          for m in log.messages), what='the goal cancelled')


def test_a_late_acceptance_times_out_and_the_late_goal_is_cancelled(ros):
    _mock(ros, **{'fault.tts.mode': 'delay_accept', 'fault.tts.delay': 0.6})
    probe = ros.node()
    log = Recorder(probe, HardwareCommand, 'mock_hardware/commands')
    robot = Robot(probe, [Device.TTS], lambda: Timeouts(0.2, 5.0))
    (acceptance,) = ros.wait(robot.send('b', [Speak('晚了')]).returned)
    assert acceptance.status is Status.TIMEOUT
    ros.until(lambda: [m.action for m in log.messages] == ['speak', 'cancel'],
              what='late goal cancelled')


def test_a_skill_gets_clients_only_for_its_devices(ros):
    _mock(ros)
    probe = ros.node()
    robot = Robot(probe, [Device.TTS, Device.ARM_GESTURE], Timeouts)
    clients = rclpy.action.get_action_client_names_and_types_by_node(
        probe, probe.get_name(), probe.get_namespace())
    assert sorted(name.rsplit('/', 1)[-1] for name, _ in clients) == ['arm_gesture', 'speak']
    services = {name.split(ros.namespace + '/', 1)[-1]
                for name, _ in probe.get_client_names_and_types_by_node(
                    probe.get_name(), probe.get_namespace())}
    assert {'tts/pause', 'tts/resume', 'tts/interrupt', 'arm_gesture/cancel'} <= services
    assert not any(s.startswith(('head_gesture', 'hand', 'arm/')) for s in services)
    with pytest.raises(ValueError, match='head_gesture is not a device of this skill'):
        robot.send('b', [HeadGesture('nod')])
