"""The TA core end to end: the document's JSON for every mode, the state card, the limits."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from config_files import seed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from limits_oracle import broken
from pbl_ta_talk import Talk

from robot_skills.pbl_ta.card import SCHEMA_FILE, StateCard, schema
from robot_skills.pbl_ta.core import SILENT
from robot_skills.pbl_ta.history import ROLES, Turn
from robot_skills.runtime import paths

SCHEMA = json.loads(Path(paths.config(SCHEMA_FILE)).read_text(encoding='utf-8'))
FINES = '其实罚款就能解决，多罚几次就好了'
# A discussion that ends well: a misreading, abstract talk, then concrete compared actions.
DISCUSSION = ['我觉得垃圾分类推不动', '对，我同意', FINES, '嗯', '我觉得也是',
              '材料一说定时定点以后准确率从三成升到七成', '那说明值守很重要',
              '但是清运车混着拉走的话前端就白分了', '这个问题很重要，意识也很重要', '对，态度是根本',
              '关键在于观念', '所以应该重视', '我们可以先让楼长排班值守，每天晚上两小时',
              '相比后端，先做前端成本更低，我建议先由物业招募志愿者']


DEFINITIONS = {'plan': 'PlanAnswer', 'discuss': 'DiscussAnswer', 'refresh': 'RefreshAnswer'}


def valid(answer: dict, mode: str) -> None:
    """``answer`` is exactly the document's JSON of ``mode`` (checked by the shipped schema)."""
    jsonschema.validate(answer, {'$defs': SCHEMA['$defs'],
                                 '$ref': f'#/$defs/{DEFINITIONS[mode]}'})
    jsonschema.validate(answer, SCHEMA)


def test_the_schema_file_is_current():
    assert json.loads(json.dumps(schema())) == SCHEMA


def test_the_schema_refuses_anything_but_the_document_fields():
    card = {'pending_questions': [], 'should_speak': False, 'can_end_discussion': False}
    valid({'state_card': card}, 'refresh')
    for wrong in ({'state_card': card, 'utterance': ''},             # refresh: no utterance
                  {'state_card': {**card, 'mood': 'ok'}},             # no extra card field
                  {'state_card': card, 'pending_questions': []}):     # nothing repeated on top
        with pytest.raises(jsonschema.ValidationError):
            valid(wrong, 'refresh')


def test_plan_comes_from_the_whole_pack():
    answer = Talk().core.plan(Talk().session).answer
    valid(answer, 'plan')
    assert answer['must_discuss_points'][0] == '试点的准确率为什么能从三成升到七成'
    assert len(answer['likely_misreadings']) == 2 and len(answer['trigger_questions']) == 4


def test_a_whole_discussion_mostly_silent_then_ending():
    talk = Talk()
    steps = talk.play(DISCUSSION)
    spoken = [s for s in steps if s.utterance]
    assert [s.reason for s in spoken] == ['misreading', 'uncovered_point', 'abstract']
    assert len(steps) - len(spoken) == len(DISCUSSION)            # every turn: one refresh
    for step in steps:
        valid(step.answer, 'discuss' if 'utterance' in step.answer else 'refresh')
    final = steps[-1].answer['state_card']
    assert final == {'pending_questions': [], 'should_speak': False, 'can_end_discussion': True}
    assert broken(talk.history) == []


def test_refresh_never_speaks_and_discuss_always_lowers_should_speak():
    talk = Talk()
    talk.say('我们讨论一下', '好', '开始吧', FINES)
    refresh = talk.say('嗯')
    assert refresh.answer['state_card']['should_speak'] and 'utterance' not in refresh.answer
    assert talk.session.digest.ta == [False] * 5                   # refresh added no TA turn
    spoken = talk.discuss()
    assert spoken.utterance and spoken.answer['state_card']['should_speak'] is False
    silent = talk.discuss()                                         # right after: the limits
    assert silent.answer['utterance'] == '' and silent.reason == 'limit:consecutive'


