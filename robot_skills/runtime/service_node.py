"""The one shell of a request/response skill: its worker pool, its two callback groups, its lock.

A request/response node (``learning_coordinator``, ``pbl_ta``, ``learning_records``)
answers services whose work is slow (a store call, an LLM request) or has to wait
for something (a turn not heard yet, a pair's next event). Each is a ``ServiceNode``,
which gives its ``configure()`` the same pieces, made afresh at every *configure*:

* ``calls``, a reentrant group for the services. A service callback is a coroutine
  that hands its work to ``workers`` (``workers.py``) or parks on a ``Waits``
  (``waits.py``) and awaits; rclpy holds a callback's group until its coroutine
  ends, awaits included, so in a mutually exclusive group one call awaiting a slow
  report or a parked ``live_wait`` would hold every other call behind it.
  Reentrant, the executor starts the next call meanwhile, whichever executor runs
  the node (the default is single-threaded): a cheap call is answered while a slow
  one runs.
* ``serial``, a mutually exclusive group for timers and the waits' timeouts
  (``waits()``). A timer that awaits a worker (the coordinator's and the records'
  purge, retried every second until the WAL is empty) never runs beside itself: a
  tick that comes while a purge is still on a worker waits for it instead of
  starting a second one. A node puts there, too, what must happen one at a time
  and does not wait: the TA hears its turns and opens its sessions there, so a
  step's wait for a turn times out before or after that turn is heard, never
  halfway through it.
* ``lock``, guarding only what the node itself keeps (the TA's sessions, the last
  live event published, a purge timer's cancel and reset). A worker thread may take
  it too (the records publish their live events from one), so it is a thread lock;
  it is held between awaits, never across one: a callback that kept it while it
  waited would stop every other callback and worker that needs it.
* ``open_workers()``, the pool ``workers``, shut down at *cleanup* or when the node is
  destroyed. Closers run in reverse, so a node opens its pool once what the work
  uses is open: the store the workers read and write is opened (and its close
  registered) first, and so closes only after the workers have finished.
"""

from __future__ import annotations

import threading
from typing import Any

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.lifecycle import LifecycleState, TransitionCallbackReturn

from robot_skills.runtime.guard import GuardedNode
from robot_skills.runtime.waits import Waits
from robot_skills.runtime.workers import Workers


class ServiceNode(GuardedNode):
    """A guarded node that serves requests with async callbacks (see the module docstring).

    ``configure()`` creates its services with ``callback_group=self.calls``, its timers in
    ``self.serial``, makes its pool with ``open_workers()`` and its parked requests with
    ``waits()``.
    """

    calls: ReentrantCallbackGroup
    serial: MutuallyExclusiveCallbackGroup
    lock: threading.Lock
    workers: Workers

    def on_configure(self, state: LifecycleState) -> TransitionCallbackReturn:
        self.calls = ReentrantCallbackGroup()
        self.serial = MutuallyExclusiveCallbackGroup()
        self.lock = threading.Lock()
        return super().on_configure(state)

    def open_workers(self, threads: int, name: str, finish: bool = True) -> Workers:
        """``self.workers``: ``threads`` threads named ``name``, shut down at *cleanup* or when
        the node is destroyed. With ``finish`` the shutdown waits for the work under way (a
        store closes after it); without, it does not (nobody reads an LLM's late answer)."""
        workers = self.workers = Workers(self, threads, name)
        self.on_destroy(lambda: workers.shutdown(wait=finish))
        return workers

    def waits(self) -> Waits[Any]:
        """Parked requests of this node, by key; their timeouts run in ``serial``."""
        return Waits(self, self.serial)
