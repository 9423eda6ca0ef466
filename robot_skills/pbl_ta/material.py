"""A discussion's material pack and the TA's lexicon, as validated data.

The document (003, pbl_ta) wants the TA to say "the material's claims,
examples, conditions, causal chains, misreadings or conflicts" rather than a
label, and to track must-discuss points, likely misreadings and trigger
questions planned from the full pack. So a pack (``config/discussions/*.yaml``)
declares exactly those, each with the ``cues`` (phrases) by which the TA
recognises that the students have engaged with it. Every sentence the TA may
say is material text; ``rules.material_problems`` checks at load time that
each of them obeys the utterance rules, so a bad pack is refused before a
session opens, with the entry and the field named.
"""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from robot_skills.language.text import fold
from robot_skills.model.strict import Strict

Cues = list[str]


def _folded(cues: list[str]) -> list[str]:
    """Cues are matched against folded turns, so they are folded once here."""
    folded = [fold(cue) for cue in cues]
    if any(not cue for cue in folded):
        raise ValueError('a cue is empty once punctuation and spaces are removed')
    return folded


class Item(Strict):
    """A claim, example, condition or causal chain of the material: text the TA may state."""

    id: str = Field(min_length=1)
    source: str = Field('', description='where it is in the pack, e.g. 材料一 (never said alone)')
    text: str = Field(min_length=1, description='one sentence, stated as content')
    cues: Cues = Field(min_length=1, description='phrases that show the students used it')

    _cues = field_validator('cues')(_folded)


class Misreading(Strict):
    """A likely misreading: how it sounds, what the material really says, the question back."""

    id: str = Field(min_length=1)
    reading: str = Field(min_length=1, description='the misreading, for the plan')
    cues: Cues = Field(min_length=1, description='phrases that show a student reads it so')
    corrected_by: Cues = Field(min_length=1,
                               description='phrases that show a student or peer corrected it')
    correction: str = Field(min_length=1, description='one sentence of material content')
    clarify: str = Field('', description='an extra sentence, only when the misreading blocks')
    ask: str = Field(min_length=1, description='the question handed back to the students')
    question: str = Field(min_length=1, description='the pending question while it stands')
    blocks: bool = Field(False, description='blocks the discussion from the first time')

    _cues = field_validator('cues', 'corrected_by')(_folded)


class Side(Strict):
    claim: str = Field(min_length=1)
    cues: Cues = Field(min_length=1)

    _cues = field_validator('cues')(_folded)


class Conflict(Strict):
    """Two positions of the material that disagree; open once students voiced both."""

    id: str = Field(min_length=1)
    sides: list[Side] = Field(min_length=2, max_length=2)
    text: str = Field(min_length=1, description='one sentence stating both positions')
    ask: str = Field(min_length=1)
    question: str = Field(min_length=1)
    resolved_by: Cues = Field(default_factory=list,
                              description='phrases that settle it (comparison words also do)')

    _cues = field_validator('resolved_by')(_folded)


class Point(Strict):
    """A must-discuss point: covered when a student or peer uses one of its cues."""

    id: str = Field(min_length=1)
    point: str = Field(min_length=1, description='the point, for the plan')
    question: str = Field(min_length=1, description='the pending question until covered')
    cues: Cues = Field(min_length=1)
    support: str = Field(description='id of the material item the TA may state for it')
    ask: str = Field(min_length=1, description='the question handed back to the students')
    answer: str = Field('', description='the reference answer: the TA never says it')

    _cues = field_validator('cues')(_folded)


class Material(Strict):
    """One material pack (``config/discussions/<name>.yaml``)."""

    topic: str = Field(min_length=1)
    teacher_guidance: str = ''
    claims: list[Item] = []
    examples: list[Item] = []
    conditions: list[Item] = []
    causal_chains: list[Item] = []
    misreadings: list[Misreading] = []
    conflicts: list[Conflict] = []
    must_discuss: list[Point] = Field(min_length=1)
    trigger_questions: list[str] = []
    how_to: str = Field('', description='the "怎么做" question of this topic '
                                        '(default: the lexicon\'s)')

    @property
    def items(self) -> list[Item]:
        return [*self.claims, *self.examples, *self.conditions, *self.causal_chains]

    def item(self, item_id: str) -> Item:
        return next(item for item in self.items if item.id == item_id)

    @model_validator(mode='after')
    def _references(self) -> Material:
        entries: tuple[Item | Misreading | Conflict | Point, ...] = (
            *self.items, *self.misreadings, *self.conflicts, *self.must_discuss)
        ids = [entry.id for entry in entries]
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        if doubled:
            raise ValueError(f'ids must be unique across the pack: {", ".join(doubled)}')
        known = {item.id for item in self.items}
        for point in self.must_discuss:
            if point.support not in known:
                raise ValueError(f'must_discuss {point.id!r}: support {point.support!r} is not '
                                 f'the id of a claim, example, condition or causal chain')
        return self


