"""Work a service must not do on the executor's thread: a slow call never holds up the others.

A node's callbacks run on one executor thread by default (``entry.py``), so a
service that does seconds of work in its callback makes every other request
wait behind it. ``Workers.run`` hands the work to a small thread pool and
gives the callback an awaitable that completes on the executor: an ``async``
service callback awaits it, and the executor goes on serving other requests
meanwhile, whichever executor the node runs on. The work itself must be
thread-safe (the stores serialise their writes and read on per-thread
connections).

A hand-back crosses threads twice, and CPython lets a thread that wants the
GIL wait a whole switch interval (5 ms by default) for one that keeps it:
measured here, that made a 0.2 ms records call cost 3.9 ms over ROS instead of
1.1 ms. A process with workers therefore switches every ``SWITCH_INTERVAL``
(1 ms; 2.1 ms for that call), a small cost where threads compute together.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, cast

from rclpy.node import Node
from rclpy.task import Future

T = TypeVar('T')
SWITCH_INTERVAL = 0.001     # seconds (see the module docstring)


class Workers:
    """A small pool whose results come back to the node's executor."""

    def __init__(self, node: Node, threads: int, name: str) -> None:
        self._node = node
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name)
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` on a worker thread; its result (or exception) here, on the executor."""
        done: Future[T] = Future()

        def call() -> None:
            try:
                done.set_result(work(*args))
            except BaseException as error:        # noqa: BLE001 - handed to the awaiting callback
                done.set_exception(error)  # type: ignore[arg-type]  # rclpy raises any exception
            wake(self._node)
        self._pool.submit(call)
        return cast(T, await done)

    def shutdown(self, wait: bool = True) -> None:
        """Drop what has not started; ``wait`` for running work (a store closes after it;
        nothing needs to wait for an LLM's answer nobody will read)."""
        self._pool.shutdown(wait=wait, cancel_futures=True)


def wake(node: Node) -> None:
    """Make the node's executor look at its tasks now: a callback awaiting a future another
    thread completed resumes at once instead of at the executor's next wake-up."""
    executor = node.executor
    if executor is not None:
        executor.wake()
