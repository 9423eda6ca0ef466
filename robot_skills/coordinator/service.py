"""The coordinator's operations over its store, without ROS (the node only converts messages).

Each operation reads what the pure core needs from the store, asks the core,
and applies the writes the core returns, in one place: requests, handovers,
the monthly report, the health check, consent settings and the privacy
controls (查看 / 更正 / 删除 with one confirmation / 暂停联动 / 不要记忆 /
不要共享 / 导出).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from datetime import datetime

from pydantic import ValidationError

from robot_skills.coordinator.core import (Coordinator, Decision, HandoverResult, LearnerView,
                                           MergeReminder, QueueReminder, RecordDispatch,
                                           RecordLinkage, RecordReferral, Request, StoreHandover,
                                           Write)
from robot_skills.coordinator.records import ConsentBits
from robot_skills.coordinator.report import Health, Report, health_check, monthly_report
from robot_skills.coordinator.store import Store
from robot_skills.model.config import describe, json_object

PRIVACY_ACTIONS = ('view', 'correct', 'delete', 'confirm_delete', 'pause_linkage',
                   'resume_linkage', 'no_memory', 'no_sharing', 'export')


@dataclass(frozen=True)
class Windows:
    """How long things last, in seconds (node parameters)."""

    dedupe: float = 30 * 60
    memory_pause: float = 60 * 60
    reminder_merge: float = 24 * 60 * 60


@dataclass(frozen=True)
class PrivacyResult:
    ok: bool
    reply_text: str
    data: object = None


class CoordinatorService:
    def __init__(self, coordinator: Coordinator, store: Store, windows: Windows) -> None:
        self.core = coordinator
        self.store = store
        self.windows = windows
        self.phrases = coordinator.phrases

    # ---- requests -------------------------------------------------------------------------

    def request(self, request: Request, now: datetime) -> Decision:
        privacy = self.store.privacy(request.learner_id)
        text = request.text.strip()
        if privacy.pending_delete:                  # the one confirmation of a delete
            confirmed = any(w in text for w in self.core.router.routing.confirmations)
            result = self.privacy(request.learner_id, 'confirm_delete' if confirmed else
                                  'cancel_delete', '', now)
            if confirmed:
                return Decision('privacy', result.reply_text, detail={'privacy': 'delete'})
        decision = self.core.decide(request, self._view(request.learner_id, now), now)
        self._apply(request.learner_id, decision.writes, now)
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
            health = self.health(request.learner_id)
            return replace(decision, reply_text=health.text, detail={
                'healthy': health.healthy_count, 'indicators': health.indicators})
        return decision

    def _argument(self, action: str, text: str) -> str:
        if action != 'pause_linkage':
            return ''
        names = self.core.router.routing.skill_names
        skill = next((skill for word, skill in names.items() if word in text), '')
        return json.dumps({'skill': skill})

    def _view(self, learner_id: str, now: datetime) -> LearnerView:
        at = now.timestamp()
        recent = frozenset(self.store.recent_dispatches(learner_id, at - self.windows.dedupe))
        queued = {(kind, content): rid for rid, kind, content in
                  self.store.queued_reminders(learner_id, at - self.windows.reminder_merge)}
        return LearnerView(self.store.consent(learner_id), self.store.privacy(learner_id),
                           recent, queued)

    def _apply(self, learner_id: str, writes: tuple[Write, ...], now: datetime) -> None:
        at = now.timestamp()
        for write in writes:
            if isinstance(write, RecordDispatch):
                self.store.add_dispatch(learner_id, write.concept, write.skill, at)
            elif isinstance(write, RecordLinkage):
                self.store.add_record(write.record)
            elif isinstance(write, QueueReminder):
                self.store.add_reminder(learner_id, write.kind, write.content, at)
            elif isinstance(write, MergeReminder):
                self.store.merge_reminder(write.reminder_id)
            elif isinstance(write, RecordReferral):
                self.store.add_referral(learner_id, at)
            elif isinstance(write, StoreHandover):
                self.store.add_handover(write.session_id, write.kind, write.body, at)

    # ---- handovers ---------------------------------------------------------------------------

    def handover(self, raw: str, now: datetime) -> HandoverResult:
        key = _handover_key(raw)
        result = self.core.handover(raw, self.store.failures(key))
        if result.accepted:
            self._apply('', result.writes, now)
        else:
            self.store.add_failure(key)
        return result

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

    def health(self, learner_id: str) -> Health:
        consent = self.store.consent(learner_id)
        records = self.store.records(learner_id) if consent.crossSkillSharing else []
        reminders = self.store.reminders(learner_id)
        synced = [json.loads(body)['payload']['reminderData'].get('status')
                  for _, _, body in self.store.handovers('reminder_sync')]
        answered = sum(1 for status in synced if status in ('acknowledged', 'completed'))
        return health_check(records, max(len(reminders), len(synced)), answered,
                            self.phrases.health)

    def consent(self, learner_id: str, update_json: str) -> tuple[bool, ConsentBits, str]:
        current = self.store.consent(learner_id)
        try:
            update = json_object(update_json, 'update_json')
            updated = ConsentBits.model_validate({**current.model_dump(), **update})
        except ValidationError as error:
            return False, current, '; '.join(describe(error))
        except ValueError as error:
            return False, current, str(error)
        if not update:
            return True, current, ''
        self.store.set_consent(learner_id, updated)
        return True, updated, ''

    # ---- privacy controls ----------------------------------------------------------------

    def privacy(self, learner_id: str, action: str, argument_json: str,
                now: datetime) -> PrivacyResult:
        words = self.phrases.privacy
        state = self.store.privacy(learner_id)
        try:
            argument = json_object(argument_json, 'argument_json')
        except ValueError as error:
            return PrivacyResult(False, str(error))
        if action == 'view':
            records = self.store.records(learner_id)
            return PrivacyResult(True, words.view, [r._asdict() for r in records])
        if action == 'correct':
            try:
                record = self.store.correct(learner_id, int(argument.get('record_id', 0)),
                                            dict(argument.get('fields', {})))
            except ValidationError as error:
                return PrivacyResult(False, '; '.join(describe(error)))
            except (TypeError, ValueError) as error:
                return PrivacyResult(False, str(error))
            if record is None:
                return PrivacyResult(False, 'no such record of this learner')
            return PrivacyResult(True, words.correct, record._asdict())
        if action == 'delete':
            self.store.set_privacy(learner_id, replace(state, pending_delete=True))
            return PrivacyResult(True, words.delete_confirm)
        if action in ('confirm_delete', 'cancel_delete'):
            self.store.set_privacy(learner_id, replace(state, pending_delete=False))
            if not state.pending_delete or action == 'cancel_delete':
                return PrivacyResult(action == 'cancel_delete', words.nothing_to_delete)
            return PrivacyResult(True, words.deleted, {'deleted': self.store.delete_records(
                learner_id)})
        if action in ('pause_linkage', 'resume_linkage'):
            skill = str(argument.get('skill', ''))
            if not skill:
                return PrivacyResult(False, 'name the SKILL: {"skill": "..."}')
            paused = dict(state.paused_skills)
            if action == 'pause_linkage':
                paused[skill] = now.timestamp() + self.windows.memory_pause
            else:
                paused.pop(skill, None)
            self.store.set_privacy(learner_id, replace(state, paused_skills=paused))
            phrase = words.paused if action == 'pause_linkage' else words.resumed
            return PrivacyResult(True, phrase.format(skill=self.phrases.skill_name(skill)))
        if action == 'no_memory':
            self.store.set_privacy(learner_id, replace(
                state, no_memory_until=now.timestamp() + self.windows.memory_pause))
            return PrivacyResult(True, words.no_memory)
        if action == 'no_sharing':
            self.store.set_privacy(learner_id, replace(state, no_sharing=True))
            return PrivacyResult(True, words.no_sharing)
        if action == 'export':
            report = self.monthly_report(learner_id, True, '', now)
            records = '\n\n'.join(r.as_text() for r in self.store.records(learner_id))
            return PrivacyResult(True, words.export, f'{report.text}\n\n{records}'.strip())
        return PrivacyResult(False, f'unknown action {action!r}; '
                                    f'one of {", ".join(PRIVACY_ACTIONS)}')


def _handover_key(raw: str) -> str:
    """The same handover resubmitted has the same key (session, type, sender, recipient)."""
    try:
        data = json.loads(raw)
        if isinstance(data, dict):
            return '|'.join(str(data.get(k, '')) for k in ('sessionId', 'handoverType', 'sender',
                                                          'recipient'))
    except ValueError:
        pass
    return f'unparsable|{hashlib.sha256(raw.encode()).hexdigest()}'
