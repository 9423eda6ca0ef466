"""An rclpy coroutine run on its executor, awaited from another thread's asyncio loop.

The MCP servers run on asyncio loops of their own (uvicorn's thread, the stdio
script's main thread), while a call must run where the node's waits live: on
the rclpy executor (``LearningRecords.serve`` parks a ``live_wait`` on an rclpy
future; a service client's response completes one). ``Executor.create_task``
is thread-safe: it appends under the executor's task lock and triggers the
executor's guard condition, so a sleeping executor wakes at once (rclpy 9.1.2's
``EventsExecutor`` queues it from any thread too). The task, run on the
executor, hands its outcome back with ``loop.call_soon_threadsafe``, the one
thread-safe way into an asyncio loop. Nothing polls on either side.

A caller that gives up (a client gone, a shutdown) leaves the task to finish on
its own: a parked ``live_wait`` ends at its timeout, and its answer is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from rclpy.executors import Executor

T = TypeVar('T')


async def on_executor(executor: Executor, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``await work()`` run as a task of ``executor``; its result (or exception) here."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[T] = loop.create_future()

    async def run() -> None:
        try:
            outcome: tuple[Any, BaseException | None] = (await work(), None)
        except Exception as error:      # noqa: BLE001 - handed to the awaiting loop
            outcome = (None, error)
        with contextlib.suppress(RuntimeError):     # that loop is closed: nobody waits
            loop.call_soon_threadsafe(_settle, answer, *outcome)

    executor.create_task(run)
    return await answer


def _settle(answer: asyncio.Future, value: Any, error: BaseException | None) -> None:
    if answer.done():           # the caller gave up (cancelled) before the answer came
        return
    if error is None:
        answer.set_result(value)
    else:
        answer.set_exception(error)
