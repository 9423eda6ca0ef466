"""live_wait over MCP: the node's one wait machinery across transports (a wait parked over
HTTP wakes on a write over ROS, and the other way round), progress while parked, and a node
that stops at once with a wait parked (the wait answered UNAVAILABLE, not cut off)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import anyio
import pytest
from records.mcp.mcp_sides import WAIT, free_port, ok, over_http, ready, refusal
from ros_harness import Harness, Recorder

from robot_skills.interface import DEEP_QOS
from robot_skills.records import access
from robot_skills.records.api import Records, Store
from robot_skills.records.roles import agent, learner
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.msg import SkillEvent
from robot_skills_interfaces.srv import RecordsCall

# seconds from SIGTERM to the node's exit with a wait parked over HTTP (0.65 s measured here,
# 0.45 s without HTTP; room for a loaded CI machine)
STOPPED = 1.5


def _pair(sides) -> str:
    assert sides.learner.call('register_learner', {'learner_id': 'l1',
                                                   'display_name': '林小雨'}).ok
    made = sides.agent.call('create_pair', {'learner_id': 'l1', 'learner_display_name': '林小雨',
                                            'provider': 'p', 'model': 'm', 'display_name': 'd'})
    assert made.ok
    return json.loads(made.result_json)['pair_id']


def test_a_wait_parked_over_http_wakes_on_a_learner_write_over_ros(served, sides, ros):
    pair = _pair(sides)
    token = served.token(agent()).token

    async def wait_and_write() -> dict:
        async with over_http(served.url, token) as teacher:
            woken: dict = {}

            async def wait() -> None:
                woken.update(await ok(teacher, 'live_wait', pair_id=pair, timeout_s=WAIT))
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(wait)
                await anyio.to_thread.run_sync(lambda: ros.until(
                    lambda: sides.parked() == 1, what='the wait parked over HTTP'))
                sent = await anyio.to_thread.run_sync(sides.learner.call, 'adhoc_learner_send',
                                                      {'pair_id': pair, 'text': '老师，我有个问题'})
                assert sent.ok
            return woken
    began = time.monotonic()
    woken = anyio.run(wait_and_write)
    assert woken['timeout'] is False
    assert [event['kind'] for event in woken['events']] == ['ad_hoc_question']
    assert time.monotonic() - began < WAIT / 2


def test_a_wait_parked_over_ros_wakes_on_a_learner_write_over_mcp(served, sides, ros):
    pair = _pair(sides)
    waiting = sides.agent.send('live_wait', json.dumps({'pair_id': pair, 'timeout_s': WAIT}))
    ros.until(lambda: sides.parked() == 1, what='the wait parked over ROS')

    async def write() -> dict:
        async with over_http(served.url, served.token(learner('l1')).token) as her:
            return await ok(her, 'adhoc_learner_send', pair_id=pair, text='老师，我有个问题')
    sent = anyio.run(write)
    woken = ros.wait(waiting, timeout=WAIT / 2)
    assert woken.ok
    events = json.loads(woken.result_json)['events']
    assert [(e['kind'], e['payload']['message_id']) for e in events] == [
        ('ad_hoc_question', sent['message_id'])]


@pytest.mark.parametrize('mode', ['auto', 'legacy'])
def test_a_parked_wait_reports_progress_every_second(served, sides, mode):
    pair = _pair(sides)
    progress: list[tuple[float, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, message))

    async def wait() -> dict:
        async with over_http(served.url, served.token(agent()).token, mode) as teacher:
            result = await teacher.call_tool('live_wait', {'pair_id': pair, 'timeout_s': 2.5},
                                             progress_callback=on_progress)
            return result.structured_content
    assert anyio.run(wait)['timeout'] is True
    assert [done for done, _ in progress] == [1.0, 2.0]
    assert progress[0][1] == 'waiting (1 s)'


def test_the_node_stops_at_once_with_a_wait_parked_over_http(ros: Harness, tmp_path):
    path = str(tmp_path / 'records.sqlite3')
    store = Store(path)
    records = Records(store)
    assert records.call('register_learner', {'learner_id': 'l1', 'display_name': 'x'}).ok
    pair = records.call('create_pair', {'learner_id': 'l1', 'learner_display_name': 'x',
                                        'provider': 'p', 'model': 'm',
                                        'display_name': 'd'}).result['pair_id']
    token = access.issue(store, agent(), 1.0, records.context.clock()).token
    store.close()
    port, namespace = free_port(), f'{ros.namespace}_stop'
    probe = ros.node(namespace)
    events = Recorder(probe, SkillEvent, 'skill_events')
    node = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), 'learning_records'),
                             '--ros-args', '-r', f'__ns:={namespace}', '-p',
                             f'store_path:={path}', '-p', f'mcp_http_port:={port}'],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # an answer over ROS: configured, so its HTTP port is bound (configure() binds it)
        ready(ros, probe.create_client(RecordsCall, 'records/call', qos_profile=profile(DEEP_QOS)),
              RecordsCall)

        async def park_then_stop() -> tuple[float, dict]:
            async with over_http(f'http://127.0.0.1:{port}/mcp', token) as teacher:
                answer: dict = {}

                async def parked() -> None:
                    answer.update(refusal(await teacher.call_tool('live_wait', {
                        'pair_id': pair, 'timeout_s': WAIT})))
                async with anyio.create_task_group() as tasks:
                    tasks.start_soon(parked)
                    await anyio.to_thread.run_sync(lambda: ros.until(
                        lambda: any(e.kind == 'waiting' for e in events.messages),
                        what='the wait parked'))
                    began = time.monotonic()
                    node.send_signal(signal.SIGTERM)
                    await anyio.to_thread.run_sync(node.wait, WAIT)
                    return time.monotonic() - began, answer
        stopped, answer = anyio.run(park_then_stop)
        assert stopped < STOPPED and node.returncode == 0
        assert answer['code'] == 'UNAVAILABLE' and 'call live_wait again' in answer['error']
    finally:
        node.kill()
        node.wait(timeout=20)
