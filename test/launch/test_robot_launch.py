"""launch_testing suite for launch/robot.launch.py (runs where ROS 2's launch is installed).

    launch_test test/launch/test_robot_launch.py

Three robots, each in its own namespace so no test hears another's robot: the q5
skill set with the mock (``/rl/q5``), the TianYi skill set with the mock
(``/rl/tianyi``), and a q5 whose ``tts/speak`` is remapped to a second mock
(``/rl_remap/q5`` speaking through ``/rl_remap/speaker``). Every test first waits
until the skills it uses traced ``capabilities`` (device discovery over, every
device found) and the mock serves its actions. Bad arguments and a node that dies
are tried in separate launches, run as ``ros2 launch`` would run them.

Where ``launch_testing`` is not installed (PyPI-only environments) the module
is skipped at collection; test/sim/test_processes.py starts the same executables
as processes.
"""

import json
import os
import sys
import unittest

import pytest

pytest.importorskip('launch_testing')

import launch_testing  # noqa: E402
import launch_testing.actions  # noqa: E402
import launch_testing.asserts  # noqa: E402
from launch.actions import IncludeLaunchDescription  # noqa: E402
from launch.launch_description_sources import PythonLaunchDescriptionSource  # noqa: E402
from launch_ros.actions import Node  # noqa: E402

import launch  # noqa: E402
from robot_skills_interfaces.msg import AsrEvent, HardwareCommand  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'support'))
from launch_support import LaunchRun, Probe, launch_file, params_file, run_launch  # noqa: E402

Q5_SKILLS = ('wayfinding_guide',)
TIANYI_SKILLS = ('classroom_presenter', 'learning_coordinator', 'pbl_ta', 'learning_records')
SPEAKER = '/rl_remap/speaker'
# Discovery on two loaded cores can take longer than the default 5 s: a skill that gives up
# starts degraded and the test would judge a different robot.
PARAMS = params_file(
    mock_hardware={'time_scale': 0.05},
    wayfinding_guide={'discovery_timeout': 60.0},
    classroom_presenter={'discovery_timeout': 60.0},
    learning_coordinator={'store_path': ':memory:'},
    learning_records={'store_path': ':memory:'})
LOG_LEVELS = {'/rl/': 'info', '/rl_remap/': 'warn'}


def _robot(namespace, robot, skills, **extra):
    arguments = {'namespace': namespace, 'robot': robot, 'skills': ','.join(skills),
                 'mock': 'true', 'params_file': PARAMS, **extra}
    return IncludeLaunchDescription(PythonLaunchDescriptionSource(launch_file('robot.launch.py')),
                                    launch_arguments=arguments.items())


@pytest.mark.launch_test
def generate_test_description():
    return launch.LaunchDescription([
        _robot('rl', 'q5', Q5_SKILLS),
        _robot('rl', 'tianyi', TIANYI_SKILLS),
        _robot('rl_remap', 'q5', Q5_SKILLS, remap=f'tts/speak:={SPEAKER}/tts/speak',
               log_level='warn'),
        Node(package='robot_skills', executable='mock_hardware', namespace=SPEAKER,
             parameters=[PARAMS], ros_arguments=['--log-level', 'warn'], output='screen'),
        launch_testing.actions.ReadyToTest(),
    ])


def _speech(log):
    return [json.loads(m.arguments_json)['message'] for m in log if m.device == 'tts']


