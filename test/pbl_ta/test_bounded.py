"""A session's memory is bounded, and the bound changes no decision (issue 12, 50,000 turns)."""

from __future__ import annotations

import random
from collections import deque
from dataclasses import fields

from pbl_ta_talk import lexicon, material

from robot_skills.pbl_ta import history
from robot_skills.pbl_ta.core import TaCore
from robot_skills.pbl_ta.detectors import Policy
from robot_skills.pbl_ta.history import MAX_THRESHOLD, Digest, Tail, Turn
from robot_skills.pbl_ta.node import TaSettings

TURNS = 50_000
# The most cap-sensitive policy the node accepts: every window at the top of its range.
WIDEST = Policy(misreading_grace=50, stall_turns=50, uncovered_turns=MAX_THRESHOLD,
                abstract_turns=50)


def _unbounded(digest: Digest) -> Digest:
    """The same digest with nothing ever forgotten: the reference the bound must match."""
    endless = 10 ** 9
    for name in ('ta', 'voices', 'new', 'action', 'abstract', 'off'):
        setattr(digest, name, Tail(endless))
    digest.bigram_limit = endless
    return digest


def _discussion(seed: int):
    """Turns a real discussion is made of (the pack's cues, chatter, judgements, actions,
    other roles, repeats), in long stretches that leave points uncovered for hundreds of
    turns, so the windows reach past the kept history."""
    pack, words = material(), lexicon()
    cues = [cue for item in pack.items for cue in item.cues]
    misreadings = [cue for m in pack.misreadings for cue in m.cues]
    corrections = [cue for m in pack.misreadings for cue in m.corrected_by]
    chatter = ['嗯', '对', '我同意', '不知道', '好的', '继续说', '然后呢']
    judging = [*words.abstract_cues, '意识很重要', '态度是根本']
    acting = [f'{a}{v}' for a, v in zip(words.actors, words.practice_verbs, strict=False)]
    rng = random.Random(seed)
    for n in range(TURNS):
        stretch = (n // 700) % 5       # long phases: chatter, judgement, cues, misreading, mixed
        pool = [chatter, judging, cues, misreadings + chatter, cues + acting + corrections][stretch]
        text = rng.choice(pool) + rng.choice(['', '，', '吧', f'第{rng.randrange(10 ** 6)}次'])
        role = rng.choices(['student', 'peer', 'teacher', 'moderator'], [60, 30, 5, 5])[0]
        resent = rng.random() < 0.02          # an orchestrator resends a recent turn
        turn_id = f't{n - rng.randrange(1, 50)}' if resent and n > 50 else f't{n}'
        yield Turn(role, f'{role}{rng.randrange(6)}', text, rng.random() > 0.05), turn_id


def test_fifty_thousand_turns_decide_exactly_as_an_unbounded_session():
    core = TaCore(lexicon(), WIDEST)
    bounded = core.open('bounded', material())
    reference = core.open('reference', material())
    reference.digest = _unbounded(reference.digest)
    reference.since_card = deque()
    reference.turn_id_limit = 10 ** 9
    decisions = 0
    for n, (turn, turn_id) in enumerate(_discussion(seed=12)):
        assert core.hear(bounded, turn, turn_id) == core.hear(reference, turn, turn_id)
        if n % 10 == 0:
            a, b = core.refresh(bounded), core.refresh(reference)
            assert (a.answer, a.reason, a.gap) == (b.answer, b.reason, b.gap), n
            if a.answer['state_card']['should_speak']:
                spoken = core.discuss(bounded, core.draft(bounded))
                again = core.discuss(reference, core.draft(reference))
                assert (spoken.answer, spoken.reason) == (again.answer, again.reason), n
                decisions += 1
    assert bounded.digest.body == reference.digest.body > TURNS * 0.9
    assert bounded.digest.ta_count == reference.digest.ta_count == decisions > 0
    assert len(bounded.digest.voices._items) == history.KEEP < len(reference.digest.voices._items)


def test_a_tail_counts_everything_and_keeps_the_last():
    tail: Tail[int] = Tail(3)
    for n in range(10):
        tail.append(n)
    assert len(tail) == 10 and list(tail) == [7, 8, 9] and tail == [7, 8, 9]
    assert tail.since(8) == [8, 9] and tail.since(0) == [7, 8, 9] and tail.since(10) == []
    assert tail.bisect(7) == 8 and tail.bisect(-1) == 7 and tail.last(2) == [8, 9]


def test_the_kept_window_is_wider_than_any_threshold_the_node_accepts():
    highest = max(f.metadata['high'] for f in fields(TaSettings)
                  if f.name.endswith(('_turns', '_grace')))
    assert highest <= MAX_THRESHOLD < history.KEEP
