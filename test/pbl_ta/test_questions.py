"""Students' own questions and drift (issue 16, pbl_ta 4 and 5).

Questions are generated from every pack (its trigger questions and the questions of
its points, asked by a student), and turned rhetorical, tagged or emptied by form.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pbl_ta_talk import lexicon as load_lexicon
from pbl_ta_talk import material

from robot_skills.adapters.config import load
from robot_skills.language.text import fold
from robot_skills.pbl_ta.core import TaCore
from robot_skills.pbl_ta.detectors import Policy, drift, findings
from robot_skills.pbl_ta.history import Turn
from robot_skills.pbl_ta.material import Material
from robot_skills.pbl_ta.utterance import problems
from robot_skills.runtime import paths

PACKS = sorted(Path(paths.config('discussions')).glob('*.yaml'))
lexicon = cache(load_lexicon)
OFF_TOPIC = ['昨天的球赛你们看了吗', '周末一起去公园玩吧', '我中午想吃牛肉面', '新出的那部电影挺好看',
             '下节课是体育课', '我的手机快没电了', '放学以后去打篮球吧']
OFF_TOPIC_QUESTIONS = ['昨天的球赛你们看了吗？', '周末去哪里玩？', '下节课上什么？']
EMPTY_QUESTIONS = ['为什么？', '真的吗？', '是吗？', '怎么办？', '然后呢？', '你说呢？']
FILLERS = ['嗯', '对', '我同意', '不知道', '好的']


@cache
def pack(path: Path) -> Material:
    return load(path, Material)


def asked(material: Material) -> list[str]:
    """Questions a student may ask about the pack's topic: its own questions, in her mouth."""
    found = [*material.trigger_questions, *(p.question for p in material.must_discuss)]
    cues = [cue for m in material.misreadings for cue in m.cues]
    return [q for q in found if not any(cue in q for cue in cues)]


def _talk(path: Path, policy: Policy | None = None):
    core = TaCore(lexicon(), policy)
    return core, core.open('s', pack(path))


def _pending(core, session) -> list[str]:
    return [text for _, text in core.pending(session)]


def _hear(core, session, *texts: str, speaker: str = '') -> None:
    for n, text in enumerate(texts):
        core.hear(session, Turn('student', speaker or f's{session.digest.body % 3}{n}', text))


# ---- 5. students' own questions -------------------------------------------------------------

@pytest.mark.parametrize('path', PACKS, ids=lambda p: p.stem)
def test_a_substantive_question_nobody_answers_is_pending(path):
    for question in asked(pack(path)):
        core, session = _talk(path)
        _hear(core, session, question, '嗯', '好的', speaker='')
        assert question.rstrip('？?') + '？' in _pending(core, session), question


@pytest.mark.parametrize('path', PACKS, ids=lambda p: p.stem)
def test_rhetorical_tagged_empty_or_off_topic_questions_are_not_tracked(path):
    for question in asked(pack(path)):
        body = question.rstrip('？?')
        for form in (f'难道{body}？', f'{body}，对吧？', f'不就是{body}吗？'):
            core, session = _talk(path)
            _hear(core, session, form)
            assert session.digest.questions == {}, form
    for question in OFF_TOPIC_QUESTIONS + EMPTY_QUESTIONS:
        core, session = _talk(path)
        _hear(core, session, question)
        assert session.digest.questions == {}, question


@pytest.mark.parametrize('path', PACKS, ids=lambda p: p.stem)
def test_an_answered_question_leaves_and_an_own_answer_never_enters(path):
    material = pack(path)
    question = asked(material)[0]
    answer = f'我觉得{material.items[0].cues[0]}是关键'
    core, session = _talk(path)
    _hear(core, session, question, speaker='a')
    _hear(core, session, answer, speaker='b')           # the next reply, on the topic
    assert not session.digest.open_questions()
    core, session = _talk(path)
    _hear(core, session, question, speaker='a')
    _hear(core, session, '嗯', speaker='b')             # no reply yet
    _hear(core, session, answer, speaker='a')            # the asker herself: not an answer
    assert session.digest.open_questions()
    core, session = _talk(path)
    _hear(core, session, f'{question}{answer}', speaker='a')   # asked and answered at once
    assert not session.digest.open_questions()


def _finished(core, session, material: Material) -> None:
    """Every point covered, practices proposed by two students and compared."""
    for point in material.must_discuss:
        _hear(core, session, f'说到{point.cues[0]}，这一点要想清楚')
    core.hear(session, Turn('student', 'a', '我们可以先让楼长排班值守，每天晚上两小时'))
    core.hear(session, Turn('peer', 'b', '我建议物业每周公示一次清运记录'))
    core.hear(session, Turn('student', 'c', '相比楼长排班，公示清运记录更省事'))


@pytest.mark.parametrize('path', PACKS, ids=lambda p: p.stem)
def test_untracked_questions_never_block_the_end_and_a_tracked_one_does(path):
    material = pack(path)
    core, session = _talk(path)
    _finished(core, session, material)
    for question in OFF_TOPIC_QUESTIONS + EMPTY_QUESTIONS + [f'难道{asked(material)[0]}']:
        _hear(core, session, question, '嗯')
    assert core.refresh(session).answer['state_card']['can_end_discussion'] is True
    _hear(core, session, asked(material)[0], '嗯')
    card = core.refresh(session).answer['state_card']
    assert card['can_end_discussion'] is False
    assert card['pending_questions'] == [asked(material)[0].rstrip('？?') + '？']


