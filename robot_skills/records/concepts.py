"""Concepts and flashcards (004: 为 lesson 添加一个 concept / 添加一张闪卡 / 修订闪卡).

A concept is registered on its lesson's ``concept_ids`` by the tool itself.
A flashcard's FSRS schedule is initialised by the server (the ``fsrs``
package) and only a review moves it: editing a card's faces or deck keeps
its due date, stability, difficulty, review count and pause as they were.
Another pair's card is NOT_FOUND, exactly like a missing one.
"""

from __future__ import annotations

import hashlib
import json
from typing import Literal

from fsrs import Card, Rating, Scheduler
from pydantic import Field

from robot_skills.records.errors import validation
from robot_skills.records.roles import LEARNER
from robot_skills.records.tools import Context, PairArgs, ToolResult, tool

RATINGS = {'again': Rating.Again, 'hard': Rating.Hard, 'good': Rating.Good, 'easy': Rating.Easy}


class AddConcept(PairArgs):
    lesson_id: str = Field(min_length=1)
    name: str = Field(min_length=1, max_length=100)
    short_definition: str = Field(min_length=1, max_length=500)
    source_refs: list[str] = []


class ConceptAdded(ToolResult):
    concept_id: str
    course_id: str
    lesson_concept_ids: list[str]


@tool('add_concept', AddConcept, ConceptAdded)
def add_concept(context: Context, args: AddConcept) -> dict:
    """Add a concept to a lesson; its course is the lesson's, and the lesson lists it."""
    pair_id = context.pair(args.pair_id)
    lesson = context.owned('lesson', args.lesson_id, pair_id)
    concept_id, now = context.new_id('cpt'), context.now()
    context.store.run('INSERT INTO concept VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', concept_id,
                      pair_id, lesson['course_id'], args.lesson_id, args.name,
                      args.short_definition, json.dumps(args.source_refs, ensure_ascii=False),
                      '[]', now, now)
    listed = [*json.loads(lesson['concept_ids']), concept_id]
    context.store.run('UPDATE lesson SET concept_ids = ? WHERE lesson_id = ?',
                      json.dumps(listed), args.lesson_id)
    return {'concept_id': concept_id, 'course_id': lesson['course_id'],
            'lesson_concept_ids': listed}


class UpdateConcept(PairArgs):
    concept_id: str = Field(min_length=1)
    name: str | None = Field(None, min_length=1, max_length=100)
    short_definition: str | None = Field(None, min_length=1, max_length=500)
    source_refs: list[str] | None = None
    flashcard_ids: list[str] | None = None


class ConceptChanged(ToolResult):
    concept_id: str
    changed: list[str]


@tool('update_concept', UpdateConcept, ConceptChanged)
def update_concept(context: Context, args: UpdateConcept) -> dict:
    """Patch a concept's fields; flashcard_ids must be this pair's cards."""
    pair_id = context.pair(args.pair_id)
    concept = context.owned('concept', args.concept_id, pair_id)
    for card in args.flashcard_ids or []:
        context.owned('flashcard', card, pair_id)
    changes = args.model_dump(include={'name', 'short_definition', 'source_refs',
                                       'flashcard_ids'}, exclude_none=True)
    if not changes:
        raise validation('give a field to change')
    merged = {**dict(concept), **{k: json.dumps(v, ensure_ascii=False) if isinstance(v, list)
                                  else v for k, v in changes.items()}}
    context.store.run('UPDATE concept SET name = ?, short_definition = ?, source_refs = ?, '
                      'flashcard_ids = ?, updated_at = ? WHERE concept_id = ?', merged['name'],
                      merged['short_definition'], merged['source_refs'],
                      merged['flashcard_ids'], context.now(), args.concept_id)
    return {'concept_id': args.concept_id, 'changed': sorted(changes)}


class AddFlashcard(PairArgs):
    front: str = Field(min_length=1, max_length=2000)
    back: str = Field(min_length=1, max_length=4000)
    deck_id: str = ''
    concept_id: str = Field('', description='also listed on the concept\'s flashcard_ids')


class CardAdded(ToolResult):
    flashcard_id: str
    due_at: str


