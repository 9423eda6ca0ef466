r"""The skills of one robot, started the standard ROS 2 way.

    ros2 launch robot_skills robot.launch.py robot:=q5 skills:=wayfinding_guide
    ros2 launch robot_skills robot.launch.py robot:=tianyi \
        skills:=classroom_presenter,learning_coordinator,pbl_ta,learning_records \
        params_file:=/etc/robot/params.yaml remap:="tts/speak:=/driver/tts/speak"

The robot's driver must serve the contract's devices (``tts/speak``,
``arm_gesture``, ``head_gesture``, ``arm/move_pos``, ``hand``, the Trigger
services) and publish ``asr/events`` under ``/<namespace>/<robot>``; where its
names differ, ``remap`` maps them for the skills (comma-separated ``from:=to``
pairs). ``mock:=true`` also starts ``mock_hardware`` there, for a bench test
without the robot (the remaps are not applied to it: it serves the contract's
names).

Every argument is checked before any process starts: a misspelt skill, an empty
``skills``, a malformed ``remap``, a missing or unreadable ``params_file`` or a
robot name that is no ROS name segment stops the launch with one line naming the
argument and the value, and nothing runs. Each node gets ``params_file`` (the
mock too), ``use_sim_time``, ``autostart`` and ``--log-level``; unless
``use_respawn:=true`` (then a node that dies is started again after two seconds)
any node that exits stops the whole launch with status 1, so a robot never runs
with a skill missing.

With the robot's model in ``config/description/<robot>.urdf`` (q5 and tianyi
ship one) and ``robot_state_publisher`` installed, it also starts that node
in the robot's namespace (``state_publisher:=false`` leaves it to the robot's
own bring-up): it turns ``joint_states`` into TF frames prefixed with the robot's
namespace (``tianyi/base_link``, ``ci1/tianyi/base_link`` …), so RViz shows the
robot. Where the package or the model is missing, a log line says so and the
rest starts as usual.

``sim.launch.py`` loads this file as a module and uses ``robot_plan`` and
``robot_actions`` for each simulated robot, so both files check and start nodes
the same way.
"""

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml
from ament_index_python.packages import PackageNotFoundError, get_package_share_directory
from launch.actions import DeclareLaunchArgument, GroupAction, LogInfo, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node, PushROSNamespace, SetRemap
from launch_ros.parameter_descriptions import ParameterValue

from launch import LaunchDescription

PACKAGE = 'robot_skills'
SKILLS = ('wayfinding_guide', 'classroom_presenter', 'learning_coordinator', 'pbl_ta',
          'learning_records')
MOCK = 'mock_hardware'
STATE_PUBLISHER = 'robot_state_publisher'
BOOLEANS = ('true', 'false')
LOG_LEVELS = ('debug', 'info', 'warn', 'error', 'fatal')
RESPAWN_DELAY = 2.0          # seconds before a dead node is started again (as Nav2)
TIME_SCALE_MAX = 100.0       # the mock's own upper bound for time_scale
_SEGMENT = re.compile(r'[A-Za-z_][A-Za-z0-9_]*\Z')


def _default_params_file() -> str:
    return os.path.join(get_package_share_directory(PACKAGE), 'config', 'params.yaml')


# name -> (default, description, choices); a default of None is computed when declared.
ARGUMENTS: dict[str, tuple[str | None, str, tuple[str, ...] | None]] = {
    'namespace': ('', 'Namespace above the robots, e.g. ci1 puts q5 under /ci1/q5 '
                      '(empty: directly under /)', None),
    'robot': ('q5', "The robot's namespace (one ROS name segment such as q5 or tianyi): its "
                    'devices and skills live under /<namespace>/<robot>', None),
    'skills': ('wayfinding_guide', 'Comma-separated skills to start, each at most once, from: '
                                   + ', '.join(SKILLS), None),
    'params_file': (None, 'ROS parameters file applied to every node (mock included)', None),
    'remap': ('', 'Comma-separated from:=to remappings applied to the skills (not the mock), '
                  'e.g. tts/speak:=/driver/tts_speak', None),
    'mock': ('false', 'Also start mock_hardware under the robot, serving every device', BOOLEANS),
    'state_publisher': ('true', 'Start robot_state_publisher with the robot\'s URDF '
                                '(config/description/<robot>.urdf) where both are installed',
                        BOOLEANS),
    'use_sim_time': ('false', 'Use the /clock topic as every node\'s time', BOOLEANS),
    'log_level': ('info', 'Log severity of every node', LOG_LEVELS),
    'autostart': ('true', 'Every node configures and activates itself; false leaves them '
                          'unconfigured for a lifecycle manager (ros2 lifecycle set, '
                          'nav2_lifecycle_manager)', BOOLEANS),
    'use_respawn': ('false', 'Start a node that exits again after 2 s, instead of stopping '
                             'the whole launch with status 1', BOOLEANS),
}


