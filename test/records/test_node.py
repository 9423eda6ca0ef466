"""learning_records over DDS, as a process killed mid-stream, and from the command line."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys

import pytest
from rclpy.parameter import Parameter
from records_desk import FRAME
from records_ros import Client

from robot_skills.records.node import LearningRecords
from robot_skills.records.store import MIGRATIONS
from robot_skills.runtime.database import StoreError
from robot_skills_interfaces.msg import RecordsEvent
from robot_skills_interfaces.srv import RecordsCall


def test_tools_over_ros(ros, tmp_path):
    ros.add(LearningRecords, parameter_overrides=[
        Parameter('store_path', value=str(tmp_path / 'records.sqlite3'))])
    client = Client(ros)
    assert client.call('register_learner', learner_id='l1', display_name='林小雨').ok
    made = client.call('create_pair', learner_id='l1', learner_display_name='林小雨',
                       provider='p', model='m', display_name='小智')
    assert made.ok and made.code == '' and json.loads(made.result_json)['status'] == 'active'
    again = client.call('create_pair', learner_id='l1', learner_display_name='林小雨',
                        provider='p', model='m', display_name='小智')
    assert (again.ok, again.code) == (False, 'CONFLICT')
    assert json.loads(again.result_json)['shortfall']['existing_pair_id'] == \
        json.loads(made.result_json)['pair_id']
    bad = client.ros.wait(client.client.call_async(RecordsCall.Request(tool='create_pair',
                                                                       args_json='{oops')))
    assert (bad.ok, bad.code) == (False, 'VALIDATION') and 'args_json: not valid JSON' in bad.error
    traced = ros.until(lambda: [json.loads(e.detail_json)['code'] for e in client.events.messages
                                if e.kind == 'call' and e.state == 'create_pair'][1:],
                       what='refusals traced')
    assert traced == ['CONFLICT', 'VALIDATION']
    assert '林小雨' not in ''.join(e.detail_json for e in client.events.messages)


def test_an_unusable_store_stops_the_node(ros, tmp_path):
    bad = tmp_path / 'not-a-db.sqlite3'
    bad.write_bytes(b'garbage' * 500)
    with pytest.raises(StoreError, match='not-a-db'):
        ros.add(LearningRecords, parameter_overrides=[Parameter('store_path', value=str(bad))])


def _bin(name: str) -> str:
    return os.path.join(os.path.dirname(sys.executable), name)


@pytest.mark.slow
def test_every_acknowledged_write_survives_a_sigkill(ros, tmp_path):
    """Writes stream in; the node is killed without warning; all acknowledged ones are there."""
    store = tmp_path / 'records.sqlite3'
    namespace = f'{ros.namespace}_crash'
    process = subprocess.Popen([_bin('learning_records'), '--ros-args', '-r',
                                f'__ns:={namespace}', '-p', f'store_path:={store}'],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    acknowledged: list[str] = []
    try:
        client = Client(ros, namespace)
        for batch in range(20):                   # twenty writes in flight at a time
            futures = {f'l{batch}-{n}': client.client.call_async(RecordsCall.Request(
                tool='register_learner', args_json=json.dumps(
                    {'learner_id': f'l{batch}-{n}', 'display_name': f'学生{n}'})))
                for n in range(20)}
            if len(acknowledged) >= 150:
                process.send_signal(signal.SIGKILL)   # mid-stream, no shutdown at all
            with contextlib.suppress(TimeoutError):    # the killed node answers no more
                ros.until(lambda futures=futures: all(f.done() for f in futures.values()),
                          timeout=3.0, what='the batch answered')
            acknowledged += [k for k, f in futures.items() if f.done() and f.result().ok]
            if process.poll() is not None:
                break
    finally:
        process.kill()
        process.wait(timeout=20)
    killed = process.returncode == -signal.SIGKILL
    assert killed and 150 <= len(acknowledged) < 400
    db = sqlite3.connect(store)          # what a restarted node opens
    assert db.execute('PRAGMA integrity_check').fetchone()[0] == 'ok'
    stored = {row[0] for row in db.execute('SELECT learner_id FROM learner')}
    assert set(acknowledged) <= stored
    db.close()
    restarted = ros.add(LearningRecords, parameter_overrides=[
        Parameter('store_path', value=str(store))])
    assert restarted.store.version == len(MIGRATIONS)


def test_the_command_line(tmp_path):
    store = str(tmp_path / 'records.sqlite3')

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, '-m', 'robot_skills.records', *args,
                               '--store', store], capture_output=True, text=True, timeout=60)

    listed = cli('--list')
    assert listed.returncode == 0 and 'create_pair: ' in listed.stdout
    done = cli('register_learner', '--args', '{"learner_id": "l1", "display_name": "林小雨"}')
    assert done.returncode == 0 and json.loads(done.stdout)['ok'] is True
    refused = cli('create_pair', '--args', '{"learner_id": "l1", "learner_display_name": "x", '
                                           '"provider": "p", "model": "m", "display_name": "d"}')
    assert refused.returncode == 2
    assert json.loads(refused.stdout)['code'] == 'VALIDATION'
    broken = tmp_path / 'broken.sqlite3'
    broken.write_bytes(b'x' * 4096)
    unusable = subprocess.run([sys.executable, '-m', 'robot_skills.records', '--store',
                               str(broken), 'register_learner'], capture_output=True, text=True,
                              timeout=60)
    assert unusable.returncode == 1 and 'cannot open the store' in unusable.stderr


def test_a_parked_wait_wakes_on_an_event_times_out_without_and_events_are_published(ros,
                                                                                     tmp_path):
    ros.add(LearningRecords, parameter_overrides=[
        Parameter('store_path', value=str(tmp_path / 'records.sqlite3'))])
    app = Client(ros)
    published = ros.record(RecordsEvent, 'records/live_events')
    app.ok('register_learner', learner_id='l1', display_name='林小雨')
    pair = app.ok('create_pair', learner_id='l1', learner_display_name='林小雨', provider='p',
                  model='m', display_name='d')['pair_id']
    session = app.ok('live_session_start', pair_id=pair)['live_session_id']
    app.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
           content=FRAME)
    timed = app.ok('live_wait', pair_id=pair, timeout_s=0.3)
    assert timed['timeout'] is True and timed['events'] == []
    parked = app.client.call_async(RecordsCall.Request(tool='live_wait', args_json=json.dumps(
        {'pair_id': pair, 'timeout_s': 30})))
    ros.until(lambda: any(e.kind == 'waiting' for e in app.events.messages[-3:]),
              what='the wait parked')
    assert not parked.done()
    app.ok('live_learner_respond', pair_id=pair, live_session_id=session, text='三个力')
    woken = json.loads(ros.wait(parked).result_json)
    assert woken['timeout'] is False and [e['kind'] for e in woken['events']] == \
        ['learner_response']
    ros.until(lambda: published.messages, what='the event on records/live_events')
    assert (published.messages[0].kind, published.messages[0].live_session_id) == (
        'learner_response', session)
