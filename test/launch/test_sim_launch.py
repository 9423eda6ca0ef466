"""launch_testing suite for launch/sim.launch.py (runs where ROS 2's launch is installed).

    launch_test test/launch/test_sim_launch.py

The simulation is launched twice, under ``/sim_a`` and ``/sim_b`` (its ``namespace``
argument), and each test works with robots no other test speaks through: the q5
guide and the TianYi presenter on ``/sim_a``, the TianYi TA on ``/sim_b``, the
direct speech and the joint states on ``/sim_b/q5``; the coordinator and the
records, which speak through nothing, each in one instance. Every test first
waits until the skills it uses traced ``capabilities`` (device discovery over,
every device found). Bad arguments are tried in separate launches.

Where ``launch_testing`` is not installed (PyPI-only environments) the module
is skipped at collection; test/sim/test_processes.py checks the same behaviour
by starting the same executables as processes.
"""

import json
import os
import sys
import time
import unittest

import pytest

pytest.importorskip('launch_testing')

import launch_testing  # noqa: E402
import launch_testing.actions  # noqa: E402
import launch_testing.asserts  # noqa: E402
import yaml  # noqa: E402
from ament_index_python.packages import get_packages_with_prefixes  # noqa: E402
from launch.actions import IncludeLaunchDescription  # noqa: E402
from launch.launch_description_sources import PythonLaunchDescriptionSource  # noqa: E402
from rclpy.action import ActionClient  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402

import launch  # noqa: E402
from robot_skills_interfaces.action import Speak  # noqa: E402
from robot_skills_interfaces.msg import (  # noqa: E402
    AsrEvent,
    DiscussionTurn,
    HardwareCommand,
    LearningRequest,
    RoutingDecision,
)
from robot_skills_interfaces.srv import OpenDiscussion, RecordsCall, RecordsLearnerCall, TaStep  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'support'))
from launch_support import (  # noqa: E402
    ATTEMPT,
    READY_TIMEOUT,
    SHARE,
    Probe,
    launch_file,
    params_file,
    run_launch,
)

INSTANCES = ('/sim_a', '/sim_b')
# Started beside each mock only where ROS has it (a robot or workstation; not PyPI).
STATE_PUBLISHER = tuple({'robot_state_publisher'} & set(get_packages_with_prefixes()))
with open(os.path.join(SHARE, 'config', 'sim.yaml'), encoding='utf-8') as _stream:
    ROBOTS = yaml.safe_load(_stream)['robots']
# Discovery on two loaded cores can take longer than the default 5 s: a skill that gives up
# starts degraded and the test would judge a different robot.
PARAMS = params_file(wayfinding_guide={'discovery_timeout': 60.0},
                     classroom_presenter={'discovery_timeout': 60.0})


@pytest.mark.launch_test
def generate_test_description():
    return launch.LaunchDescription([
        *(IncludeLaunchDescription(
            PythonLaunchDescriptionSource(launch_file('sim.launch.py')),
            launch_arguments={'namespace': namespace.strip('/'), 'time_scale': '0.05',
                              'params_file': PARAMS}.items())
          for namespace in INSTANCES),
        launch_testing.actions.ReadyToTest(),
    ])


def _speech(log):
    return [json.loads(m.arguments_json)['message'] for m in log if m.device == 'tts']


