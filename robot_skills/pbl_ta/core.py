"""The PBL discussion TA (003, pbl_ta) as a pure core: turns in, the document's JSON out.

A session holds the material pack, the digested history and the last state
card. Three steps, as the document's task modes:

* ``plan``    -> must_discuss_points, likely_misreadings, trigger_questions,
  planned from the whole pack before free discussion;
* ``refresh`` -> {"state_card"} only: is there a misreading, a gap, a pending
  question, may the TA speak, may the discussion end; never an utterance;
* ``draft`` + ``discuss`` -> {"state_card", "utterance"}: ``draft`` picks the
  most urgent reason to speak and its template utterance; ``discuss`` checks
  the hard limits again (turns may have arrived while an LLM was asked),
  takes an LLM candidate only if it passes the same rules, records the TA's
  body turn and returns the card with should_speak false ("一旦你已经在本轮
  utterance 把当前最重要的问题说出，应立即降为 false").

Every step reads the previous state card first: the caller's (the role
packet's) when given, else the one this session produced last. Its pending
questions order the must-discuss points the TA looks at, and questions it
carries that the material does not know are kept until a student's turn
answers them.

A session's memory is bounded (the digest's ``KEEP``): the student turns read
for answers are the last ``SINCE_CARD`` since the previous card (an
orchestrator refreshes after every turn), and the turn ids remembered for
deduplication are the last ``TURN_IDS`` (a replay older than that counts again).
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from robot_skills.language.text import bigram_share, fold
from robot_skills.pbl_ta.card import DiscussAnswer, PlanAnswer, RefreshAnswer, StateCard
from robot_skills.pbl_ta.detectors import Finding, Policy, findings
from robot_skills.pbl_ta.history import HOW_TO, Digest, Turn
from robot_skills.pbl_ta.limits import WINDOW, limit
from robot_skills.pbl_ta.material import AgendaPoint, Lexicon, Material
from robot_skills.pbl_ta.utterance import compose, context, problems

ANSWERED_SHARE = 0.5
SILENT = 'students_can_continue'
SINCE_CARD = 64
TURN_IDS = 4096


@dataclass
class Session:
    session_id: str
    material: Material
    digest: Digest
    card: StateCard | None = None
    summary: str = ''
    since_card: deque[str] = field(default_factory=lambda: deque(maxlen=SINCE_CARD))
    turn_ids: OrderedDict[str, None] = field(default_factory=OrderedDict)
    turn_id_limit: int = TURN_IDS

    def seen(self, turn_id: str) -> bool:
        return turn_id in self.turn_ids

    def remember(self, turn_id: str) -> None:
        """Remember a turn id (the last ``turn_id_limit`` of them)."""
        self.turn_ids[turn_id] = None
        while len(self.turn_ids) > self.turn_id_limit:
            self.turn_ids.popitem(last=False)


@dataclass(frozen=True)
class Step:
    """One step's answer (the document's JSON) and why the TA spoke or kept silent."""

    answer: dict[str, Any]
    reason: str
    utterance: str = ''
    gap: str = ''
    rejected: tuple[str, ...] = ()     # what was wrong with an LLM candidate


@dataclass(frozen=True)
class Draft:
    """What the TA would say now (``finding`` None: it stays silent, ``reason`` says why)."""

    previous: StateCard | None
    order: tuple[str, ...]
    finding: Finding | None
    reason: str
    text: str = ''


class TaCore:
    def __init__(self, lexicon: Lexicon, policy: Policy | None = None, ta_id: str = 'ta') -> None:
        self.lexicon = lexicon
        self.policy = policy or Policy()
        self.ta_id = ta_id

    def open(self, session_id: str, material: Material) -> Session:
        return Session(session_id, material,
                       Digest(material, self.lexicon, self.policy.novel_bigrams))

    def hear(self, session: Session, turn: Turn, turn_id: str = '') -> bool:
        """Add a turn to the history; False for a turn id seen before (counted once)."""
        if turn_id:
            if session.seen(turn_id):
                return False
            session.remember(turn_id)
        session.digest.add(turn)
        if turn.is_body and turn.role in ('student', 'peer'):
            session.since_card.append(fold(turn.text))
        return True

    # ---- the three modes ---------------------------------------------------------------

    def plan(self, session: Session) -> Step:
        material = session.material
        triggers = material.trigger_questions or [
            *(p.ask for p in material.must_discuss), *(c.ask for c in material.conflicts)]
        agenda = [p.point for p in session.digest.agenda.values()]
        answer = PlanAnswer(must_discuss_points=[p.point for p in material.must_discuss] + agenda,
                            likely_misreadings=[m.reading for m in material.misreadings],
                            trigger_questions=triggers)
        return Step(answer.model_dump(), 'plan')

    def note(self, session: Session, summary: str | None = None,
             agenda: list[AgendaPoint] | None = None) -> None:
        """The orchestrator's inputs before a step: the document's rolling summary (read
        when it changed) and the must-discuss points it maintains (None: unchanged)."""
        if agenda:
            session.digest.set_agenda(agenda)
        if summary and summary != session.summary:
            session.summary = summary
            session.digest.summarise(summary)

    def refresh(self, session: Session, previous: StateCard | None = None) -> Step:
        previous = previous or session.card
        order = self._order(session, previous)
        found = findings(session.material, session.digest, self.policy, order,
                         [gap for gap, _ in self.pending(session, order)])
        limit = _limit(session.digest)
        reason = (f'limit:{limit}' if limit else found[0].reason) if found else SILENT
        card = self._card(session, previous, bool(found) and not limit, order)
        return Step(RefreshAnswer(state_card=card).model_dump(), reason,
                    gap=found[0].gap if found else '')

    def draft(self, session: Session, previous: StateCard | None = None) -> Draft:
        previous = previous or session.card
        order = self._order(session, previous)
        limit = _limit(session.digest)
        if limit:
            return Draft(previous, order, None, f'limit:{limit}')
        found = findings(session.material, session.digest, self.policy, order,
                         [gap for gap, _ in self.pending(session, order)])
        if not found:
            return Draft(previous, order, None, SILENT)
        finding = found[0]
        about = context(session.material, session.digest)
        return Draft(previous, order, finding, finding.reason,
                     compose(session.material, self.lexicon, finding, about, session.digest))

    def discuss(self, session: Session, draft: Draft, candidate: str = '') -> Step:
        """Speak ``draft`` (or a rule-abiding ``candidate``) if the limits still allow it."""
        limit = _limit(session.digest)
        finding, reason = draft.finding, f'limit:{limit}' if limit else draft.reason
        rejected = tuple(problems(candidate, session.material, self.lexicon,
                                  finding.blocking)) if candidate and finding else ()
        text = candidate if candidate and not rejected else draft.text
        if finding is not None and not limit and problems(text, session.material, self.lexicon,
                                                          finding.blocking):
            finding, reason = None, 'utterance_broke_rules'
        if finding is None or limit:
            card = self._card(session, draft.previous, False, draft.order)
            return Step(DiscussAnswer(state_card=card, utterance='').model_dump(), reason,
                        rejected=rejected)
        self.hear(session, Turn('ta', self.ta_id, text, True, finding.gap))
        card = self._card(session, draft.previous, False, draft.order)
        return Step(DiscussAnswer(state_card=card, utterance=text).model_dump(), reason, text,
                    finding.gap, rejected)

    # ---- the state card ------------------------------------------------------------------

    def pending(self, session: Session, order: tuple[str, ...] = ()) -> list[tuple[str, str]]:
        """(gap, question) of everything still to discuss, most urgent first."""
        material, digest = session.material, session.digest
        found = [(m.id, m.question) for m in material.misreadings
                 if m.id in digest.misread and digest.misread[m.id].corrected is None]
        found += [(c.id, c.question) for c in material.conflicts
                  if len(digest.sides.get(c.id, ())) == 2 and c.id not in digest.settled]
        found += [(gap, asked.text) for gap, asked in digest.open_questions()]
        rank = {gap: n for n, gap in enumerate(order)}
        points = sorted(digest.points, key=lambda gap: rank.get(gap, len(rank)))
        found += [(gap, self._point_question(session, gap)) for gap in points
                  if gap not in digest.covered]
        if not digest.practised:
            found.append((HOW_TO, self.lexicon.how_to_pending))
        return found

    def _point_question(self, session: Session, gap: str) -> str:
        point = session.digest.agenda.get(gap)
        if point is not None:
            return point.question or point.point
        return next(p.question for p in session.material.must_discuss if p.id == gap)

    def _card(self, session: Session, previous: StateCard | None, should_speak: bool,
              order: tuple[str, ...]) -> StateCard:
        known = self._questions(session)
        carried = [q for q in (previous.pending_questions if previous else [])
                   if q not in known and not _answered(q, session.since_card)]
        pending = [q for _, q in self.pending(session, order)] + carried
        everything_covered = all(gap in session.digest.covered for gap in session.digest.points)
        card = StateCard(pending_questions=pending[:self.policy.max_pending],
                         should_speak=should_speak,
                         can_end_discussion=everything_covered and not pending
                         and session.digest.compared)
        session.card = card
        session.since_card.clear()
        return card

    def _order(self, session: Session, previous: StateCard | None) -> tuple[str, ...]:
        """The must-discuss point ids in the order the previous card listed them."""
        if previous is None:
            return ()
        by_question = {self._point_question(session, gap): gap for gap in session.digest.points}
        return tuple(by_question[q] for q in previous.pending_questions if q in by_question)

    def _questions(self, session: Session) -> set[str]:
        material, digest = session.material, session.digest
        return {self.lexicon.how_to_pending, *(m.question for m in material.misreadings),
                *(c.question for c in material.conflicts),
                *(self._point_question(session, gap) for gap in digest.points),
                *(asked.text for asked in digest.questions.values())}


def _limit(digest: Digest) -> str:
    return limit(digest.body, digest.ta_count, digest.ta.last(WINDOW))


def _answered(question: str, turns: Iterable[str]) -> bool:
    """A student's turn since the last card shares most of the question's wording."""
    folded = fold(question)
    return any(bigram_share(folded, turn) >= ANSWERED_SHARE for turn in turns)
