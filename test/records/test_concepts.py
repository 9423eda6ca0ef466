"""Concepts and FSRS flashcards (004): registration, patches, a schedule edits never reset."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def lesson(desk):
    pair = desk.pair()
    return pair, desk.lesson(pair, desk.course(pair))


def test_a_concept_is_registered_on_its_lesson_with_the_lesson_s_course(desk, lesson):
    pair, lesson_id = lesson
    first = desk.ok('add_concept', pair_id=pair, lesson_id=lesson_id, name='惯性',
                    short_definition='保持原有运动状态的性质')
    second = desk.ok('add_concept', pair_id=pair, lesson_id=lesson_id, name='参考系',
                     short_definition='描述运动时选作标准的物体')
    listed = json.loads(desk.store.one('SELECT concept_ids FROM lesson')['concept_ids'])
    assert listed == [first['concept_id'], second['concept_id']] == second['lesson_concept_ids']
    course = desk.store.one('SELECT course_id FROM lesson')['course_id']
    assert first['course_id'] == course


def test_update_concept_patches_and_checks_its_cards(desk, lesson):
    pair, lesson_id = lesson
    concept = desk.ok('add_concept', pair_id=pair, lesson_id=lesson_id, name='惯性',
                      short_definition='d')['concept_id']
    desk.refused('update_concept', 'VALIDATION', pair_id=pair, concept_id=concept)
    desk.refused('update_concept', 'NOT_FOUND', pair_id=pair, concept_id=concept,
                 flashcard_ids=['fc_nope'])
    card = desk.ok('add_flashcard', pair_id=pair, front='惯性是什么？', back='d')['flashcard_id']
    desk.ok('update_concept', pair_id=pair, concept_id=concept, short_definition='新定义',
            flashcard_ids=[card])
    row = desk.store.one('SELECT * FROM concept')
    assert (row['name'], row['short_definition'], json.loads(row['flashcard_ids'])) == (
        '惯性', '新定义', [card])


def test_a_new_card_is_scheduled_by_fsrs_and_listed_on_its_concept(desk, lesson):
    pair, lesson_id = lesson
    concept = desk.ok('add_concept', pair_id=pair, lesson_id=lesson_id, name='惯性',
                      short_definition='d')['concept_id']
    card = desk.ok('add_flashcard', pair_id=pair, front='惯性？', back='保持运动状态',
                   concept_id=concept)
    state = json.loads(desk.store.one('SELECT fsrs_state FROM flashcard')['fsrs_state'])
    assert state['state'] == 1 and state['due'] == card['due_at']      # learning, due now
    assert json.loads(desk.store.one('SELECT flashcard_ids FROM concept')['flashcard_ids']) == \
        [card['flashcard_id']]


def test_editing_a_card_never_resets_its_schedule(desk, lesson):
    pair, _ = lesson
    card = desk.ok('add_flashcard', pair_id=pair, front='惯性？', back='b')['flashcard_id']
    for rating in ('good', 'good', 'easy'):
        reviewed = desk.ok('review_flashcard', pair_id=pair, flashcard_id=card, rating=rating)
    desk.store.run('UPDATE flashcard SET paused = 1')
    before = dict(desk.store.one('SELECT fsrs_state, due_at, review_count, paused FROM flashcard'))
    assert before['review_count'] == 3 and before['due_at'] == reviewed['due_at']
    desk.ok('update_flashcard', pair_id=pair, flashcard_id=card, front='什么是惯性？',
            deck_id='力学')
    after = dict(desk.store.one('SELECT fsrs_state, due_at, review_count, paused FROM flashcard'))
    assert after == before
    row = desk.store.one('SELECT front, back, deck_id FROM flashcard')
    assert tuple(row) == ('什么是惯性？', 'b', '力学')
    desk.refused('update_flashcard', 'VALIDATION', pair_id=pair, flashcard_id=card)


def test_another_pair_s_card_is_not_found(desk, lesson):
    pair, _ = lesson
    card = desk.ok('add_flashcard', pair_id=pair, front='f', back='b')['flashcard_id']
    other = desk.pair('l2', '王芳')
    desk.refused('update_flashcard', 'NOT_FOUND', pair_id=other, flashcard_id=card, front='x')
    desk.refused('review_flashcard', 'NOT_FOUND', pair_id=other, flashcard_id=card,
                 rating='good')
    missing = desk.refused('update_flashcard', 'NOT_FOUND', pair_id=pair, flashcard_id='fc_x',
                           front='x')
    assert missing.error == desk.refused('update_flashcard', 'NOT_FOUND', pair_id=other,
                                         flashcard_id='fc_x', front='x').error
