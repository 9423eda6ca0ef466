"""Test helpers to run nodes over DDS and wait on what they publish."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import time
from collections.abc import Callable
from typing import Any, TypeVar

import rclpy
from rclpy.context import Context
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.task import Future

from robot_skills.interface import WATCH_QOS
from robot_skills.runtime.qos import profile

T = TypeVar('T')
NodeT = TypeVar('NodeT', bound=Node)

RELIABLE = profile(WATCH_QOS)


class Recorder:
    """Every message received on one topic, in order."""

    def __init__(self, node: Node, msg_type: Any, topic: str) -> None:
        self.messages: list[Any] = []
        self.subscription = node.create_subscription(msg_type, topic, self.messages.append,
                                                     RELIABLE)


class Harness:
    """One rclpy context, one executor, the nodes of one test.

    Nodes live in a namespace of their own (``/t<pid>_<n>``) so that no test
    can match the endpoints of an earlier test's nodes that DDS has not
    forgotten yet.
    """

    _tests = itertools.count(1)

    def __init__(self) -> None:
        self.namespace = f'/t{os.getpid()}_{next(self._tests)}'
        self.context = Context()
        rclpy.init(context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self._nodes: list[Node] = []
        self._count = 0

    def add(self, factory: Callable[..., NodeT], **kwargs: Any) -> NodeT:
        kwargs.setdefault('namespace', self.namespace)
        return self.adopt(factory(context=self.context, **kwargs))

    def adopt(self, node: NodeT) -> NodeT:
        """Spin (and later destroy) a node created elsewhere in this context."""
        self._nodes.append(node)
        self.executor.add_node(node)
        return node

    def node(self, namespace: str | None = None) -> Node:
        """A plain node for clients, publishers and recorders."""
        self._count += 1
        return self.add(lambda **kw: Node(f'test_probe_{self._count}', **kw),
                        namespace=namespace or self.namespace)

    def record(self, msg_type: Any, topic: str, namespace: str | None = None) -> Recorder:
        return Recorder(self.node(namespace), msg_type, topic)

    def wait(self, future: Future, timeout: float = 10.0) -> Any:
        """Spin until ``future`` is done and return its result; fail after ``timeout``."""
        self.executor.spin_until_future_complete(future, timeout_sec=timeout)
        if not future.done():
            raise TimeoutError(f'future not done within {timeout} s')
        return future.result()

    def until(self, predicate: Callable[[], T], timeout: float = 10.0,
              what: str = 'condition') -> T:
        """Spin until ``predicate()`` is truthy and return it; fail after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f'{what} not reached within {timeout} s')
            self.executor.spin_once(timeout_sec=min(remaining, 0.1))

    def close(self) -> None:
        self.executor.shutdown()
        for node in self._nodes:
            node.destroy_node()
        rclpy.try_shutdown(context=self.context)


def interrupt(process: subprocess.Popen, timeout: float = 20.0) -> str:
    """SIGINT (what ``ros2 launch`` and Ctrl-C send), then the process's output; killed if it
    has not ended within ``timeout`` seconds (the caller checks ``returncode``)."""
    process.send_signal(signal.SIGINT)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
    return output
