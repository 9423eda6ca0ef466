"""The ROS packaging: colcon builds robot_skills and installs what ros2 run/launch need."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXECUTABLES = ('mock_hardware', 'robot_skills_sim')

pytestmark = pytest.mark.slow


def test_colcon_builds_the_package_with_launch_config_and_executables(tmp_path):
    colcon = shutil.which('colcon')
    assert colcon, 'colcon is part of the environment (requirements.txt)'
    done = subprocess.run(
        [colcon, '--log-base', str(tmp_path / 'log'), 'build', '--base-paths', '.',
         'robot_skills_interfaces', '--packages-select', 'robot_skills',
         '--build-base', str(tmp_path / 'build'), '--install-base', str(tmp_path / 'install')],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
        env={**os.environ, 'PYTHONDONTWRITEBYTECODE': '1'})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    prefix = tmp_path / 'install' / 'robot_skills'
    share = prefix / 'share' / 'robot_skills'
    for name in EXECUTABLES:
        assert (prefix / 'lib' / 'robot_skills' / name).is_file(), name
    assert (share / 'package.xml').is_file()
    assert (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages' /
            'robot_skills').is_file()
    for relative in ('launch/sim.launch.py', 'launch/robot.launch.py', 'config/params.yaml',
                     'config/sim.yaml', 'config/mock_hardware.yaml',
                     'config/scenarios/demo.yaml'):
        assert (share / relative).is_file(), relative


def test_colcon_sees_both_packages():
    done = subprocess.run([shutil.which('colcon'), 'list', '--base-paths', '.',
                           'robot_skills_interfaces'], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    listed = {line.split()[0]: line.split()[-1] for line in done.stdout.splitlines()}
    assert listed == {'robot_skills': '(ros.ament_python)',
                      'robot_skills_interfaces': '(ros.ament_cmake)'}
