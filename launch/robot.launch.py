"""The skills of one robot, started the standard ROS 2 way.

    ros2 launch robot_skills robot.launch.py robot:=q5 skills:=wayfinding_guide
    ros2 launch robot_skills robot.launch.py robot:=tianyi skills:=classroom_presenter \\
        params_file:=/etc/robot/params.yaml remap:="tts/speak:=/driver/tts/speak"

The robot's driver must serve the contract's devices (``tts/speak``,
``arm_gesture``, ``head_gesture``, ``arm/move_pos``, ``hand``, the Trigger
services) and publish ``asr/events`` under ``/<robot>``; where its names differ,
``remap`` maps them (comma-separated ``from:=to`` pairs, applied to every
skill). ``mock:=true`` also starts the mock hardware, for a bench test without
the robot.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def _skills(context):
    robot = LaunchConfiguration('robot').perform(context)
    params = LaunchConfiguration('params_file').perform(context)
    skills = [s.strip() for s in LaunchConfiguration('skills').perform(context).split(',')
              if s.strip()]
    remap = LaunchConfiguration('remap').perform(context)
    remappings = [tuple(pair.split(':=', 1)) for pair in remap.split(',') if ':=' in pair]
    return [Node(package='robot_skills', executable=skill, namespace=robot,
                 parameters=[params], remappings=remappings, output='screen')
            for skill in skills]


def generate_launch_description():
    share = get_package_share_directory('robot_skills')
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='q5',
                              description='namespace of the robot (its devices live under it)'),
        DeclareLaunchArgument('skills', default_value='wayfinding_guide',
                              description='comma-separated skill executables to start'),
        DeclareLaunchArgument('params_file',
                              default_value=os.path.join(share, 'config', 'params.yaml'),
                              description='ROS parameters file for the skill nodes'),
        DeclareLaunchArgument('remap', default_value='',
                              description='comma-separated from:=to remappings for the skills'),
        DeclareLaunchArgument('mock', default_value='false',
                              description='also start mock_hardware in the namespace'),
        Node(package='robot_skills', executable='mock_hardware',
             namespace=LaunchConfiguration('robot'),
             parameters=[os.path.join(share, 'config', 'params.yaml')],
             condition=IfCondition(LaunchConfiguration('mock')), output='screen'),
        OpaqueFunction(function=_skills),
    ])