class TestSimulatedRobots(unittest.TestCase):
    """Talk to each launched robot over DDS, as any outside node would."""

    @classmethod
    def setUpClass(cls):
        cls.probe = Probe('sim_launch_probe')

    @classmethod
    def tearDownClass(cls):
        cls.probe.close()

    def test_every_robot_of_both_instances_is_up_with_its_skills(self):
        for instance in INSTANCES:
            for robot, skills in ROBOTS.items():
                with self.subTest(robot=f'{instance}/{robot}'):
                    self.probe.mock_ready(f'{instance}/{robot}')
                    self.probe.skills_ready(f'{instance}/{robot}', skills)

    def test_a_mock_speaks_and_logs_the_command(self):
        probe, robot = self.probe, '/sim_b/q5'
        client = ActionClient(probe.node, Speak, f'{robot}/tts/speak')
        probe.spin_until(client.server_is_ready, f'{robot}/tts/speak')
        self._first_round_trip(client, f'{robot}/tts/speak')
        log = probe.record(HardwareCommand, f'{robot}/mock_hardware/commands')
        handle = probe.wait(client.send_goal_async(Speak.Goal(message='你好')), 'the goal')
        self.assertTrue(handle.accepted)
        result = probe.wait(handle.get_result_async(), 'the speech').result
        self.assertEqual(result.state, 'completed')
        probe.spin_until(lambda: log, 'the command log')
        self.assertEqual([(m.device, m.action, m.disposition) for m in log],
                         [('tts', 'speak', 'accepted')])

    def _first_round_trip(self, client, name):
        """Speak until one goal's acceptance and result both came back (before the test
        records the command log): a server that has not yet discovered this client drops
        its answers, see Probe.call."""
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            try:
                handle = self.probe.wait(client.send_goal_async(Speak.Goal(message='在')),
                                         'the first goal', ATTEMPT)
                if handle.accepted:
                    self.probe.wait(handle.get_result_async(), 'its result', ATTEMPT)
                    return
            except AssertionError:
                continue
        self.fail(f'no goal of {name} came back within {READY_TIMEOUT:g} s')

    def test_joint_states_are_published(self):
        states = self.probe.record(JointState, '/sim_b/q5/joint_states', 10)
        self.probe.spin_until(lambda: states, 'joint_states')
        self.assertEqual(len(states[0].name), 28)

    def test_the_q5_guide_answers_a_visitor(self):
        probe, robot = self.probe, '/sim_a/q5'
        log = probe.record(HardwareCommand, f'{robot}/mock_hardware/commands')
        probe.skills_ready(robot, ['wayfinding_guide'])
        probe.publish(AsrEvent, f'{robot}/asr/events', AsrEvent(
            utterance_id='launch-1', text='小范小范，贝旺路怎么走', kws_triggered=True,
            is_final=True, confidence=1.0))
        probe.spin_until(lambda: any(m.device == 'arm_gesture' for m in log), 'the welcome')
        self.assertEqual(_speech(log)[0], '贝旺路在穿过前方茶水区，右手边第一个会议室就是贝旺路。')
        gestures = [json.loads(m.arguments_json) for m in log if m.device == 'arm_gesture']
        self.assertEqual([(g['action'], g['side']) for g in gestures], [('welcome', 'left')])

    def test_the_tianyi_presenter_opens_a_lesson(self):
        probe, robot = self.probe, '/sim_a/tianyi'
        log = probe.record(HardwareCommand, f'{robot}/mock_hardware/commands')
        probe.skills_ready(robot, ['classroom_presenter'])
        probe.publish(AsrEvent, f'{robot}/asr/events', AsrEvent(
            utterance_id='launch-2', text='用课堂讲解的方式介绍光合作用', is_final=True,
            confidence=1.0))
        probe.spin_until(lambda: any(m.device == 'hand' for m in log), 'the lesson\'s gestures')
        self.assertEqual(_speech(log)[:2], ['你好，今天讲光合作用，共三个知识点。',
                                            '下面我们进入第一个知识点。'])
        self.assertIn(('arm_gesture', 'welcome'), [(m.device, m.action) for m in log])

    def test_the_tianyi_coordinator_routes_a_request(self):
        probe, robot = self.probe, '/sim_a/tianyi'
        decisions = probe.record(RoutingDecision, f'{robot}/coordinator/decisions')
        probe.skills_ready(robot, ['learning_coordinator'])
        probe.publish(LearningRequest, f'{robot}/coordinator/requests', LearningRequest(
            request_id='launch-3', learner_id='l1', text='10N的力拉物体，这道题我做错了'))
        probe.spin_until(lambda: decisions, 'the routing decision')
        self.assertEqual([(d.action, d.subject, d.target_skill) for d in decisions],
                         [('route', 'physics', 'xiaozhi-correction-notebook')])

    def test_the_tianyi_ta_speaks_once_a_misreading_stands(self):
        probe, robot = self.probe, '/sim_b/tianyi'
        log = probe.record(HardwareCommand, f'{robot}/mock_hardware/commands')
        probe.mock_ready(robot)
        probe.skills_ready(robot, ['pbl_ta'])
        # Each client first gets one refusal (no material, unknown session): its calls are
        # answered from then on.
        opener = probe.service(OpenDiscussion, f'{robot}/discussion/open',
                               harmless=OpenDiscussion.Request(session_id='no-material'))
        step = probe.service(TaStep, f'{robot}/discussion/ta_step', harmless=TaStep.Request(
            session_id='no-such-session', mode='refresh'))
        self.assertTrue(probe.wait(opener.call_async(OpenDiscussion.Request(
            session_id='launch', material='community_waste')), 'discussion/open').ok)
        texts = ['我们讨论一下', '好', '开始吧', '其实罚款就能解决，多罚几次就好了', '嗯']
        turns = probe.publisher(DiscussionTurn, f'{robot}/discussion/turns')
        for n, text in enumerate(texts):
            turns.publish(DiscussionTurn(
                session_id='launch', speaker_role='student', speaker_id=f's{n % 3}', text=text,
                is_body=True, turn_id=f'launch-turn-{n}'))
        refresh = probe.wait(step.call_async(TaStep.Request(
            session_id='launch', mode='refresh', last_turn_id=f'launch-turn-{len(texts) - 1}')),
            'the refresh step')
        self.assertTrue(json.loads(refresh.json)['state_card']['should_speak'])
        answer = json.loads(probe.wait(step.call_async(TaStep.Request(
            session_id='launch', mode='discuss')), 'the discuss step').json)
        probe.spin_until(lambda: _speech(log), 'the TA\'s speech')
        self.assertEqual(_speech(log), [answer['utterance']])

    def test_the_tianyi_records_refuse_a_guessed_name(self):
        probe, robot = self.probe, '/sim_b/tianyi'
        probe.skills_ready(robot, ['learning_records'])
        client = probe.service(RecordsCall, f'{robot}/records/call', harmless=RecordsCall.Request(
            tool='no_such_tool', args_json='{}'))
        learner = probe.service(RecordsLearnerCall, f'{robot}/records/learner/call',
                                harmless=RecordsLearnerCall.Request(
                                    learner_id='l', tool='no_such_tool', args_json='{}'))
        by_the_agent = probe.wait(client.call_async(RecordsCall.Request(
            tool='register_learner',
            args_json='{"learner_id": "l", "display_name": "林小雨"}')), 'register_learner')
        self.assertEqual((by_the_agent.ok, by_the_agent.code), (False, 'PERMISSION'))
        registered = probe.wait(learner.call_async(RecordsLearnerCall.Request(
            learner_id='l', tool='register_learner',
            args_json='{"learner_id": "l", "display_name": "林小雨"}')), 'register_learner')
        self.assertTrue(registered.ok)
        guessed = probe.wait(client.call_async(RecordsCall.Request(
            tool='create_pair', args_json=json.dumps({
                'learner_id': 'l', 'learner_display_name': '林晓雨', 'provider': 'p',
                'model': 'm', 'display_name': 'd'}, ensure_ascii=False))), 'create_pair')
        self.assertEqual((guessed.ok, guessed.code), (False, 'VALIDATION'))


