"""The learning-system coordinator's decisions (pure): route, deduplicate, refer.

For each request, in this order:

1. the crisis exception (``crisis.py``): a referral and nothing else; only the
   fact "已转介" is written. The referral is a conversation: the learner stays
   in the crisis flow (``CrisisFlow``, kept in memory only) until they clearly
   return to learning; a region named then gets its help line, anything else a
   steady reply with no homework routing. Then a request longer than
   ``max_chars``, as sent or once normalised (NFKC), is declined;
2. privacy controls (查看/更正/删除/暂停/不要记忆/不要写回/不要给家长看/不要共享/导出);
3. whole-system requests: the monthly report, the health check;
4. reminders: queued only with ``reminderConsent`` ("我把它加进你的提醒队列了",
   never a promised time) and write-back not paused, duplicates merged; else declined;
5. routing (``routing.py``): the subject, then the stage, then the SKILL; a
   stage that needs a subject asks "这题是数学还是物理的？" when unsure; a SKILL
   the learner paused is not linked; the same learner + concept + SKILL is not
   dispatched twice within the dedupe window.

The coordinator writes long-term linkage records only with cross-SKILL sharing
consented and memory not paused. Reads of the store come in a ``LearnerView``;
what must be written comes back as ``writes`` for the node to apply.

Deduplication works on a concept *key*: the keyword that decided the subject,
or a keyed digest of the request (BLAKE2b under a secret of this process, so
a digest in the store cannot be turned back into words by guessing them). A
decision's detail (traced and logged) names the keyword, or says only that
the concept is the request's text; a dispatch keeps the key, never the words;
only a linkage record (written with the learner's consent) keeps its 涉及知识点
in words.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from robot_skills.coordinator.crisis import CrisisDetector, CrisisReading
from robot_skills.coordinator.crisis_model import CrisisModel
from robot_skills.coordinator.handover import check
from robot_skills.coordinator.lexicon import Crisis, Phrases, Routing
from robot_skills.coordinator.records import ConsentBits, LinkageRecord, Privacy
from robot_skills.coordinator.routing import Router, StageReading, SubjectReading
from robot_skills.coordinator.triggers import (
    ErrorContext,
    feynman_exemptions,
    feynman_reasons,
    from_words,
    suggest_feynman,
)
from robot_skills.model.wire import LIMITS, Limits

TRIGGER_SOURCE = {'correction': '错题', 'problem': '错题', 'plan': '计划', 'focus': '计划',
                  'reminder': '提醒', 'feynman': '复盘', 'notes': '复盘', 'cross_subject': '复盘'}
REMINDER_KIND = 'plan_task'
LONE_SURROGATE = re.compile('[\ud800-\udfff]')


@dataclass(frozen=True)
class Request:
    request_id: str
    learner_id: str
    text: str
    image_tags: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """A lone surrogate (a Python string may hold one) becomes U+FFFD: RE2, the store and
        the concept key encode the text as UTF-8, which it cannot be."""
        if LONE_SURROGATE.search(self.text):
            object.__setattr__(self, 'text', LONE_SURROGATE.sub('\ufffd', self.text))


@dataclass(frozen=True)
class CrisisFlow:
    """A learner who was referred and has not returned to learning (memory only)."""

    region: str | None = None


@dataclass(frozen=True)
class LearnerView:
    """What the store (and, for the crisis flow, memory) knows about the learner."""

    consent: ConsentBits = field(default_factory=ConsentBits)
    privacy: Privacy = field(default_factory=Privacy)
    recent: frozenset[tuple[str, str]] = frozenset()       # (concept, SKILL) in the window
    queued: dict[tuple[str, str], int] = field(default_factory=dict)   # reminder -> its id
    crisis: CrisisFlow | None = None


# ---- writes the node applies -------------------------------------------------------------

@dataclass(frozen=True)
class RecordLinkage:
    record: LinkageRecord


@dataclass(frozen=True)
class RecordDispatch:
    concept: str
    skill: str


@dataclass(frozen=True)
class QueueReminder:
    kind: str
    content: str


@dataclass(frozen=True)
class MergeReminder:
    reminder_id: int


@dataclass(frozen=True)
class RecordReferral:
    pass


@dataclass(frozen=True)
class StoreHandover:
    session_id: str
    kind: str
    body: str
    # a reminder_sync's (reminderType, content, status), parsed once here: the store sets the
    # status on the reminder it reports, so the health check never parses handovers
    reminder: tuple[str, str, str | None] | None = None


@dataclass(frozen=True)
class HoldCrisis:
    """Keep the learner in the crisis flow (in memory), with the region once known."""

    region: str | None


@dataclass(frozen=True)
class LeaveCrisis:
    """The learner clearly returned to learning."""


Write = RecordLinkage | RecordDispatch | QueueReminder | MergeReminder | RecordReferral | \
    StoreHandover | HoldCrisis | LeaveCrisis


@dataclass(frozen=True)
class Decision:
    action: str          # route | clarify | crisis_referral | report | health_check | privacy |
    #                      reminder | declined
    reply_text: str = ''
    subject: str = ''
    stage: str = ''
    target_skill: str = ''
    detail: dict[str, Any] = field(default_factory=dict)
    writes: tuple[Write, ...] = ()


@dataclass(frozen=True)
class HandoverResult:
    accepted: bool
    errors: tuple[str, ...]
    reply_text: str
    writes: tuple[Write, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)


class Coordinator:
    def __init__(self, routing: Routing, crisis: Crisis, model: CrisisModel, phrases: Phrases,
                 secret: bytes | None = None) -> None:
        self.router = Router(routing)
        self.crisis = CrisisDetector(crisis, model)
        self.phrases = phrases
        self._secret = secret if secret is not None else secrets.token_bytes(32)

    # ---- requests -------------------------------------------------------------------------

    def refer(self, request: Request,
              flow: CrisisFlow | None = None) -> tuple[Decision | None, CrisisReading]:
        """The crisis exception, before anything else (the store included): a referral, or
        the next step of the crisis flow, or None; and the crisis reading (for hyperbole)."""
        crisis = self.crisis.read(request.text)
        reply = self.crisis.lexicon.reply
        # In the flow the learner is already referred: a signal only the model reads keeps
        # them there (never back to homework); a named one is a new referral, recorded again.
        if crisis.referral and not (flow is not None and crisis.learned):
            region = crisis.region or (flow.region if flow else None)
            return Decision('crisis_referral', self.crisis.reply(region),
                            detail={'signals': [s.category for s in crisis.signals]},
                            writes=(HoldCrisis(region), RecordReferral())), crisis
        if flow is None:
            return None, crisis
        named = self.crisis.region(request.text) if flow.region is None else None
        if named is not None:
            return Decision('crisis_referral', reply.region_known + self.crisis.line(named) +
                            reply.adult, detail={'followup': 'region', 'region': named},
                            writes=(HoldCrisis(named),)), crisis
        if self._learning(request) and not crisis.referral:
            return None, crisis
        return Decision('crisis_referral', reply.stay + self.crisis.line(flow.region),
                        detail={'followup': 'stay'}, writes=(HoldCrisis(flow.region),)), crisis

    def _learning(self, request: Request) -> bool:
        """A clear return to learning: a subject, a stage or a whole-system request."""
        text = self._routed(request.text)
        return text is not None and bool(
            self.router.stage(text) or self.router.whole_system(text)
            or self.router.subject(text, request.image_tags).subject)

    def _routed(self, text: str) -> str | None:
        """The copy routing reads (NFKC, stripped), or None: longer than ``max_chars``, as
        sent or once normalised (one character may become 18: U+FDFA; routing 5,000 of
        them as 90,000 took 33 ms)."""
        limit = self.router.routing.max_chars
        if len(text.strip()) > limit:
            return None
        text = unicodedata.normalize('NFKC', text).strip()
        return text if len(text) <= limit else None

    def decide(self, request: Request, view: LearnerView, now: datetime,
               crisis: CrisisReading | None = None) -> Decision:
        """The decision for ``request``; ``crisis``: the reading ``refer`` already made (the
        service refers first, before reading the store)."""
        if crisis is None:
            referral, crisis = self.refer(request, view.crisis)
            if referral is not None:
                return referral
        text = self._routed(request.text)
        if text is None:
            return Decision('declined', self.phrases.too_long,
                            detail={'why': f'longer than {self.router.routing.max_chars} '
                                           'characters'})
        writes: tuple[Write, ...] = (LeaveCrisis(),) if view.crisis is not None else ()
        decision = self._decide(request, text, view, now, crisis)
        return replace(decision, writes=writes + decision.writes) if writes else decision

    def _decide(self, request: Request, text: str, view: LearnerView, now: datetime,
                crisis: CrisisReading) -> Decision:
        privacy = self.router.privacy(text)
        if privacy:
            return Decision('privacy', detail={'privacy': privacy})
        whole = self.router.whole_system(text)
        if whole:
            return Decision(whole)
        stage = self.router.stage(text)
        if stage is not None and stage.stage == 'reminder':
            return self._reminder(text, view, now)
        decision = self._route(request, text, stage, view, now)
        if crisis.hyperbole:
            decision = replace(decision, reply_text=f'{decision.reply_text}'
                               f'{self.crisis.lexicon.hyperbole.check_in}',
                               detail={**decision.detail, 'hyperbole_check_in': True})
        return decision

    def _reminder(self, text: str, view: LearnerView, now: datetime) -> Decision:
        if not view.consent.reminderConsent:
            return Decision('declined', self.phrases.reminder_needs_consent, stage='reminder',
                            detail={'why': 'reminderConsent is off'})
        if not view.privacy.writes_back(now.timestamp()):
            return Decision('declined', self.phrases.reminder_no_writeback, stage='reminder',
                            detail={'why': 'the learner asked for no write-back'})
        content = text[:60]
        queued = view.queued.get((REMINDER_KIND, content))
        if queued is not None:
            return Decision('reminder', self.phrases.reminder_merged, stage='reminder',
                            target_skill='xiaozhi-im-reminder', detail={'merged_into': queued},
                            writes=(MergeReminder(queued),))
        return Decision('reminder', self.phrases.reminder_queued, stage='reminder',
                        target_skill='xiaozhi-im-reminder', detail={'kind': REMINDER_KIND},
                        writes=(QueueReminder(REMINDER_KIND, content),))

    def _route(self, request: Request, text: str, stage: StageReading | None,
               view: LearnerView, now: datetime) -> Decision:
        subject = self.router.subject(text, request.image_tags)
        detail: dict[str, Any] = {'subject_rule': subject.rule, 'evidence': subject.evidence,
                        'stage_phrase': stage.phrase if stage else ''}
        if subject.subject is None and self.router.needs_subject(stage):
            asks = stage is None or stage.stage == 'problem'
            if asks and not self.router.about_learning(text, request.image_tags):
                return Decision('declined', self.phrases.declined_no_subject, detail=detail)
            return Decision('clarify', self.router.routing.unsure_question,
                            stage=stage.stage if stage else '',
                            detail={**detail, 'candidates': list(subject.candidates)})
        target = self.router.target(subject.subject, stage, text)
        stage_name = stage.stage if stage else 'problem'
        if subject.subject == 'cross_subject' and stage_name == 'problem':
            stage_name = 'cross_subject'
        base = Decision('route', subject=subject.subject or '', stage=stage_name,
                        target_skill=target, detail=detail)
        if view.privacy.paused(target, now.timestamp()):
            return replace(base, action='declined', reply_text=self.phrases.paused_skill.format(
                skill=self.phrases.skill_name(target)),
                detail={**detail, 'why': 'the learner paused this SKILL'})
        concept = self._concept_key(subject, text)
        shown = subject.evidence if subject.rule == 'keyword' else 'text'
        if (concept, target) in view.recent:
            return replace(base, reply_text=self.phrases.duplicate.format(
                skill=self.phrases.skill_name(target)),
                           detail={**detail, 'deduplicated': True, 'concept': shown})
        error = from_words(text, self.router.routing.triggers)
        reply = self._reply(stage_name, subject, target)
        if stage_name == 'correction':
            detail.update(feynman=feynman_reasons(error), no_feynman=feynman_exemptions(error))
            if suggest_feynman(error):
                reply += self.phrases.feynman_hint
        writes: list[Write] = [RecordDispatch(concept, target)]
        if stage_name != 'weekly_review' and self._keeps(view, now):
            writes.append(RecordLinkage(_linkage(request.learner_id, now, stage_name,
                                                 _concept(subject, text), target, error)))
        return replace(base, reply_text=reply, detail={**detail, 'concept': shown},
                       writes=tuple(writes))

    @staticmethod
    def _keeps(view: LearnerView, now: datetime) -> bool:
        """Whether a linkage record may be written: shared across SKILLs with consent, and
        neither memory nor write-back paused (the weekly review is not this SKILL's)."""
        at = now.timestamp()
        return (view.consent.crossSkillSharing and not view.privacy.no_sharing
                and view.privacy.remembers(at) and view.privacy.writes_back(at))

    def _concept_key(self, subject: SubjectReading, text: str) -> str:
        """What the request is about, for deduplication: the deciding word, else a keyed
        digest of its words."""
        if subject.rule == 'keyword' and subject.evidence:
            return subject.evidence
        digest = hashlib.blake2b(_concept(subject, text).encode(), key=self._secret,
                                 digest_size=16)
        return 'text:' + digest.hexdigest()

    def _reply(self, stage: str, subject: SubjectReading, target: str) -> str:
        if stage == 'problem':
            name = self.phrases.subjects.get(subject.subject or '', '')
            return self.phrases.route['problem'].format(subject=name,
                                                        skill=self.phrases.skill_name(target))
        return self.phrases.route[stage]

    # ---- handovers -------------------------------------------------------------------------

    def handover(self, raw: str, failures: int, limits: Limits = LIMITS) -> HandoverResult:
        """Check one handover; ``failures`` is how often this one failed before."""
        handover, problems = check(raw, limits)
        if handover is None:
            if failures >= 1:     # at most one resubmission: give up, say so, keep serving
                return HandoverResult(False, tuple(problems), self.phrases.handover_failed,
                                      detail={'degraded': 'single-session answer'})
            return HandoverResult(False, tuple(problems), '', detail={'may_resubmit': True})
        detail: dict[str, Any] = {'handoverType': handover.handoverType}
        wrong = handover.payload.wrongAnswerData
        if wrong is not None:
            error = ErrorContext(error_type=wrong.basicDimension,
                                 occurrences=wrong.occurrenceCountInWindow)
            detail.update(feynman=feynman_reasons(error), no_feynman=feynman_exemptions(error),
                          suggest_feynman=suggest_feynman(error))
        synced = handover.payload.reminderData if handover.handoverType == 'reminder_sync' \
            else None
        reminder = None if synced is None else (synced.reminderType, synced.content,
                                                synced.status)
        return HandoverResult(True, (), '', (StoreHandover(
            handover.sessionId, handover.handoverType, raw, reminder),), detail)


def _concept(subject: SubjectReading, text: str) -> str:
    """What the request is about, in words (涉及知识点): the deciding word, else the text."""
    if subject.rule == 'keyword' and subject.evidence:
        return subject.evidence
    return ''.join(text.split())[:40]


def _linkage(learner_id: str, now: datetime, stage: str, concept: str, target: str,
             error: ErrorContext) -> LinkageRecord:
    flags = {'correction': stage in ('correction', 'problem'), 'feynman': stage == 'feynman',
             'notes': stage == 'notes', 'plan': stage == 'plan', 'focus': stage == 'focus'}
    return LinkageRecord(learner_id=learner_id, date=now.strftime('%Y-%m-%d'),
                         trigger_source=TRIGGER_SOURCE.get(stage, '错题'), concept=concept,
                         skills=(target,), result=f'交给{target}', root_cause=error.error_type,
                         needs_retest=flags['correction'], needs_plan=flags['plan'],
                         needs_focus=flags['focus'], **flags)
