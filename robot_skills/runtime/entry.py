"""The ``main()`` of every executable: init, build nodes, spin, shut down cleanly.

A node that cannot start (a bad data file, an invalid parameter) exits with
status 1 and the reason on stderr, so ``ros2 launch`` and acceptance suites see
why. SIGINT and SIGTERM (what ``ros2 launch`` sends) end a healthy run with
status 0: rclpy's own handler shuts the context down and wakes the executor,
and Python's handler is made silent so no ``KeyboardInterrupt`` lands in the
middle of a callback.

Executor: a skill or mock node never blocks in a callback, so one thread is
enough and the cheapest. ``ROBOT_SKILLS_EXECUTOR`` (``single``, the default;
``events`` for rclpy's experimental EventsExecutor; ``multi``) picks another;
``make bench`` measures them side by side. Every executor is driven by
``spin_once`` (the EventsExecutor of rclpy 9.1.2 never runs a timer from
``spin()``, seen here on 2026-11-30), so ``spin`` can report a callback's
exception that escaped the nodes' guards and go on.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence

import rclpy
from rclpy.executors import (ExternalShutdownException, Executor, MultiThreadedExecutor,
                             SingleThreadedExecutor)
from rclpy.experimental import EventsExecutor
from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy
from rclpy.node import Node
from rclpy.task import Future

from robot_skills.model.config import ConfigError
from robot_skills.runtime.guard import GuardedNode

SPIN_WAKE = 1.0     # seconds: how often a spin looks at shutdown without an event
EXECUTORS: dict[str, Callable[[], Executor]] = {
    'single': SingleThreadedExecutor, 'events': EventsExecutor, 'multi': MultiThreadedExecutor}


def init(args: Sequence[str] | None = None) -> None:
    """``rclpy.init`` with signals that end the spin instead of raising mid-callback."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: None)  # rclpy's handler (installed next) does the work
    rclpy.init(args=args)


def spin(executor: Executor, until: Future | None = None,
         report: Callable[[str, BaseException], None] | None = None) -> None:
    """Spin until shutdown (or ``until`` is done); a signal's shutdown is a normal end.

    A callback's exception that escapes every node's guard (one inside rclpy
    itself) is handed to ``report`` and the spin goes on: it never ends the
    process. Without ``report`` it is raised, as rclpy does.
    """
    context = executor.context
    while context.ok() and not (until is not None and until.done()):
        try:
            executor.spin_once(timeout_sec=SPIN_WAKE)
        except (KeyboardInterrupt, ExternalShutdownException):
            return
        except _rclpy.RCLError:
            if context.ok():
                raise  # a real failure, not the executor racing a signal's shutdown
            return
        except Exception as error:
            if report is None:
                raise
            report('executor', error)


def executor_from_env() -> Executor:
    choice = os.environ.get('ROBOT_SKILLS_EXECUTOR', 'single')
    if choice not in EXECUTORS:
        raise ValueError(f'ROBOT_SKILLS_EXECUTOR must be one of {", ".join(EXECUTORS)}, '
                         f'not {choice!r}')
    return EXECUTORS[choice]()


def run(build: Callable[[], Node | Sequence[Node]], args: Sequence[str] | None = None) -> int:
    """Run the nodes ``build`` creates until shutdown; returns the exit status."""
    init(args)
    try:
        spinner = executor_from_env()
        built = build()
    except (ConfigError, ValueError) as error:
        print(f'cannot start: {error}', file=sys.stderr)
        rclpy.try_shutdown()
        return 1
    nodes = [built] if isinstance(built, Node) else list(built)
    for node in nodes:
        spinner.add_node(node)
    guards = [node.guard for node in nodes if isinstance(node, GuardedNode)]
    try:
        spin(spinner, report=guards[0].report if guards else None)
    finally:
        spinner.shutdown()
        for node in nodes:
            node.destroy_node()
        rclpy.try_shutdown()
    return 0
