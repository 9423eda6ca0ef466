"""The rolling summary and the orchestrator's must-discuss points change decisions (issue 16,
pbl_ta 6): what is pending, when the TA may speak, what it asks. Each test plays the same
history with and without the input and compares."""

from __future__ import annotations

import pytest
from pbl_ta_talk import lexicon, material

from robot_skills.pbl_ta.core import TaCore
from robot_skills.pbl_ta.detectors import Policy
from robot_skills.pbl_ta.history import HOW_TO, Turn
from robot_skills.pbl_ta.material import AgendaPoint
from robot_skills.pbl_ta.utterance import problems

PACK = material()
WORDS = lexicon()
POINT = AgendaPoint(point='垃圾桶摆放的位置', question='垃圾桶放在哪里、谁来管？',
                    cues=['垃圾桶'])


def play(*texts: str, summary: str = '', agenda: list[AgendaPoint] | None = None,
         policy: Policy | None = None):
    core = TaCore(WORDS, policy)
    session = core.open('s', PACK)
    core.note(session, summary, agenda)
    for n, text in enumerate(texts):
        core.hear(session, Turn('student', f's{n % 3}', text))
    return core, session


def pending(core, session) -> list[str]:
    return [gap for gap, _ in core.pending(session)]


# ---- the orchestrator's must-discuss points --------------------------------------------------

def test_a_point_of_the_orchestrator_is_pending_until_a_student_covers_it():
    core, session = play('定时定点以后准确率上去了')
    assert 'agenda-1' not in pending(core, session)
    core, session = play('定时定点以后准确率上去了', agenda=[POINT])
    assert 'agenda-1' in pending(core, session)
    card = core.refresh(session).answer['state_card']
    assert POINT.question in card['pending_questions']
    core.hear(session, Turn('peer', 'p', '垃圾桶就放在楼门口'))
    assert 'agenda-1' not in pending(core, session)


def test_the_plan_lists_the_orchestrator_s_points_after_the_pack_s():
    core, session = play()
    plain = core.plan(session).answer['must_discuss_points']
    core, session = play(agenda=[POINT])
    assert core.plan(session).answer['must_discuss_points'] == [*plain, POINT.point]


def test_a_pack_point_the_orchestrator_saw_covered_is_not_pending():
    core, session = play('嗯')
    assert 'p_people' in pending(core, session)
    core, session = play('嗯', agenda=[AgendaPoint(id='p_people', covered=True)])
    assert 'p_people' not in pending(core, session)


def test_the_ta_speaks_for_an_uncovered_orchestrator_point_and_asks_its_question():
    texts = ['定时定点以后准确率从三成升到七成', '清运车混运要解决', '楼长招募志愿者排班',
             *(f'第{n}个想法' for n in range(6))]
    core, session = play(*texts, policy=Policy(stall_turns=50))
    assert core.refresh(session).reason != 'uncovered_point'
    core, session = play(*texts, agenda=[POINT], policy=Policy(stall_turns=50))
    step = core.refresh(session)
    assert step.reason == 'uncovered_point' and step.gap == 'agenda-1'
    spoken = core.discuss(session, core.draft(session))
    assert spoken.utterance.endswith(POINT.question)
    assert problems(spoken.utterance, PACK, WORDS) == []


def test_an_orchestrator_point_without_cues_is_covered_by_its_wording():
    point = AgendaPoint(point='居委会要不要参与')
    core, session = play('嗯', agenda=[point])
    assert 'agenda-1' in pending(core, session)
    core.hear(session, Turn('student', 'a', '我觉得居委会要参与，负责协调'))
    assert 'agenda-1' not in pending(core, session)


def test_the_same_point_sent_again_is_one_point():
    core, session = play('嗯', agenda=[POINT])
    core.note(session, agenda=[POINT, AgendaPoint(point=POINT.point, covered=True)])
    assert list(session.digest.agenda) == ['agenda-1'] and 'agenda-1' not in pending(core,
                                                                                   session)


