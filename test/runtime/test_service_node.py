"""ServiceNode: calls served side by side, timers and timeouts one at a time, the pool shut down
before what its work uses closes."""

from __future__ import annotations

import threading

from robot_skills.runtime.managed import SUCCESS
from robot_skills.runtime.service_node import ServiceNode
from robot_skills_interfaces.srv import RecordsCall

LONG = 30.0          # seconds no passing test waits
POOL = 'shell-pool'


def pool_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith(POOL)]


class Shell(ServiceNode):
    """A 'store' opened first, then a pool of two, then what a test may release when the node
    closes; a service whose calls and a timer whose ticks wait on a worker until the test opens
    their gate."""

    def __init__(self, finish: bool = True, **kwargs) -> None:
        self.finish = finish
        self.closed: list[list[str]] = []            # the pool's threads alive at each close
        super().__init__('shell', 'shell', **kwargs)

    def configure(self) -> None:
        self.on_destroy(lambda: self.closed.append(pool_threads()))      # the 'store'
        self.open_workers(2, POOL, self.finish)
        self.call_gate, self.tick_gate = threading.Event(), threading.Event()
        self.release_at_close: threading.Event | None = None
        self.on_destroy(lambda: self.release_at_close and self.release_at_close.set())
        self.in_call = self.ticks = 0
        self.create_service(RecordsCall, 'park', self._on_park, callback_group=self.calls)
        self.ticker = self.create_timer(0.01, self._on_tick, self.serial, autostart=False)

    async def _on_park(self, request: RecordsCall.Request,
                       response: RecordsCall.Response) -> RecordsCall.Response:
        self.in_call += 1
        response.ok = await self.workers.run(self.call_gate.wait, LONG)
        self.in_call -= 1
        return response

    async def _on_tick(self) -> None:
        self.ticks += 1
        await self.workers.run(self.tick_gate.wait, LONG)


def beats(ros, count: int) -> None:
    """Spin until another node's 10 ms timer has ticked ``count`` times."""
    ticked: list[int] = []
    ros.node().create_timer(0.01, lambda: ticked.append(1))
    ros.until(lambda: len(ticked) >= count, what=f'{count} beats')


def test_calls_that_await_their_work_are_served_side_by_side(ros):
    shell = ros.add(Shell)
    client = ros.node().create_client(RecordsCall, 'park')
    ros.until(client.service_is_ready, what='park service')
    first, second = (client.call_async(RecordsCall.Request()) for _ in range(2))
    ros.until(lambda: shell.in_call == 2, what='both calls under way at once')
    shell.call_gate.set()
    assert ros.wait(first).ok and ros.wait(second).ok


def test_a_timer_that_awaits_its_work_never_runs_beside_itself(ros):
    shell = ros.add(Shell)
    shell.ticker.reset()
    ros.until(lambda: shell.ticks == 1, what='the first tick')
    beats(ros, 10)                                 # ten of its periods, the first still waiting
    assert shell.ticks == 1
    shell.tick_gate.set()
    ros.until(lambda: shell.ticks >= 3, what='the next ticks, once the first is done')


def test_a_waits_timeout_waits_for_the_serial_callback_under_way(ros):
    shell = ros.add(Shell)
    shell.ticker.reset()
    ros.until(lambda: shell.ticks == 1, what='a tick holding the serial group')
    timed = ros.executor.create_task(shell.waits().wait('turn-1', 0.01, lambda: False))
    beats(ros, 10)
    assert not timed.done()
    shell.ticker.cancel()
    shell.tick_gate.set()
    assert ros.wait(timed) is False


def started(ros, shell: Shell) -> None:
    """A job under way on the pool (not merely queued), held until ``shell.tick_gate`` opens."""
    running = threading.Event()

    def hold() -> bool:
        running.set()
        return shell.tick_gate.wait(LONG)
    ros.executor.create_task(shell.workers.run(hold))
    ros.until(running.is_set, what='a job under way')


def test_cleanup_shuts_the_pool_down_before_what_was_opened_first_and_configure_makes_another(
        ros):
    shell = ros.add(Shell)
    assert ros.wait(ros.executor.create_task(shell.workers.run(lambda: 'done'))) == 'done'
    first = shell.workers
    assert pool_threads()
    assert shell.trigger_deactivate() == SUCCESS and shell.trigger_cleanup() == SUCCESS
    assert shell.closed == [[]]                    # its threads had ended when the 'store' closed
    assert shell.trigger_configure() == SUCCESS and shell.trigger_activate() == SUCCESS
    assert shell.workers is not first
    assert ros.wait(ros.executor.create_task(shell.workers.run(lambda: 'again'))) == 'again'


def test_destroying_the_node_waits_for_the_work_under_way_then_closes_the_rest(ros):
    shell = Shell(context=ros.context, namespace=ros.namespace)
    ros.executor.add_node(shell)
    started(ros, shell)
    shell.release_at_close = shell.tick_gate       # what closes before the pool lets it finish
    ros.executor.remove_node(shell)
    shell.destroy_node()
    assert shell.closed == [[]] and pool_threads() == []


def test_a_pool_that_need_not_finish_does_not_hold_the_destroy_up(ros):
    shell = Shell(finish=False, context=ros.context, namespace=ros.namespace)
    ros.executor.add_node(shell)
    started(ros, shell)
    ros.executor.remove_node(shell)
    try:
        shell.destroy_node()                       # returns with the job still under way
        alive = pool_threads()
        assert not shell.tick_gate.is_set() and alive and shell.closed == [alive]
    finally:
        shell.tick_gate.set()
