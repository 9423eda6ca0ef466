"""launch_testing suite for launch/sim.launch.py (runs where ROS 2's launch is installed).

    launch_test test/launch/test_sim_launch.py

Where ``launch_testing`` is not installed (PyPI-only environments) the module
is skipped at collection; test/sim/test_processes.py checks the same behaviour
by starting the same executables as processes.
"""

import json
import os
import unittest

import pytest

pytest.importorskip('launch_testing')

import launch  # noqa: E402
import launch_testing  # noqa: E402
import launch_testing.actions  # noqa: E402
import launch_testing.asserts  # noqa: E402
import rclpy  # noqa: E402
from ament_index_python.packages import get_package_share_directory  # noqa: E402
from launch.launch_description_sources import PythonLaunchDescriptionSource  # noqa: E402
from rclpy.action import ActionClient  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402

from robot_skills_interfaces.action import Speak  # noqa: E402
from robot_skills_interfaces.msg import (AsrEvent, DiscussionTurn,  # noqa: E402
                                         HardwareCommand, LearningRequest, RoutingDecision)
from robot_skills_interfaces.srv import OpenDiscussion, RecordsCall, TaStep  # noqa: E402

ROBOTS = ('q5', 'tianyi')
TIMEOUT = 20.0


@pytest.mark.launch_test
def generate_test_description():
    sim = os.path.join(get_package_share_directory('robot_skills'), 'launch', 'sim.launch.py')
    return launch.LaunchDescription([
        launch.actions.IncludeLaunchDescription(
            PythonLaunchDescriptionSource(sim), launch_arguments={'time_scale': '0.05'}.items()),
        launch_testing.actions.ReadyToTest(),
    ])


