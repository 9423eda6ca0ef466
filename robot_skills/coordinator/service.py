"""The coordinator's operations over its store, without ROS (the node only converts messages).

Each operation reads what the pure core needs from the store, asks the core,
and applies the writes the core returns, in one place: requests, handovers, the
monthly report, the health check, consent settings and the privacy controls (查看
/ 更正 / 删除 with one confirmation / 暂停联动 / 不要记忆 / 不要写回档案或提醒 / 不要给家长看
/ 不要共享 / 导出).

The crisis exception is checked first, before the store is read: a damaged or
locked store can delay nothing of a referral (its fact is written after). The
one confirmation of a deletion is an unambiguous yes (``confirmation.py``)
within ``Windows.confirm`` of the question; anything else cancels it and says
so, and the rest of that answer is then read as a request. While memory is
paused ("这次不要记忆") or write-back is ("不要写回档案/提醒"), what a request would write
(a dispatch, a reminder) goes to ``Memory`` instead of the store. Every JSON field
goes through the wire parser.
Two clocks: ``now`` (wall-clock UTC) for everything written to or compared with
the store, so a simulated clock never stamps 1970 into a learner's records;
``clock`` (the node's clock, seconds) for what lives in memory only (dispatches
and reminders of a paused memory, the crisis flow), so ``use_sim_time`` and a
replayed bag move those windows.
A store that is locked or read-only (``StoreUnavailableError``) never loses a
decision: the request is still routed (or referred) and marked ``store:
unavailable``; a privacy action says it could not be done.

Threads: the operations may be called from several threads at once (the node
serves its services on a worker pool). Everything that writes (a request, a
handover, a consent update, a privacy action other than view and export, the
purge) holds ``_writing`` from its first read to its last write, so two writes
never interleave their read-modify-write; the monthly report, the health check
and the read-only privacy actions hold nothing and read in parallel (the store
gives each thread its own read connection). ``Memory`` has its own lock.

The health check reads one learner's rows of the last ``Windows.health``
seconds: the linkage records dated in it, and the reminders queued in it with the
status their reminder_sync reported (kept on the reminder when the sync arrived,
``store.py``).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from robot_skills.adapters.database import StoreUnavailableError
from robot_skills.coordinator.core import (
    Coordinator,
    Decision,
    HandoverResult,
    HoldCrisis,
    LearnerView,
    LeaveCrisis,
    MergeReminder,
    QueueReminder,
    RecordDispatch,
    RecordLinkage,
    RecordReferral,
    Request,
    StoreHandover,
    Write,
)
from robot_skills.coordinator.crisis import CrisisReading
from robot_skills.coordinator.memory import Memory
from robot_skills.coordinator.records import DAMAGED, ConsentBits, Privacy
from robot_skills.coordinator.report import Health, Report, health_check, monthly_report
from robot_skills.coordinator.store import Store
from robot_skills.model import wire
from robot_skills.model.strict import describe

PRIVACY_ACTIONS = ('view', 'correct', 'delete', 'confirm_delete', 'cancel_delete',
                   'pause_linkage', 'resume_linkage', 'no_memory', 'no_writeback',
                   'no_parent_sharing', 'no_sharing', 'export')
STORED = (RecordDispatch, RecordLinkage, QueueReminder, MergeReminder, RecordReferral,
          StoreHandover)      # writes that may reach the store
READ_ONLY = ('view', 'export')      # privacy actions that write nothing: read in parallel
UNAVAILABLE = {'store': 'unavailable'}


class Correction(BaseModel):
    """``argument_json`` of ``correct``: which record, and the fields to change."""

    model_config = ConfigDict(extra='forbid')

    record_id: StrictInt = Field(ge=1)
    fields: dict[str, Any] = {}


class SkillArgument(BaseModel):
    """``argument_json`` of ``pause_linkage`` / ``resume_linkage``."""

    model_config = ConfigDict(extra='forbid')

    skill: str = Field(min_length=1)


@dataclass(frozen=True)
class Windows:
    """How long things last, in seconds (node parameters)."""

    dedupe: float = 30 * 60
    memory_pause: float = 60 * 60
    reminder_merge: float = 24 * 60 * 60
    confirm: float = 10 * 60          # how long "确定要删除吗" waits for its answer
    crisis: float = 2 * 60 * 60       # a crisis flow ends after this long without a message
    health: float = 30 * 24 * 60 * 60   # the health check reads the records and reminders
    #                                     of this many seconds before now


@dataclass(frozen=True)
class PrivacyResult:
    ok: bool
    reply_text: str
    data: object = None


@dataclass(frozen=True)
class _PrivacyCall:
    """One privacy control as its handler reads it: the learner's privacy row already read."""

    learner_id: str
    action: str
    argument: dict[str, Any]
    now: datetime
    state: Privacy


