"""fsrs cards get their id from the flashcard (issue 17 item 6): ``Card()`` without one sleeps
1 ms per card to make its epoch-millisecond default unique, a cost on every add_flashcard."""

from __future__ import annotations

import json
import types

import fsrs.card
import pytest
from records_desk import Desk

from robot_skills.records.concepts import fsrs_card_id


@pytest.fixture
def sleeps(monkeypatch) -> list[float]:
    """Every sleep fsrs's Card asks for (none should be): its module's ``time`` replaced."""
    asked: list[float] = []
    monkeypatch.setattr(fsrs.card, 'time', types.SimpleNamespace(sleep=asked.append))
    return asked


def test_the_detector_sees_a_card_made_without_an_id(sleeps):
    fsrs.card.Card()
    assert sleeps == [0.001]


def test_adding_and_reviewing_cards_never_sleeps(desk, sleeps):
    pair = desk.pair()
    concept = desk.ok('add_concept', pair_id=pair, lesson_id=desk.lesson(pair, desk.course(pair)),
                      name='惯性', short_definition='d')['concept_id']
    cards = [desk.ok('add_flashcard', pair_id=pair, front=f'惯性{n}？', back='b',
                     concept_id=concept if n else '')['flashcard_id'] for n in range(3)]
    for rating in ('again', 'good', 'easy'):
        desk.ok('review_flashcard', pair_id=pair, flashcard_id=cards[0], rating=rating)
    assert sleeps == []


def test_the_fsrs_id_is_derived_from_the_flashcard_and_kept_by_reviews(desk):
    pair = desk.pair()
    cards = [desk.ok('add_flashcard', pair_id=pair, front=f'f{n}', back='b')['flashcard_id']
             for n in range(50)]
    desk.ok('review_flashcard', pair_id=pair, flashcard_id=cards[0], rating='good')
    stored = {row['flashcard_id']: json.loads(row['fsrs_state'])['card_id']
              for row in desk.store.all('SELECT flashcard_id, fsrs_state FROM flashcard')}
    assert stored == {card: fsrs_card_id(card) for card in cards}
    assert len(set(stored.values())) == len(cards)
    assert all(isinstance(value, int) and 0 <= value < 2 ** 53 for value in stored.values())
    again = Desk()                        # the same flashcard ids give the same fsrs ids
    other = again.pair()
    assert [again.ok('add_flashcard', pair_id=other, front='f', back='b')['flashcard_id']
            for _ in range(50)] == cards
    assert {row['flashcard_id']: json.loads(row['fsrs_state'])['card_id']
            for row in again.store.all('SELECT flashcard_id, fsrs_state FROM flashcard')} == \
        {card: fsrs_card_id(card) for card in cards}
