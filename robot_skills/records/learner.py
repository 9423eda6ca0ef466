"""The learner model (004 part 2): hypotheses, teacher reflections, the feedback pen.

Hypotheses are written only from the learner's third completed lesson on;
a domain on her observation no-go register is silently not written (the
answer says why); a judgement of her confidence or its calibration is never
a hypothesis (that belongs to a reflection; ``calibration.py`` recognises the
class: her confidence level, over- or under-confidence, self-assessment
against accuracy). Lifecycle: reinforce (evidence
renewed), revise (the old row expires, a new row takes over its evidence and
names what it superseded), retire. Her verdicts rule: rejected and frozen
refuse all three, confirmed allows only reinforce.

A reflection stands on one main attribution with evidence, a counterfactual
and an action link of the matching type; ``weather`` needs an expiry (a
future timestamp with its offset) and never writes the learner profile; past
its expiry it is gone from every read-back (the brief, the closure facts, the
inbox, the attribution counts) and deleted at the next reflection (过期即焚).
It is anchored to a lesson: given, or inferred
(the live session's lesson → the one active live room → the last live lesson
within 24 h), the source said in the answer, else an unanchored warning.

The feedback pen stores the learner's words verbatim; anchors must be real
and hers; the no-go register changes only through an explicit
``boundary_update``. Feedback moves open → acknowledged → addressed |
declined (declined needs a note; the last two are final).
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, timedelta
from typing import Literal

from pydantic import AwareDatetime, Field, model_validator

from robot_skills.records.calibration import confidence_judgement
from robot_skills.records.closure import REFLECTIONS, Facts, progress_of
from robot_skills.records.errors import conflict, permission, validation
from robot_skills.records.roles import LEARNER
from robot_skills.records.tools import Args, Context, PairArgs, ToolResult, tool

FIRST_LESSON_FOR_HYPOTHESES = 3
# A reflection's main attribution, and the action link type that matches it.
ATTRIBUTIONS = {'explanation': 'lesson_revision', 'task_design': 'exercise',
                'pacing': 'cadence', 'feedback': 'flashcard', 'relationship': 'feedback',
                'weather': 'none'}
LIVE_WINDOW = timedelta(hours=24)
# What the answer says about the anchor; only an unanchored reflection is warned about.
ANCHOR_NOTES = {
    'explicit': '已挂到你指定的课上。',
    'live_session': '推断自 live_session_id 的课。',
    'active_live_room': '推断自当前唯一进行中的 Live 教室。',
    'recent_live': '推断自 24 小时内最近一场 Live 课。',
    'unanchored': '⚠️ 这条反思没有挂到任何课上：它不计入任何课的收口（reflection 会一直显示缺）。',
}


def completed_lessons(context: Context, pair_id: str) -> int:
    return context.store.row(
        "SELECT count(*) AS n FROM lesson JOIN course USING (course_id) WHERE pair_id = ? AND "
        "progress IN ('completed_declared', 'closed')", pair_id)['n']


class Hypothesis(PairArgs):
    domain: str = ''
    observation: str = ''
    confidence: float | None = Field(None, ge=0, le=1)
    evidence_event_ids: list[str] = []
    hypothesis_id: str = ''
    action: Literal['reinforce', 'revise', 'retire'] | None = None

    @model_validator(mode='after')
    def _shape(self) -> Hypothesis:
        if bool(self.hypothesis_id) != bool(self.action):
            raise ValueError('hypothesis_id and action go together')
        if self.action is None and not (self.domain and self.observation and
                                        self.confidence is not None):
            raise ValueError('a new hypothesis needs domain, observation and confidence')
        if self.action == 'revise' and not self.observation:
            raise ValueError('revise needs the new observation')
        return self


class HypothesisWritten(ToolResult):
    hypothesis_id: str | None
    written: bool
    action: str
    superseded_hypothesis_id: str | None = None
    human_note: str = ''


@tool('write_hypothesis', Hypothesis, HypothesisWritten)
def write_hypothesis(context: Context, args: Hypothesis) -> dict:
    """Write a LearnerHypothesis, or reinforce / revise / retire one."""
    pair_id = context.pair(args.pair_id)
    family = confidence_judgement(f'{args.domain}\n{args.observation}')
    if family is not None:
        raise validation(f'a judgement of her confidence or its calibration ({family}) is not a '
                         'hypothesis: it belongs to reflect_on_teaching', judgement=family)
    if args.action is not None:
        return _lifecycle(context, pair_id, args)
    done = completed_lessons(context, pair_id)
    if done < FIRST_LESSON_FOR_HYPOTHESES:
        raise conflict(f'no hypothesis before her third lesson ({done} completed)',
                       completed_lessons=done)
    if context.store.one('SELECT 1 FROM boundary WHERE pair_id = ? AND domain = ?', pair_id,
                         args.domain):
        return {'hypothesis_id': None, 'written': False, 'action': 'create',
                'human_note': f'"{args.domain}" is on her observation no-go register: '
                              'nothing was written'}
    hypothesis_id, now = context.new_id('hyp'), context.now()
    context.store.run('INSERT INTO hypothesis (hypothesis_id, pair_id, domain, observation, '
                      'confidence, evidence_event_ids, last_evidence_at, created_at, '
                      'updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', hypothesis_id, pair_id,
                      args.domain, args.observation, args.confidence,
                      json.dumps(args.evidence_event_ids),
                      now if args.evidence_event_ids else None, now, now)
    return {'hypothesis_id': hypothesis_id, 'written': True, 'action': 'create'}


def _lifecycle(context: Context, pair_id: str, args: Hypothesis) -> dict:
    row = context.owned('hypothesis', args.hypothesis_id, pair_id)
    if row['status'] != 'active':
        raise conflict('this hypothesis has expired already', status=row['status'])
    verdict = row['verdict']
    if verdict in ('rejected', 'frozen') or (verdict == 'confirmed' and
                                              args.action != 'reinforce'):
        raise permission(f'she {verdict} this hypothesis: '
                         + ('only reinforce is allowed' if verdict == 'confirmed' else
                            'no action is allowed on it'))
    now = context.now()
    evidence = [*json.loads(row['evidence_event_ids']), *args.evidence_event_ids]
    if args.action == 'reinforce':
        context.store.run('UPDATE hypothesis SET last_evidence_at = ?, evidence_event_ids = ?, '
                          'updated_at = ? WHERE hypothesis_id = ?', now, json.dumps(evidence),
                          now, row['hypothesis_id'])
        return {'hypothesis_id': row['hypothesis_id'], 'written': True, 'action': 'reinforce'}
    if args.action == 'retire':
        context.store.run("UPDATE hypothesis SET status = 'expired', updated_at = ? WHERE "
                          'hypothesis_id = ?', now, row['hypothesis_id'])
        return {'hypothesis_id': row['hypothesis_id'], 'written': True, 'action': 'retire'}
    new_id = context.new_id('hyp')
    context.store.run('INSERT INTO hypothesis (hypothesis_id, pair_id, domain, observation, '
                      'confidence, verdict, evidence_event_ids, last_evidence_at, '
                      'last_verified_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, '
                      '?, ?, ?, ?)', new_id, pair_id, row['domain'], args.observation,
                      row['confidence'] if args.confidence is None else args.confidence,
                      verdict, json.dumps(evidence), row['last_evidence_at'] or
                      (now if evidence else None), row['last_verified_at'], now, now)
    context.store.run("UPDATE hypothesis SET status = 'expired', superseded_by = ?, "
                      'updated_at = ? WHERE hypothesis_id = ?', new_id, now,
                      row['hypothesis_id'])
    return {'hypothesis_id': new_id, 'written': True, 'action': 'revise',
            'superseded_hypothesis_id': row['hypothesis_id']}


class Verdict(PairArgs):
    hypothesis_id: str = Field(min_length=1)
    verdict: Literal['confirmed', 'rejected', 'frozen']


class VerdictSet(ToolResult):
    hypothesis_id: str
    verdict: str
    allowed_for_teaching: bool


@tool('set_hypothesis_verdict', Verdict, VerdictSet, who=LEARNER)
def set_hypothesis_verdict(context: Context, args: Verdict) -> dict:
    """The learner rules on a hypothesis (learner side): confirmed, rejected or frozen."""
    pair_id = context.pair(args.pair_id)
    context.owned('hypothesis', args.hypothesis_id, pair_id)
    now = context.now()
    context.store.run('UPDATE hypothesis SET verdict = ?, last_verified_at = ?, updated_at = ? '
                      'WHERE hypothesis_id = ?', args.verdict, now, now, args.hypothesis_id)
    return {'hypothesis_id': args.hypothesis_id, 'verdict': args.verdict,
            'allowed_for_teaching': args.verdict == 'confirmed'}


class ActionLink(Args):
    type: Literal['lesson_revision', 'exercise', 'cadence', 'flashcard', 'feedback', 'none']
    ref: str = ''


class Reflect(PairArgs):
    main_attribution: Literal['explanation', 'task_design', 'pacing', 'feedback',
                              'relationship', 'weather']
    evidence: str = Field(min_length=1)
    counterfactual: str = Field(min_length=1)
    action_link: ActionLink
    method: str = Field(min_length=1, description='how it was taught')
    next_action: str = Field(min_length=1)
    lesson_preference: str = ''
    weather_expires_at: AwareDatetime | None = Field(
        None, description='weather only: when it burns (a timestamp with its offset)')
    lesson_id: str = ''
    live_session_id: str = ''

    @model_validator(mode='after')
    def _matching(self) -> Reflect:
        wanted = ATTRIBUTIONS[self.main_attribution]
        if self.action_link.type != wanted:
            raise ValueError(f'a {self.main_attribution} attribution links a {wanted} action, '
                             f'not {self.action_link.type}')
        if (self.main_attribution == 'weather') != (self.weather_expires_at is not None):
            raise ValueError('weather_expires_at goes with the weather attribution, and only '
                             'with it')
        return self


class CreatedRefs(ToolResult):
    reflection_id: str
    anchored_lesson_id: str | None


class Reflected(ToolResult):
    created_refs: CreatedRefs
    anchor_source: str
    human_note: str
    recent_attributions: dict[str, int]
    profile_written: Literal[False]
    closure_progress: Facts | None


@tool('reflect_on_teaching', Reflect, Reflected)
def reflect_on_teaching(context: Context, args: Reflect) -> dict:
    """A TeacherReflection with one main attribution, anchored to a lesson (given or inferred)."""
    pair_id = context.pair(args.pair_id)
    expires = None
    if args.weather_expires_at is not None:
        if args.weather_expires_at <= context.clock():
            raise validation('weather_expires_at is past: a weather reflection that has '
                             'expired already is burnt, not written')
        expires = args.weather_expires_at.astimezone(UTC).isoformat(timespec='milliseconds')
    lesson_id, source = _anchor(context, pair_id, args)
    reflection_id, now = context.new_id('tr'), context.now()
    context.store.run("DELETE FROM reflection WHERE pair_id = ? AND main_attribution = 'weather' "
                      'AND julianday(weather_expires_at) <= julianday(?)', pair_id, now)
    body = args.model_dump(mode='json', include={'evidence', 'counterfactual', 'action_link',
                                                 'method', 'next_action', 'lesson_preference'})
    context.store.run('INSERT INTO reflection VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', reflection_id,
                      pair_id, lesson_id, args.live_session_id or None, source,
                      args.main_attribution, json.dumps(body, ensure_ascii=False), expires,
                      now)
    recent = Counter(r['main_attribution'] for r in context.store.all(
        f'SELECT main_attribution FROM {REFLECTIONS} WHERE pair_id = ? ORDER BY created_at '
        'DESC LIMIT 20', now, pair_id))
    note = ANCHOR_NOTES[source]
    return {'created_refs': {'reflection_id': reflection_id, 'anchored_lesson_id': lesson_id},
            'anchor_source': source, 'human_note': note, 'recent_attributions': dict(recent),
            'profile_written': False, 'closure_progress': progress_of(context, lesson_id)}


def _anchor(context: Context, pair_id: str, args: Reflect) -> tuple[str | None, str]:
    if args.lesson_id:
        context.owned('lesson', args.lesson_id, pair_id)
    if args.live_session_id:
        session = context.owned('live_session', args.live_session_id, pair_id)
        if not args.lesson_id and session['lesson_id']:
            return session['lesson_id'], 'live_session'
    if args.lesson_id:
        return args.lesson_id, 'explicit'
    active = context.store.all("SELECT lesson_id FROM live_session WHERE pair_id = ? AND "
                               "status = 'active' AND lesson_id IS NOT NULL", pair_id)
    if len(active) == 1:
        return active[0]['lesson_id'], 'active_live_room'
    since = (context.clock() - LIVE_WINDOW).isoformat(timespec='milliseconds')
    recent = context.store.one("SELECT lesson_id FROM live_session WHERE pair_id = ? AND "
                               "lesson_id IS NOT NULL AND coalesce(ended_at, started_at) >= ? "
                               'ORDER BY coalesce(ended_at, started_at) DESC', pair_id, since)
    if recent is not None:
        return recent['lesson_id'], 'recent_live'
    return None, 'unanchored'


class BoundaryUpdate(Args):
    add_domains: list[str] = []
    remove_domains: list[str] = []


class Feedback(PairArgs):
    kind: Literal['issue', 'idea']
    text: str = Field(min_length=1, max_length=10000, description='her words, verbatim')
    lesson_id: str = ''
    live_session_id: str = ''
    exercise_id: str = ''
    source_message_ref: str = ''
    boundary_update: BoundaryUpdate | None = None


class FeedbackRecorded(ToolResult):
    feedback_id: str
    status: Literal['open']
    boundary: list[str]
    human_note: str


@tool('record_feedback', Feedback, FeedbackRecorded)
def record_feedback(context: Context, args: Feedback) -> dict:
    """The feedback pen: her words verbatim, real anchors, boundaries only when passed."""
    pair_id = context.pair(args.pair_id)
    for table, ident in (('lesson', args.lesson_id), ('live_session', args.live_session_id),
                         ('exercise', args.exercise_id)):
        if ident:
            context.owned(table, ident, pair_id)
    feedback_id, now = context.new_id('fb'), context.now()
    anchors = {k: v for k, v in (('lesson_id', args.lesson_id),
                                 ('live_session_id', args.live_session_id),
                                 ('exercise_id', args.exercise_id)) if v}
    context.store.run('INSERT INTO feedback (feedback_id, pair_id, kind, text, anchors, '
                      'source_message_ref, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '
                      '?, ?)', feedback_id, pair_id, args.kind, args.text, json.dumps(anchors),
                      args.source_message_ref, now, now)
    if args.boundary_update is not None:
        for domain in args.boundary_update.add_domains:
            context.store.run('INSERT OR IGNORE INTO boundary VALUES (?, ?, ?)', pair_id,
                              domain, now)
        for domain in args.boundary_update.remove_domains:
            context.store.run('DELETE FROM boundary WHERE pair_id = ? AND domain = ?', pair_id,
                              domain)
    boundary = [r['domain'] for r in context.store.all(
        'SELECT domain FROM boundary WHERE pair_id = ? ORDER BY domain', pair_id)]
    return {'feedback_id': feedback_id, 'status': 'open', 'boundary': boundary,
            'human_note': '记下了——请在这一回合告诉她，她的话已经原样记录。'}


class FeedbackStatus(PairArgs):
    feedback_id: str = Field(min_length=1)
    status: Literal['acknowledged', 'addressed', 'declined']
    note: str = ''


NEXT = {'open': ('acknowledged',), 'acknowledged': ('addressed', 'declined')}


class FeedbackMoved(ToolResult):
    feedback_id: str
    status: str
    final: bool


@tool('update_feedback_status', FeedbackStatus, FeedbackMoved)
def update_feedback_status(context: Context, args: FeedbackStatus) -> dict:
    """Status: open → acknowledged → addressed | declined; declined needs a note; the last two
    final."""
    pair_id = context.pair(args.pair_id)
    row = context.owned('feedback', args.feedback_id, pair_id)
    if args.status not in NEXT.get(row['status'], ()):
        raise conflict(f'feedback that is {row["status"]} cannot become {args.status}',
                       status=row['status'], allowed=list(NEXT.get(row['status'], ())))
    if args.status == 'declined' and not args.note.strip():
        raise validation('declining needs a note: the reason protects what is accepted')
    context.store.run('UPDATE feedback SET status = ?, note = ?, updated_at = ? WHERE '
                      'feedback_id = ?', args.status, args.note, context.now(),
                      args.feedback_id)
    return {'feedback_id': args.feedback_id, 'status': args.status,
            'final': args.status in ('addressed', 'declined')}


TOOLS = (
    write_hypothesis,
    set_hypothesis_verdict,
    reflect_on_teaching,
    record_feedback,
    update_feedback_status,
)
