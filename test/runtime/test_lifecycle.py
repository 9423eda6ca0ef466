"""Managed nodes over DDS: lifecycle transitions, readiness, /diagnostics, the node's clock."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from echo_core import EchoNode
from lifecycle_msgs.msg import Transition
from lifecycle_msgs.srv import ChangeState, GetState
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile, ReliabilityPolicy
from ros_harness import Recorder
from rosgraph_msgs.msg import Clock

from robot_skills.adapters.config import ConfigError
from robot_skills.coordinator.node import LearningCoordinator
from robot_skills.mock_hardware.node import MockHardware
from robot_skills_interfaces.msg import AsrEvent, LearningRequest, RoutingDecision, SkillEvent
from robot_skills_interfaces.srv import ConsentSettings, HealthCheck, PrivacyControl

pytestmark = pytest.mark.slow
MEMORY = Parameter('store_path', value=':memory:')


class Lifecycle:
    """Drives one node's lifecycle services, as ``ros2 lifecycle set`` does."""

    def __init__(self, ros, name: str) -> None:
        self.ros = ros
        probe = ros.node()
        self._change = probe.create_client(ChangeState, f'{name}/change_state')
        self._get = probe.create_client(GetState, f'{name}/get_state')
        ros.until(lambda: self._change.service_is_ready() and self._get.service_is_ready(),
                  what='lifecycle services')

    def state(self) -> str:
        return self.ros.wait(self._get.call_async(GetState.Request())).current_state.label

    def set(self, transition: int) -> bool:
        return self.ros.wait(self._change.call_async(ChangeState.Request(
            transition=Transition(id=transition)))).success


def manual(ros, factory=LearningCoordinator, *parameters: Parameter):
    return ros.add(factory, parameter_overrides=[Parameter('autostart', value=False),
                                                 *parameters])


def test_a_node_waits_for_its_lifecycle_manager_without_autostart(ros):
    coordinator = manual(ros, LearningCoordinator, MEMORY)
    lifecycle = Lifecycle(ros, 'learning_coordinator')
    assert lifecycle.state() == 'unconfigured' and coordinator.state == 'unconfigured'
    assert lifecycle.set(Transition.TRANSITION_CONFIGURE)
    assert lifecycle.state() == 'inactive'
    probe = ros.node()
    health = probe.create_client(HealthCheck, 'coordinator/health_check')
    ros.until(health.service_is_ready, what='health service')
    refused = ros.wait(health.call_async(HealthCheck.Request(learner_id='l1')))
    assert 'inactive: not taking calls' in refused.error
    assert lifecycle.set(Transition.TRANSITION_ACTIVATE)
    answered = ros.wait(health.call_async(HealthCheck.Request(learner_id='l1')))
    assert answered.error == '' and answered.report_text


def test_an_inactive_node_refuses_input_and_says_so_then_takes_it_again(ros):
    ros.add(LearningCoordinator, parameter_overrides=[MEMORY])
    lifecycle = Lifecycle(ros, 'learning_coordinator')
    probe = ros.node()
    events = Recorder(probe, SkillEvent, 'skill_events')
    decisions = Recorder(probe, RoutingDecision, 'coordinator/decisions')
    requests = probe.create_publisher(LearningRequest, 'coordinator/requests', 10)
    ros.until(requests.get_subscription_count, what='subscriber')
    assert lifecycle.set(Transition.TRANSITION_DEACTIVATE)
    requests.publish(LearningRequest(request_id='q1', learner_id='l1', text='方程怎么解'))
    ros.until(lambda: [e for e in events.messages if e.kind == 'input_rejected'],
              what='refusal traced')
    refusal = json.loads([e for e in events.messages if e.kind == 'input_rejected'][0]
                         .detail_json)
    assert refusal == {'topic': 'coordinator/requests',
                       'reason': 'learning_coordinator is inactive'}
    assert not decisions.messages
    assert lifecycle.set(Transition.TRANSITION_ACTIVATE)
    requests.publish(LearningRequest(request_id='q2', learner_id='l1', text='方程怎么解'))
    ros.until(lambda: decisions.messages, what='decision once active')
    assert decisions.messages[0].request_id == 'q2'