class TestRobots(unittest.TestCase):
    """Each launched robot answers as its skills should, over DDS, as any outside node would."""

    @classmethod
    def setUpClass(cls):
        cls.probe = Probe('robot_launch_probe')

    @classmethod
    def tearDownClass(cls):
        cls.probe.close()

    def _ready(self, robot: str, skills) -> list:
        """The robot's command log, once its mock and its skills are ready."""
        log = self.probe.record(HardwareCommand, f'{robot}/mock_hardware/commands')
        self.probe.mock_ready(robot)
        self.probe.skills_ready(robot, skills)
        return log

    def test_the_q5_set_with_the_mock_answers_a_visitor(self):
        probe = self.probe
        log = self._ready('/rl/q5', Q5_SKILLS)
        probe.publish(AsrEvent, '/rl/q5/asr/events', AsrEvent(
            utterance_id='robot-q5-1', text='小范小范，贝旺路怎么走', kws_triggered=True,
            is_final=True, confidence=1.0))
        probe.spin_until(lambda: any(m.device == 'arm_gesture' for m in log), 'the welcome')
        self.assertEqual(_speech(log)[0], '贝旺路在穿过前方茶水区，右手边第一个会议室就是贝旺路。')
        gestures = [json.loads(m.arguments_json) for m in log if m.device == 'arm_gesture']
        self.assertEqual([(g['action'], g['side']) for g in gestures], [('welcome', 'left')])

    def test_the_tianyi_set_with_the_mock_opens_a_lesson(self):
        probe = self.probe
        log = self._ready('/rl/tianyi', TIANYI_SKILLS)
        probe.publish(AsrEvent, '/rl/tianyi/asr/events', AsrEvent(
            utterance_id='robot-tianyi-1', text='用课堂讲解的方式介绍光合作用', is_final=True,
            confidence=1.0))
        probe.spin_until(lambda: any(m.device == 'hand' for m in log), 'the lesson\'s gestures')
        self.assertEqual(_speech(log)[:2], ['你好，今天讲光合作用，共三个知识点。',
                                            '下面我们进入第一个知识点。'])
        self.assertIn(('arm_gesture', 'welcome'), [(m.device, m.action) for m in log])

    def test_a_remapped_tts_speaks_through_the_other_mock(self):
        probe = self.probe
        own = probe.record(HardwareCommand, '/rl_remap/q5/mock_hardware/commands')
        speaker = probe.record(HardwareCommand, f'{SPEAKER}/mock_hardware/commands')
        probe.mock_ready('/rl_remap/q5')
        probe.mock_ready(SPEAKER)
        # capabilities (not degraded) means the guide found tts/speak under the remapped name
        probe.skills_ready('/rl_remap/q5', Q5_SKILLS)
        probe.publish(AsrEvent, '/rl_remap/q5/asr/events', AsrEvent(
            utterance_id='robot-remap-1', text='小范小范，贝旺路怎么走', kws_triggered=True,
            is_final=True, confidence=1.0))
        probe.spin_until(lambda: _speech(speaker) and any(m.device == 'arm_gesture' for m in own),
                         'speech on the other mock and the welcome on the robot\'s own')
        self.assertEqual(_speech(speaker)[0], '贝旺路在穿过前方茶水区，右手边第一个会议室就是贝旺路。')
        self.assertEqual(_speech(own), [])
        self.assertEqual([m.device for m in speaker], ['tts'])

    def test_every_node_has_the_params_file_and_the_launch_values(self):
        probe = self.probe
        mock = probe.parameters('/rl/q5/mock_hardware',
                                ['time_scale', 'use_sim_time', 'autostart'])
        self.assertEqual(mock, {'time_scale': 0.05, 'use_sim_time': False, 'autostart': True})
        ta = probe.parameters('/rl/tianyi/pbl_ta', ['robot_namespace', 'use_sim_time'])
        self.assertEqual(ta, {'robot_namespace': '/rl/tianyi', 'use_sim_time': False})
        stores = probe.parameters('/rl/tianyi/learning_records', ['store_path'])
        self.assertEqual(stores, {'store_path': ':memory:'})
        self.assertEqual(probe.lifecycle_state('/rl/q5/wayfinding_guide'), 'active')

    def test_with_autostart_false_the_nodes_wait_for_a_lifecycle_manager(self):
        probe = self.probe
        run = LaunchRun('robot.launch.py', 'namespace:=rl_manual', 'mock:=true',
                        'autostart:=false', f'params_file:={PARAMS}')
        try:
            for node in ('mock_hardware', 'wayfinding_guide'):
                self.assertEqual(probe.lifecycle_state(f'/rl_manual/q5/{node}'),
                                 'unconfigured', run.output)
        finally:
            run.stop()
        self.assertEqual(run.still_running(), [], run.output)
        self.assertNotIn('process has died', run.output)


