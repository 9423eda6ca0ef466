"""No raw ids in any text the learner reads (004: 正文保持人话; issue 16, records item 4)."""

from __future__ import annotations

import pytest
from records_desk import FRAME, taught_pair

from robot_skills.records.ids import INTERNAL_ID, PREFIXES

REFLECT = {'summary': '她学会了先画受力图。', 'teacher_reflection': '斜面分解还不稳。',
           'next_action': '下次先练两道斜面题。'}


def leaks(ident: str) -> list[str]:
    """Ways an agent writes an id into a sentence."""
    return [f'见 {ident}', f'见{ident}', f'（{ident}）', f'{ident} 那一轮她答对了',
            f'证据：{ident}，{ident}', f'see {ident}.', f'[{ident}]']


@pytest.mark.parametrize('prefix', PREFIXES)
def test_every_kind_of_id_is_found_wherever_it_stands(prefix):
    for real in (f'{prefix}_3f9a0c1d2e4b5a6c', f'{prefix}_12'):
        for text in leaks(real):
            assert INTERNAL_ID.search(text), text


@pytest.mark.parametrize('text', ['CO_2 的排放', 'index_2 处', '受力图 3 张', 'the ex-wife',
                                  'snap 一下', 'le chatelier', 'texture_1', '她用了 2_3 分钟',
                                  'tr_ 后面没有编号'])
def test_words_that_only_look_like_ids_are_plain(text):
    assert INTERNAL_ID.search(text) is None


@pytest.fixture
def closed_room(desk):
    pair, lessons = taught_pair(desk)
    session = desk.ok('live_session_start', pair_id=pair, lesson_id=lessons[0])[
        'live_session_id']
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
            content=FRAME)
    snap = desk.ok('live_snapshot_write', pair_id=pair, live_session_id=session,
                   body={'round': 1})['snapshot_id']
    desk.ok('live_declare_close', pair_id=pair, live_session_id=session)
    return pair, lessons[0], session, snap


def test_live_session_complete_refuses_ids_in_the_evaluation_s_observation(desk, closed_room):
    pair, _, session, snap = closed_room
    for text in leaks(snap):
        refused = desk.refused('live_session_complete', 'VALIDATION', pair_id=pair,
                               live_session_id=session, **REFLECT,
                               evaluation={'agent_observation': f'受力图稳了，{text}',
                                           'evidence_refs': [snap]})
        assert 'evaluation.agent_observation' in refused.error and 'evidence_refs' in \
            refused.error
    assert desk.store.one('SELECT status FROM live_session')['status'] == 'active'
    assert desk.store.one('SELECT count(*) FROM live_evaluation')[0] == 0
    done = desk.ok('live_session_complete', pair_id=pair, live_session_id=session, **REFLECT,
                   evaluation={'agent_observation': '受力图稳了', 'evidence_refs': [snap]})
    assert done['live_evaluation_id']


def test_each_reflect_part_is_still_refused_with_an_id(desk, closed_room):
    pair, _, session, snap = closed_room
    for name in REFLECT:
        for text in leaks(snap):
            desk.refused('live_session_complete', 'VALIDATION', pair_id=pair,
                         live_session_id=session, **{**REFLECT, name: text})


def test_record_live_evaluation_refuses_ids_in_its_observation(desk, closed_room):
    pair, _, session, snap = closed_room
    desk.ok('live_session_complete', pair_id=pair, live_session_id=session, **REFLECT)
    for text in leaks(snap):
        desk.refused('record_live_evaluation', 'VALIDATION', pair_id=pair,
                     live_session_id=session, agent_observation=text, evidence_refs=[snap])
    assert desk.store.one('SELECT count(*) FROM live_evaluation')[0] == 0
    desk.ok('record_live_evaluation', pair_id=pair, live_session_id=session,
            agent_observation='她能自己画受力图了', evidence_refs=[snap])


def test_the_post_lesson_evaluation_body_stays_plain(desk):
    pair, lessons = taught_pair(desk)
    exercise = desk.ok('add_exercise', pair_id=pair, lesson_id=lessons[0], prompt='p',
                       reference_answer='a')['exercise_id']
    submission = desk.ok('submit_exercise', pair_id=pair, exercise_id=exercise,
                         learner_answer='x')['submission_id']
    for ident in (submission, exercise, lessons[1]):
        for text in leaks(ident):
            desk.refused('record_post_lesson_evaluation', 'VALIDATION', pair_id=pair,
                         lesson_id=lessons[0], agent_observation=f'整体稳；{text}')
    assert desk.store.one('SELECT count(*) FROM post_lesson_evaluation')[0] == 0
    made = desk.ok('record_post_lesson_evaluation', pair_id=pair, lesson_id=lessons[0],
                   agent_observation='整体稳；第二题的单位还要再练。',
                   evidence_refs=[submission])
    assert made['evaluation_id']
