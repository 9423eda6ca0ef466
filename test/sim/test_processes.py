"""The console scripts as separate processes, as ros2 run / ros2 launch start them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from rclpy.action import ActionClient
from ros_harness import Recorder, interrupt

from robot_skills.runtime import paths
from robot_skills_interfaces.action import Speak
from robot_skills_interfaces.msg import HardwareCommand

pytestmark = pytest.mark.slow


def _bin(name: str) -> str:
    return os.path.join(os.path.dirname(sys.executable), name)


def test_mock_hardware_runs_as_a_process_in_a_namespace(ros):
    namespace = f'{ros.namespace}_proc'
    process = subprocess.Popen(
        [_bin('mock_hardware'), '--ros-args', '-r', f'__ns:={namespace}',
         '-p', 'time_scale:=0.05'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = ''
    try:
        probe = ros.node(namespace)
        log = Recorder(probe, HardwareCommand, 'mock_hardware/commands')
        client = ActionClient(probe, Speak, 'tts/speak')
        ros.until(client.server_is_ready, timeout=30.0, what='mock_hardware process')
        # a server just discovered may drop its first responses (Fast DDS: "failed to send
        # response"): send until one comes back; a goal whose answer was lost still ran
        handles = []

        def accepted() -> bool:
            future = client.send_goal_async(Speak.Goal(message='你好，我在另一个进程里。'))
            ros.executor.spin_until_future_complete(future, timeout_sec=2.0)
            handles.extend([future.result()] if future.done() else [])
            return bool(handles)
        ros.until(accepted, timeout=30.0, what='a goal answered')
        handle = handles[0]
        assert ros.wait(handle.get_result_async()).result.state == 'completed'
        ros.until(lambda: log.messages, what='command log')
        assert (log.messages[0].device, log.messages[0].action) == ('tts', 'speak')
    finally:
        output = interrupt(process)
        print(output)                      # shown by pytest when the test fails
    assert process.returncode == 0, output


def test_a_bad_data_file_stops_the_executable_with_the_reason(tmp_path):
    bad = tmp_path / 'body.yaml'
    bad.write_text('arm: {}\n', encoding='utf-8')
    done = subprocess.run([_bin('mock_hardware'), '--ros-args', '-p', f'body_file:={bad}'],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f'{bad}: entry arm, field' in done.stderr


def test_an_unusable_store_stops_the_coordinator_with_the_reason(tmp_path):
    store = tmp_path / 'records.sqlite3'
    store.write_bytes(b'not a database, just bytes ' * 200)
    done = subprocess.run([_bin('learning_coordinator'), '--ros-args', '-p',
                           f'store_path:={store}'], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f'cannot start: store_path {store}' in done.stderr


def test_a_pack_that_breaks_a_rule_stops_the_ta_with_the_reason(tmp_path):
    (tmp_path / 'bad.yaml').write_text('topic: x\nmust_discuss: []\n', encoding='utf-8')
    done = subprocess.run([_bin('pbl_ta'), '--ros-args', '-p', f'discussions_dir:={tmp_path}'],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f"cannot start: {tmp_path / 'bad.yaml'}: field 'must_discuss'" in done.stderr


def test_the_demo_scenario_runs_to_the_end_as_a_process():
    done = subprocess.run([_bin('robot_skills_sim'), '--scenario',
                           paths.config('scenarios/demo.yaml')],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ' END ' in done.stdout and '0 problem(s)' in done.stdout


def test_the_simulation_refuses_an_unknown_skill(tmp_path):
    robots = tmp_path / 'sim.yaml'
    robots.write_text('robots:\n  q5: [teleport]\n', encoding='utf-8')
    done = subprocess.run([_bin('robot_skills_sim'), '--robots', str(robots), '--scenario',
                           paths.config('scenarios/demo.yaml')],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "entry robots.q5: unknown skill 'teleport'" in done.stderr


def test_malformed_ros_arguments_stop_the_executable_with_the_reason():
    done = subprocess.run([_bin('learning_coordinator'), '--ros-args', '-p',
                           'store_path:=:memory:'], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert 'cannot start: failed to initialize rcl' in done.stderr
    assert 'Traceback' not in done.stderr
