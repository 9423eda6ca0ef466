"""learning_coordinator: routes learning requests, checks handovers, keeps linkage records.

Parameters (read only): ``store_path`` (the SQLite file), ``store_busy_timeout``,
``routing_file``, ``crisis_file``, ``crisis_model_file``, ``phrases_file``, ``dedupe_window``,
``pause_duration`` (这次不要记忆 / 这次不要联动 / 不要写回: how long "this time" lasts),
``reminder_merge_window``, ``delete_confirm_timeout``, ``health_window`` (durations in
seconds, REP 103), and the guard's
``max_field_chars``.
Subscribes: ``coordinator/requests`` (LearningRequest, a deep queue).
Publishes: ``coordinator/decisions`` (RoutingDecision), ``skill_events``.
Services: ``coordinator/handover`` (SubmitHandover), ``coordinator/monthly_report``
(MonthlyReport), ``coordinator/health_check`` (HealthCheck), ``coordinator/consent``
(ConsentSettings), ``coordinator/privacy`` (PrivacyControl).
It drives no device: the coordinator only routes, deduplicates and reports.

No learner words in traces or logs: a request is traced by its id, learner id,
length and image tags; a decision by its action, subject, stage, target and the
rule that decided (a concept appears as its key). A request longer than the
transport cap is not dropped: its first ``max_field_chars`` characters are
read for crisis signals first, then it is declined as too long. A deletion
whose bytes a reader still holds in the WAL is finished by a timer, traced
``purged``.

Concurrency, whatever the executor (the default is single-threaded): the node is a
``ServiceNode`` (``runtime/service_node.py``); a service callback is a coroutine
that hands the work to the node's worker pool (``WORKERS`` threads) and awaits it,
so the executor thread is free while a slow call (a monthly report over a year of
records) runs and a cheap call is answered meanwhile. Reads run in parallel,
writes are serialised (``service.py``, ``store.py``: one writer connection, one
read connection per thread). Requests on ``coordinator/requests`` are decided on
a worker too, one at a time in the order they arrived (the subscription's group
is mutually exclusive and its callback awaits the decision), so the
subscription's queue (``DEEP_QOS``) still bounds how many wait. That group is the
subscription's own: a request is never held up by the purge timer (in the
node's ``serial`` group), nor the timer by a request.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup

from robot_skills.adapters.config import load
from robot_skills.adapters.database import BUSY_TIMEOUT
from robot_skills.coordinator.core import Coordinator, Decision, Request
from robot_skills.coordinator.crisis_model import CrisisModel
from robot_skills.coordinator.lexicon import Crisis, Phrases, Routing
from robot_skills.coordinator.service import PRIVACY_ACTIONS, CoordinatorService, Windows
from robot_skills.coordinator.store import Store
from robot_skills.interface import (
    COORDINATOR_CONSENT,
    COORDINATOR_DECISIONS,
    COORDINATOR_HANDOVER,
    COORDINATOR_HEALTH_CHECK,
    COORDINATOR_MONTHLY_REPORT,
    COORDINATOR_PRIVACY,
    COORDINATOR_REQUESTS,
)
from robot_skills.runtime import paths
from robot_skills.runtime.diagnostics import store_part
from robot_skills.runtime.entry import run
from robot_skills.runtime.params import Settings, setting
from robot_skills.runtime.qos import profile
from robot_skills.runtime.service_node import ServiceNode
from robot_skills.runtime.tracing import to_json
from robot_skills_interfaces.msg import LearningRequest, RoutingDecision
from robot_skills_interfaces.srv import (
    ConsentSettings,
    HealthCheck,
    MonthlyReport,
    PrivacyControl,
    SubmitHandover,
)

SKILL = 'learning_coordinator'
PURGE_PERIOD = 1.0      # seconds between attempts to finish a deletion's cleanup
WORKERS = 4             # threads serving the services (reads in parallel)


@dataclass(frozen=True)
class CoordinatorSettings:
    store_path: str = setting(os.path.expanduser('~/.robot_skills/coordinator.sqlite3'),
                              'The SQLite file of linkage records, consent and privacy',
                              read_only=True)
    store_busy_timeout: float = setting(BUSY_TIMEOUT, 'Seconds a write waits for a lock held by '
                                        'another process before it is answered as unavailable',
                                        low=0.0, high=600.0, read_only=True)
    routing_file: str = setting(paths.config('coordinator/routing.yaml'),
                                'Subjects, units, image tags, stages', read_only=True)
    crisis_file: str = setting(paths.config('coordinator/crisis.yaml'),
                               'Crisis signals, hyperbole, help lines', read_only=True)
    crisis_model_file: str = setting(paths.config('coordinator/crisis_model.json'),
                                     'The crisis check\'s learnt weights (make train-crisis)',
                                     read_only=True)
    phrases_file: str = setting(paths.config('coordinator/phrases.yaml'),
                                'What the coordinator says', read_only=True)
    dedupe_window: float = setting(1800.0, 'Seconds: same learner + concept + SKILL is not '
                                   'dispatched twice within them', low=0.0, high=1e7,
                                   read_only=True)
    pause_duration: float = setting(3600.0, 'Seconds "this time" lasts for 不要记忆 / 不要联动 / '
                                    '不要写回', low=60.0, high=1e7, read_only=True)
    reminder_merge_window: float = setting(86400.0, 'Seconds: equal reminders within them merge',
                                           low=0.0, high=1e7, read_only=True)
    delete_confirm_timeout: float = setting(600.0, 'Seconds "确定要删除吗" waits for its answer',
                                            low=30.0, high=86400.0, read_only=True)
    health_window: float = setting(30 * 86400.0, 'Seconds before now the health check reads: '
                                   'the linkage records and reminders of one learner in them',
                                   low=86400.0, high=1e9, read_only=True)


class LearningCoordinator(ServiceNode):
    """The coordinator node (see the module docstring)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('learning_coordinator', SKILL, **kwargs)

    def configure(self) -> None:
        value = Settings(self, CoordinatorSettings).value
        coordinator = Coordinator(load(value.routing_file, Routing),
                                  load(value.crisis_file, Crisis),
                                  load(value.crisis_model_file, CrisisModel),
                                  load(value.phrases_file, Phrases))
        self.store = Store(value.store_path, value.store_busy_timeout)
        self.on_destroy(self.store.close)
        self.service = CoordinatorService(coordinator, self.store, Windows(
            value.dedupe_window, value.pause_duration, value.reminder_merge_window,
            value.delete_confirm_timeout, health=value.health_window),
            self.guard.limits, lambda: self.get_clock().now().nanoseconds / 1e9)
        # closed in reverse: the workers finish before the store closes
        self.open_workers(WORKERS, 'coordinator')
        self._decisions = self.create_publisher(RoutingDecision, COORDINATOR_DECISIONS.name,
                                                 profile(COORDINATOR_DECISIONS.qos))
        self.create_subscription(LearningRequest, COORDINATOR_REQUESTS.name, self._on_request,
                                 profile(COORDINATOR_REQUESTS.qos),
                                 callback_group=MutuallyExclusiveCallbackGroup(),
                                 oversize=self._on_oversize)
        self._purging = self.create_timer(PURGE_PERIOD, self._on_purge, self.serial,
                                          autostart=False)
        for srv, name, handler in (
                (SubmitHandover, COORDINATOR_HANDOVER.name, self._on_handover),
                (MonthlyReport, COORDINATOR_MONTHLY_REPORT.name, self._on_report),
                (HealthCheck, COORDINATOR_HEALTH_CHECK.name, self._on_health),
                (ConsentSettings, COORDINATOR_CONSENT.name, self._on_consent),
                (PrivacyControl, COORDINATOR_PRIVACY.name, self._on_privacy)):
            self.create_service(srv, name, handler, callback_group=self.calls)
        self.report('store', store_part(self.store, self.store.version))
        self.tracer.emit('capabilities', detail={'store': value.store_path,
                                                 'schema_version': self.store.version})

    async def _on_request(self, msg: LearningRequest, text: str | None = None) -> None:
        """Decided on a worker; the next request is taken once this one is answered."""
        request = Request(msg.request_id, msg.learner_id, msg.text if text is None else text,
                          tuple(msg.image_tags))
        known = self.service.core.router.image_tags
        self.tracer.emit('input', detail={
            'request_id': msg.request_id, 'learner_id': msg.learner_id, 'chars': len(msg.text),
            'image_tags': [t for t in msg.image_tags if t in known],
            'other_tags': sum(1 for t in msg.image_tags if t not in known)})
        decision = await self.workers.run(self.service.request, request, datetime.now(UTC))
        self._publish(msg, decision)
        self._purge_later()

    async def _on_oversize(self, msg: LearningRequest, field: str, size: int) -> None:
        """Beyond the transport cap: its first part is read for crisis signals, then declined."""
        if field != 'text':
            self.tracer.emit('input_rejected', detail={
                'request_id': msg.request_id[:200], 'field': field, 'size': size})
            return
        await self._on_request(msg, msg.text[:self.guard.limits.max_chars])

    def _purge_later(self) -> None:
        """A deletion whose bytes are still on disk: the timer finishes it."""
        with self.lock:         # the purge timer's cancel and reset
            if self.service.purge_pending and self._purging.is_canceled():
                self._purging.reset()

    async def _on_purge(self) -> None:
        purged = await self.workers.run(self.service.purge)
        with self.lock:         # a deletion made while it ran keeps the timer going
            if purged and not self.service.purge_pending:
                self._purging.cancel()
        if purged:
            self.tracer.emit('purged', detail={'wal': 'truncated'})

    def _publish(self, msg: LearningRequest, decision: Decision) -> None:
        if decision.detail.get('store') == 'unavailable':
            self.tracer.emit('degraded', decision.action, msg.learner_id,
                             {'request_id': msg.request_id, 'store': 'unavailable'})
        detail = {k: v for k, v in decision.detail.items() if k != 'data'}
        self._decisions.publish(RoutingDecision(
            stamp=self.get_clock().now().to_msg(), request_id=msg.request_id,
            learner_id=msg.learner_id, action=decision.action, subject=decision.subject,
            stage=decision.stage, target_skill=decision.target_skill,
            reply_text=decision.reply_text, detail_json=to_json(detail)))
        # a crisis is traced by its fact only: no words of the learner
        self.tracer.emit('decision', decision.action, msg.learner_id, {
            'request_id': msg.request_id, 'subject': decision.subject, 'stage': decision.stage,
            'target_skill': decision.target_skill,
            **({'fact': '已转介'} if decision.action == 'crisis_referral' else detail)})

    async def _on_handover(self, request: SubmitHandover.Request,
                           response: SubmitHandover.Response) -> SubmitHandover.Response:
        result = await self.workers.run(self.service.handover, request.handover_json,
                                        datetime.now(UTC))
        response.accepted, response.errors = result.accepted, list(result.errors)
        response.reply_text = result.reply_text
        self.tracer.emit('handover', 'accepted' if result.accepted else 'refused',
                         detail={'errors': len(result.errors), **result.detail})
        return response

    async def _on_report(self, request: MonthlyReport.Request,
                         response: MonthlyReport.Response) -> MonthlyReport.Response:
        report = await self.workers.run(self.service.monthly_report, request.learner_id,
                                        request.agreed, request.session_notes, datetime.now(UTC))
        response.generated, response.session_only = report.generated, report.session_only
        response.report_text, response.report_json = report.text, to_json(report.data)
        self.tracer.emit('report', 'generated' if report.generated else 'offered',
                         request.learner_id, {'session_only': report.session_only})
        return response

    async def _on_health(self, request: HealthCheck.Request,
                         response: HealthCheck.Response) -> HealthCheck.Response:
        health = await self.workers.run(self.service.health, request.learner_id, datetime.now(UTC))
        response.healthy_count, response.reading = health.healthy_count, health.reading
        response.report_text, response.indicators_json = health.text, to_json(health.indicators)
        self.tracer.emit('health_check', health.reading, request.learner_id,
                         {'healthy': health.healthy_count})
        return response

    async def _on_consent(self, request: ConsentSettings.Request,
                          response: ConsentSettings.Response) -> ConsentSettings.Response:
        ok, consent, error = await self.workers.run(self.service.consent, request.learner_id,
                                                    request.update_json)
        response.ok, response.consent_json, response.error = ok, consent.model_dump_json(), error
        self.tracer.emit('consent', 'updated' if request.update_json else 'read',
                         request.learner_id, {'ok': ok})
        return response

    async def _on_privacy(self, request: PrivacyControl.Request,
                          response: PrivacyControl.Response) -> PrivacyControl.Response:
        result = await self.workers.run(self.service.privacy, request.learner_id, request.action,
                                        request.argument_json, datetime.now(UTC))
        response.ok, response.reply_text = result.ok, result.reply_text
        response.data_json = json.dumps(result.data, ensure_ascii=False, default=str)
        self._purge_later()
        action = request.action if request.action in PRIVACY_ACTIONS else 'unknown'
        self.tracer.emit('privacy', action, request.learner_id, {'ok': result.ok})
        return response


def main(args: list[str] | None = None) -> int:
    return run(LearningCoordinator, args)
