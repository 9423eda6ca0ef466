"""learning_records over DDS, as a process killed mid-stream, and from the command line."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from rclpy.parameter import Parameter
from records_desk import FRAME
from records_ros import Client

from robot_skills.adapters.database import StoreError
from robot_skills.records import access
from robot_skills.records.api import Records, Store
from robot_skills.records.node import LearningRecords
from robot_skills.records.roles import learner
from robot_skills.records.store import MIGRATIONS
from robot_skills_interfaces.msg import RecordsEvent
from robot_skills_interfaces.srv import RecordsCall


def _rows(node: LearningRecords) -> int:
    """Every row of every table: a refused call changes nothing."""
    with node.store.read():
        tables = [r[0] for r in node.store.all(
            "SELECT name FROM sqlite_master WHERE type='table'")]
        return sum(node.store.one(f'SELECT count(*) AS n FROM "{t}"')['n'] for t in tables)


def test_tools_over_ros(ros, tmp_path):
    node = ros.add(LearningRecords, parameter_overrides=[
        Parameter('store_path', value=str(tmp_path / 'records.sqlite3'))])
    client = Client(ros)
    her = client.learner('l1')
    before = _rows(node)
    stolen = client.call('register_learner', learner_id='l1', display_name='林小雨')
    assert (stolen.ok, stolen.code) == (False, 'PERMISSION')      # her name is her own act
    assert _rows(node) == before
    assert her.call('register_learner', learner_id='l1', display_name='林小雨').ok
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


def test_each_service_serves_its_own_role_and_scope(ros, tmp_path):
    """records/call refuses the learner's acts, records/learner/call the agent's and another
    learner's pairs, records/operator/call every write: PERMISSION, nothing written."""
    node = ros.add(LearningRecords, parameter_overrides=[
        Parameter('store_path', value=str(tmp_path / 'records.sqlite3'))])
    client = Client(ros)
    lin, other = client.learner('l1'), client.learner('l2')
    lin.ok('register_learner', learner_id='l1', display_name='林小雨')
    other.ok('register_learner', learner_id='l2', display_name='王小明')
    pair = client.ok('create_pair', learner_id='l1', learner_display_name='林小雨',
                     provider='p', model='m', display_name='小智')['pair_id']
    before = _rows(node)
    refused = {
        'agent: her message': client.call('adhoc_learner_send', pair_id=pair, text='老师好'),
        'agent: her name': client.call('register_learner', learner_id='l3',
                                       display_name='张三'),
        'learner: the agent\'s pen': lin.call('create_course', pair_id=pair, title='力学'),
        'learner: another\'s pair': other.call('adhoc_learner_send', pair_id=pair, text='嗨'),
        'learner: another\'s name': other.call('register_learner', learner_id='l1',
                                               display_name='林小雨'),
        'learner: another\'s pair read': other.call('adhoc_thread_get', pair_id=pair),
        'operator: a write': client.operator.call('create_course', pair_id=pair, title='力学'),
        'operator: her message': client.operator.call('adhoc_learner_send', pair_id=pair,
                                                      text='x'),
    }
    assert {what: answer.code for what, answer in refused.items()} == \
        {what: 'PERMISSION' for what in refused}
    assert not any(answer.ok for answer in refused.values())
    assert _rows(node) == before                                  # nothing written
    sent = lin.ok('adhoc_learner_send', pair_id=pair, text='老师好')
    assert sent['message_id']
    assert [m['text'] for m in lin.ok('adhoc_thread_get', pair_id=pair)['messages']] == \
        ['老师好']
    assert client.operator.ok('get_context', pair_id=pair)
    nameless = ros.wait(client.learner('').send('get_context', pair_id=pair))
    assert (nameless.ok, nameless.code) == (False, 'VALIDATION') and 'learner_id' in \
        nameless.error
    roles = ros.until(lambda: {json.loads(e.detail_json)['role'] for e in client.events.messages
                               if e.kind == 'call'} >= {'agent', 'learner', 'operator'} and
                      {json.loads(e.detail_json)['role'] for e in client.events.messages
                       if e.kind == 'call'}, what='each role traced')
    assert roles == {'agent', 'learner', 'operator'}
    assert '老师好' not in ''.join(e.detail_json for e in client.events.messages)


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
            futures = {f'l{batch}-{n}': client.learner(f'l{batch}-{n}').send(
                'register_learner', learner_id=f'l{batch}-{n}', display_name=f'学生{n}')
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
    """The operators' command line: reads as the operator, every write refused, and the MCP
    tokens issued (the secret printed once, never listed, never stored), listed, revoked."""
    store = str(tmp_path / 'records.sqlite3')
    owner = Store(store)                     # the records as a deployment would hold them
    records = Records(owner)
    assert records.call('register_learner', {'learner_id': 'l1', 'display_name': '林小雨'}).ok
    pair = records.call('create_pair', {'learner_id': 'l1', 'learner_display_name': '林小雨',
                                        'provider': 'p', 'model': 'm',
                                        'display_name': 'd'}).result['pair_id']
    owner.close()

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, '-m', 'robot_skills.records', *args,
                               '--store', store], capture_output=True, text=True, timeout=60)

    def rows() -> dict[str, int]:
        db = sqlite3.connect(store)
        try:
            tables = [r[0] for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")]
            return {t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
        finally:
            db.close()

    listed = cli('--list')
    assert listed.returncode == 0 and 'create_pair [agent]: ' in listed.stdout
    assert 'register_learner [learner]: ' in listed.stdout
    assert 'get_context [agent, operator]: ' in listed.stdout
    read = cli('get_context', '--args', json.dumps({'pair_id': pair}))
    assert read.returncode == 0 and json.loads(read.stdout)['ok'] is True
    before = rows()
    for tool, args in (('create_pair', {'learner_id': 'l1', 'learner_display_name': '林小雨',
                                        'provider': 'p', 'model': 'm', 'display_name': 'd'}),
                       ('create_course', {'pair_id': pair, 'title': '力学'}),
                       ('register_learner', {'learner_id': 'l2', 'display_name': '王'})):
        refused = cli(tool, '--args', json.dumps(args, ensure_ascii=False))
        assert refused.returncode == 2, (tool, refused.stdout)
        assert json.loads(refused.stdout)['code'] == 'PERMISSION', tool
    assert rows() == before                                          # nothing written
    invalid = cli('get_context', '--args', '{"pair_id": 5}')
    assert invalid.returncode == 2 and json.loads(invalid.stdout)['code'] == 'VALIDATION'

    issued = cli('token', 'issue', '--role', 'learner', '--learner-id', 'l1', '--days', '1',
                 '--label', "l1's pages")
    assert issued.returncode == 0, issued.stderr
    token = json.loads(issued.stdout)
    secret = token['token'].split('_', 2)[2]
    assert token['token'] == f"rsk_{token['token_id']}_{secret}" and len(secret) >= 40
    tokens = cli('token', 'list')
    assert tokens.returncode == 0
    assert [(t['token_id'], t['role'], t['learner_id'], t['label'], t['revoked_at'])
            for t in json.loads(tokens.stdout)] == [
        (token['token_id'], 'learner', 'l1', "l1's pages", None)]
    assert secret not in tokens.stdout
    assert 'secret' not in tokens.stdout and hashlib.sha256(secret.encode()).hexdigest() \
        not in tokens.stdout                                         # nor its hash
    stored = b''.join(path.read_bytes() for path in tmp_path.glob('records.sqlite3*'))
    assert secret.encode() not in stored and token['token'].encode() not in stored
    assert hashlib.sha256(secret.encode()).hexdigest().encode() in stored   # only the hash
    owner = Store(store)
    now = datetime.now(UTC)
    assert access.principal_of(owner, token['token'], now) == learner('l1')
    assert access.principal_of(owner, token['token'][:-1] + 'x', now) is None
    owner.close()
    revoked = cli('token', 'revoke', token['token_id'])
    assert revoked.returncode == 0 and json.loads(revoked.stdout)['ok'] is True
    assert json.loads(cli('token', 'list').stdout)[0]['revoked_at']
    owner = Store(store)
    assert access.principal_of(owner, token['token'], datetime.now(UTC)) is None
    owner.close()
    assert cli('token', 'revoke', 'no-such-token').returncode == 2
    nameless = cli('token', 'issue', '--role', 'learner')
    assert nameless.returncode == 2 and 'cannot issue' in nameless.stderr

    broken = tmp_path / 'broken.sqlite3'
    broken.write_bytes(b'x' * 4096)
    unusable = subprocess.run([sys.executable, '-m', 'robot_skills.records', '--store',
                               str(broken), 'get_context'], capture_output=True, text=True,
                              timeout=60)
    assert unusable.returncode == 1 and 'cannot open the store' in unusable.stderr


def test_a_parked_wait_wakes_on_an_event_times_out_without_and_events_are_published(ros,
                                                                                     tmp_path):
    node = ros.add(LearningRecords, parameter_overrides=[
        Parameter('store_path', value=str(tmp_path / 'records.sqlite3'))])
    app = Client(ros)
    published = ros.record(RecordsEvent, 'records/live_events')
    app.learner('l1').ok('register_learner', learner_id='l1', display_name='林小雨')
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
    def events() -> int:
        with node.store.read():
            return node.store.one('SELECT count(*) AS n FROM live_event')['n']
    before = events()
    refused = app.call('live_learner_respond', pair_id=pair, live_session_id=session,
                       text='三个力')                   # her answer, not the agent's to write
    assert (refused.ok, refused.code) == (False, 'PERMISSION')
    stranger = app.learner('l2').call('live_learner_respond', pair_id=pair,
                                      live_session_id=session, text='三个力')
    assert (stranger.ok, stranger.code) == (False, 'PERMISSION')
    assert events() == before                           # nothing written, nothing woken
    app.learner('l1').ok('live_learner_respond', pair_id=pair, live_session_id=session,
                         text='三个力')
    woken = json.loads(ros.wait(parked).result_json)
    assert woken['timeout'] is False and [e['kind'] for e in woken['events']] == \
        ['learner_response']
    ros.until(lambda: published.messages, what='the event on records/live_events')
    assert (published.messages[0].kind, published.messages[0].live_session_id) == (
        'learner_response', session)


def test_her_erasure_over_ros_leaves_no_word_on_disk(ros, tmp_path):
    """erase_my_words over records/learner/call: confirmed, then the node truncates the WAL
    (traced 'purged') and her words are in no file of the store."""
    path = tmp_path / 'records.sqlite3'
    ros.add(LearningRecords, parameter_overrides=[Parameter('store_path', value=str(path))])
    client = Client(ros)
    her = client.learner('l1')
    her.ok('register_learner', learner_id='l1', display_name='林小雨')
    pair = client.ok('create_pair', learner_id='l1', learner_display_name='林小雨',
                     provider='p', model='m', display_name='小智')['pair_id']
    words = '我其实一直害怕被点名回答问题'
    her.ok('adhoc_learner_send', pair_id=pair, text=words)
    refused = client.call('erase_my_words', learner_id='l1')
    assert (refused.ok, refused.code) == (False, 'PERMISSION')       # her act, not the agent's
    plan = her.ok('erase_my_words', learner_id='l1')
    assert plan['erased'] is False and plan['counts']['adhoc_messages'] == 1
    assert her.ok('erase_my_words', learner_id='l1', confirm=plan['confirm'])['erased']
    ros.until(lambda: any(e.kind == 'purged' for e in client.events.messages),
              what='the WAL truncated after the erasure')
    for file in tmp_path.iterdir():
        assert words.encode() not in file.read_bytes(), file.name