class TestWrongArguments(unittest.TestCase):
    """A bad argument stops sim.launch.py before any node starts, naming the argument."""

    CASES = [
        (('time_scale:=-1',), "launch argument time_scale:='-1' must be a positive number"),
        (('time_scale:=0',), "launch argument time_scale:='0' must be a positive number"),
        (('time_scale:=fast',), "launch argument time_scale:='fast' is not a number"),
        (('time_scale:=nan',), "launch argument time_scale:='nan' must be a positive number"),
        (('coordinator_store:=',), "launch argument coordinator_store:='' is empty"),
        (('params_file:=/nonexistent/params.yaml',),
         "launch argument params_file:='/nonexistent/params.yaml' does not exist"),
        (('use_sim_time:=True',), 'Argument "use_sim_time" provided value "True" is not valid'),
    ]

    def test_each_bad_argument_stops_the_launch_before_any_node(self):
        for arguments, message in self.CASES:
            with self.subTest(arguments=arguments):
                code, output = run_launch('sim.launch.py', 'namespace:=sim_bad', *arguments)
                self.assertNotEqual(code, 0, output)
                self.assertIn(message, output)
                self.assertNotIn('process started', output)


@launch_testing.post_shutdown_test()
class TestShutdown(unittest.TestCase):

    def test_every_node_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)

    def test_every_robot_had_its_mock_and_skills(self, proc_info):
        started = sorted(exited.process_name.rsplit('-', 1)[0] for exited in proc_info)
        expected = sorted(name for _ in INSTANCES for skills in ROBOTS.values()
                          for name in ('mock_hardware', *STATE_PUBLISHER, *skills))
        self.assertEqual(started, expected)
