"""The guard: every kind of callback may raise, and the node still answers the next input."""

from __future__ import annotations

import json
import time

import pytest
import rclpy
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.context import Context
from rclpy.executors import SingleThreadedExecutor
from rclpy.experimental import EventsExecutor
from rclpy.parameter import Parameter
from rclpy.task import Future
from ros_harness import Recorder
from std_msgs.msg import String
from std_srvs.srv import Trigger

from robot_skills.runtime.entry import spin
from robot_skills.runtime.guard import GuardedNode, failed, oversized
from robot_skills.runtime.tracing import to_json
from robot_skills_interfaces.msg import LearningRequest, SkillEvent
from robot_skills_interfaces.srv import HealthCheck, RecordsCall, SubmitHandover


class Fragile(GuardedNode):
    """Each callback raises on its first call, then works."""

    def __init__(self, **kwargs) -> None:
        super().__init__('fragile', 'fragile', **kwargs)

    def configure(self) -> None:
        self.heard: list[str] = []
        self.ticks = 0
        self.woken = 0
        self.create_subscription(String, 'poke', self._on_poke, 10)
        self.create_service(Trigger, 'sync', self._on_sync)
        self._waits = MutuallyExclusiveCallbackGroup()      # a parked call waits on a timer
        self.create_service(RecordsCall, 'async', self._on_async,
                            callback_group=ReentrantCallbackGroup())
        self.create_service(HealthCheck, 'health', self._on_health)
        self.timer = self.create_timer(0.01, self._on_tick)
        self.wake = self.create_guard_condition(self._on_wake)
        self._sync_calls = self._async_calls = 0

    def _on_poke(self, msg: String) -> None:
        if msg.data == 'boom':
            raise RecursionError('maximum recursion depth exceeded: 林晓雨')
        self.heard.append(msg.data)

    def _on_sync(self, _: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        self._sync_calls += 1
        if self._sync_calls == 1:
            raise OverflowError('Python int too large to convert to SQLite INTEGER')
        response.success = True
        return response

    async def _on_async(self, request: RecordsCall.Request,
                        response: RecordsCall.Response) -> RecordsCall.Response:
        self._async_calls += 1
        parked: Future = Future()
        self.create_timer(0.01, lambda: parked.done() or parked.set_result(True), self._waits)
        await parked                                 # a parked call, then the failure
        if self._async_calls == 1:
            raise KeyError(request.tool)
        response.ok, response.result_json = True, '{}'
        return response

    def _on_health(self, _: HealthCheck.Request, response: HealthCheck.Response):
        raise ValueError('no reading')

    def _on_tick(self) -> None:
        self.ticks += 1
        if self.ticks == 1:
            raise ZeroDivisionError('tick')

    def _on_wake(self) -> None:
        self.woken += 1
        if self.woken == 1:
            raise RuntimeError('wake')


@pytest.fixture
def fragile(ros):
    node = ros.add(Fragile)
    probe = ros.node()
    events = Recorder(probe, SkillEvent, 'skill_events')
    return node, probe, events


def _errors(events) -> list[dict]:
    return [json.loads(e.detail_json) for e in events.messages if e.kind == 'error']


def _call(ros, probe, srv, name, request):
    client = probe.create_client(srv, name)
    ros.until(client.service_is_ready, what=f'{name} ready')
    return ros.wait(client.call_async(request))


def test_a_subscription_that_raises_is_traced_and_the_next_message_is_heard(ros, fragile):
    node, probe, events = fragile
    publisher = probe.create_publisher(String, 'poke', 10)
    ros.until(publisher.get_subscription_count, what='discovery')
    publisher.publish(String(data='boom'))
    publisher.publish(String(data='next'))
    ros.until(lambda: node.heard == ['next'], what='the next message')
    (error,) = ros.until(lambda: [e for e in _errors(events) if e['where'] == 'poke'],
                         what='the error traced')
    assert error['error'] == 'RecursionError' and '林晓雨' not in json.dumps(error)


def test_a_service_that_raises_still_answers_with_its_failure(ros, fragile):
    _, probe, events = fragile
    first = _call(ros, probe, Trigger, 'sync', Trigger.Request())
    assert not first.success and first.message.startswith('internal error')
    assert _call(ros, probe, Trigger, 'sync', Trigger.Request()).success
    health = _call(ros, probe, HealthCheck, 'health', HealthCheck.Request())
    assert health.error.startswith('internal error') and health.reading == ''
    ros.until(lambda: {'sync', 'health'} <= {e['where'] for e in _errors(events)},
              what='both failures traced')


def test_an_async_service_that_raises_after_waiting_answers_internal(ros, fragile):
    _, probe, _ = fragile
    first = _call(ros, probe, RecordsCall, 'async', RecordsCall.Request(tool='x'))
    assert (first.ok, first.code) == (False, 'INTERNAL')
    second = _call(ros, probe, RecordsCall, 'async', RecordsCall.Request(tool='x'))
    assert second.ok


def test_timers_and_guard_conditions_keep_running_after_raising(ros, fragile):
    node, _, events = fragile
    node.wake.trigger()
    ros.until(lambda: node.ticks >= 3, what='the timer goes on')
    node.wake.trigger()
    ros.until(lambda: node.woken == 2, what='the guard condition goes on')
    ros.until(lambda: {'timer', 'guard_condition'} <= {e['where'] for e in _errors(events)},
              what='both traced')


def test_a_field_beyond_the_transport_cap_is_refused_before_the_handler(ros):
    node = ros.add(Fragile, parameter_overrides=[Parameter('max_field_chars', value=1000)])
    probe = ros.node()
    events = Recorder(probe, SkillEvent, 'skill_events')
    publisher = probe.create_publisher(String, 'poke', 10)
    ros.until(publisher.get_subscription_count, what='discovery')
    publisher.publish(String(data='x' * 1001))
    publisher.publish(String(data='x' * 1000))
    ros.until(lambda: node.heard == ['x' * 1000], what='the message within the cap')
    answer = _call(ros, probe, RecordsCall, 'async',
                   RecordsCall.Request(tool='x', args_json='{' * 5000))
    assert (answer.ok, answer.code) == (False, 'VALIDATION')
    assert answer.error == 'args_json: 5,000 characters (or items); at most 1,000'
    rejected = ros.until(lambda: [json.loads(e.detail_json) for e in events.messages
                                  if e.kind == 'input_rejected'][1:], what='both refusals')
    assert [r['field'] for r in rejected] == ['args_json']


def test_oversized_names_the_first_field_beyond_the_cap():
    request = LearningRequest(request_id='r', text='题' * 11, image_tags=['a'] * 3)
    assert oversized(request, 10) == ('text', 11)
    assert oversized(LearningRequest(image_tags=['t'] * 1001), 10**6) == ('image_tags', 1001)
    assert oversized(request, 11) is None


def test_failed_fills_every_failure_field_of_a_response():
    response = failed(SubmitHandover.Response(accepted=True), 'why')
    assert (response.accepted, response.errors) == (False, ['why'])
    records = failed(RecordsCall.Response(ok=True), 'why', 'VALIDATION')
    assert (records.ok, records.code, records.error) == (False, 'VALIDATION', 'why')


def test_what_escapes_every_guard_is_reported_by_spin_and_the_spin_goes_on(ros, fragile):
    """A done-callback added without the guard raises inside rclpy's executor."""
    node, _, _ = fragile
    reported: list[str] = []
    unguarded: Future = Future(executor=ros.executor)
    unguarded.add_done_callback(lambda _: 1 / 0)
    unguarded.set_result(None)
    stop: Future = Future()
    node.create_timer(0.05, lambda: node.ticks > 5 and not stop.done() and stop.set_result(1))
    spin(ros.executor, stop, lambda where, error: reported.append(type(error).__name__))
    assert reported == ['ZeroDivisionError'] and stop.done()


def test_a_trace_is_strict_json_even_with_a_non_finite_number():
    text = to_json({'minutes': float('inf'), 'nested': [float('nan'), 1.5]})
    assert json.loads(text, parse_constant=lambda c: pytest.fail(c)) == {
        'minutes': 'inf', 'nested': ['nan', 1.5]}


@pytest.mark.parametrize('executor', [SingleThreadedExecutor, EventsExecutor])
def test_a_guarded_timer_runs_on_every_executor(executor):
    """The EventsExecutor passes a TimerInfo to a callback whose signature takes one: the
    guard keeps the callback's own signature, so a timer without parameters gets none."""
    context = Context()
    rclpy.init(context=context)
    spinner = executor(context=context)
    node = GuardedNode('ticking', 'ticking', context=context)
    ticks: list[int] = []

    def tick() -> None:                   # the first tick raises; the timer goes on
        ticks.append(len(ticks))
        if len(ticks) == 1:
            raise ZeroDivisionError('tick')

    node.create_timer(0.01, tick)
    try:
        spinner.add_node(node)
        deadline = time.monotonic() + 10.0
        while len(ticks) < 3 and time.monotonic() < deadline:
            spinner.spin_once(timeout_sec=0.1)
        assert len(ticks) >= 3
    finally:
        spinner.shutdown()
        node.destroy_node()
        rclpy.try_shutdown(context=context)
