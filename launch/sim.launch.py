"""Every simulated robot with its skills, started the standard ROS 2 way.

    ros2 launch robot_skills sim.launch.py [time_scale:=0.5] [coordinator_store:=FILE] \
        [records_store:=FILE]

The robots and the skills each runs come from ``config/sim.yaml`` and the node
parameters from ``config/params.yaml``: the same files ``robot_skills_sim``
uses when it runs everything in one process. Each robot gets a
``mock_hardware`` node in its namespace (``/q5``, ``/tianyi``); the discussion
TA speaks through the robot it runs on.
"""

import os

import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue


def generate_launch_description():
    share = get_package_share_directory('robot_skills')
    params = os.path.join(share, 'config', 'params.yaml')
    with open(os.path.join(share, 'config', 'sim.yaml'), encoding='utf-8') as stream:
        robots = yaml.safe_load(stream)['robots']
    time_scale = ParameterValue(LaunchConfiguration('time_scale'), value_type=float)

    def own(skill, robot):
        """Parameters of one skill on one robot on top of params.yaml (as robot_skills_sim)."""
        return {'learning_coordinator': [{'store_path': LaunchConfiguration('coordinator_store')}],
                'learning_records': [{'store_path': LaunchConfiguration('records_store')}],
                'pbl_ta': [{'robot_namespace': f'/{robot}'}]}.get(skill, [])

    actions = [
        DeclareLaunchArgument('time_scale', default_value='1.0',
                              description='mock hardware time scale (0.2 runs five times faster)'),
        DeclareLaunchArgument('coordinator_store', default_value=':memory:',
                              description='SQLite file of the simulated learning coordinator '
                                          '(:memory: forgets everything on exit)'),
        DeclareLaunchArgument('records_store', default_value=':memory:',
                              description='SQLite file of the simulated learning records')]
    for robot, skills in robots.items():
        actions.append(Node(
            package='robot_skills', executable='mock_hardware', namespace=robot,
            parameters=[params, {'time_scale': time_scale}], output='screen'))
        actions.extend(Node(package='robot_skills', executable=skill, namespace=robot,
                            parameters=[params, *own(skill, robot)],
                            output='screen') for skill in skills)
    return LaunchDescription(actions)
