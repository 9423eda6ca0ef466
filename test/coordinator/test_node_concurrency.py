"""learning_coordinator over real DDS: a slow call never blocks the others (issue 17).

The harness spins the default single-threaded executor, as ``runtime/entry.py``
does. A slow call is held on an Event inside the service (no sleep, no timing):
the cheap calls must be answered while it is still held, and it is answered
once released. Requests stay in order per learner.
"""

from __future__ import annotations

import json
import threading

from robot_skills_interfaces.msg import LearningRequest
from robot_skills_interfaces.srv import HealthCheck, MonthlyReport

HELD = 30.0     # seconds a held call waits at most if the test fails before releasing it


def hold(rig, name: str) -> tuple[threading.Event, threading.Event]:
    """Make the service's ``name`` wait for ``release`` once it has ``started``."""
    started, release = threading.Event(), threading.Event()
    slow = getattr(rig.node.service, name)

    def held(*args):
        started.set()
        release.wait(HELD)
        return slow(*args)
    setattr(rig.node.service, name, held)
    return started, release


def test_cheap_calls_are_answered_while_a_slow_report_runs(rig):
    rig.call('consent', learner_id='l1', update_json='{"crossSkillSharing": true}')
    rig.ask('方程又错了')
    started, release = hold(rig, 'monthly_report')
    try:
        pending = rig.clients['monthly_report'].call_async(
            MonthlyReport.Request(learner_id='l1', agreed=True))
        rig.ros.until(started.is_set, what='the slow report started')
        health = rig.call('health_check', learner_id='l2')            # a read
        assert health.reading and not pending.done()
        consent = rig.call('consent', learner_id='l2',                # a write
                           update_json='{"reminderConsent": true}')
        assert consent.ok and not pending.done()
        decision = rig.ask('提醒我复习浮力', learner='l2')             # a routed request
        assert decision.action == 'reminder' and not pending.done()
        viewed = rig.call('privacy', learner_id='l1', action='view')
        assert len(json.loads(viewed.data_json)) == 1 and not pending.done()
    finally:
        release.set()
    report = rig.ros.wait(pending)
    assert report.generated and json.loads(report.report_json)['records'] == 1


def test_a_slow_health_check_does_not_hold_a_routing_decision(rig):
    started, release = hold(rig, 'health')
    try:
        pending = rig.clients['health_check'].call_async(HealthCheck.Request(learner_id='l1'))
        rig.ros.until(started.is_set, what='the slow health check started')
        assert rig.ask('这个方程怎么解', learner='l1').subject == 'math'
        assert not pending.done()
    finally:
        release.set()
    assert rig.ros.wait(pending).healthy_count == 0


def test_one_learners_requests_are_decided_in_the_order_they_arrived(rig):
    for learner in ('l1', 'l2'):
        rig.call('consent', learner_id=learner, update_json='{"reminderConsent": true}')
    sent = []
    for n in range(12):           # published back to back, two learners interleaved
        learner = ('l1', 'l2')[n % 2]
        sent.append((learner, f'o{n}'))
        rig.requests.publish(LearningRequest(request_id=f'o{n}', learner_id=learner,
                                             text='提醒我复习浮力'))
    rig.ros.until(lambda: len([d for d in rig.decisions.messages
                               if d.request_id.startswith('o')]) == 12, what='12 decisions')
    decided = [d for d in rig.decisions.messages if d.request_id.startswith('o')]
    for learner in ('l1', 'l2'):
        mine = [d for d in decided if d.learner_id == learner]
        assert [d.request_id for d in mine] == [r for who, r in sent if who == learner]
        # the first queued the reminder, every later one merged into it: decided in order
        assert [json.loads(d.detail_json).get('merged_into') is None for d in mine] == \
            [True] + [False] * 5