@pytest.mark.parametrize('bad', [{}, {'point': '  '}, {'point': 'x', 'colour': 1},
                                 {'point': 'x', 'cues': ['。']}])
def test_a_bad_point_is_refused(bad):
    with pytest.raises(ValueError):
        AgendaPoint.model_validate(bad)


# ---- the rolling summary ---------------------------------------------------------------------

SUMMARY = '前面大家谈了定时定点让准确率从三成升到七成，也谈了清运车混着拉走的问题。'


def test_the_summary_covers_points_it_records():
    core, session = play('嗯')
    assert {'p_success', 'p_backend'} <= set(pending(core, session))
    core, session = play('嗯', summary=SUMMARY)
    assert not {'p_success', 'p_backend'} & set(pending(core, session))
    assert 'p_people' in pending(core, session)


def test_a_practice_the_summary_records_closes_how_to_and_its_open_question_is_pending():
    core, session = play('嗯')
    assert HOW_TO in pending(core, session)
    recorded = SUMMARY + '小林建议物业每周公示一次清运记录。还没人回答：值守的志愿者从哪里招？'
    core, session = play('嗯', summary=recorded)
    assert HOW_TO not in pending(core, session)
    card = core.refresh(session).answer['state_card']
    assert any('志愿者从哪里招' in q for q in card['pending_questions'])


def test_with_the_summary_the_ta_keeps_silent_where_it_would_have_spoken():
    """A stall: without the summary the TA pushes an uncovered point; the summary records
    every point and a practice, so nothing is left to push."""
    texts = ['楼长招募志愿者排班', '嗯', '对', '好的']
    core, session = play(*texts)
    assert core.refresh(session).reason == 'stall'
    everything = SUMMARY + '大家也说了楼长招募志愿者排班，物业每周公示清运记录。'
    core, session = play(*texts, summary=everything)
    step = core.refresh(session)
    assert step.reason != 'stall' and not step.answer['state_card']['should_speak']


def test_the_summary_changes_what_the_ta_asks_about():
    """怎么做 is asked about the material item the discussion is about: the summary's."""
    texts = ['这个问题很重要', '意识是根本', '关键在于观念', '所以应该重视', '态度也很重要']
    core, session = play(*texts)
    plain = core.discuss(session, core.draft(session))
    core, session = play(*texts, summary='前面大家谈到了楼长轮流值守。')
    told = core.discuss(session, core.draft(session))
    assert plain.reason == told.reason == 'abstract'
    assert plain.utterance != told.utterance
    assert told.utterance.startswith(PACK.item('e_volunteer').text)


def test_a_new_summary_replaces_the_open_questions_of_the_old_one():
    core, session = play('嗯', summary='还没人回答：值守的志愿者从哪里招？')
    assert session.digest.open_questions()
    core.note(session, summary='前面谈了楼长轮流值守。')
    assert not session.digest.open_questions()


def test_an_agenda_question_of_several_sentences_does_not_mute_the_ta():
    """A question the orchestrator wrote with a full stop inside would make every draft
    break the two-sentence rule: the point's own hand-back is used instead."""
    core = TaCore(lexicon())
    session = core.open('s', material())
    core.note(session, None, [AgendaPoint(id=p, covered=True)
                              for p in ('p_success', 'p_backend', 'p_people')] +
              [AgendaPoint(point='垃圾桶摆放', question='垃圾桶放哪里。谁来管，怎么做？')])
    for n, text in enumerate(['定时定点好'] + ['嗯'] * 9):
        core.hear(session, Turn('student', f's{n % 3}', text))
    step = core.discuss(session, core.draft(session))
    assert step.utterance and step.reason != 'utterance_broke_rules'


def test_an_explicit_agenda_id_never_replaces_another_point():
    core = TaCore(lexicon())
    session = core.open('s', material())
    core.note(session, None, [AgendaPoint(point='垃圾桶摆放'),
                              AgendaPoint(id='agenda-1', point='宣传栏设计')])
    assert sorted(p.point for p in session.digest.agenda.values()) == ['垃圾桶摆放', '宣传栏设计']