class CoordinatorService:
    def __init__(self, coordinator: Coordinator, store: Store, windows: Windows,
                 limits: wire.Limits = wire.LIMITS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.core = coordinator
        self.clock = clock
        self.store = store
        self.windows = windows
        self.limits = limits
        self.phrases = coordinator.phrases
        self.memory = Memory()
        self.purge_pending = False      # a deletion whose bytes are still on disk
        self._writing = threading.RLock()   # every operation that writes, whole (see above)
        self._privacy_controls: dict[str, Callable[[_PrivacyCall], PrivacyResult]] = {
            'view': self._show_records, 'correct': self._correct, 'delete': self._ask_delete,
            'confirm_delete': self._answer_delete, 'cancel_delete': self._answer_delete,
            'pause_linkage': self._linkage, 'resume_linkage': self._linkage,
            'no_memory': self._no_memory, 'no_writeback': self._no_writeback,
            'no_parent_sharing': self._no_parent_sharing, 'no_sharing': self._no_sharing,
            'export': self._export,
        }

    # ---- requests -------------------------------------------------------------------------

    def request(self, request: Request, now: datetime) -> Decision:
        with self._writing:
            return self._request(request, now)

    def _request(self, request: Request, now: datetime) -> Decision:
        flow = self.memory.crisis(request.learner_id, self.clock(), self.windows.crisis)
        referral, crisis = self.core.refer(request, flow)
        if referral is not None:
            return self._refer(request.learner_id, referral, now)
        try:
            view = replace(self._view(request.learner_id, now), crisis=flow)
        except StoreUnavailableError:
            return self._decide(request, LearnerView(crisis=flow), now, crisis, UNAVAILABLE)
        if view.privacy.asking(now.timestamp(), self.windows.confirm):
            return self._confirming(request, view, now, crisis)
        return self._decide(request, view, now, crisis)

    def _refer(self, learner_id: str, referral: Decision, now: datetime) -> Decision:
        """The referral stands whatever the store does; then its fact is written, if it can
        be, and a deletion waiting for its answer is cancelled (a referral is not a yes)."""
        try:
            self._apply(learner_id, referral.writes, now)
            privacy = self.store.privacy(learner_id)
            if privacy.delete_asked_at:
                self.store.set_privacy(learner_id, replace(privacy, delete_asked_at=0.0))
        except StoreUnavailableError:
            return replace(referral, detail={**referral.detail, **UNAVAILABLE})
        return referral

    def _confirming(self, request: Request, view: LearnerView, now: datetime,
                    crisis: CrisisReading) -> Decision:
        """The answer to "确定要删除吗": an unambiguous yes deletes; anything else cancels."""
        if self.core.router.routing.confirmation.is_yes(request.text):
            result = self.privacy(request.learner_id, 'confirm_delete', '', now)
            return Decision('privacy', result.reply_text,
                            detail={'privacy': 'confirm_delete', 'ok': result.ok})
        cancelled = self.privacy(request.learner_id, 'cancel_delete', '', now).reply_text
        decision = self._decide(request, replace(view, privacy=replace(
            view.privacy, delete_asked_at=0.0)), now, crisis)
        if decision.action == 'crisis_referral':
            return decision
        if decision.action == 'declined':
            return Decision('privacy', cancelled, detail={'privacy': 'cancel_delete'})
        return replace(decision, reply_text=cancelled + decision.reply_text,
                       detail={**decision.detail, 'delete_cancelled': True})

    def _decide(self, request: Request, view: LearnerView, now: datetime,
                crisis: CrisisReading, degraded: dict | None = None) -> Decision:
        decision = self.core.decide(request, view, now, crisis)
        try:
            at = now.timestamp()
            self._apply(request.learner_id, decision.writes, now,
                        view.privacy.remembers(at) and view.privacy.writes_back(at))
        except StoreUnavailableError:
            degraded = UNAVAILABLE
        if degraded:
            decision = replace(decision, detail={**decision.detail, **degraded})
        text = request.text.strip()
        if decision.action == 'privacy':
            action = decision.detail['privacy']
            result = self.privacy(request.learner_id, action, self._argument(action, text), now)
            return replace(decision, reply_text=result.reply_text,
                           detail={**decision.detail, 'data': result.data})
        if decision.action == 'report':
            report = self.monthly_report(request.learner_id, True, request.text, now)
            return replace(decision, reply_text=report.text,
                           detail={'session_only': report.session_only})
        if decision.action == 'health_check':
            health = self.health(request.learner_id, now)
            return replace(decision, reply_text=health.text, detail={
                'healthy': health.healthy_count, 'indicators': health.indicators})
        return decision

    def _argument(self, action: str, text: str) -> str:
        """The argument a spoken privacy request implies (the SKILL a pause names)."""
        if action != 'pause_linkage':
            return ''
        names = self.core.router.routing.skill_names
        skill = next((skill for word, skill in names.items() if word in text), '')
        return json.dumps({'skill': skill})

    def _view(self, learner_id: str, now: datetime) -> LearnerView:
        at, held = now.timestamp(), self.clock()
        recent = frozenset({*self.store.recent_dispatches(learner_id, at - self.windows.dedupe),
                            *self.memory.recent(learner_id, held - self.windows.dedupe)})
        merge = self.windows.reminder_merge
        queued = {(kind, content): rid for rid, kind, content in
                  [*self.store.queued_reminders(learner_id, at - merge),
                   *self.memory.queued(learner_id, held - merge)]}
        return LearnerView(self.store.consent(learner_id), self.store.privacy(learner_id),
                           recent, queued)

    def _apply(self, learner_id: str, writes: tuple[Write, ...], now: datetime,
               remembers: bool = True) -> None:
        """Carry out ``writes``: in the store (one transaction: one commit for a decision, all
        or nothing), or in memory only while memory is paused."""
        if any(isinstance(w, STORED) for w in writes):
            with self.store.batch():
                self._carry_out(learner_id, writes, now, remembers)
        else:
            self._carry_out(learner_id, writes, now, remembers)

    def _carry_out(self, learner_id: str, writes: tuple[Write, ...], now: datetime,
                   remembers: bool) -> None:
        at, held = now.timestamp(), self.clock()
        for write in writes:
            if isinstance(write, HoldCrisis):
                self.memory.hold_crisis(learner_id, write.region, held)
            elif isinstance(write, LeaveCrisis):
                self.memory.leave_crisis(learner_id)
            elif isinstance(write, RecordDispatch) and not remembers:
                self.memory.dispatch(learner_id, write.concept, write.skill, held)
            elif isinstance(write, RecordDispatch):
                self.store.add_dispatch(learner_id, write.concept, write.skill, at,
                                        at - self.windows.dedupe)
            elif isinstance(write, RecordLinkage):
                self.store.add_record(write.record)
            elif isinstance(write, QueueReminder) and not remembers:
                self.memory.remind(learner_id, write.kind, write.content, held)
            elif isinstance(write, QueueReminder):
                self.store.add_reminder(learner_id, write.kind, write.content, at)
            elif isinstance(write, MergeReminder) and write.reminder_id > 0:
                self.store.merge_reminder(write.reminder_id)
            elif isinstance(write, RecordReferral):
                self.store.add_referral(learner_id, at)
            elif isinstance(write, StoreHandover):
                self.store.add_handover(write.session_id, write.kind, write.body, at,
                                        write.reminder)

    # ---- handovers ---------------------------------------------------------------------------

    def handover(self, raw: str, now: datetime) -> HandoverResult:
        """Check and store a handover; a refusal writes nothing (counted in memory)."""
        key = self._handover_key(raw)
        with self._writing:
            result = self.core.handover(raw, self.memory.refusals(key), self.limits)
            if result.accepted:
                self._apply('', result.writes, now)
            else:
                self.memory.refuse(key)
        return result

    def _handover_key(self, raw: str) -> str:
        """The same handover resubmitted has the same key (session, type, sender, recipient)."""
        try:
            data = wire.json_value(raw, 'handover_json', self.limits)
        except wire.WireError:
            data = None
        if isinstance(data, dict):
            return '|'.join(str(data.get(k, '')) for k in ('sessionId', 'handoverType', 'sender',
                                                          'recipient'))
        return f'unparsable|{hashlib.sha256(raw.encode(errors="replace")).hexdigest()}'

    def purge(self) -> bool:
        """Finish a deletion's cleanup; True once nothing deleted is left on disk."""
        with self._writing:
            if self.purge_pending:
                self.purge_pending = not self.store.purge()
            return not self.purge_pending

    # ---- report, health, consent -----------------------------------------------------------------

    def monthly_report(self, learner_id: str, agreed: bool, notes: str,
                       now: datetime) -> Report:
        consent = self.store.consent(learner_id)
        privacy = self.store.privacy(learner_id)
        authorised = consent.crossSkillSharing and not privacy.no_sharing
        month = now.strftime('%Y-%m')
        records = self.store.records(learner_id, month) if agreed and authorised else []
        return monthly_report(records, month, agreed, authorised, notes,
                              self.phrases.report_offer, self.phrases.report_session_only,
                              self.phrases.report)

    def health(self, learner_id: str, now: datetime) -> Health:
        """The six indicators over the learner's rows of the last ``Windows.health`` seconds."""
        since = now - timedelta(seconds=self.windows.health)
        consent = self.store.consent(learner_id)
        records = (self.store.records(learner_id, since=since.strftime('%Y-%m-%d'))
                   if consent.crossSkillSharing else [])
        queued, answered = self.store.reminder_counts(learner_id, since.timestamp())
        return health_check(records, queued, answered, self.phrases.health)

    def consent(self, learner_id: str, update_json: str) -> tuple[bool, ConsentBits, str]:
        with self._writing:
            return self._consent(learner_id, update_json)

    def _consent(self, learner_id: str, update_json: str) -> tuple[bool, ConsentBits, str]:
        current = self.store.consent(learner_id)
        try:
            update = wire.json_object(update_json, 'update_json', self.limits)
            updated = wire.model({**current.model_dump(), **update}, ConsentBits, 'update_json')
        except wire.WireError as error:
            return False, current, str(error)
        if not update:
            return True, current, ''
        try:
            self.store.set_consent(learner_id, updated)
        except StoreUnavailableError as error:
            return False, current, f'not saved: {error}; retry'
        return True, updated, ''

    # ---- privacy controls ----------------------------------------------------------------

    def privacy(self, learner_id: str, action: str, argument_json: str,
                now: datetime) -> PrivacyResult:
        """One privacy control; a store that cannot be written says so and changes nothing."""
        try:
            argument = wire.json_object(argument_json, 'argument_json', self.limits)
            if action in READ_ONLY:
                return self._privacy(learner_id, action, argument, now)
            with self._writing:
                return self._privacy(learner_id, action, argument, now)
        except wire.WireError as error:
            return PrivacyResult(False, str(error))
        except StoreUnavailableError:
            return PrivacyResult(False, self.phrases.privacy.unavailable, UNAVAILABLE)

    def _privacy(self, learner_id: str, action: str, argument: dict,
                 now: datetime) -> PrivacyResult:
        handler = self._privacy_controls.get(action)
        if handler is None:
            return PrivacyResult(False, f'unknown action {action!r}; '
                                        f'one of {", ".join(PRIVACY_ACTIONS)}')
        state = self.store.privacy(learner_id)
        if state is DAMAGED:        # the learner's choice now replaces a row that cannot be read
            state = Privacy()
        return handler(_PrivacyCall(learner_id, action, argument, now, state))

    def _show_records(self, call: _PrivacyCall) -> PrivacyResult:
        records = self.store.records(call.learner_id)
        return PrivacyResult(True, self.phrases.privacy.view, [r._asdict() for r in records])

    def _correct(self, call: _PrivacyCall) -> PrivacyResult:
        correction = wire.model(call.argument, Correction, 'argument_json')
        try:
            record = self.store.correct(call.learner_id, correction.record_id, correction.fields)
        except ValidationError as error:
            return PrivacyResult(False, '; '.join(describe(error)))
        except (TypeError, ValueError) as error:
            return PrivacyResult(False, str(error))
        if record is None:
            return PrivacyResult(False, 'no such record of this learner')
        return PrivacyResult(True, self.phrases.privacy.correct, record._asdict())

    def _ask_delete(self, call: _PrivacyCall) -> PrivacyResult:
        self.store.set_privacy(call.learner_id,
                               replace(call.state, delete_asked_at=call.now.timestamp()))
        return PrivacyResult(True, self.phrases.privacy.delete_confirm)

    def _answer_delete(self, call: _PrivacyCall) -> PrivacyResult:
        words = self.phrases.privacy
        if not call.state.asking(call.now.timestamp(), self.windows.confirm):
            return PrivacyResult(False, words.nothing_to_delete)
        self.store.set_privacy(call.learner_id, replace(call.state, delete_asked_at=0.0))
        if call.action == 'cancel_delete':
            return PrivacyResult(True, words.delete_cancelled)
        deleted = self.store.delete_records(call.learner_id)
        self.purge_pending = True
        purged = self.purge()
        return PrivacyResult(True, words.deleted + ('' if purged else words.delete_purging),
                             {'deleted': deleted, 'purged': purged})

    def _linkage(self, call: _PrivacyCall) -> PrivacyResult:
        try:
            skill = wire.model(call.argument, SkillArgument, 'argument_json').skill
        except wire.WireError as error:
            return PrivacyResult(False, f'{error}: name the SKILL, {{"skill": "..."}}')
        if skill not in self.phrases.skills:
            return PrivacyResult(False, f'argument_json.skill: not a SKILL of the system '
                                        f'(one of {", ".join(sorted(self.phrases.skills))})')
        paused = dict(call.state.paused_skills)
        pausing = call.action == 'pause_linkage'
        if pausing:
            paused[skill] = call.now.timestamp() + self.windows.memory_pause
        else:
            paused.pop(skill, None)
        self.store.set_privacy(call.learner_id, replace(call.state, paused_skills=paused))
        phrase = self.phrases.privacy.paused if pausing else self.phrases.privacy.resumed
        return PrivacyResult(True, phrase.format(skill=self.phrases.skill_name(skill)))

    def _no_memory(self, call: _PrivacyCall) -> PrivacyResult:
        self.store.set_privacy(call.learner_id, replace(
            call.state, no_memory_until=call.now.timestamp() + self.windows.memory_pause))
        return PrivacyResult(True, self.phrases.privacy.no_memory)

    def _no_writeback(self, call: _PrivacyCall) -> PrivacyResult:
        self.store.set_privacy(call.learner_id, replace(
            call.state, no_writeback_until=call.now.timestamp() + self.windows.memory_pause))
        return PrivacyResult(True, self.phrases.privacy.no_writeback)

    def _no_parent_sharing(self, call: _PrivacyCall) -> PrivacyResult:
        consent = self.store.consent(call.learner_id)
        self.store.set_consent(call.learner_id, consent.model_copy(update={
            'parentSharingConsent': False, 'emotionSharingWithParent': False}))
        return PrivacyResult(True, self.phrases.privacy.no_parent_sharing)

    def _no_sharing(self, call: _PrivacyCall) -> PrivacyResult:
        self.store.set_privacy(call.learner_id, replace(call.state, no_sharing=True))
        return PrivacyResult(True, self.phrases.privacy.no_sharing)

    def _export(self, call: _PrivacyCall) -> PrivacyResult:
        report = self.monthly_report(call.learner_id, True, '', call.now)
        records = '\n\n'.join(r.as_text() for r in self.store.records(call.learner_id))
        return PrivacyResult(True, self.phrases.privacy.export,
                             f'{report.text}\n\n{records}'.strip())
