r"""Every simulated robot with its skills, started the standard ROS 2 way.

    ros2 launch robot_skills sim.launch.py [time_scale:=0.5] [namespace:=ci1] \
        [coordinator_store:=FILE] [records_store:=FILE] [params_file:=FILE]

The robots and the skills each runs come from ``config/sim.yaml`` and the node
parameters from ``params_file`` (``config/params.yaml``): the same files
``robot_skills_sim`` uses when it runs everything in one process. Each robot
gets a ``mock_hardware`` node in its namespace (``/q5``, ``/tianyi``, or
``/<namespace>/q5`` …); the discussion TA speaks through the robot it runs on.

The robots are started exactly as ``robot.launch.py`` starts one robot with
``mock:=true`` (this file uses its checks and its actions): every argument, and
``sim.yaml``, is checked before any process starts, and a node that exits ends
the simulation unless ``use_respawn:=true``. Where ``robot_state_publisher`` is
installed, each robot also gets one with its URDF (TF frames prefixed with its
namespace: ``q5/…``, ``tianyi/…``), so RViz shows the simulated robots moving.
"""

import os
from typing import Any

import yaml
from ament_index_python.packages import get_package_share_directory
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.launch_description_sources import load_python_launch_file_as_module
from launch.substitutions import LaunchConfiguration
from launch_ros.parameter_descriptions import ParameterValue

from launch import LaunchDescription
from robot_skills.sim.parameters import SIM_PARAMETERS

robot_launch = load_python_launch_file_as_module(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), 'robot.launch.py'))

COMMON = ('namespace', 'params_file', 'use_sim_time', 'log_level', 'use_respawn',
          'autostart')
STORES = {'coordinator_store': 'learning_coordinator', 'records_store': 'learning_records'}


def _sim_file() -> str:
    return os.path.join(get_package_share_directory('robot_skills'), 'config', 'sim.yaml')


def _robots(path: str) -> dict[str, str]:
    """Each robot -> its skills, comma-separated, from sim.yaml (checked by robot_plan)."""
    try:
        with open(path, encoding='utf-8') as stream:
            robots = (yaml.safe_load(stream) or {}).get('robots')
    except (OSError, yaml.YAMLError, AttributeError) as error:
        raise ValueError(f'{path}: cannot read the robots: {type(error).__name__}') from error
    if not isinstance(robots, dict) or not robots or not all(
            isinstance(skills, list) and all(isinstance(s, str) for s in skills)
            for skills in robots.values()):
        raise ValueError(f'{path}: robots must map each robot to a list of skill executables')
    return {str(robot): ','.join(skills) for robot, skills in robots.items()}


def _store(name: str, value: str) -> str:
    if not value.strip():
        raise robot_launch.LaunchArgumentError(name, value, 'is empty: give a file or :memory:')
    return value


def _launch(context: Any) -> list[Any]:
    values = {name: LaunchConfiguration(name).perform(context)
              for name in (*COMMON, 'time_scale', *STORES)}
    scale = robot_launch.time_scale(values['time_scale'])
    overrides = {'mock_hardware': {'time_scale': ParameterValue(scale, value_type=float)},
                 **{skill: {'store_path': ParameterValue(_store(arg, values[arg]),
                                                        value_type=str)}
                    for arg, skill in STORES.items()}}
    plans = [robot_launch.robot_plan({**values, 'robot': robot, 'skills': skills,
                                      'remap': '', 'mock': 'true', 'state_publisher': 'true'})
             for robot, skills in _robots(_sim_file()).items()]
    base = context.launch_configurations.get('ros_namespace') or ''
    # Only once every robot is checked: a bad second robot must not leave the first running.
    return [action for plan in plans
            for action in robot_launch.robot_actions(plan, base, overrides)]


def generate_launch_description() -> LaunchDescription:
    return LaunchDescription([
        *robot_launch.declare(COMMON),
        DeclareLaunchArgument('time_scale', default_value='1.0',
                              description='Multiplies every duration of the mock hardware '
                                          '(0.2 runs five times faster); a positive number up '
                                          f'to {robot_launch.TIME_SCALE_MAX:g}'),
        *(DeclareLaunchArgument(argument,
                                default_value=str(SIM_PARAMETERS[skill]['store_path']),
                                description=f'SQLite file of the simulated {skill} '
                                            '(:memory: forgets everything on exit)')
          for argument, skill in STORES.items()),
        OpaqueFunction(function=_launch),
    ])
