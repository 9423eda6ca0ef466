"""robot_skills_sim: every robot and skill in one process, driven by a scenario or a person.

    robot_skills_sim --scenario config/scenarios/demo.yaml [--report DIR] [--record RUN.mcap]
    robot_skills_sim --console [--time-scale 0.5]

One mock robot per entry of ``config/sim.yaml`` (``/q5``, ``/tianyi``) with the
skill nodes listed for it, parameters from ``config/params.yaml`` (the same
file the launch files use), and the director printing the timeline. All nodes
share one ``MultiThreadedExecutor``: the skills and the mock robots never block
in a callback, so two threads keep every robot responsive on two cores.

``--report DIR`` and ``--record FILE`` add a recorder node; when the scenario
ends (or a console run is stopped) it writes the HTML report (``report.py``)
and the rosbag2 MCAP file (``bag.py``); a scenario stopped by a signal writes
neither, so it still exits within the 2 s ``ros2 launch`` allows. The mocks
then publish joint states at ``RECORDED_JOINT_RATE``, so a gesture of a fast
simulation is still caught at its furthest point.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, cast

from rclpy.executors import MultiThreadedExecutor
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.utilities import remove_ros_args

from robot_skills.adapters.config import ConfigError, load
from robot_skills.mock_hardware.node import MockHardware
from robot_skills.runtime import paths, stop
from robot_skills.runtime.entry import close, init, spin
from robot_skills.sim import console
from robot_skills.sim.director import Director
from robot_skills.sim.parameters import SIM_PARAMETERS
from robot_skills.sim.recorder import Recorder
from robot_skills.sim.scenario import Robots, Scenario
from robot_skills.sim.skills import SKILL_NODES, VOICE_SKILLS

RECORDED_JOINT_RATE = 50.0     # joint_states per second while a run is recorded


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog='robot_skills_sim', description=__doc__.split('\n')[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument('--scenario', help='scenario YAML to play to the end')
    mode.add_argument('--console', action='store_true', help='type utterances to the robots')
    parser.add_argument('--robots', default=paths.config('sim.yaml'),
                        help='robots and their skills (default: config/sim.yaml)')
    parser.add_argument('--params', default=paths.config('params.yaml'),
                        help='ROS parameters file for every node (default: config/params.yaml)')
    parser.add_argument('--time-scale', type=float, default=None,
                        help="mock hardware time scale (default: the scenario's, else 1.0)")
    parser.add_argument('--report', metavar='DIR',
                        help='write an HTML report of the run into DIR (<scenario name>.html)')
    parser.add_argument('--record', metavar='FILE',
                        help='write every topic of the robots into FILE, a rosbag2 MCAP file')
    parser.add_argument('--log-level', default='warn', choices=('debug', 'info', 'warn', 'error'),
                        help='log level of the nodes (default warn: the timeline tells the '
                             'story; info shows every skill trace)')
    args = parser.parse_args(list(argv))
    if not args.scenario and not args.console:
        parser.error('give --scenario FILE or --console')
    return args


def build(robots: Robots, params_file: str, time_scale: float, robots_file: str = 'sim.yaml',
          joint_state_rate: float | None = None, **node_kwargs: Any) -> list[Node]:
    """The mock robot and the skill nodes of every robot, in its namespace."""
    unknown = [f'entry robots.{robot}: unknown skill {skill!r}'
               for robot, skills in robots.robots.items() for skill in skills
               if skill not in SKILL_NODES]
    if unknown:
        raise ConfigError(robots_file, [f'{u} (known: {", ".join(sorted(SKILL_NODES)) or "none"})'
                                        for u in unknown])
    cli = ['--ros-args', '--params-file', params_file]
    nodes: list[Node] = []
    for robot, skills in robots.robots.items():
        rate = [] if joint_state_rate is None else [
            Parameter('joint_state_rate', value=joint_state_rate)]
        nodes.append(MockHardware(namespace=robot, cli_args=cli, parameter_overrides=[
            Parameter('time_scale', value=time_scale), *rate], **node_kwargs))
        nodes.extend(SKILL_NODES[skill](
            namespace=robot, cli_args=cli, parameter_overrides=[
                Parameter(k, value=v.format(robot=robot) if isinstance(v, str) else v)
                for k, v in SIM_PARAMETERS.get(skill, {}).items()],
            **node_kwargs) for skill in skills)
    return nodes


def _read_console(lines: queue.Queue, wake: Callable) -> None:
    for line in sys.stdin:
        lines.put(line)
        wake()
    lines.put(None)
    wake()


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv if argv is None else argv)
    args = parse_args(remove_ros_args(argv)[1:])
    try:
        robots = load(args.robots, Robots)
        scenario = load(args.scenario, Scenario) if args.scenario else None
    except ConfigError as error:
        print(f'cannot start: {error}', file=sys.stderr)
        return 1
    time_scale = args.time_scale or (scenario.time_scale if scenario else 1.0)
    recording = bool(args.report or args.record)
    lines: list[str] = []
    executor: MultiThreadedExecutor | None = None
    nodes: list[Node] = []
    try:
        init([*argv, '--ros-args', '--log-level', args.log_level])
        executor = MultiThreadedExecutor()
        try:
            nodes = build(robots, args.params, time_scale, args.robots,
                          RECORDED_JOINT_RATE if recording else None)
            recorder = Recorder(robots.robots) if recording else None
            director = Director(robots.robots, scenario, voice_skills=VOICE_SKILLS,
                                out=(lambda line: _tee(line, lines)) if recording else print)
        except (ConfigError, ValueError) as error:
            print(f'cannot start: {error}', file=sys.stderr)
            return 1
        nodes += [*([recorder] if recorder else []), director]
        with stop.spinning():
            for node in nodes:
                executor.add_node(node)
            if args.console:
                _start_console(director, list(robots.robots))
            spin(executor, director.done)
        finished = director.done.done()
        status = cast(int, director.done.result()) if finished else 0
        # a scenario stopped by a signal exits at once (ros2 launch allows 2 s): no report;
        # a console run only ends that way, so it writes one
        if recorder is not None and (finished or args.console):
            status = _write(args, scenario, status, lines, recorder, list(robots.robots))
        return status
    except stop.Stopped:
        return 0
    finally:
        close(executor, nodes)


def _tee(line: str, lines: list[str]) -> None:
    print(line)
    lines.append(line)


def _write(args: argparse.Namespace, scenario: Scenario | None, status: int, lines: list[str],
           recorder: Recorder, robots: list[str]) -> int:
    """The report and the bag of a finished run (the nodes are still up, nothing spins);
    the run's status, or 1 when one of them could not be written.

    Imported here: matplotlib, yourdfpy and trimesh take about three seconds to load,
    which a run that writes neither should not pay.
    """
    try:
        _files(args, scenario, status, lines, recorder, robots)
    except (OSError, ValueError, RuntimeError) as error:
        print(f'cannot write the report or the recording: {error}', file=sys.stderr)
        return 1
    return status


def _files(args: argparse.Namespace, scenario: Scenario | None, status: int, lines: list[str],
           recorder: Recorder, robots: list[str]) -> None:
    from robot_skills.sim import bag, report

    messages = recorder.messages
    if args.report:
        name, description = (scenario.name, scenario.description) if scenario else (
            'console', 'typed at the console')
        path = report.write(args.report, name, description, status, lines, messages, robots,
                            recorder.started_ns)
        print(f'report: {path}')
    if args.record:
        print(f'recording: {bag.write(args.record, messages)}')


def _start_console(director: Director, robots: list[str]) -> None:
    """Read stdin on a thread; hand each line to the executor through a guard condition."""
    lines: queue.Queue[str | None] = queue.Queue()
    current = [robots[0]]

    def on_line() -> None:
        while not lines.empty():
            line = lines.get()
            parsed = None if line is None else console.parse_line(line, current[0], robots)
            if line is None or isinstance(parsed, console.Quit):
                director.done.set_result(0)
            elif isinstance(parsed, console.Switch):
                current[0] = parsed.robot
                print(f'talking to {parsed.robot}')
            elif isinstance(parsed, console.Problem):
                print(parsed.message)
            elif parsed is not None:
                director.type_line(current[0], parsed)

    guard = director.create_guard_condition(on_line)
    print(console.HELP)
    print(f'talking to {current[0]}')
    threading.Thread(target=_read_console, args=(lines, guard.trigger), daemon=True).start()