def declare(names: tuple[str, ...] | list[str]) -> list[DeclareLaunchArgument]:
    """DeclareLaunchArgument actions for ``names`` of ``ARGUMENTS``."""
    declared = []
    for name in names:
        default, description, choices = ARGUMENTS[name]
        if default is None:
            default = _default_params_file()
        extra = {'choices': list(choices)} if choices else {}
        declared.append(DeclareLaunchArgument(name, default_value=default,
                                              description=description, **extra))
    return declared


class LaunchArgumentError(ValueError):
    """A launch argument that cannot work; the message names it and the value."""

    def __init__(self, name: str, value: str, problem: str) -> None:
        super().__init__(f'launch argument {name}:={value!r} {problem}')


def namespace_segments(name: str, value: str, *, single: bool = False) -> tuple[str, ...]:
    """The segments of a namespace argument (leading and trailing '/' ignored)."""
    stripped = value.strip('/')
    if single and not stripped:
        raise LaunchArgumentError(name, value, 'is empty: give a ROS name segment such as q5')
    segments = tuple(stripped.split('/')) if stripped else ()
    if single and len(segments) != 1:
        raise LaunchArgumentError(name, value, "must be one ROS name segment (no '/')")
    for segment in segments:
        if not _SEGMENT.match(segment) or segment.startswith('__'):
            raise LaunchArgumentError(
                name, value, f'is not a ROS namespace: {segment!r} must be letters, digits and '
                             'underscores, not starting with a digit or __')
    return segments


def choice(name: str, value: str) -> str:
    """``value`` of a closed-set argument, checked against its choices."""
    choices = ARGUMENTS[name][2] or ()
    if value not in choices:
        raise LaunchArgumentError(name, value, f'is not one of: {", ".join(choices)}')
    return value


def flag(name: str, value: str) -> bool:
    return choice(name, value) == 'true'


def params_file(value: str) -> str:
    """An existing, readable YAML file of node parameters (a mapping at the top)."""
    if not value:
        raise LaunchArgumentError('params_file', value, 'is empty: give a parameters file')
    path = os.path.abspath(os.path.expanduser(value))
    if not os.path.isfile(path):
        raise LaunchArgumentError('params_file', value, 'does not exist or is not a file')
    try:
        with open(path, encoding='utf-8') as stream:
            content = yaml.safe_load(stream)
    except OSError as error:
        raise LaunchArgumentError('params_file', value,
                                  f'cannot be read: {error.strerror}') from error
    except yaml.YAMLError as error:
        where = getattr(error, 'problem_mark', None)
        line = f' (line {where.line + 1})' if where is not None else ''
        raise LaunchArgumentError('params_file', value, f'is not valid YAML{line}') from error
    if not isinstance(content, dict):
        raise LaunchArgumentError('params_file', value,
                                  'is not a parameters file: its top level must be a mapping '
                                  'of node names')
    return path