@pytest.mark.parametrize('path', PACKS, ids=lambda p: p.stem)
def test_the_ta_hands_an_unanswered_question_back_and_never_answers_it(path):
    material = pack(path)
    policy = Policy()
    core, session = _talk(path, policy)
    _finished(core, session, material)
    question = asked(material)[0]
    _hear(core, session, question, speaker='a')
    _hear(core, session, *FILLERS[:2])                   # not yet: the students may take it
    assert core.draft(session).finding is None
    _hear(core, session, *(['嗯'] * (policy.uncovered_turns - 2)))
    draft = core.draft(session)
    assert draft.finding is not None and draft.finding.reason in ('student_question', 'stall')
    assert draft.finding.gap in session.digest.questions       # the question, not a point
    step = core.discuss(session, draft)
    assert step.utterance and problems(step.utterance, material, lexicon()) == []
    assert question.rstrip('？?') in step.utterance or '刚才那个问题' in step.utterance
    assert step.utterance.endswith('？')
    for point in material.must_discuss:               # it states no reference answer
        assert not point.answer or point.answer not in step.utterance
    assert question.rstrip('？?') + '？' in step.answer['state_card']['pending_questions']


# ---- 4. drift --------------------------------------------------------------------------------

def _on_topic(material: Material) -> list[str]:
    return [f'{item.cues[0]}这一点要想清楚' for item in material.items]


@pytest.mark.parametrize('path', PACKS, ids=lambda p: p.stem)
def test_off_topic_for_drift_turns_with_a_question_pending_brings_them_back(path):
    material = pack(path)
    for turns in (2, 3, 5):
        policy = Policy(drift_turns=turns, stall_turns=50, uncovered_turns=50)
        core, session = _talk(path, policy)
        _hear(core, session, *_on_topic(material)[:2])
        _hear(core, session, *OFF_TOPIC[:turns - 1])
        assert core.refresh(session).reason != 'drift'
        _hear(core, session, OFF_TOPIC[turns - 1])
        step = core.refresh(session)
        pending = [gap for gap, _ in core.pending(session)]
        assert step.reason == 'drift' and step.gap == pending[0], (turns, step.reason)
        assert step.answer['state_card']['should_speak'] is True
        spoken = core.discuss(session, core.draft(session))
        assert spoken.reason == 'drift' and spoken.utterance
        assert problems(spoken.utterance, material, lexicon()) == []
        _hear(core, session, *OFF_TOPIC[:turns])           # the limits and a new window
        assert core.refresh(session).reason in ('drift', 'limit:share', 'limit:window')


@pytest.mark.parametrize('path', PACKS, ids=lambda p: p.stem)
def test_no_drift_without_anything_pending_or_when_someone_comes_back(path):
    material = pack(path)
    policy = Policy(stall_turns=50, uncovered_turns=50)
    core, session = _talk(path, policy)
    _finished(core, session, material)
    _hear(core, session, *OFF_TOPIC)                      # done: chatting is theirs
    assert core.pending(session) == [] and core.refresh(session).reason != 'drift'
    core, session = _talk(path, policy)
    _hear(core, session, *_on_topic(material)[:2], OFF_TOPIC[0], OFF_TOPIC[1],
          _on_topic(material)[0], OFF_TOPIC[2], *FILLERS)
    assert core.refresh(session).reason != 'drift'


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(['off', 'on', 'filler']), min_size=1, max_size=30),
       st.integers(2, 5))
def test_drift_is_exactly_drift_turns_off_topic_turns_since_the_ta_spoke(kinds, turns):
    path = PACKS[0]
    material = pack(path)
    core, session = _talk(path, Policy(drift_turns=turns))
    pools = {'off': OFF_TOPIC, 'on': _on_topic(material), 'filler': FILLERS}
    for n, kind in enumerate(kinds):
        _hear(core, session, pools[kind][n % len(pools[kind])])
    pending = [gap for gap, _ in core.pending(session)]
    found = drift(session.digest, core.policy, pending)
    expected = len(kinds) >= turns and all(k == 'off' for k in kinds[-turns:]) and bool(pending)
    assert (found is not None) is expected
    if found is not None:
        assert found.gap == pending[0]
        assert findings(material, session.digest, core.policy, (), pending)


# ---- found by a hostile review --------------------------------------------------------------

@pytest.mark.parametrize('question', ['材料二里楼长是几点到几点值守的？', '试点小区的准确率后来升到了多少？',
                                      '材料一的罚款条款执行过几次？'])
def test_a_students_question_is_handed_back_without_the_item_that_answers_it(question):
    pack = material()
    core = TaCore(lexicon())
    session = core.open('s', pack)
    for n, text in enumerate(['定时定点投放挺好的', question, '嗯', '嗯', '嗯', '嗯', '嗯']):
        core.hear(session, Turn('student', 'abcabc'[n % 3] if n != 1 else 'b', text))
    step = core.discuss(session, core.draft(session))
    assert step.utterance and question.rstrip('？') in step.utterance
    named = [item for item in pack.items
             if any(cue in fold(question) for cue in item.cues)]
    assert named and not any(item.text in step.utterance for item in named)


def test_a_turn_of_a_thousand_clause_openers_is_one_turn():
    core = TaCore(lexicon())
    session = core.open('s', material())
    core.hear(session, Turn('student', 's1', '但是' * 1000))
    core.note(session, '但是' * 1000, None)
    core.refresh(session)
