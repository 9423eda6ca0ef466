"""The ``main()`` of every executable: init, build nodes, spin, shut down cleanly.

A node that cannot start (a bad data file, an invalid parameter) exits with
status 1 and the reason on stderr, so ``ros2 launch`` and acceptance suites see
why. Only Ctrl-C and an external shutdown end a healthy run.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

import rclpy
from rclpy.executors import ExternalShutdownException, Executor, SingleThreadedExecutor
from rclpy.node import Node

from robot_skills.model.config import ConfigError


def run(build: Callable[[], Node | Sequence[Node]], args: Sequence[str] | None = None,
        executor: Callable[[], Executor] = SingleThreadedExecutor) -> int:
    """Run the nodes ``build`` creates until shutdown; returns the exit status."""
    rclpy.init(args=args)
    try:
        built = build()
    except (ConfigError, ValueError) as error:
        print(f'cannot start: {error}', file=sys.stderr)
        rclpy.try_shutdown()
        return 1
    nodes = [built] if isinstance(built, Node) else list(built)
    spinner = executor()
    for node in nodes:
        spinner.add_node(node)
    try:
        spinner.spin()
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        spinner.shutdown()
        for node in nodes:
            node.destroy_node()
        rclpy.try_shutdown()
    return 0
