"""The discussion TA's figures: core steps on a long history, and steps over DDS.

* cores: one turn heard + a refresh, and one discuss decision (draft), on a
  session that already holds 2,000 turns (the detectors read windows and the
  digest, never the whole history); checking a whole material pack at load;
* round trips, pbl_ta and mock_hardware in their own processes: a turn
  published -> the refresh that names it answered (``last_turn_id``), and a
  discuss call -> its speech goal accepted by the robot (the mock's stamp).
"""

from __future__ import annotations

import itertools
import json
import os
import time

from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.time import Time

from bench.figures import RELIABLE, percentile, rss_mb, spin_until, start, stop, throughput
from robot_skills import interface
from robot_skills.adapters.config import load
from robot_skills.pbl_ta.core import TaCore
from robot_skills.pbl_ta.history import Turn
from robot_skills.pbl_ta.material import Lexicon, Material
from robot_skills.pbl_ta.utterance import material_problems
from robot_skills.runtime import paths
from robot_skills_interfaces.msg import DiscussionTurn, HardwareCommand
from robot_skills_interfaces.srv import OpenDiscussion, TaStep

FINES = '其实罚款就能解决，多罚几次就好了'
# A cycle in which the fines misreading stands once and is then corrected: the TA
# may speak about once per cycle, within its limits.
CYCLE = ['我们讨论一下', '好', '开始吧', FINES, '嗯', '可是罚款条款没执行过啊']
HISTORY = 2000


def cores() -> list[dict]:
    lexicon = load(paths.config('pbl_ta/lexicon.yaml'), Lexicon)
    material = load(paths.config('discussions/community_waste.yaml'), Material)
    core = TaCore(lexicon)
    session = core.open('bench', material)
    turns = itertools.cycle(CYCLE)
    for n in range(HISTORY):
        core.hear(session, Turn('student', f's{n % 4}', next(turns)))

    def turn_and_refresh() -> None:
        core.hear(session, Turn('student', 's1', next(turns)))
        core.refresh(session)

    return [
        throughput(f'pbl_ta: one turn heard + refresh, {HISTORY:,}-turn history',
                   turn_and_refresh),
        throughput(f'pbl_ta: one discuss decision (draft), {HISTORY:,}-turn history',
                   lambda: core.draft(session)),
        throughput('pbl_ta: check every utterance of a material pack (at load)',
                   lambda: material_problems(material, lexicon)),
    ]


def round_trips(count: int, index: int) -> dict:
    namespace = f'/bench{os.getpid()}_{index}'
    mock = start(['mock_hardware'], namespace,
                 params=('-p', 'time_scale:=0.0', '-p', 'joint_state_rate:=0.0'))
    node = start(['pbl_ta'], namespace, params=('-p', f'robot_namespace:={namespace}'))
    probe = Node('bench_orchestrator', namespace=namespace)
    executor = SingleThreadedExecutor()
    executor.add_node(probe)
    commands: list[HardwareCommand] = []
    probe.create_subscription(HardwareCommand, interface.MOCK_COMMANDS.name, commands.append,
                              RELIABLE)
    turns = probe.create_publisher(DiscussionTurn, interface.DISCUSSION_TURNS.name, RELIABLE)
    opener = probe.create_client(OpenDiscussion, interface.DISCUSSION_OPEN.name)
    stepper = probe.create_client(TaStep, interface.DISCUSSION_TA_STEP.name)

    def call(client, request):
        future = client.call_async(request)
        executor.spin_until_future_complete(future, timeout_sec=5.0)
        return future.result()

    refreshes: list[float] = []
    speeches: list[float] = []
    try:
        if not spin_until(executor, lambda: turns.get_subscription_count() and
                          opener.service_is_ready() and stepper.service_is_ready(), 30.0):
            raise RuntimeError('pbl_ta never became ready')
        call(opener, OpenDiscussion.Request(session_id='bench', material='community_waste'))
        for i, text in zip(range(count + 50), itertools.cycle(CYCLE)):
            sent = time.perf_counter()
            turns.publish(DiscussionTurn(session_id='bench', speaker_role='student',
                                         speaker_id=f's{i % 4}', text=text, is_body=True,
                                         turn_id=f't{i}'))
            refresh = call(stepper, TaStep.Request(session_id='bench', mode='refresh',
                                                   last_turn_id=f't{i}'))
            refreshes.append((time.perf_counter() - sent) * 1e3)
            if json.loads(refresh.json)['state_card']['should_speak']:
                seen, asked = len(commands), probe.get_clock().now()
                call(stepper, TaStep.Request(session_id='bench', mode='discuss'))
                if spin_until(executor, lambda seen=seen: len(commands) > seen, 2.0):
                    speeches.append((Time.from_msg(commands[seen].stamp) - asked).nanoseconds
                                    / 1e6)
        refreshes = refreshes[50:]
        return {'refresh_p50': percentile(refreshes, 0.5),
                'refresh_p99': percentile(refreshes, 0.99),
                'speech_p50': percentile(speeches, 0.5), 'speech_p99': percentile(speeches, 0.99),
                'speeches': len(speeches), 'rss_node_mb': rss_mb(node)}
    finally:
        probe.destroy_node()
        stop(node)
        stop(mock)