class TestSimulatedRobots(unittest.TestCase):
    """Talk to each launched robot over DDS, as any outside node would."""

    @classmethod
    def setUpClass(cls):
        rclpy.init()
        cls.node = rclpy.create_node('sim_launch_probe')

    @classmethod
    def tearDownClass(cls):
        cls.node.destroy_node()
        rclpy.shutdown()

    def _wait(self, future):
        rclpy.spin_until_future_complete(self.node, future, timeout_sec=TIMEOUT)
        self.assertTrue(future.done(), 'no answer within the timeout')
        return future.result()

    def _spin_until(self, done):
        end = self.node.get_clock().now().nanoseconds + int(TIMEOUT * 1e9)
        while not done() and self.node.get_clock().now().nanoseconds < end:
            rclpy.spin_once(self.node, timeout_sec=0.1)

    def _send_until(self, publisher, message, done):
        """Publish ``message`` once it has a subscriber, then spin until ``done()`` or timeout."""
        end = self.node.get_clock().now().nanoseconds + int(TIMEOUT * 1e9)
        sent = False
        while not done() and self.node.get_clock().now().nanoseconds < end:
            if not sent and publisher.get_subscription_count():
                publisher.publish(message)
                sent = True
            rclpy.spin_once(self.node, timeout_sec=0.5)

    def test_every_robot_speaks_and_logs_the_command(self):
        for robot in ROBOTS:
            log = []
            self.node.create_subscription(HardwareCommand, f'/{robot}/mock_hardware/commands',
                                          log.append, 10)
            client = ActionClient(self.node, Speak, f'/{robot}/tts/speak')
            self.assertTrue(client.wait_for_server(timeout_sec=TIMEOUT))
            handle = self._wait(client.send_goal_async(Speak.Goal(message='你好')))
            self.assertTrue(handle.accepted)
            result = self._wait(handle.get_result_async()).result
            self.assertEqual(result.state, 'completed')
            end = self.node.get_clock().now().nanoseconds + int(TIMEOUT * 1e9)
            while not log and self.node.get_clock().now().nanoseconds < end:
                rclpy.spin_once(self.node, timeout_sec=0.1)
            self.assertEqual([(m.device, m.action) for m in log], [('tts', 'speak')])

    def test_the_q5_guide_answers_a_visitor(self):
        log = []
        self.node.create_subscription(HardwareCommand, '/q5/mock_hardware/commands', log.append,
                                      10)
        asr = self.node.create_publisher(AsrEvent, '/q5/asr/events', 10)
        self._send_until(asr, AsrEvent(utterance_id='launch-1', text='小范小范，贝旺路怎么走',
                                       kws_triggered=True, is_final=True, confidence=1.0),
                         lambda: any(m.device == 'arm_gesture' for m in log))
        speech = [json.loads(m.arguments_json)['message'] for m in log if m.device == 'tts']
        self.assertEqual(speech[0], '贝旺路在穿过前方茶水区，右手边第一个会议室就是贝旺路。')
        gestures = [json.loads(m.arguments_json) for m in log if m.device == 'arm_gesture']
        self.assertEqual([(g['action'], g['side']) for g in gestures], [('welcome', 'left')])

    def test_the_tianyi_presenter_opens_a_lesson(self):
        log = []
        self.node.create_subscription(HardwareCommand, '/tianyi/mock_hardware/commands',
                                      log.append, 10)
        asr = self.node.create_publisher(AsrEvent, '/tianyi/asr/events', 10)
        self._send_until(asr, AsrEvent(utterance_id='launch-2', text='用课堂讲解的方式介绍光合作用',
                                       is_final=True, confidence=1.0),
                         lambda: any(m.device == 'hand' for m in log))
        speech = [json.loads(m.arguments_json)['message'] for m in log if m.device == 'tts']
        self.assertEqual(speech[:2], ['你好，今天讲光合作用，共三个知识点。', '下面我们进入第一个知识点。'])
        self.assertIn(('arm_gesture', 'welcome'), [(m.device, m.action) for m in log])

    def test_the_tianyi_coordinator_routes_a_request(self):
        decisions = []
        self.node.create_subscription(RoutingDecision, '/tianyi/coordinator/decisions',
                                      decisions.append, 10)
        requests = self.node.create_publisher(LearningRequest, '/tianyi/coordinator/requests', 10)
        self._send_until(requests, LearningRequest(request_id='launch-3', learner_id='l1',
                                                   text='10N的力拉物体，这道题我做错了'),
                         lambda: decisions)
        self.assertEqual([(d.action, d.subject, d.target_skill) for d in decisions],
                         [('route', 'physics', 'xiaozhi-correction-notebook')])

    def test_the_tianyi_ta_speaks_once_a_misreading_stands(self):
        log = []
        self.node.create_subscription(HardwareCommand, '/tianyi/mock_hardware/commands',
                                      log.append, 10)
        opener = self.node.create_client(OpenDiscussion, '/tianyi/discussion/open')
        step = self.node.create_client(TaStep, '/tianyi/discussion/ta_step')
        self.assertTrue(opener.wait_for_service(timeout_sec=TIMEOUT))
        self.assertTrue(self._wait(opener.call_async(OpenDiscussion.Request(
            session_id='launch', material='community_waste'))).ok)
        turns = self.node.create_publisher(DiscussionTurn, '/tianyi/discussion/turns', 10)
        self._spin_until(turns.get_subscription_count)
        texts = ['我们讨论一下', '好', '开始吧', '其实罚款就能解决，多罚几次就好了', '嗯']
        for n, text in enumerate(texts):
            turns.publish(DiscussionTurn(session_id='launch', speaker_role='student',
                                         speaker_id=f's{n % 3}', text=text, is_body=True,
                                         turn_id=f'launch-turn-{n}'))
        refresh = self._wait(step.call_async(TaStep.Request(
            session_id='launch', mode='refresh', last_turn_id=f'launch-turn-{len(texts) - 1}')))
        self.assertTrue(json.loads(refresh.json)['state_card']['should_speak'])
        answer = json.loads(self._wait(step.call_async(TaStep.Request(
            session_id='launch', mode='discuss'))).json)
        self._spin_until(lambda: any(m.device == 'tts' for m in log))
        said = [json.loads(m.arguments_json)['message'] for m in log if m.device == 'tts']
        self.assertEqual(said, [answer['utterance']])

    def test_the_tianyi_records_refuse_a_guessed_name(self):
        client = self.node.create_client(RecordsCall, '/tianyi/records/call')
        self.assertTrue(client.wait_for_service(timeout_sec=TIMEOUT))
        registered = self._wait(client.call_async(RecordsCall.Request(
            tool='register_learner', args_json='{"learner_id": "l", "display_name": "林小雨"}')))
        self.assertTrue(registered.ok)
        guessed = self._wait(client.call_async(RecordsCall.Request(
            tool='create_pair', args_json=json.dumps({
                'learner_id': 'l', 'learner_display_name': '林晓雨', 'provider': 'p',
                'model': 'm', 'display_name': 'd'}, ensure_ascii=False))))
        self.assertEqual((guessed.ok, guessed.code), (False, 'VALIDATION'))

    def test_joint_states_are_published(self):
        states = []
        self.node.create_subscription(JointState, '/q5/joint_states', states.append, 10)
        self._spin_until(lambda: states)
        self.assertTrue(states)
        self.assertEqual(len(states[0].name), 28)


@launch_testing.post_shutdown_test()
class TestShutdown(unittest.TestCase):

    def test_every_node_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
