"""No sequence of calls brings a contract or a lesson back from a final state (hypothesis)."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from records_desk import CADENCE, Desk

TOOLS = ['void_contract', 'complete_contract', 'establish_contract', 'update_contract_cadence',
         'update_contract_coverage', 'create_course', 'declare_lesson_progress', 'update_lesson',
         'patch_lesson', 'publish_lesson', 'close_lesson_loop', 'add_concept']
PROGRESS = ('not_started', 'in_progress', 'completed_declared', 'closed')


def arguments(tool: str, world: dict, i: int, j: int, word: str) -> dict:
    contract = world['contracts'][i % len(world['contracts'])]
    course = world['courses'][j % len(world['courses'])]
    lesson = world['lessons'][i % len(world['lessons'])]
    return {
        'void_contract': {'contract_id': contract, 'reason': word, 'learner_consent': word},
        'complete_contract': {'contract_id': contract, 'completion_note': word},
        'establish_contract': {'contract_id': contract},
        'update_contract_cadence': {'contract_id': contract, 'cadence': CADENCE},
        'update_contract_coverage': {'contract_id': contract,
                                     'add_course_ids' if j % 2 else 'remove_course_ids': [course]},
        'create_course': {'title': word, 'contract_id': contract, 'planned_lesson_count': 1},
        'declare_lesson_progress': {'lesson_id': lesson,
                                    'progress': PROGRESS[1 + j % 2]},
        'update_lesson': {'lesson_id': lesson, 'title': word, 'revision_reason': word},
        'patch_lesson': {'lesson_id': lesson, 'kind': ('teacher_note', 'erratum')[j % 2],
                         'body': word},
        'publish_lesson': {'lesson_id': lesson},
        'close_lesson_loop': {'lesson_id': lesson, 'no_cognitive_update_reason': word},
        'add_concept': {'lesson_id': lesson, 'name': word, 'short_definition': word},
    }[tool]


def world_of(desk: Desk) -> dict:
    pair = desk.pair()
    contracts = [desk.contract(pair), desk.contract(pair), desk.contract(pair, establish=False)]
    courses = [desk.course(pair, contracts[0], planned=1), desk.course(pair, planned=1)]
    lessons = [desk.lesson(pair, courses[0]), desk.lesson(pair, courses[1], publish=False),
               desk.lesson(pair, courses[1], progress='in_progress')]
    desk.store.run("UPDATE lesson SET progress = 'closed' WHERE lesson_id = ?", lessons[2])
    return {'pair': pair, 'contracts': contracts, 'courses': courses, 'lessons': lessons}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TOOLS), st.integers(0, 5), st.integers(0, 5),
                          st.sampled_from(['结业', '好', '换目标', '第二版'])), max_size=40))
def test_no_call_sequence_revives_a_final_state(steps):
    desk = Desk()
    world = world_of(desk)
    final: dict[str, tuple] = {}
    reached = {lesson: 0 for lesson in world['lessons']}
    for tool, i, j, word in steps:
        desk.call(tool, pair_id=world['pair'], **arguments(tool, world, i, j, word))
        for row in desk.store.all('SELECT * FROM contract'):
            key = row['contract_id']
            if key in final:
                assert tuple(row) == final[key], f'{tool} changed a final contract'
            elif row['voided_at'] or row['completed_at']:
                final[key] = tuple(row)
        for row in desk.store.all('SELECT * FROM lesson'):
            key = row['lesson_id']
            if key in final:
                assert tuple(row) == final[key], f'{tool} changed a closed lesson'
            elif row['progress'] == 'closed':
                final[key] = tuple(row)
            assert PROGRESS.index(row['progress']) >= reached[key], 'progress went back'
            reached[key] = PROGRESS.index(row['progress'])
        covered = {r['course_id'] for r in desk.store.all(
            'SELECT course_id FROM coverage JOIN contract USING (contract_id) '
            'WHERE completed_at IS NOT NULL')}
        assert covered <= set(world['courses']) | {r['course_id'] for r in desk.store.all(
            'SELECT course_id FROM course')}


def test_the_schema_itself_refuses_to_revive(desk):
    """Even a tool with a bug cannot: the triggers abort the update."""
    world = world_of(desk)
    contract = world['contracts'][0]
    desk.ok('void_contract', pair_id=world['pair'], contract_id=contract, reason='r',
            learner_consent='好')
    for sql, ident in (('UPDATE contract SET voided_at = NULL WHERE contract_id = ?', contract),
                       ("UPDATE lesson SET progress = 'in_progress' WHERE lesson_id = ?",
                        world['lessons'][2])):
        with pytest.raises(sqlite3.IntegrityError, match='final'):
            desk.store.run(sql, ident)
