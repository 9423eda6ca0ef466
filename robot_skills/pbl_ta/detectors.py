"""The reasons the TA may speak (003, Decision Policy 4 and state_card.should_speak).

明显误读, 讨论停滞, 必谈点长期未覆盖, 停留在抽象判断而迟迟没有进入具体做法, and
two the document names elsewhere: the discussion drifting away ("不介入会明显导致
讨论继续跑偏") while a question is pending, and a student's own question nobody
took up (待回答问题, tracked like the pack's questions). One explicit function
each, reading the session's material and its digested history. Each one
leaves room to the students first ("只要学生或同伴还能继续说"): a misreading
gets ``misreading_grace`` turns for a peer to correct it, a stall needs
``stall_turns`` turns without new content, a point or a student's question
``uncovered_turns`` turns without anyone taking it up, the abstract talk
``abstract_turns`` turns without an action, drift ``drift_turns`` turns off the
topic. Anything short of that is "in
doubt", and in doubt the TA stays silent. The limits are not checked here
(``limits.may_speak`` is).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from robot_skills.pbl_ta.history import HOW_TO, Digest
from robot_skills.pbl_ta.material import Material

Reason = Literal['misreading', 'stall', 'uncovered_point', 'abstract', 'drift',
                 'student_question']


@dataclass(frozen=True)
class Policy:
    """How long the students get before the TA steps in (node parameters)."""

    misreading_grace: int = 1
    stall_turns: int = 3
    uncovered_turns: int = 8
    abstract_turns: int = 4
    novel_bigrams: int = 3
    max_pending: int = 4
    drift_turns: int = 3


@dataclass(frozen=True)
class Finding:
    """Why the TA would speak, and the gap it would fill (a material id or ``how_to``)."""

    reason: Reason
    gap: str
    blocking: bool = False


def misreading(material: Material, digest: Digest, policy: Policy) -> Finding | None:
    """A misreading no student or peer corrected within the grace, and not yet answered by the TA.

    It blocks the discussion (3 sentences allowed) when the pack says so or
    when a second turn has repeated it.
    """
    for reading in material.misreadings:
        standing = digest.misread.get(reading.id)
        if standing is None or standing.corrected is not None:
            continue
        if digest.raised.get(reading.id, -1) > standing.last:
            continue
        blocking = reading.blocks or standing.count >= 2
        if blocking or digest.voices_after(standing.last) >= policy.misreading_grace:
            return Finding('misreading', reading.id, blocking)
    return None


def stalled(digest: Digest, policy: Policy) -> bool:
    """The last ``stall_turns`` student/peer turns since the TA last spoke brought nothing new."""
    recent = digest.new.since(digest.first_voice_after(digest.last_ta))
    return len(recent) >= policy.stall_turns and not any(recent[-policy.stall_turns:])


def uncovered_point(material: Material, digest: Digest, policy: Policy,
                    order: Sequence[str] = ()) -> Finding | None:
    """A must-discuss point nobody took up for ``uncovered_turns`` turns (since the TA raised it).

    ``order``: point ids in the previous state card's order, looked at first.
    """
    for gap in _ordered(digest, order):
        if gap in digest.covered:
            continue
        if digest.voices_after(digest.raised.get(gap, -1)) >= policy.uncovered_turns:
            return Finding('uncovered_point', gap)
    return None


def student_question(digest: Digest, policy: Policy) -> Finding | None:
    """A student's own question nobody answered for ``uncovered_turns`` turns (again that
    long after the TA handed it back): the TA hands it back to the group, never answers it."""
    for gap, asked in digest.open_questions():
        since = max(asked.index, digest.raised.get(gap, -1))
        if digest.voices_after(since) >= policy.uncovered_turns:
            return Finding('student_question', gap)
    return None


def drift(digest: Digest, policy: Policy, pending: Sequence[str]) -> Finding | None:
    """The last ``drift_turns`` student/peer turns (since the TA last spoke) were all off the
    topic while something is pending: bring them back to the most urgent pending gap."""
    if not pending:
        return None
    recent = digest.off.since(digest.first_voice_after(digest.last_ta))
    if len(recent) >= policy.drift_turns and all(recent[-policy.drift_turns:]):
        return Finding('drift', pending[0])
    return None


def abstract(digest: Digest, policy: Policy) -> Finding | None:
    """The last ``abstract_turns`` turns judged and analysed, and none of them said how to act.

    Counted since the TA last raised "怎么做", so one push is followed by a
    full window of the students' own turns.
    """
    start = max(digest.first_voice_after(digest.raised.get(HOW_TO, -1)),
                len(digest.voices) - policy.abstract_turns)
    acting, judging = digest.action.since(start), digest.abstract.since(start)
    if len(acting) < policy.abstract_turns or any(acting):
        return None
    return Finding('abstract', HOW_TO) if 2 * sum(judging) >= len(judging) else None


def findings(material: Material, digest: Digest, policy: Policy,
             order: Sequence[str] = (), pending: Sequence[str] = ()) -> list[Finding]:
    """Every reason to speak now, most urgent first (Decision Policy 5: 先纠正明显错误，
    再澄清当前分歧，再提出关键引导问题; 优先处理待回答问题): a misreading, a stalled open
    conflict, drift away from a pending gap, a student's unanswered question, an uncovered
    point, abstract talk, any other stall. ``pending``: the gaps pending, most urgent first."""
    stall = Finding('stall', stall_gap(material, digest, order)) if stalled(digest, policy) \
        else None
    conflicts = {conflict.id for conflict in material.conflicts}
    disagreement = stall if stall is not None and stall.gap in conflicts else None
    found = [misreading(material, digest, policy), disagreement,
             drift(digest, policy, pending), student_question(digest, policy),
             uncovered_point(material, digest, policy, order), abstract(digest, policy),
             stall if disagreement is None else None]
    return [f for f in found if f is not None and f.gap]


def stall_gap(material: Material, digest: Digest, order: Sequence[str] = ()) -> str:
    """What a stalled discussion needs next: an open conflict, an uncovered point, "怎么做".

    '' when nothing is left to push: the discussion may simply be done.
    """
    for conflict in material.conflicts:
        if len(digest.sides.get(conflict.id, ())) == 2 and conflict.id not in digest.settled:
            return conflict.id
    question = next((gap for gap, _ in digest.open_questions()), None)
    if question is not None:
        return question
    point = next((gap for gap in _ordered(digest, order) if gap not in digest.covered), None)
    if point is not None:
        return point
    return HOW_TO if not digest.practised else ''


def _ordered(digest: Digest, order: Sequence[str]) -> list[str]:
    """Every must-discuss point id (the pack's and the orchestrator's), in ``order`` first."""
    rank = {gap: n for n, gap in enumerate(order)}
    return sorted(digest.points, key=lambda gap: rank.get(gap, len(rank)))
