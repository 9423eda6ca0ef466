"""pbl_ta over real DDS: sessions, turns, the three modes, speech through a robot, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from config_files import shipped
from hostile import ids, json_texts, per_node, texts
from hypothesis import given
from hypothesis import strategies as st
from llm_stub import Stub
from pbl_ta_talk import PACK
from rclpy.parameter import Parameter
from ros_harness import Harness, Recorder

from robot_skills.adapters.config import ConfigError
from robot_skills.mock_hardware.node import MockHardware
from robot_skills.pbl_ta.history import ROLES
from robot_skills.pbl_ta.node import PblTa
from robot_skills_interfaces.msg import DiscussionTurn, HardwareCommand, SkillEvent
from robot_skills_interfaces.srv import OpenDiscussion, TaStep

FINES = '其实罚款就能解决，多罚几次就好了'
OPENING = ['我们讨论一下', '好', '开始吧', FINES, '嗯']       # the TA speaks after this


class Rig:
    """pbl_ta (and a mock robot when it speaks) with a probe playing the orchestrator."""

    def __init__(self, ros: Harness, speak: bool = False, **parameters) -> None:
        self.ros = ros
        if speak:
            ros.add(MockHardware, parameter_overrides=[Parameter('time_scale', value=0.0),
                                                       Parameter('joint_state_rate', value=0.0)])
            parameters['robot_namespace'] = ros.namespace
        self.node = ros.add(PblTa, parameter_overrides=[Parameter(k, value=v)
                                                        for k, v in parameters.items()])
        probe = self.probe = ros.node()
        self.turns = Recorder(probe, DiscussionTurn, 'discussion/turns')
        self.events = Recorder(probe, SkillEvent, 'skill_events')
        self.commands = Recorder(probe, HardwareCommand, 'mock_hardware/commands')
        self.publisher = probe.create_publisher(DiscussionTurn, 'discussion/turns', 100)
        self.open_client = probe.create_client(OpenDiscussion, 'discussion/open')
        self.step_client = probe.create_client(TaStep, 'discussion/ta_step')
        ros.until(lambda: self.publisher.get_subscription_count() and
                  self.open_client.service_is_ready() and self.step_client.service_is_ready(),
                  what='pbl_ta ready')
        self.sent = 0

    def open(self, **fields) -> OpenDiscussion.Response:
        return self.ros.wait(self.open_client.call_async(OpenDiscussion.Request(**fields)))

    def say(self, session: str, *texts: str, role: str = 'student', body: bool = True) -> str:
        """Publish turns; the id of the last one (a step names it to be ordered after it)."""
        for text in texts:
            self.sent += 1
            self.publisher.publish(DiscussionTurn(
                session_id=session, speaker_role=role, speaker_id=f'{role}{self.sent % 3}',
                text=text, is_body=body, turn_id=f'turn-{self.sent}'))
        return f'turn-{self.sent}'

    def step(self, session: str, mode: str, after: str = '', previous: str = '',
             summary: str = '', agenda: str = '') -> TaStep.Response:
        return self.ros.wait(self.step_client.call_async(TaStep.Request(
            session_id=session, mode=mode, last_turn_id=after,
            previous_state_card_json=previous, summary=summary, must_discuss_json=agenda)))

    def traced(self, kind: str) -> list[SkillEvent]:
        return [e for e in self.events.messages if e.kind == kind]


@pytest.fixture
def rig(ros):
    return Rig(ros)


def test_a_session_end_to_end(rig):
    opened = rig.open(material='community_waste', session_id='class-1')
    assert opened.ok and opened.session_id == 'class-1'
    plan = json.loads(rig.step('class-1', 'plan').json)
    assert list(plan) == ['must_discuss_points', 'likely_misreadings', 'trigger_questions']
    last = rig.say('class-1', *OPENING)
    refresh = rig.step('class-1', 'refresh', after=last)
    assert refresh.ok and refresh.reason == 'misreading'
    assert json.loads(refresh.json)['state_card']['should_speak'] is True
    spoken = rig.step('class-1', 'discuss')
    answer = json.loads(spoken.json)
    assert list(answer) == ['state_card', 'utterance'] and answer['utterance']
    assert answer['state_card']['should_speak'] is False
    ta_turn = rig.ros.until(lambda: [t for t in rig.turns.messages if t.speaker_role == 'ta'],
                            what='the TA turn on discussion/turns')[0]
    assert (ta_turn.text, ta_turn.is_body, ta_turn.session_id) == (answer['utterance'], True,
                                                                   'class-1')
    again = json.loads(rig.step('class-1', 'discuss').json)   # its own echo counted once
    assert again['utterance'] == ''
    assert rig.node.sessions['class-1'].digest.ta == [False] * 5 + [True]


def test_a_step_waits_for_the_turn_it_names(rig):
    rig.open(material='community_waste', session_id='s')
    last = rig.say('s', *OPENING)
    assert json.loads(rig.step('s', 'refresh', after=last).json)['state_card']['should_speak']
    missing = rig.step('s', 'refresh', after='never-sent')
    assert not missing.ok and "turn 'never-sent' was not heard" in missing.error


def test_an_inline_pack_and_overrides(rig):
    data = shipped(PACK)
    opened = rig.open(material_yaml=yaml.safe_dump(data, allow_unicode=True),
                      topic='我们小区的垃圾分类')
    assert opened.ok and opened.session_id.startswith('discussion-')
    assert rig.node.sessions[opened.session_id].material.topic == '我们小区的垃圾分类'


@pytest.mark.parametrize('fields, error', [
    ({'material': 'no_such_pack'},
     "no material pack 'no_such_pack' in the configured folder (known: community_waste)"),
    ({}, 'give exactly one of material'),
    ({'material': 'community_waste', 'material_yaml': 'topic: x'}, 'give exactly one'),
    ({'material_yaml': '{: not yaml'}, 'material_yaml: not valid YAML'),
    ({'material_yaml': 'topic: 空的'}, "field 'must_discuss'"),
    ({'material': '/nonexistent/pack.yaml'}, 'paths outside it are not read'),
    ({'material_yaml': '[' * 1000}, 'material_yaml: nested deeper than 32 levels'),
    ({'material_yaml': 'a: &x [1]\nb: *x'}, 'anchors and aliases are not accepted'),
])
def test_a_bad_open_is_refused_and_traced(rig, fields, error):
    refused = rig.open(**fields)
    assert not refused.ok and error in refused.error
    rig.ros.until(lambda: rig.traced('refused'), what='the refusal traced')


def test_a_pack_beyond_the_transport_cap_is_refused_naming_the_field(rig):
    refused = rig.open(material_yaml='topic: x\n' + '#' * 300_000)
    assert not refused.ok and refused.error.startswith('material_yaml: 300,')
    assert 'at most 100,000' in refused.error
    rig.ros.until(lambda: rig.traced('input_rejected'), what='the refusal traced')


def test_a_pack_is_read_only_from_the_pack_folder(rig, tmp_path):
    """A path outside the configured folder (directly, by .., or by a link) is never read."""
    secret = 'SECRET-4711'
    outside = tmp_path / 'outside.yaml'
    outside.write_text(yaml.safe_dump({**shipped(PACK), 'topic': secret}, allow_unicode=True),
                       encoding='utf-8')
    folder = rig.node.value.discussions_dir
    link = Path(folder) / 'link_outside_test.yaml'
    link.symlink_to(outside)
    try:
        for material in (str(outside), f'../../{outside}', link.name, '/etc/passwd'):
            refused = rig.open(material=material)
            assert not refused.ok and 'paths outside it are not read' in refused.error
            assert secret not in refused.error and 'root:x:' not in refused.error
        assert rig.open(material='community_waste.yaml').ok      # a file of the folder
    finally:
        link.unlink()
    assert not any(secret in e.detail_json for e in rig.events.messages)


def test_a_pack_whose_utterance_breaks_a_rule_is_refused(rig):
    data = shipped(PACK)
    data['must_discuss'][0]['ask'] = '大家同意吗？'
    refused = rig.open(material_yaml=yaml.safe_dump(data, allow_unicode=True))
    assert not refused.ok and "must_discuss[0] (id 'p_success'), field 'ask'" in refused.error


def test_a_session_id_is_opened_once(rig):
    assert rig.open(material='community_waste', session_id='x').ok
    again = rig.open(material='community_waste', session_id='x')
    assert not again.ok and 'open already' in again.error


@pytest.mark.parametrize('fields, error', [
    ({'session_id': 'nope', 'mode': 'plan'}, "no open session 'nope'"),
    ({'session_id': 's', 'mode': 'speak'}, 'mode must be one of plan, discuss, refresh'),
    ({'session_id': 's', 'mode': 'refresh', 'previous_state_card_json': '{"should_speak": 1}'},
     "previous_state_card_json.should_speak: Input should be a valid boolean"),
    ({'session_id': 's', 'mode': 'refresh', 'previous_state_card_json': 'not json'},
     'previous_state_card_json'),
    ({'session_id': 's', 'mode': 'refresh', 'previous_state_card_json': json.dumps(
        {'pending_questions': [], 'should_speak': False, 'can_end_discussion': False,
         'utterance': 'x'})}, 'Extra inputs are not permitted'),
])
def test_a_bad_step_is_refused_and_traced(rig, fields, error):
    rig.open(material='community_waste', session_id='s')
    refused = rig.ros.wait(rig.step_client.call_async(TaStep.Request(**fields)))
    assert not refused.ok and error in refused.error and refused.json == ''
    rig.ros.until(lambda: rig.traced('refused'), what='the refusal traced')


def test_bad_turns_are_rejected_and_huge_ones_truncated(rig):
    rig.open(material='community_waste', session_id='s')
    rig.say('nobody', '你好')
    rig.say('s', '你好', role='intruder')
    last = rig.say('s', '清运车' * 5000)
    rig.step('s', 'refresh', after=last)
    rejected = [json.loads(e.detail_json) for e in rig.traced('input_rejected')]
    assert [e.state for e in rig.traced('input_rejected')][:1] == ['unknown session']
    assert len(rejected) == 2 and rig.traced('input_rejected')[1].state == 'unknown speaker_role'
    assert 'intruder' not in rig.traced('input_rejected')[1].detail_json    # their text
    heard = [json.loads(e.detail_json) for e in rig.traced('input')]
    assert heard[-1]['truncated'] is True
    assert rig.node.sessions['s'].digest.body == 1


def test_non_body_turns_do_not_count(rig):
    rig.open(material='community_waste', session_id='s')
    last = rig.say('s', '下面进入自由讨论', '还有五分钟', role='moderator', body=False)
    rig.step('s', 'refresh', after=last)
    assert rig.node.sessions['s'].digest.body == 0


def test_the_ta_speaks_through_the_robot(ros):
    rig = Rig(ros, speak=True)
    rig.open(material='community_waste', session_id='s')
    rig.step('s', 'refresh', after=rig.say('s', *OPENING))
    utterance = json.loads(rig.step('s', 'discuss').json)['utterance']
    said = rig.ros.until(lambda: [json.loads(c.arguments_json)['message']
                                  for c in rig.commands.messages if c.device == 'tts'],
                         what='the TA spoken through tts/speak')
    assert said == [utterance]
    spoken = rig.ros.until(lambda: rig.traced('spoken'), what='the speech result traced')
    assert spoken[0].state == 'succeeded'


def test_an_llm_rewording_is_checked_before_use(ros):
    good = '罚款条款两年都没执行过，准确率是定时定点之后才上去的。那值守由谁来排班？'
    stub = Stub(['其实就是靠定时定点投放加上有人在投放点值守督导。明白了吗？', good])
    try:
        rig = Rig(ros, llm_base_url=stub.url, llm_model='ta-model')
        rig.open(material='community_waste', session_id='a')
        rig.open(material='community_waste', session_id='b')
        for session in ('a', 'b'):
            rig.step(session, 'refresh', after=rig.say(session, *OPENING))
        template = json.loads(rig.step('a', 'discuss').json)['utterance']
        assert template.startswith('材料一里罚款条款一直都有')      # the answer-giving one dropped
        assert json.loads(rig.step('b', 'discuss').json)['utterance'] == good
        assert '介入原因：misreading' in stub.requests[0]['messages'][1]['content']
        decisions = [json.loads(e.detail_json) for e in rig.traced('decision')
                     if e.state == 'discuss']
        assert decisions[0]['rejected'] and decisions[1]['rejected'] == 0
    finally:
        stub.close()


def test_an_unreachable_llm_degrades_to_the_template(ros):
    rig = Rig(ros, llm_base_url='http://127.0.0.1:9/v1', llm_timeout=1.0)
    rig.open(material='community_waste', session_id='s')
    rig.step('s', 'refresh', after=rig.say('s', *OPENING))
    assert json.loads(rig.step('s', 'discuss').json)['utterance'].startswith('材料一里')
    rig.ros.until(lambda: rig.traced('degraded'), what='the degradation traced')


def test_a_bad_pack_in_the_folder_stops_the_node(ros, tmp_path):
    data = shipped(PACK)
    data['misreadings'][0]['ask'] = 'ok?'
    (tmp_path / 'broken.yaml').write_text(yaml.safe_dump(data, allow_unicode=True),
                                          encoding='utf-8')
    with pytest.raises(ConfigError) as caught:
        ros.add(PblTa, parameter_overrides=[Parameter('discussions_dir', value=str(tmp_path))])
    assert "broken.yaml: entry misreadings[0] (id 'm_fines')" in str(caught.value)


def test_hostile_input_on_every_channel_is_answered_and_the_ta_goes_on(ros):
    rig = Rig(ros, turn_wait=0.05, max_sessions=10_000)   # 's' is never evicted
    rig.open(material='community_waste', session_id='s')
    yamlish = st.one_of(json_texts(), texts(), st.sampled_from([
        '- ' * 1000 + '1', 'a: &x [1]\nb: *x', 'topic: x\nmust_discuss: 5', '{: x']))

    @per_node
    @given(st.data())
    def send(data):
        channel = data.draw(st.sampled_from(['turn', 'open', 'step']))
        if channel == 'turn':
            rig.publisher.publish(DiscussionTurn(
                session_id=data.draw(st.one_of(st.just('s'), ids())),
                speaker_role=data.draw(st.one_of(st.sampled_from(ROLES), texts(20))),
                speaker_id=data.draw(ids()), text=data.draw(texts()),
                is_body=data.draw(st.booleans()), turn_id=data.draw(ids())))
        elif channel == 'open':
            answer = rig.open(session_id=data.draw(ids()),
                              material=data.draw(st.one_of(st.just(''), texts(60))),
                              material_yaml=data.draw(st.one_of(st.just(''), yamlish)),
                              topic=data.draw(texts(40)))
            assert answer.ok or answer.error
        else:
            answer = rig.step(data.draw(st.one_of(st.just('s'), ids())),
                              data.draw(st.one_of(st.sampled_from(['plan', 'discuss',
                                                                   'refresh']), texts(20))),
                              after=data.draw(st.one_of(st.just(''), ids())),
                              previous=data.draw(st.one_of(st.just(''), json_texts({
                                  'pending_questions': st.lists(texts(30), max_size=3),
                                  'should_speak': st.booleans(),
                                  'can_end_discussion': st.integers()}))))
            assert answer.ok or answer.error
        probe = rig.say('s', '我觉得可以先让楼长排班')          # the next input is heard
        # heard first (turn_wait is short so hostile ids do not stall the run; a loaded
        # machine may take longer than it to deliver the probe), then the step is ordered
        rig.ros.until(lambda: any(json.loads(e.detail_json).get('turn_id') == probe
                                  for e in rig.traced('input')), what='the probe heard')
        assert rig.step('s', 'refresh', after=probe).ok

    send()
    assert not rig.traced('error')
    digest = rig.node.sessions['s'].digest
    assert digest.ta_count * 5 <= digest.body           # the share limit held throughout


def test_a_step_that_waits_holds_no_other_step_up(rig):
    rig.open(material='community_waste', session_id='a')
    rig.open(material='community_waste', session_id='b')
    waiting = rig.step_client.call_async(TaStep.Request(session_id='a', mode='refresh',
                                                        last_turn_id='never-sent'))
    plan = rig.step('b', 'plan')                  # answered while 'a' still waits
    assert plan.ok and not waiting.done()
    assert not rig.ros.wait(waiting).ok


def test_a_refusal_is_traced_by_its_reason_never_by_what_was_sent(rig):
    marker = '林晓雨住在幸福路'
    rig.open(material='community_waste', session_id='s')
    rig.step('s', 'refresh', previous=json.dumps({marker: 1, 'should_speak': True}))
    rig.open(material=marker)
    rig.open(material_yaml=f'topic: x\nmust_discuss: [{{id: "{marker}"}}]')
    rig.step(marker, marker, after=marker)
    reasons = rig.ros.until(lambda: [json.loads(e.detail_json)['reason']
                                     for e in rig.traced('refused')][3:] and
                            [json.loads(e.detail_json)['reason'] for e in rig.traced('refused')],
                            what='four refusals')
    assert reasons == ['bad_previous_card', 'no_pack', 'bad_pack', 'unknown_session']
    assert marker not in ''.join(e.detail_json + e.state + e.session_id
                                 for e in rig.events.messages if e.kind == 'refused')


def test_a_pack_folder_with_a_link_out_of_it_stops_the_node(ros, tmp_path):
    folder = tmp_path / 'packs'
    folder.mkdir()
    (folder / 'community_waste.yaml').write_text(yaml.safe_dump(shipped(PACK),
                                                                allow_unicode=True),
                                                 encoding='utf-8')
    (tmp_path / 'outside.yaml').write_text('topic: SECRET\n', encoding='utf-8')
    (folder / 'link.yaml').symlink_to(tmp_path / 'outside.yaml')
    with pytest.raises(ConfigError, match='leads out of discussions_dir') as refused:
        ros.add(PblTa, parameter_overrides=[Parameter('discussions_dir', value=str(folder))])
    assert 'SECRET' not in str(refused.value)


def test_the_orchestrator_s_summary_and_points_reach_the_decisions(rig):
    """discussion/open and ta_step carry the rolling summary and the must-discuss points the
    orchestrator maintains; both change what is pending, neither is traced."""
    marker = '林晓雨说前面谈了定时定点让准确率从三成升到七成'
    point = {'point': '垃圾桶摆放的位置', 'question': '垃圾桶放在哪里、谁来管？', 'cues': ['垃圾桶']}
    assert rig.open(material='community_waste', session_id='plain').ok
    assert rig.open(material='community_waste', session_id='s', summary=marker,
                    must_discuss_json=json.dumps([point], ensure_ascii=False)).ok
    plain = json.loads(rig.step('plain', 'refresh').json)['state_card']['pending_questions']
    card = json.loads(rig.step('s', 'refresh').json)['state_card']['pending_questions']
    assert '试点成功到底靠什么？' in plain and '试点成功到底靠什么？' not in card
    assert '垃圾桶放在哪里、谁来管？' in card and '垃圾桶放在哪里、谁来管？' not in plain
    rolled = rig.step('s', 'refresh', summary='后来大家也谈了楼长招募志愿者轮流排班。',
                      agenda=json.dumps([{'id': 'p_backend', 'covered': True}]))
    pending = json.loads(rolled.json)['state_card']['pending_questions']
    assert '值守的人从哪里来、怎么坚持下去？' not in pending
    assert '后端混运的问题怎么解决？' not in pending
    assert marker not in ''.join(e.detail_json for e in rig.events.messages)


@pytest.mark.parametrize('agenda, error', [
    ('not json', 'must_discuss_json'),
    ('{"point": "x"}', 'a JSON list of points'),
    ('[{"colour": 1}]', 'must_discuss_json'),
    ('[{}]', 'needs an id'),
])
def test_bad_must_discuss_points_are_refused_by_open_and_step(rig, agenda, error):
    refused = rig.open(material='community_waste', session_id='x', must_discuss_json=agenda)
    assert not refused.ok and error in refused.error
    assert rig.open(material='community_waste', session_id='s').ok
    step = rig.step('s', 'refresh', agenda=agenda)
    assert not step.ok and error in step.error
    reasons = rig.ros.until(lambda: [json.loads(e.detail_json)['reason']
                                     for e in rig.traced('refused')][1:] and
                            [json.loads(e.detail_json)['reason'] for e in rig.traced('refused')],
                            what='two refusals')
    assert reasons == ['bad_must_discuss', 'bad_must_discuss']
