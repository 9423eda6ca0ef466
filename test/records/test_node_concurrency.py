"""A slow records/call never holds up the others (issue 17): reads in parallel, writes queued.

The slow call is made deterministic, not timed: a tool is replaced by one that
blocks on an Event until the test releases it. The cheap call must be answered
while the slow one is still held; then the slow one is released and answered.
"""

from __future__ import annotations

import dataclasses
import json
import threading

import pytest
from rclpy.parameter import Parameter
from records_ros import Client

from robot_skills.records.api import TOOLS, Records, Store
from robot_skills.records.node import LearningRecords
from robot_skills.records.roles import Principal, learner
from robot_skills_interfaces.srv import RecordsCall


@pytest.fixture
def held(monkeypatch):
    """``held(tool)``: that tool now waits for ``release`` (set) before it runs."""
    release, entered = threading.Event(), threading.Event()

    def hold(name: str) -> None:
        found = TOOLS[name]

        def run(context, args):
            entered.set()
            assert release.wait(30.0), 'the test never released the held call'
            return found.run(context, args)
        monkeypatch.setitem(TOOLS, name, dataclasses.replace(found, run=run))
    hold.release, hold.entered = release, entered
    yield hold
    release.set()


def _start(ros, tmp_path) -> tuple[Client, str, LearningRecords]:
    node = ros.add(LearningRecords, parameter_overrides=[
        Parameter('store_path', value=str(tmp_path / 'records.sqlite3'))])
    client = Client(ros)
    refused = client.call('register_learner', learner_id='l1', display_name='林小雨')
    assert (refused.ok, refused.code) == (False, 'PERMISSION')      # her act, on her service
    client.learner('l1').ok('register_learner', learner_id='l1', display_name='林小雨')
    pair = client.ok('create_pair', learner_id='l1', learner_display_name='林小雨',
                     provider='p', model='m', display_name='小智')['pair_id']
    stranger = client.learner('l2').call('adhoc_learner_send', pair_id=pair, text='老师')
    assert (stranger.ok, stranger.code) == (False, 'PERMISSION')    # not her pair
    with node.store.read():
        assert node.store.one('SELECT count(*) AS n FROM learner')['n'] == 1
        assert node.store.one('SELECT count(*) AS n FROM adhoc_message')['n'] == 0
    return client, pair, node


def _send(client: Client, tool: str, **args):
    return client.client.call_async(RecordsCall.Request(tool=tool, args_json=json.dumps(args)))


@pytest.mark.parametrize('slow, cheap', [
    ('get_context', 'get_learner_brief'),        # a slow read, a read
    ('get_context', 'create_course'),            # a slow read, a write
    ('create_course', 'get_context'),            # a slow write, a read
])
def test_a_cheap_call_is_answered_while_a_slow_one_runs(ros, tmp_path, held, slow, cheap):
    client, pair, _ = _start(ros, tmp_path)
    held(slow)
    slow_args = {'pair_id': pair, **({'title': '力学'} if slow == 'create_course' else {})}
    pending = _send(client, slow, **slow_args)
    ros.until(held.entered.is_set, what=f'{slow} started')
    cheap_args = {'pair_id': pair, **({'title': '光学'} if cheap == 'create_course' else {})}
    answer = ros.wait(_send(client, cheap, **cheap_args))
    assert answer.ok, answer.error
    assert not pending.done(), 'the slow call was answered first: nothing ran in parallel'
    held.release.set()
    assert ros.wait(pending).ok


def test_a_read_sees_the_last_commit_never_a_write_in_progress(tmp_path):
    """A reader thread reads while a write is open: the committed state, then the new one."""
    store = Store(tmp_path / 'records.sqlite3')
    records = Records(store)
    assert records.call('register_learner', {'learner_id': 'l1', 'display_name': '甲'}).ok
    seen: list[int] = []

    def count() -> None:
        with store.read():
            seen.append(store.one('SELECT count(*) AS n FROM learner')['n'])
    with store.write():
        store.run("INSERT INTO learner VALUES ('l2', '乙', 't')")
        reader = threading.Thread(target=count)
        reader.start()
        reader.join(10.0)          # it never waits for the writer: WAL snapshot
        assert not reader.is_alive()
    count()
    assert seen == [1, 2]
    store.close()


def test_an_event_written_while_a_wait_parks_still_wakes_it(ros, tmp_path):
    """The gap between a live_wait's first look (on a worker) and its parking: an event
    committed there is found when it parks, not missed until the timeout."""
    client, pair, records = _start(ros, tmp_path)
    found = records._active_pair

    def active_pair_then_a_write(principal: Principal) -> str:      # runs in exactly that gap
        assert records.records.call('adhoc_learner_send', {'pair_id': pair, 'text': '老师'},
                                    learner('l1')).ok
        return found(principal)
    records._active_pair = active_pair_then_a_write
    answer = ros.wait(_send(client, 'live_wait', timeout_s=20), timeout=30.0)
    result = json.loads(answer.result_json)
    assert answer.ok and not result['timeout'] and result['events'], result


@pytest.mark.parametrize('where', [':memory:', 'file'])
def test_a_read_tool_that_writes_is_refused_and_writes_nothing(tmp_path, monkeypatch, where):
    """A tool declared a read runs read-only on both kinds of store: a write is a bug."""
    store = Store(':memory:' if where == ':memory:' else tmp_path / 'records.sqlite3')
    records = Records(store)
    assert records.call('register_learner', {'learner_id': 'l1', 'display_name': '甲'}).ok
    pair = records.call('create_pair', {'learner_id': 'l1', 'learner_display_name': '甲',
                                        'provider': 'p', 'model': 'm',
                                        'display_name': 'd'}).result['pair_id']

    def writes(context, args):
        context.store.run("INSERT INTO learner VALUES ('l2', '乙', 't')")
        return {}
    monkeypatch.setitem(TOOLS, 'get_context', dataclasses.replace(TOOLS['get_context'],
                                                                  run=writes))
    refused = records.call('get_context', {'pair_id': pair})
    assert (refused.ok, refused.code) == (False, 'INTERNAL')
    assert store.one('SELECT count(*) AS n FROM learner')['n'] == 1
    assert records.call('register_learner', {'learner_id': 'l3', 'display_name': '丙'}).ok
    store.close()
