"""Scenario files, expectation checks, timeline lines and console lines, without ROS."""

import json

import pytest

from robot_skills.adapters.config import ConfigError, load, parse
from robot_skills.runtime import paths
from robot_skills.sim import console, timeline
from robot_skills.sim.scenario import Expect, Observed, Robots, Scenario, Step, check


def test_shipped_scenarios_and_robots_are_valid():
    assert load(paths.config('scenarios/demo.yaml'), Scenario).steps
    assert set(load(paths.config('sim.yaml'), Robots).robots) == {'q5', 'tianyi'}


@pytest.mark.parametrize('step', [
    {'robot': 'q5'},
    {'robot': 'q5', 'asr': 'a', 'remote': 'b'},
    {'robot': 'q5', 'asr': 'a', 'wait': 'later'},
    {'robot': 'q5', 'asr': 'a', 'after': -1},
    {'robot': 'q5', 'asr': 'a', 'colour': 'red'},
    {'robot': 'q5', 'discussion': 'a', 'asr': 'b'},
    {'robot': 'q5', 'discussion': 'a', 'role': 'ta'},          # the TA speaks for itself only
    {'robot': 'q5', 'discussion': 'a', 'expect': {'ta': 'maybe'}},
    {'robot': 'q5', 'records': 'create_pair', 'asr': 'b'},
])
def test_bad_steps_are_refused_with_the_step_named(step):
    with pytest.raises(ConfigError, match=r'entry steps\[0\]'):
        parse(f'name: x\nsteps:\n  - {step}\n'.replace("'", '"'), Scenario, 's.yaml')


@pytest.mark.parametrize('step, problem', [
    ({'records': 'create_pear'}, "field 'records': .*no learning_records tool 'create_pear'"),
    ({'records': 'create_pair', 'as': 'operator'}, "field 'as': Input should be 'agent' or "
                                                   "'learner'"),
    ({'records': 'register_learner'}, "register_learner is sent from the learner's pages: "
                                      'name her with learner:'),
    ({'records': 'create_pair', 'as': 'learner'}, 'name her with learner:'),
    ({'asr': 'a', 'as': 'learner'}, "'as' names who calls a records tool: only on a records "
                                    'step'),
])
def test_a_records_step_names_its_tool_and_its_learner(step, problem):
    with pytest.raises(ConfigError, match=rf's.yaml: entry steps\[0\].*{problem}'):
        parse(json.dumps({'name': 'x', 'steps': [{'robot': 'q5', **step}]}), Scenario,
              's.yaml')


@pytest.mark.parametrize('step, side', [
    ({'records': 'register_learner', 'learner': 'l1'}, 'learner'),     # her own act
    ({'records': 'live_learner_respond', 'learner': 'l1'}, 'learner'),
    ({'records': 'register_learner', 'as': 'agent'}, 'agent'),         # to show the refusal
    ({'records': 'create_pair'}, 'agent'),
    ({'records': 'adhoc_thread_get'}, 'agent'),                        # both may: the agent
    ({'records': 'adhoc_thread_get', 'as': 'learner', 'learner': 'l1'}, 'learner'),
])
def test_a_learner_s_own_act_is_sent_as_the_learner(step, side):
    assert Scenario.model_validate({'name': 'x', 'steps': [{'robot': 'q5', **step}]}
                                   ).steps[0].side == side


def test_the_demo_sends_the_learner_s_acts_as_her():
    steps = [s for s in load(paths.config('scenarios/demo.yaml'), Scenario).steps
             if s.records is not None]
    assert [(s.records, s.side, s.expect.recorded if s.expect else None)
            for s in steps if s.records == 'register_learner'] == [
        ('register_learner', 'agent', 'PERMISSION'), ('register_learner', 'learner', 'ok')]


