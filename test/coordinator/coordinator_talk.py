"""Talking to the coordinator in tests: the service on one fixed evening, and the node over DDS."""

from __future__ import annotations

from datetime import datetime

from rclpy.parameter import Parameter
from ros_harness import Harness, Recorder

from robot_skills.coordinator.core import Request
from robot_skills.coordinator.node import LearningCoordinator
from robot_skills.coordinator.service import CoordinatorService
from robot_skills_interfaces.msg import LearningRequest, RoutingDecision, SkillEvent
from robot_skills_interfaces.srv import (
    ConsentSettings,
    HealthCheck,
    MonthlyReport,
    PrivacyControl,
    SubmitHandover,
)

NOW = datetime(2026, 11, 30, 20, 0, 0)


class NodeClock:
    """The clock of the coordinator's memory (the node's clock), moved by hand in tests."""

    def __init__(self) -> None:
        self.seconds = 1000.0

    def __call__(self) -> float:
        return self.seconds


def ask(service: CoordinatorService, text: str, learner: str = 'l1', tags=(), now=NOW):
    return service.request(Request('r', learner, text, tuple(tags)), now)


SERVICES = {'handover': SubmitHandover, 'monthly_report': MonthlyReport,
            'health_check': HealthCheck, 'consent': ConsentSettings, 'privacy': PrivacyControl}


class Rig:
    """The coordinator on a store file, and a probe that talks to it as a learner app would."""

    def __init__(self, ros: Harness, store_path, **parameters) -> None:
        self.ros = ros
        self.node = ros.add(LearningCoordinator, parameter_overrides=[
            Parameter(k, value=v) for k, v in {'store_path': str(store_path),
                                               **parameters}.items()])
        probe = ros.node()
        self.probe = probe
        self.decisions = Recorder(probe, RoutingDecision, 'coordinator/decisions')
        self.events = Recorder(probe, SkillEvent, 'skill_events')
        self.requests = probe.create_publisher(LearningRequest, 'coordinator/requests', 10)
        self.clients = {name: probe.create_client(srv, f'coordinator/{name}')
                        for name, srv in SERVICES.items()}
        ros.until(lambda: self.requests.get_subscription_count() and all(
            c.service_is_ready() for c in self.clients.values()), what='coordinator ready')
        self.sent = 0

    def ask(self, text: str, learner: str = 'l1', tags=()) -> RoutingDecision:
        self.sent += 1
        request_id = f'q{self.sent}'
        self.requests.publish(LearningRequest(request_id=request_id, learner_id=learner, text=text,
                                              image_tags=list(tags)))
        return self.ros.until(lambda: next((d for d in self.decisions.messages
                                            if d.request_id == request_id), None),
                              what=f'decision for {text[:20]!r}')

    def call(self, name: str, **fields):
        request = SERVICES[name].Request(**fields)
        return self.ros.wait(self.clients[name].call_async(request))