class Lexicon(Strict):
    """How the TA reads a discussion, what it says by default (``config/pbl_ta/lexicon.yaml``)."""

    practice_verbs: Cues = Field(min_length=1, description='concrete actions (排班, 公示)')
    actors: Cues = Field(min_length=1, description='who does it (楼长, 物业)')
    details: Cues = Field(min_length=1, description='when, how often, in which order (每天)')
    units: list[str] = Field(min_length=1, description='a number before one is a detail (2小时)')
    slogans: list[str] = Field(default_factory=list,
                               description='empty slogans, taken out before looking for actions')
    material_refs: list[str] = Field(default_factory=list,
                                     description="phrases that cite the material (材料里)")
    proposal_markers: list[str] = Field(min_length=1,
                                        description='the students propose (我们可以, 建议)')
    restatement_share: float = Field(0.7, gt=0.0, le=1.0,
                                     description="share of a turn's wording found in the "
                                                 'material that makes it a retelling')
    abstract_cues: Cues = Field(min_length=1, description='value judgements without an action')
    comparison_cues: Cues = Field(min_length=1, description='weighing approaches')
    fillers: list[str] = Field(description='words that bring no content')
    negations: list[str] = Field(description='negators: one before a cue in its clause negates '
                                             'it (two cancel)')
    not_negations: list[str] = Field(default_factory=list,
                                     description='words with 不/没 that negate nothing (不过)')
    complement_negations: list[str] = Field(default_factory=list,
                                            description='a clause ending on one negates the next '
                                                        '(我不觉得，…)')
    scope_breaks: list[str] = Field(default_factory=list,
                                    description="a negation before one does not reach past it")
    rejections: list[str] = Field(default_factory=list,
                                  description='after a cue in its clause: rejects it (不是原因)')
    question_particles: list[str] = Field(default_factory=list,
                                          description='a sentence ending on one asks (吗)')
    rhetorical: list[str] = Field(default_factory=list, description='makes a question (难道)')
    choice_questions: list[str] = Field(default_factory=list,
                                        description='a genuine question (是不是, 有没有)')
    tags: list[str] = Field(default_factory=list,
                            description='a last clause that seeks agreement (对吧)')
    others: list[str] = Field(default_factory=list,
                              description='someone else, as the subject of a reporting verb')
    reporting_verbs: list[str] = Field(default_factory=list, description='说, 觉得, 以为 …')
    mistaken_verbs: list[str] = Field(default_factory=list,
                                      description='reporting verbs that call it wrong (以为)')
    hearsay: list[str] = Field(default_factory=list, description='据说, 听说, 所谓')
    retractions: list[str] = Field(default_factory=list,
                                   description="one's own earlier belief given up (本来以为)")
    disagreements: list[str] = Field(default_factory=list,
                                     description='a later clause rejecting what was said')
    endorsements: list[str] = Field(default_factory=list,
                                    description='a later clause taking reported words on')
    clause_openers: list[str] = Field(default_factory=list,
                                      description='connectives that start a new clause (但是)')
    handback_cues: list[str] = Field(min_length=1,
                                     description='what a question handed back asks about')
    speaker_labels: list[str] = Field(min_length=1,
                                      description='roles the TA must never speak for')
    generic_words: list[str] = Field(default_factory=list,
                                     description='words that carry no topic (我们, 觉得)')
    question_words: list[str] = Field(default_factory=list,
                                      description='question words (怎么, 谁): not content')
    question_handback: str = Field(min_length=1, description="a student's question handed "
                                                             'back ({question} is replaced)')
    question_handback_short: str = Field(min_length=1,
                                         description='the same when the question is too long')
    point_handback: str = Field(min_length=1, description="an orchestrator's point handed back "
                                                          '({point} is replaced)')
    how_to: str = Field(min_length=1, description='the default "怎么做" question')
    how_to_pending: str = Field(min_length=1, description='the pending "怎么做" gap')
    max_hanzi: int = Field(80, ge=10, le=300, description='an utterance at most')
    answer_overlap: float = Field(0.6, gt=0.0, le=1.0,
                                  description='share of an answer that counts as saying it')

    _cues = field_validator('practice_verbs', 'actors', 'details', 'units', 'slogans',
                            'material_refs', 'proposal_markers', 'abstract_cues',
                            'comparison_cues', 'fillers',
                            'negations', 'not_negations', 'complement_negations',
                            'scope_breaks', 'rejections', 'question_particles', 'rhetorical',
                            'choice_questions', 'tags', 'others', 'reporting_verbs',
                            'mistaken_verbs', 'hearsay', 'retractions', 'disagreements',
                            'endorsements', 'clause_openers', 'generic_words',
                            'question_words')(_folded)


class AgendaPoint(Strict):
    """A must-discuss point the orchestrator maintains (discussion/open, ta_step).

    With the ``id`` of a pack point it reports that point's status; otherwise it is a
    point of its own, pending until a student or peer covers it (one of its ``cues``, or
    most of its wording) or the orchestrator reports it ``covered``.
    """

    id: str = Field('', max_length=80, description="a pack point's id, or this point's own")
    point: str = Field('', max_length=200, description='the point (required for a new one)')
    question: str = Field('', max_length=200,
                          description="the pending question ('' = the point)")
    cues: list[str] = Field(default_factory=list, max_length=50)
    covered: bool = Field(False, description='the orchestrator saw it covered')

    @field_validator('cues')
    @classmethod
    def _fold_cues(cls, cues: list[str]) -> list[str]:
        return _folded(cues)

    @model_validator(mode='after')
    def _named(self) -> AgendaPoint:
        if not self.id and not self.point.strip():
            raise ValueError('a must-discuss point needs an id (of a pack point) or a point')
        return self


class Agenda(Strict):
    """The orchestrator's must-discuss points, as sent (a JSON list of points)."""

    points: list[AgendaPoint] = Field(default_factory=list, max_length=50)