def test_expectations_compare_exact_lists():
    step = Step(robot='q5', asr='x', expect=Expect(said=['贝旺路在……。'], gestures=[]))
    assert check(0, step, Observed(said=['贝旺路在……。'])) == []
    problems = check(2, step, Observed(said=['贝旺路在……'], gestures=['arm_gesture welcome left']))
    assert problems == [
        "step 3 (q5): expected said ['贝旺路在……。'], got ['贝旺路在……']",
        "step 3 (q5): expected gestures [], got ['arm_gesture welcome left']"]
    assert check(0, Step(robot='q5', asr='x'), Observed(said=['anything'])) == []
    turn = Step(robot='tianyi', discussion='嗯', expect=Expect(ta='spoke'))
    assert check(0, turn, Observed(ta='spoke')) == []
    assert check(0, turn, Observed()) == ["step 1 (tianyi): expected ta spoke, got silent"]


def test_timeline_lines():
    assert timeline.line(1.5, 'q5', 'SAY', '你好') == '   1.500s  q5        SAY      你好'
    assert timeline.heard('小范小范', False, None, 'v', None) == ('ASR-NOWAKE', '小范小范')
    assert timeline.heard(None, True, '三层厕所', 'visitor', None) == \
        ('REMOTE', 'visitor: 三层厕所')
    assert timeline.command('tts', 'speak', '{"message": "你好", "force": true}', 'queued') == \
        ('SAY', '你好 (force)  [queued]')
    assert timeline.command('arm_gesture', 'welcome', '{"action": "welcome", "side": "left"}',
                            'accepted') == ('MOVE', 'arm_gesture welcome left')
    assert timeline.command('tts', 'pause', '{}', 'called') == ('CALL', 'tts/pause')
    assert timeline.outcome({'device': 'arm_gesture', 'status': 'succeeded',
                             'gesture': 'welcome', 'state': 'completed'}) == \
        ('DONE', 'arm_gesture welcome completed')
    assert timeline.outcome({'device': 'tts', 'status': 'succeeded'}) is None
    assert timeline.outcome({'device': 'tts', 'status': 'failed', 'reason': 'ended error'}) == \
        ('FAILED', 'tts: ended error')


def test_ta_step_lines():
    card = {'pending_questions': ['a', 'b'], 'should_speak': False, 'can_end_discussion': False}
    assert timeline.ta_step('refresh', 'limit:share', {'state_card': card}) == \
        'refresh: silent (limit:share); 2 pending'
    assert timeline.ta_step('refresh', 'stall', {'state_card': {**card, 'should_speak': True}}) \
        == 'should speak (stall); 2 pending'
    assert timeline.ta_step('discuss', 'misreading', {'state_card': card, 'utterance': '好？'}) \
        == 'speaks (misreading): 好？'
    done = {'pending_questions': [], 'should_speak': False, 'can_end_discussion': True}
    assert timeline.ta_step('refresh', 'students_can_continue', {'state_card': done}) == \
        'refresh: silent (students_can_continue); 0 pending, can end'
    plan = {'must_discuss_points': ['p1', 'p2'], 'likely_misreadings': ['m'],
            'trigger_questions': []}
    assert timeline.ta_step('plan', 'plan', plan) == \
        'plan: 2 must-discuss points, 1 likely misreadings: p1 / p2'


@pytest.mark.parametrize('line, expected', [
    ('', None),
    ('quit', console.Quit()),
    ('@tianyi', console.Switch('tianyi')),
    ('@nobody', console.Problem("no robot 'nobody'; robots: q5, tianyi")),
    ('贝旺路怎么走', Step(robot='q5', asr='贝旺路怎么走')),
    ('~ 贝旺路怎么走', Step(robot='q5', asr='贝旺路怎么走', wake=False)),
    ('> 三层厕所在哪', Step(robot='q5', remote='三层厕所在哪', sender='console')),
    ('{"text": "x", "kws_triggered": true}',
     Step.model_validate({'robot': 'q5', 'json': '{"text": "x", "kws_triggered": true}'})),
])
def test_console_lines(line, expected):
    assert console.parse_line(line, 'q5', ['q5', 'tianyi']) == expected
