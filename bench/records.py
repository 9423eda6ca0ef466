"""learning_records' figures: verify_prep of a 30-lesson course, and tool calls over ROS.

Targets of issue 7: a tool call over ROS p50 <= 5 ms; verify_prep of a
30-lesson course <= 100 ms. The course is realistic for the validator: each
lesson has text, two concepts with a flashcard each, two exercises and a
mind-map seed, so every check runs rather than skips.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable

from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node

from bench.figures import percentile, rss_mb, spin_until, start, stop, throughput
from robot_skills import interface
from robot_skills.records.api import Records, Store
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.srv import RecordsCall, RecordsLearnerCall

LESSONS = 30
TEXT = '# 第{n}课\n\n' + '一切物体在没有受到力的作用时，总保持静止或匀速直线运动状态。' * 12


def seed_map() -> dict:
    nodes = [{'id': 'r', 'title': '主题', 'level': 'root', 'pos_x': 50, 'pos_y': 8,
              'is_expanded': True, 'sort_order': 0}]
    for b in range(3):
        nodes.append({'id': f'b{b}', 'title': f'主张{b}', 'level': 'branch', 'pos_x': 12,
                      'pos_y': 14 + b * 20, 'is_expanded': True, 'sort_order': b,
                      'parent_id': 'r'})
        nodes += [{'id': f'b{b}d{d}', 'title': f'细节{d}', 'level': 'detail',
                   'pos_x': 30 + b * 16, 'pos_y': 20 + d * 18, 'is_expanded': False,
                   'sort_order': d, 'parent_id': f'b{b}'} for d in range(3)]
    return {'nodes': nodes, 'links': [{'source': 'b0d0', 'target': 'b1d1'}]}


def done(records: Records) -> Callable[..., dict]:
    """``ok(tool, **args)``: a call of ``records`` that must succeed; its result."""
    def ok(tool: str, **args) -> dict:
        result = records.call(tool, args)
        if not result.ok:
            raise RuntimeError(f'{tool}: {result.error}')
        return result.result
    return ok


def course(records: Records) -> tuple[str, str]:
    """A pair with one 30-lesson course; returns (pair_id, course_id)."""
    ok = done(records)
    ok('register_learner', learner_id='bench', display_name='林小雨')
    pair = ok('create_pair', learner_id='bench', learner_display_name='林小雨', provider='p',
              model='m', display_name='小智')['pair_id']
    course_id = ok('create_course', pair_id=pair, title='力学',
                   planned_lesson_count=LESSONS)['course_id']
    for n in range(LESSONS):
        lesson = ok('add_lesson', pair_id=pair, course_id=course_id, title=f'第{n}课',
                    content_markdown=TEXT.format(n=n))['lesson_id']
        for c in range(2):
            concept = ok('add_concept', pair_id=pair, lesson_id=lesson, name=f'概念{c}',
                         short_definition='d')['concept_id']
            ok('add_flashcard', pair_id=pair, front='f', back='b', concept_id=concept)
            ok('add_exercise', pair_id=pair, lesson_id=lesson, prompt='p', reference_answer='a',
               expected_concepts=[concept])
        ok('add_mindmap_seed', pair_id=pair, lesson_id=lesson, content=seed_map())
    return pair, course_id


def cores() -> list[dict]:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(os.path.join(folder, 'bench.sqlite3'))
        records = Records(store)
        pair, course_id = course(records)
        figure = throughput(f'records: verify_prep of a {LESSONS}-lesson course, every check '
                            '(target <= 100 ms)',
                            lambda: records.call('verify_prep', {'pair_id': pair,
                                                                 'course_id': course_id}),
                            seconds=3.0)
        store.close()
    return [figure]


def round_trips(count: int, index: int) -> dict:
    """records/call answered, learning_records in another process: a write and a read."""
    namespace = f'/bench{os.getpid()}_{index}'
    with tempfile.TemporaryDirectory() as folder:
        node = start(['learning_records'], namespace,
                     params=('-p', f'store_path:={folder}/bench.sqlite3'))
        probe = Node('bench_records', namespace=namespace)
        executor = SingleThreadedExecutor()
        executor.add_node(probe)
        client = probe.create_client(RecordsCall, interface.RECORDS_CALL.name,
                                     qos_profile=profile(interface.DEEP_QOS))
        pages = probe.create_client(RecordsLearnerCall, interface.RECORDS_LEARNER_CALL.name,
                                    qos_profile=profile(interface.DEEP_QOS))

        def call(tool: str, **args) -> tuple[float, RecordsCall.Response | None]:
            began = time.perf_counter()
            future = client.call_async(RecordsCall.Request(tool=tool, args_json=json.dumps(
                args, ensure_ascii=False)))
            executor.spin_until_future_complete(future, timeout_sec=5.0)
            return (time.perf_counter() - began) * 1e3, future.result()

        try:
            if not spin_until(executor, client.service_is_ready, 30.0) or \
                    not spin_until(executor, lambda: call('')[1] is not None, 30.0):
                raise RuntimeError('learning_records never answered')
            def register() -> bool:         # her own act, from her pages (idempotent)
                future = pages.call_async(RecordsLearnerCall.Request(
                    learner_id='l', tool='register_learner',
                    args_json=json.dumps({'learner_id': 'l', 'display_name': '林'})))
                executor.spin_until_future_complete(future, timeout_sec=1.0)
                return future.done() and future.result().ok

            if not spin_until(executor, pages.service_is_ready, 30.0) or \
                    not spin_until(executor, register, 30.0):
                raise RuntimeError('records/learner/call never answered')
            pair = json.loads(call('create_pair', learner_id='l', learner_display_name='林',
                                   provider='p', model='m',
                                   display_name='d')[1].result_json)['pair_id']
            course_id = json.loads(call('create_course', pair_id=pair,
                                        title='t')[1].result_json)['course_id']
            lesson = json.loads(call('add_lesson', pair_id=pair, course_id=course_id, title='t',
                                     content_markdown=TEXT)[1].result_json)['lesson_id']
            writes = [call('add_flashcard', pair_id=pair, front=f'f{i}', back='b')[0]
                      for i in range(count + 50)][50:]
            reads = [call('verify_prep', pair_id=pair, lesson_id=lesson)[0]
                     for _ in range(count + 50)][50:]
            return {'write_p50': percentile(writes, 0.5), 'write_p99': percentile(writes, 0.99),
                    'read_p50': percentile(reads, 0.5), 'read_p99': percentile(reads, 0.99),
                    'rss_node_mb': rss_mb(node)}
        finally:
            probe.destroy_node()
            stop(node)