def test_cleanup_undoes_configure_and_a_second_configure_starts_afresh(ros):
    ros.add(LearningCoordinator, parameter_overrides=[MEMORY])
    lifecycle = Lifecycle(ros, 'learning_coordinator')
    probe = ros.node()
    privacy = probe.create_client(PrivacyControl, 'coordinator/privacy')
    ros.until(privacy.service_is_ready, what='privacy service')
    assert lifecycle.set(Transition.TRANSITION_DEACTIVATE)
    assert lifecycle.set(Transition.TRANSITION_CLEANUP)
    assert lifecycle.state() == 'unconfigured'
    ros.until(lambda: not privacy.service_is_ready(), what='services gone after cleanup')
    assert lifecycle.set(Transition.TRANSITION_CONFIGURE)
    assert lifecycle.set(Transition.TRANSITION_ACTIVATE)
    ros.until(privacy.service_is_ready, what='services back')
    viewed = ros.wait(privacy.call_async(PrivacyControl.Request(learner_id='l1', action='view')))
    assert viewed.ok


def test_a_configure_that_fails_leaves_the_node_unconfigured_and_says_why(ros, tmp_path):
    bad = tmp_path / 'routing.yaml'
    bad.write_text('subjects: {}\n', encoding='utf-8')
    coordinator = manual(ros, LearningCoordinator, MEMORY,
                         Parameter('routing_file', value=str(bad)))
    lifecycle = Lifecycle(ros, 'learning_coordinator')
    assert not lifecycle.set(Transition.TRANSITION_CONFIGURE)
    assert lifecycle.state() == 'unconfigured'
    status = coordinator.diagnostics.status()
    assert status.level == DiagnosticStatus.ERROR and str(bad) in status.message


def test_autostart_raises_the_configure_error(ros, tmp_path):
    bad = tmp_path / 'routing.yaml'
    bad.write_text('subjects: {}\n', encoding='utf-8')
    with pytest.raises(ConfigError, match='routing.yaml'):
        ros.add(LearningCoordinator, parameter_overrides=[
            MEMORY, Parameter('routing_file', value=str(bad))])


# ---- readiness ---------------------------------------------------------------------------------

def _greeted(ros, probe) -> Recorder:
    """Say 你好 to the echo skill and wait until its goal is sent; its traces from then on."""
    events = Recorder(probe, SkillEvent, 'skill_events')
    asr = probe.create_publisher(AsrEvent, 'asr/events', 10)
    ros.until(asr.get_subscription_count, what='subscriber')
    asr.publish(AsrEvent(utterance_id='u1', text='你好', kws_triggered=True, is_final=True,
                         confidence=1.0))
    ros.until(lambda: any(e.kind == 'batch_sent' for e in events.messages), what='batch sent')
    return events


def test_input_before_the_devices_are_found_waits_for_them(ros):
    """The skill starts before the robot's driver: its first answer waits for the server (up
    to discovery_timeout) instead of failing after acceptance_timeout."""
    ros.add(EchoNode, parameter_overrides=[Parameter('discovery_timeout', value=30.0),
                                           Parameter('acceptance_timeout', value=0.3)])
    probe = ros.node()
    events = _greeted(ros, probe)
    ros.executor.spin_once(timeout_sec=0.5)        # longer than the acceptance timeout
    assert not any(e.kind == 'batch_returned' for e in events.messages)
    ros.add(MockHardware, parameter_overrides=[Parameter('time_scale', value=0.02)])
    ros.until(lambda: [e for e in events.messages if e.kind == 'batch_completed'],
              timeout=20.0, what='speech once the mock is up')
    completed = json.loads([e for e in events.messages if e.kind == 'batch_completed'][0]
                           .detail_json)
    assert [o['status'] for o in completed['outcomes']] == ['succeeded']


# ---- diagnostics -------------------------------------------------------------------------------

def _statuses(recorder: Recorder, name: str) -> list[DiagnosticStatus]:
    return [s for array in recorder.messages for s in array.status if s.name == name]


def test_each_node_reports_its_health_on_diagnostics(ros):
    probe = ros.node()
    diagnostics = Recorder(probe, DiagnosticArray, '/diagnostics')
    skill = ros.add(EchoNode, parameter_overrides=[Parameter('discovery_timeout', value=0.0)])
    name = skill.get_fully_qualified_name()
    ros.until(lambda: _statuses(diagnostics, name), timeout=5.0, what='a status')
    alone = _statuses(diagnostics, name)[-1]
    values = {kv.key: kv.value for kv in alone.values}
    speech = 'tts/interrupt, tts/pause, tts/resume, tts/speak'
    assert alone.level == DiagnosticStatus.WARN and f'devices: missing: {speech}' in alone.message
    assert values['lifecycle_state'] == 'active' and values['devices.missing'] == speech
    assert alone.hardware_id == ros.namespace.strip('/')
    ros.add(MockHardware, parameter_overrides=[Parameter('time_scale', value=0.02)])
    ros.until(lambda: _statuses(diagnostics, name)[-1].level == DiagnosticStatus.OK,
              timeout=10.0, what='OK once the device is found')
    values = {kv.key: kv.value for kv in _statuses(diagnostics, name)[-1].values}
    assert values['devices.found'] == speech and values['core.queued_events'] == '0'