def test_in_doubt_silent():
    talk = Talk()
    step = talk.say('定时定点以后准确率从三成升到七成', '楼长可以排班值守', '清运车也得分开运',
                    '比起罚款，值守更有效', '我觉得可以先试点一个月')
    assert step.reason == SILENT and step.answer['state_card']['should_speak'] is False
    assert talk.discuss().answer['utterance'] == ''


def test_should_speak_is_false_whenever_a_limit_would_break():
    talk = Talk()
    step = talk.say(FINES, '嗯')                        # a misreading, but 1 TA of 3 is too many
    assert step.reason == 'limit:share' and not step.answer['state_card']['should_speak']


def test_can_end_needs_every_point_nothing_pending_and_compared_actions():
    ends = Talk()
    ends.say('定时定点以后准确率从三成升到七成', '清运车混运要解决', '楼长招募志愿者排班',
             '我们先让物业设立值守点', '相比值守，先公示清运记录更省钱')
    assert ends.core.refresh(ends.session).answer['state_card']['can_end_discussion']
    no_comparison = Talk()
    no_comparison.say('定时定点以后准确率从三成升到七成', '清运车混运要解决', '楼长招募志愿者排班',
                      '我们先让物业设立值守点')
    assert not no_comparison.core.refresh(no_comparison.session).answer[
        'state_card']['can_end_discussion']
    one_speaker = Talk()
    for text in ('定时定点以后准确率从三成升到七成', '清运车混运要解决', '楼长招募志愿者排班',
                 '相比之下先设立值守点'):
        one_speaker.core.hear(one_speaker.session, Turn('student', 'same', text))
    assert not one_speaker.core.refresh(one_speaker.session).answer['state_card'][
        'can_end_discussion']


def test_the_previous_card_orders_the_points_and_carries_foreign_questions():
    talk = Talk()
    previous = StateCard(pending_questions=['值守的人从哪里来、怎么坚持下去？', '垃圾桶放在哪里最方便？'],
                         should_speak=True, can_end_discussion=False)
    card = talk.core.refresh(talk.session, previous).answer['state_card']
    assert card['pending_questions'][0] == '值守的人从哪里来、怎么坚持下去？'
    assert talk.core.pending(talk.session, ('p_people',))[0] == (
        'p_people', '值守的人从哪里来、怎么坚持下去？')
    talk.say('准确率从三成升到七成', '清运车混运要解决', '我们先让志愿者排班')
    carried = StateCard(pending_questions=['垃圾桶放在哪里最方便？'], should_speak=False,
                        can_end_discussion=False)
    assert talk.core.refresh(talk.session, carried).answer['state_card'][
        'pending_questions'] == ['垃圾桶放在哪里最方便？']
    talk.say('垃圾桶放在哪里最方便？我觉得放在楼门口')          # a student answered it
    assert talk.session.card.pending_questions == []


def test_a_foreign_question_keeps_the_discussion_open():
    talk = Talk()
    talk.say('定时定点以后准确率从三成升到七成', '清运车混运要解决', '楼长招募志愿者排班',
             '我们先让物业设立值守点', '相比值守，先公示清运记录更省钱')
    previous = StateCard(pending_questions=['要不要请居委会参与？'], should_speak=False,
                         can_end_discussion=True)
    card = talk.core.refresh(talk.session, previous).answer['state_card']
    assert card == {'pending_questions': ['要不要请居委会参与？'], 'should_speak': False,
                    'can_end_discussion': False}


