"""The simulation in one process: robots, skills and the director over DDS."""

from __future__ import annotations

import pytest
from echo_core import EchoNode

from robot_skills.runtime import paths
from robot_skills.sim import skills
from robot_skills.sim.director import Director
from robot_skills.sim.main import build
from robot_skills.sim.scenario import Robots, Scenario


@pytest.fixture
def play(ros, monkeypatch):
    monkeypatch.setitem(skills.SKILL_NODES, 'echo', EchoNode)
    robot = f'{ros.namespace[1:]}_q5'

    def run(steps: list[dict], skills: tuple[str, ...] = ('echo',),
            **extra) -> tuple[int, list[str]]:
        lines: list[str] = []
        scenario = Scenario.model_validate({
            'name': 'test', 'time_scale': 0.05,
            'steps': [{'robot': robot, **step} for step in steps], **extra})
        robots = Robots(robots={robot: list(skills)})
        for node in build(robots, paths.config('params.yaml'), 0.05, context=ros.context):
            ros.adopt(node)
        director = ros.add(Director, robots=robots.robots, scenario=scenario, out=lines.append,
                           voice_skills=frozenset({'echo'}))
        return ros.wait(director.done, timeout=30.0), lines
    return run


def test_a_scenario_plays_to_the_end_and_meets_its_expectations(play):
    status, lines = play([
        {'asr': '你好', 'expect': {'said': ['你好'], 'gestures': []}},
        {'asr': '没醒', 'wake': False, 'expect': {'said': []}},
        {'remote': '三层厕所', 'expect': {'said': ['三层厕所'], 'replies': ['done']}},
    ])
    assert status == 0, lines
    tags = [line.split()[2] for line in lines]
    assert tags == ['SCENARIO', 'ASR', 'SAY', 'ASR-NOWAKE', 'REMOTE', 'SAY', 'REPLY', 'END']
    assert lines[-1].endswith('3 steps, 3 checked, 0 problem(s)')


def test_an_unmet_expectation_fails_the_run(play):
    status, lines = play([{'asr': '你好', 'expect': {'said': ['再见']}}])
    assert status == 1
    assert any("PROBLEM  step 1" in line and "expected said ['再见'], got ['你好']" in line
               for line in lines)


def test_records_steps_go_to_the_agent_s_or_the_learner_s_service(play):
    """A learner's own act is sent from her pages (records/learner/call, as her), the rest on
    records/call; the agent doing her act, or another learner in her pair, is refused."""
    register = {'learner_id': 'l1', 'display_name': '林小雨'}
    status, lines = play([
        {'records': 'register_learner', 'as': 'agent', 'args': register,
         'expect': {'recorded': 'PERMISSION'}},
        {'records': 'register_learner', 'learner': 'l1', 'args': register,
         'expect': {'recorded': 'ok'}},
        {'records': 'create_pair', 'args': {'learner_id': 'l1', 'learner_display_name': '林小雨',
                                            'provider': 'p', 'model': 'm', 'display_name': 'd'},
         'expect': {'recorded': 'ok'}},
        {'records': 'adhoc_learner_send', 'learner': 'l1', 'args': {'text': '老师好'},
         'expect': {'recorded': 'ok'}},
        {'records': 'adhoc_learner_send', 'as': 'agent', 'args': {'text': '冒名'},
         'expect': {'recorded': 'PERMISSION'}},
        {'records': 'register_learner', 'learner': 'l2', 'args': register,   # her name, not l2's
         'expect': {'recorded': 'PERMISSION'}},
    ], skills=('learning_records',))
    assert status == 0, lines
    sent = [line.split('RECORDS', 1)[1].split(' {')[0].strip() for line in lines
            if ' RECORDS ' in line]
    assert sent == ['agent: register_learner', 'learner l1: register_learner',
                    'agent: create_pair', 'learner l1: adhoc_learner_send',
                    'agent: adhoc_learner_send', 'learner l2: register_learner']
    assert lines[-1].endswith('6 steps, 6 checked, 0 problem(s)')