def test_diagnostics_name_an_error_by_kind_never_by_the_learners_words(ros):
    probe = ros.node()
    diagnostics = Recorder(probe, DiagnosticArray, '/diagnostics')
    ros.add(MockHardware, parameter_overrides=[Parameter('time_scale', value=0.02)])
    skill = ros.add(EchoNode)
    asr = probe.create_publisher(AsrEvent, 'asr/events', 10)
    ros.until(asr.get_subscription_count, what='subscriber')
    asr.publish(AsrEvent(utterance_id='u1', text='boom', kws_triggered=True, is_final=True,
                         confidence=1.0))     # the echo core raises on "boom"
    name = skill.get_fully_qualified_name()
    ros.until(lambda: any(kv.key == 'last_error' for s in _statuses(diagnostics, name)
                          for kv in s.values), timeout=5.0, what='the error reported')
    last = _statuses(diagnostics, name)[-1]
    assert last.level == DiagnosticStatus.WARN
    assert {kv.key: kv.value for kv in last.values}['last_error'] == 'RuntimeError in core.step'
    assert 'boom' not in repr(diagnostics.messages)


def test_a_store_that_cannot_be_written_is_reported(ros):
    coordinator = ros.add(LearningCoordinator, parameter_overrides=[MEMORY])
    assert {kv.key: kv.value for kv in coordinator.diagnostics.status().values}[
        'store.writable'] == 'yes'
    coordinator.store._db.unavailable_until = float('inf')       # as after a locked write
    status = coordinator.diagnostics.status()
    assert status.level == DiagnosticStatus.WARN and 'store: locked or read-only' in status.message


# ---- the node's clock ----------------------------------------------------------------------------

SIM_TIME = Parameter('use_sim_time', value=True)
CLOCK_QOS = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)


def test_device_timeouts_follow_the_nodes_clock(ros):
    """Under use_sim_time a paused clock pauses the acceptance timeout; it runs when /clock
    moves on (a replayed bag behaves as the robot did)."""
    probe = ros.node()
    clock = probe.create_publisher(Clock, '/clock', CLOCK_QOS)
    skill = ros.add(EchoNode, parameter_overrides=[
        SIM_TIME, Parameter('discovery_timeout', value=0.0),
        Parameter('acceptance_timeout', value=1.0)])
    ros.until(clock.get_subscription_count, what='/clock subscriber')
    clock.publish(Clock(clock=Time(sec=100)))
    ros.until(lambda: skill.get_clock().now().nanoseconds >= 100e9, what='sim time 100')
    events = _greeted(ros, probe)
    for _ in range(15):                                    # 1.5 s of wall time, no sim time
        ros.executor.spin_once(timeout_sec=0.1)
    assert not any(e.kind == 'batch_returned' for e in events.messages)
    clock.publish(Clock(clock=Time(sec=102)))
    ros.until(lambda: any(e.kind == 'batch_returned' for e in events.messages),
              what='the timeout once the clock moves')
    returned = json.loads([e for e in events.messages if e.kind == 'batch_returned'][0]
                          .detail_json)
    assert returned['acceptances'][0]['status'] == 'unavailable'


def test_records_keep_wall_clock_utc_under_a_simulated_clock(ros):
    """A simulated clock (here: stopped at 0, 1970) never stamps a learner's record."""
    ros.add(LearningCoordinator, parameter_overrides=[MEMORY, SIM_TIME])
    probe = ros.node()
    consent = probe.create_client(PrivacyControl, 'coordinator/privacy')
    decisions = Recorder(probe, RoutingDecision, 'coordinator/decisions')
    requests = probe.create_publisher(LearningRequest, 'coordinator/requests', 10)
    settings = probe.create_client(ConsentSettings, 'coordinator/consent')
    ros.until(lambda: settings.service_is_ready() and consent.service_is_ready()
              and requests.get_subscription_count(), what='coordinator')
    ros.wait(settings.call_async(ConsentSettings.Request(
        learner_id='l1', update_json='{"crossSkillSharing": true}')))
    requests.publish(LearningRequest(request_id='q1', learner_id='l1', text='方程又错了'))
    ros.until(lambda: decisions.messages, what='decision')
    viewed = ros.wait(consent.call_async(PrivacyControl.Request(learner_id='l1', action='view')))
    dates = [record['date'] for record in json.loads(viewed.data_json)]
    assert dates == [datetime.now(UTC).strftime('%Y-%m-%d')]
