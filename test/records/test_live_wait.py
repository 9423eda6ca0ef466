"""live_wait across processes: a robot-side consumer waits, a learner-side producer writes.

The consumer's every call is parked by the node before the next event is
produced (the node traces ``waiting``), and answered with that event: no
call comes back empty, so nothing polls. The consumer is then SIGKILLed
while it waits, events are produced without it, and a fresh consumer with
the same consumer_id (and no memory of its own) receives exactly those.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from records_desk import FRAME, LESSON
from records_ros import Client

pytestmark = pytest.mark.slow
HERE = Path(__file__).parent


def _bin(name: str) -> str:
    return os.path.join(os.path.dirname(sys.executable), name)


def _script(name: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(HERE / name), *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def test_no_polling_and_no_event_lost_across_a_consumer_restart(ros, tmp_path):
    namespace = f'{ros.namespace}_live'
    node = subprocess.Popen([_bin('learning_records'), '--ros-args', '-r', f'__ns:={namespace}',
                             '-p', f'store_path:={tmp_path / "records.sqlite3"}'],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes = [node]
    try:
        app = Client(ros, namespace)
        app.learner('l1').ok('register_learner', learner_id='l1', display_name='林小雨')
        pair = app.ok('create_pair', learner_id='l1', learner_display_name='林小雨',
                      provider='p', model='m', display_name='d')['pair_id']
        course = app.ok('create_course', pair_id=pair, title='力学')['course_id']
        lesson = app.ok('add_lesson', pair_id=pair, course_id=course, title='t',
                        content_markdown=LESSON)['lesson_id']
        session = app.ok('live_session_start', pair_id=pair,
                         lesson_id=lesson)['live_session_id']
        app.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
               content=FRAME)

        def parked() -> int:
            return sum(1 for e in app.events.messages if e.kind == 'waiting')

        consumer = _script('consumer.py', namespace, pair, 'robot-1')
        processes.append(consumer)
        producer = _script('producer.py', namespace, pair, session, 'l1')
        processes.append(producer)
        answers = []
        for n in range(3):
            ros.until(lambda n=n: parked() > n, timeout=30.0, what=f'wait {n + 1} parked')
            if n == 0:     # her answer is hers: refused to the agent and to another learner,
                for side in (app, app.learner('l2')):        # no event, the wait not woken
                    refused = side.call('live_learner_respond', pair_id=pair,
                                        live_session_id=session, text='冒名')
                    assert (refused.ok, refused.code) == (False, 'PERMISSION')
            producer.stdin.write(f'第{n + 1}个回答\n')
            producer.stdin.flush()
            assert producer.stdout.readline().startswith('sent rsp_')
            answers.append(json.loads(consumer.stdout.readline()))
        assert [a['timeout'] for a in answers] == [False] * 3       # every call waited for one
        ros.until(lambda: parked() > 3, timeout=30.0, what='the fourth wait parked')
        consumer.send_signal(signal.SIGKILL)                       # the robot side dies waiting
        consumer.wait(timeout=20)
        for n in (4, 5):
            producer.stdin.write(f'第{n}个回答\n')
            producer.stdin.flush()
            assert producer.stdout.readline().startswith('sent rsp_')
        restarted = _script('consumer.py', namespace, pair, 'robot-1')
        processes.append(restarted)
        answers.append(json.loads(restarted.stdout.readline()))
        seqs = [seq for answer in answers for seq in answer['seqs']]
        assert seqs == sorted(set(seqs)) and len(seqs) == 5          # none lost, none twice
        assert answers[-1]['timeout'] is False and len(answers) == 4
        def answered() -> list:
            return [e for e in app.events.messages if e.kind == 'call' and
                    e.state == 'live_wait']
        ros.until(lambda: len(answered()) >= 4, what='the four answers traced')
        assert len(answered()) == 4                                  # four calls in all
    finally:
        for process in processes:
            process.kill()
            process.wait(timeout=20)