@tool('add_flashcard', AddFlashcard, CardAdded)
def add_flashcard(context: Context, args: AddFlashcard) -> dict:
    """Add a flashcard; the server initialises its FSRS state (due now)."""
    pair_id = context.pair(args.pair_id)
    concept = context.owned('concept', args.concept_id, pair_id) if args.concept_id else None
    card_id = context.new_id('fc')
    card = Card(card_id=fsrs_card_id(card_id), due=context.clock())   # no id: Card sleeps 1 ms
    now = context.now()
    context.store.run('INSERT INTO flashcard (flashcard_id, pair_id, front, back, deck_id, '
                      'fsrs_state, due_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '
                      '?, ?, ?)', card_id, pair_id, args.front, args.back, args.deck_id,
                      json.dumps(card.to_dict()), card.due.isoformat(), now, now)
    if concept is not None:
        listed = [*json.loads(concept['flashcard_ids']), card_id]
        context.store.run('UPDATE concept SET flashcard_ids = ? WHERE concept_id = ?',
                          json.dumps(listed), args.concept_id)
    return {'flashcard_id': card_id, 'due_at': card.due.isoformat()}


def fsrs_card_id(flashcard_id: str) -> int:
    """The integer id fsrs gives a card (its review logs are keyed by it): 53 bits of a hash of the
    flashcard id, deterministic and JSON-safe. Given none, ``Card()`` takes the epoch
    milliseconds and sleeps 1 ms so that the next card's differs."""
    digest = hashlib.blake2b(flashcard_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, 'big') >> 11


class UpdateFlashcard(PairArgs):
    flashcard_id: str = Field(min_length=1)
    front: str | None = Field(None, min_length=1, max_length=2000)
    back: str | None = Field(None, min_length=1, max_length=4000)
    deck_id: str | None = None


class CardEdited(ToolResult):
    flashcard_id: str
    due_at: str
    schedule_kept: Literal[True]


@tool('update_flashcard', UpdateFlashcard, CardEdited)
def update_flashcard(context: Context, args: UpdateFlashcard) -> dict:
    """Patch a card's faces or deck; its FSRS schedule and pause stay exactly as they were."""
    pair_id = context.pair(args.pair_id)
    card = context.owned('flashcard', args.flashcard_id, pair_id)
    if args.front is None and args.back is None and args.deck_id is None:
        raise validation('give front, back or deck_id')
    context.store.run('UPDATE flashcard SET front = ?, back = ?, deck_id = ?, updated_at = ? '
                      'WHERE flashcard_id = ?', args.front or card['front'],
                      args.back or card['back'],
                      card['deck_id'] if args.deck_id is None else args.deck_id, context.now(),
                      args.flashcard_id)
    return {'flashcard_id': args.flashcard_id, 'due_at': card['due_at'],
            'schedule_kept': True}


class ReviewFlashcard(PairArgs):
    flashcard_id: str = Field(min_length=1)
    rating: Literal['again', 'hard', 'good', 'easy']


class Reviewed(ToolResult):
    flashcard_id: str
    due_at: str
    stability: float | None
    difficulty: float | None


@tool('review_flashcard', ReviewFlashcard, Reviewed, who=LEARNER)
def review_flashcard(context: Context, args: ReviewFlashcard) -> dict:
    """The learner reviews a card (learner side): FSRS schedules the next review."""
    pair_id = context.pair(args.pair_id)
    row = context.owned('flashcard', args.flashcard_id, pair_id)
    card, _ = Scheduler().review_card(Card.from_dict(json.loads(row['fsrs_state'])),
                                      RATINGS[args.rating], review_datetime=context.clock())
    context.store.run('UPDATE flashcard SET fsrs_state = ?, due_at = ?, review_count = '
                      'review_count + 1, updated_at = ? WHERE flashcard_id = ?',
                      json.dumps(card.to_dict()), card.due.isoformat(), context.now(),
                      args.flashcard_id)
    context.store.event(pair_id, 'flashcard.reviewed', {'flashcard_id': args.flashcard_id,
                                                        'rating': args.rating}, context.now())
    return {'flashcard_id': args.flashcard_id, 'due_at': card.due.isoformat(),
            'stability': card.stability, 'difficulty': card.difficulty}


TOOLS = (
    add_concept,
    update_concept,
    add_flashcard,
    update_flashcard,
    review_flashcard,
)