@pytest.mark.parametrize('candidate, used', [
    ('罚款条款两年都没执行过，准确率是定时定点之后才上去的。那值守由谁来排班？', True),
    ('其实就是靠定时定点投放加上有人在投放点值守督导。明白了吗？', False),   # the full answer
    ('学生B：罚款条款没执行过。那谁来排班？', False),                        # speaks for another
    ('Fines were never enforced. Who will take the shifts?', False),
])
def test_an_llm_candidate_is_used_only_when_it_obeys_the_rules(candidate, used):
    talk = Talk()
    talk.say('我们讨论一下', '好', '开始吧', FINES, '嗯')
    draft = talk.core.draft(talk.session)
    assert draft.finding is not None and draft.text
    step = talk.core.discuss(talk.session, draft, candidate)
    assert step.utterance == (candidate if used else draft.text)
    assert bool(step.rejected) is not used


def test_the_limits_are_checked_again_when_the_candidate_arrives():
    """A TA turn heard while the LLM was asked (another TA instance) makes the draft silent."""
    talk = Talk()
    talk.say('我们讨论一下', '好', '开始吧', FINES, '嗯')
    draft = talk.core.draft(talk.session)
    talk.core.hear(talk.session, Turn('ta', 'other-ta', '罚款条款没执行过，谁来值守？'))
    step = talk.core.discuss(talk.session, draft, '')
    assert step.utterance == '' and step.reason == 'limit:consecutive'


# ---- generated discussions ------------------------------------------------------------------

WORDS = ['嗯', '对', '我同意', '不知道', FINES, '我觉得大家意识差', '定时定点以后准确率上去了',
         '清运车混着拉走了', '楼长轮流值守', '意识很重要', '态度是根本', '所以应该重视',
         '我们先让楼长排班', '相比之下先做前端', '要不要请居委会参与', '材料三说的白分是什么意思',
         'x' * 3000, '', '😀' * 50, '学生A：我来替他说']


@st.composite
def discussions(draw):
    """Random speakers, roles, lengths and stalls, and an orchestrator that calls at random."""
    events = draw(st.lists(st.tuples(
        st.sampled_from([r for r in ROLES if r != 'ta']), st.integers(0, 5),
        st.one_of(st.sampled_from(WORDS), st.text(max_size=60)), st.booleans(),
        st.sampled_from(['none', 'refresh', 'discuss', 'refresh+discuss'])),
        min_size=1, max_size=400))
    return events


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(discussions())
def test_no_generated_discussion_breaks_a_limit_or_the_contract(events):
    talk = Talk()
    for role, speaker, text, body, calls in events:
        talk.core.hear(talk.session, Turn(role, f'{role}{speaker}', text, body))
        if body:
            talk.history.append(False)
        if 'refresh' in calls:
            refresh = talk.core.refresh(talk.session)
            valid(refresh.answer, 'refresh')
            card = refresh.answer['state_card']
            assert 'utterance' not in refresh.answer
            assert not (card['should_speak'] and refresh.reason.startswith('limit'))
            assert len(card['pending_questions']) <= talk.core.policy.max_pending
            assert not (card['can_end_discussion'] and card['pending_questions'])
        if 'discuss' in calls:
            step = talk.discuss()
            valid(step.answer, 'discuss')
            assert step.answer['state_card']['should_speak'] is False
    assert broken(talk.history) == []


@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(st.lists(st.sampled_from(WORDS[:16]), min_size=2000, max_size=3000))
def test_thousands_of_turns_with_a_greedy_orchestrator(texts):
    """The orchestrator asks the TA to speak after every single turn: the limits still hold."""
    talk = Talk()
    for text in texts:
        talk.say(text)
        talk.discuss()
    history = talk.history
    assert talk.session.digest.body == len(history)
    assert talk.session.digest.ta_count == sum(history)
    assert broken(history) == [] and sum(history) * 5 <= len(history)


def test_the_json_fields_are_the_document_s():
    document = seed('003_d381fb4bd3ef0673.txt')
    assert '{"state_card": {...}, "utterance": "..."}' in document
    assert '{"state_card": {...}}' in document
    for name in [*StateCard.model_fields, 'must_discuss_points', 'likely_misreadings',
                 'trigger_questions']:
        assert f'{name}' in document
