"""Requests parked until something happens for their key, or until their timeout.

A request/response skill sometimes answers only after an event: the TA's step
for a turn not heard yet, a records ``live_wait`` for its pair's next event. Its
``async`` callback awaits ``Waits.wait``: no thread is held and nothing polls; the
executor serves other requests meanwhile. ``settle(key)`` (from any thread) ends
every wait on the key with True, a timer ends one with False; the first answer
stands (rclpy's ``set_result`` would overwrite it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from rclpy.callback_groups import CallbackGroup
from rclpy.node import Node
from rclpy.task import Future

from robot_skills.runtime.workers import wake

K = TypeVar('K', bound=Hashable)


class Waits(Generic[K]):
    """The parked waits of one node, by key; their timers run in ``group``."""

    def __init__(self, node: Node, group: CallbackGroup) -> None:
        self._node, self._group = node, group
        self._lock = threading.Lock()
        self._parked: dict[K, list[Future]] = {}

    async def wait(self, key: K, timeout: float, already: Callable[[], bool]) -> bool:
        """True when ``key`` is settled within ``timeout`` seconds. ``already`` is asked once
        the wait is parked: what happened between the caller's first look and now (and
        settled nobody) is not missed."""
        future: Future = Future()
        with self._lock:
            self._parked.setdefault(key, []).append(future)
        timer = None
        try:
            if already():
                self._answer(future, True)
            else:
                timer = self._node.create_timer(timeout, lambda: self._answer(future, False),
                                                self._group)
            return bool(await future)
        finally:
            if timer is not None:
                self._node.destroy_timer(timer)
            with self._lock:
                parked = self._parked.get(key, [])
                if future in parked:
                    parked.remove(future)
                if not parked:
                    self._parked.pop(key, None)

    def settle(self, key: K) -> None:
        """End every wait on ``key`` with True, and wake the executor to resume them."""
        with self._lock:
            parked = self._parked.pop(key, [])
        for future in parked:
            self._answer(future, True)
        if parked:
            wake(self._node)

    def _answer(self, future: Future, value: bool) -> None:
        with self._lock:
            if not future.done():
                future.set_result(value)