def skill_list(value: str) -> tuple[str, ...]:
    """The comma-separated skills, each known and named once."""
    names = [item.strip() for item in value.split(',')]
    if not value.strip():
        raise LaunchArgumentError('skills', value, 'is empty: start at least one of '
                                                   + ', '.join(SKILLS))
    seen: list[str] = []
    for name in names:
        if name == MOCK:
            raise LaunchArgumentError('skills', value, 'names mock_hardware, which is not a '
                                                       'skill: use mock:=true')
        if name not in SKILLS:
            what = f'has an unknown skill {name!r}' if name else 'has an empty entry'
            raise LaunchArgumentError('skills', value, f'{what}: choose from {", ".join(SKILLS)}')
        if name in seen:
            raise LaunchArgumentError('skills', value, f'names {name} twice')
        seen.append(name)
    return tuple(seen)


def _ros_name(text: str) -> bool:
    """Whether ``text`` is a topic/service name a remap rule can hold."""
    body = text[2:] if text.startswith('~/') else text.removeprefix('/')
    return bool(body) and all(_SEGMENT.match(s) and not s.startswith('__')
                              for s in body.split('/'))


def remap_rules(value: str) -> tuple[tuple[str, str], ...]:
    """Comma-separated ``from:=to`` pairs, both sides ROS names, each ``from`` once."""
    if not value.strip():
        return ()
    rules: list[tuple[str, str]] = []
    for pair in value.split(','):
        pair = pair.strip()
        source, sep, target = pair.partition(':=')
        if not sep or ':=' in target:
            raise LaunchArgumentError('remap', value,
                                      f'has {pair!r}, not one from:=to pair')
        if not source or not target:
            raise LaunchArgumentError('remap', value, f'has {pair!r}: a side is empty')
        for side in (source, target):
            if not _ros_name(side):
                raise LaunchArgumentError('remap', value,
                                          f'has {pair!r}: {side!r} is not a ROS name')
        if source in (s for s, _ in rules):
            raise LaunchArgumentError('remap', value, f'remaps {source} twice')
        rules.append((source, target))
    return tuple(rules)


def time_scale(value: str) -> float:
    """A positive, finite number within the mock's range."""
    try:
        number = float(value)
    except ValueError as error:
        raise LaunchArgumentError('time_scale', value, 'is not a number') from error
    if not math.isfinite(number) or number <= 0.0:
        raise LaunchArgumentError('time_scale', value, 'must be a positive number')
    if number > TIME_SCALE_MAX:
        raise LaunchArgumentError('time_scale', value, f'must be at most {TIME_SCALE_MAX:g}')
    return number


@dataclass(frozen=True)
class Common:
    """The arguments every node of both launch files gets, checked."""

    namespace: tuple[str, ...]
    params_file: str
    use_sim_time: bool
    log_level: str
    use_respawn: bool
    autostart: bool


def common(values: Mapping[str, str]) -> Common:
    return Common(namespace=namespace_segments('namespace', values['namespace']),
                  params_file=params_file(values['params_file']),
                  use_sim_time=flag('use_sim_time', values['use_sim_time']),
                  log_level=choice('log_level', values['log_level']),
                  use_respawn=flag('use_respawn', values['use_respawn']),
                  autostart=flag('autostart', values['autostart']))


@dataclass(frozen=True)
class RobotPlan:
    """One robot's nodes, every argument checked: nothing here can fail once started."""

    common: Common
    robot: str
    skills: tuple[str, ...]
    remaps: tuple[tuple[str, str], ...]
    mock: bool
    state_publisher: bool

    def full_namespace(self, base: str = '') -> str:
        """The robot's absolute namespace below ``base`` (an enclosing pushed namespace)."""
        parts = [*base.strip('/').split('/'), *self.common.namespace, self.robot]
        return '/' + '/'.join(p for p in parts if p)


def robot_plan(values: Mapping[str, str]) -> RobotPlan:
    """Check every argument of one robot; raises ``LaunchArgumentError`` on the first bad one."""
    return RobotPlan(common=common(values),
                     robot=namespace_segments('robot', values['robot'], single=True)[0],
                     skills=skill_list(values['skills']),
                     remaps=remap_rules(values['remap']),
                     mock=flag('mock', values['mock']),
                     state_publisher=flag('state_publisher', values['state_publisher']))


class RequiredNodeExitedError(RuntimeError):
    """A node ended while the launch was running; the launch stops and exits non-zero."""