class TestWrongArguments(unittest.TestCase):
    """A bad argument stops robot.launch.py before any node starts, naming the argument."""

    CASES = [
        (('skills:=wayfinding',), "launch argument skills:='wayfinding' has an unknown skill"),
        (('skills:=',), "launch argument skills:='' is empty"),
        (('skills:=pbl_ta,pbl_ta',), 'names pbl_ta twice'),
        (('skills:=mock_hardware',), 'mock_hardware, which is not a skill'),
        (('remap:=tts/speak',), "launch argument remap:='tts/speak' has 'tts/speak', not one "
                                'from:=to pair'),
        (('remap:=tts/speak:=',), 'a side is empty'),
        (('params_file:=/nonexistent/params.yaml',),
         "launch argument params_file:='/nonexistent/params.yaml' does not exist"),
        (('robot:=q-5',), "launch argument robot:='q-5' is not a ROS namespace"),
        (('namespace:=ci 1',), "launch argument namespace:='ci 1' is not a ROS namespace"),
        (('log_level:=loud',), 'Argument "log_level" provided value "loud" is not valid'),
        (('use_respawn:=yes',), 'Argument "use_respawn" provided value "yes" is not valid'),
    ]

    def test_each_bad_argument_stops_the_launch_before_any_node(self):
        for arguments, message in self.CASES:
            with self.subTest(arguments=arguments):
                code, output = run_launch('robot.launch.py', 'namespace:=rl_bad',
                                          'mock:=true', *arguments)
                self.assertNotEqual(code, 0, output)
                self.assertIn(message, output)
                self.assertNotIn('process started', output)

    def test_a_node_that_exits_stops_the_launch_with_an_error(self):
        bad = params_file(mock_hardware={'time_scale': -1.0})
        code, output = run_launch('robot.launch.py', 'namespace:=rl_dies', 'mock:=true',
                                  f'params_file:={bad}', timeout=120.0)
        self.assertEqual(code, 1, output)
        self.assertIn('required node mock_hardware-1 exited with code 1', output)
        self.assertIn("sending signal 'SIGINT' to process[wayfinding_guide-2]", output)

    def test_with_use_respawn_a_node_that_exits_is_started_again(self):
        # The mock's first start fails on its parameters; the file is repaired while the
        # launch waits its respawn delay, so the second start succeeds and the launch goes on.
        bad = params_file(mock_hardware={'time_scale': -1.0},
                          wayfinding_guide={'discovery_timeout': 60.0})
        run = LaunchRun('robot.launch.py', 'namespace:=rl_respawn', 'mock:=true',
                        'use_respawn:=true', f'params_file:={bad}')
        try:
            run.wait_for(r'\[mock_hardware-1\]: process has died', timeout=120.0)
            with open(bad, 'w', encoding='utf-8') as stream:
                stream.write('/**/wayfinding_guide:\n  ros__parameters:\n'
                             '    discovery_timeout: 60.0\n')
            run.wait_for(r'\[mock_hardware-1\]: process started', count=2, timeout=60.0)
            run.wait_for(r'\[wayfinding_guide-2\] .*\[capabilities\]', timeout=120.0)
        finally:
            run.stop()
        self.assertNotIn('Caught exception in launch', run.output)
        self.assertEqual(run.still_running(), [], run.output)


@launch_testing.post_shutdown_test()
class TestShutdown(unittest.TestCase):

    def test_every_node_exits_cleanly(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)

    def test_every_node_had_the_params_file_and_its_log_level(self, proc_info):
        for exited in proc_info:
            command = ' '.join(exited.cmd)
            with self.subTest(process=exited.process_name):
                self.assertIn(f'--params-file {PARAMS}', command)
                level = next(lv for ns, lv in LOG_LEVELS.items() if f'__ns:={ns}' in command)
                self.assertIn(f'--log-level {level}', command)
