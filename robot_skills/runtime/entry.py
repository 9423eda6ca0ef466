"""The ``main()`` of every executable: init, build nodes, spin, shut down cleanly.

A node that cannot start (a bad data file, an invalid parameter) exits with
status 1 and the reason on stderr, so ``ros2 launch`` and acceptance suites see
why. SIGINT and SIGTERM (what ``ros2 launch`` sends) end a run with status 0
at any moment, start-up included (``stop``): the spin loop looks at the stop
flag every ``SPIN_WAKE`` seconds, then the nodes are destroyed (stores closed)
and the context shut down.

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
import sys
from collections.abc import Callable, Sequence

import rclpy
from rclpy.executors import (
    Executor,
    ExternalShutdownException,
    MultiThreadedExecutor,
    SingleThreadedExecutor,
)
from rclpy.experimental import EventsExecutor
from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy
from rclpy.node import Node
from rclpy.signals import SignalHandlerOptions
from rclpy.task import Future

from robot_skills.adapters.config import ConfigError
from robot_skills.runtime import stop
from robot_skills.runtime.guard import GuardedNode

SPIN_WAKE = 0.2     # seconds: how often a spin looks at the stop flag without an event
EXECUTORS: dict[str, Callable[[], Executor]] = {
    'single': SingleThreadedExecutor, 'events': EventsExecutor, 'multi': MultiThreadedExecutor}


def init(args: Sequence[str] | None = None) -> None:
    """``rclpy.init`` with this package's stop handlers instead of rclpy's (``stop``)."""
    stop.install()
    rclpy.init(args=None if args is None else list(args),
               signal_handler_options=SignalHandlerOptions.NO)


def spin(executor: Executor, until: Future | None = None,
         report: Callable[[str, BaseException], None] | None = None) -> None:
    """Spin until shutdown (or ``until`` is done); a signal's shutdown is a normal end.

    A callback's exception that escapes every node's guard (one inside rclpy
    itself) is handed to ``report`` and the spin goes on: it never ends the
    process. Without ``report`` it is raised, as rclpy does.
    """
    context = executor.context
    while context.ok() and not stop.requested() and not (until is not None and until.done()):
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
    """Run the nodes ``build`` creates until a stop signal; returns the exit status."""
    spinner: Executor | None = None
    nodes: list[Node] = []
    try:
        try:
            init(args)
            spinner = executor_from_env()
            built = build()
        except (ConfigError, ValueError, _rclpy.RCLError) as error:
            print(f'cannot start: {error}', file=sys.stderr)     # a bad file, parameter,
            return 1                                             # or --ros-args
        nodes = [built] if isinstance(built, Node) else list(built)
        guards = [node.guard for node in nodes if isinstance(node, GuardedNode)]
        with stop.spinning():
            for node in nodes:
                spinner.add_node(node)
            spin(spinner, report=guards[0].report if guards else None)
    except stop.Stopped:
        pass
    finally:
        close(spinner, nodes)
    return 0


def close(spinner: Executor | None, nodes: Sequence[Node]) -> None:
    """The end of every run: the executor, then the nodes (their stores), then rclpy."""
    with stop.spinning():          # a second signal while closing changes nothing
        if spinner is not None:
            spinner.shutdown()
        for node in nodes:
            node.destroy_node()
        rclpy.try_shutdown()