def _required(event: Any, context: Any) -> None:
    """on_exit of every node (unless respawned): a node that ends on its own ends the launch.

    Raising here makes ``launch`` log the reason, shut every other node down (SIGINT, as
    for Ctrl-C) and exit with status 1, so a supervisor or CI job sees the failure; a
    ``Shutdown`` action would end the launch with status 0. Exits during a shutdown
    are the normal end and pass.
    """
    if context.is_shutdown:
        return
    raise RequiredNodeExitedError(f'required node {event.process_name} exited with code '
                                   f'{event.returncode}: stopping the launch')


def _node(executable: str, plan: RobotPlan, parameters: list[Any],
          package: str = PACKAGE) -> Node:
    common_args = plan.common
    lifetime: dict[str, Any] = (
        {'respawn': True, 'respawn_delay': RESPAWN_DELAY} if common_args.use_respawn
        else {'on_exit': _required})
    return Node(package=package, executable=executable, output='screen',
                parameters=[*parameters, {'use_sim_time': common_args.use_sim_time,
                                          'autostart': common_args.autostart}],
                ros_arguments=['--log-level', common_args.log_level], **lifetime)


def _installed(package: str) -> bool:
    try:
        get_package_share_directory(package)
    except PackageNotFoundError:
        return False
    return True


def state_publisher(plan: RobotPlan, base_namespace: str = '') -> list[Any]:
    """robot_state_publisher with the robot's URDF, or a line saying why it is not started.

    TF is global (``/tf``): the frames carry the robot's whole namespace as a prefix
    (``ci1/q5/base_link``), so two robots, or two simulations, never share a frame.
    """
    if not plan.state_publisher:
        return []
    urdf = os.path.join(get_package_share_directory(PACKAGE), 'config', 'description',
                        f'{plan.robot}.urdf')
    if not os.path.isfile(urdf):
        return [LogInfo(msg=f'{plan.robot} has no model ({urdf}): robot_state_publisher '
                            'not started')]
    if not _installed(STATE_PUBLISHER):
        return [LogInfo(msg=f'robot_state_publisher is not installed: {plan.robot} runs '
                            f'without TF frames (its model: {urdf})')]
    with open(urdf, encoding='utf-8') as stream:
        description = stream.read()
    return [_node(STATE_PUBLISHER, plan, [plan.common.params_file, {
        'robot_description': ParameterValue(description, value_type=str),
        'frame_prefix': plan.full_namespace(base_namespace).strip('/') + '/'}],
        package=STATE_PUBLISHER)]


def robot_actions(plan: RobotPlan, base_namespace: str = '',
                  overrides: Mapping[str, Mapping[str, Any]] | None = None) -> list[GroupAction]:
    """The robot's nodes in its own namespace: the mock (if any), then the skills with the
    remaps. ``overrides`` holds parameters per executable that win over ``params_file``."""
    overrides = overrides or {}
    defaults = {'pbl_ta': {'robot_namespace': ParameterValue(
        plan.full_namespace(base_namespace), value_type=str)}}

    def parameters(executable: str) -> list[Any]:
        return [*([defaults[executable]] if executable in defaults else []),
                plan.common.params_file,
                *([dict(overrides[executable])] if executable in overrides else [])]

    skills = GroupAction(scoped=True, actions=[
        *(SetRemap(src=source, dst=target) for source, target in plan.remaps),
        *(_node(skill, plan, parameters(skill)) for skill in plan.skills)])
    return [GroupAction(scoped=True, actions=[
        *(PushROSNamespace(segment) for segment in (*plan.common.namespace, plan.robot)),
        *([_node(MOCK, plan, parameters(MOCK))] if plan.mock else []),
        *state_publisher(plan, base_namespace),
        skills])]


def _launch(context: Any) -> list[GroupAction]:
    values = {name: LaunchConfiguration(name).perform(context) for name in ARGUMENTS}
    plan = robot_plan(values)
    return robot_actions(plan, context.launch_configurations.get('ros_namespace') or '')


def generate_launch_description() -> LaunchDescription:
    return LaunchDescription([*declare(list(ARGUMENTS)), OpaqueFunction(function=_launch)])
