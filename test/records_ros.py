"""A records/call client for tests, as a learner app or a robot node would hold one."""

from __future__ import annotations

import json

from ros_harness import Harness, Recorder

from robot_skills.runtime.guard import DEEP_QOS as QOS
from robot_skills_interfaces.msg import SkillEvent
from robot_skills_interfaces.srv import RecordsCall


class Client:
    def __init__(self, ros: Harness, namespace: str | None = None) -> None:
        self.ros = ros
        probe = ros.node(namespace)
        self.events = Recorder(probe, SkillEvent, 'skill_events')
        self.client = probe.create_client(RecordsCall, 'records/call', qos_profile=QOS)
        ros.until(self.client.service_is_ready, timeout=30.0, what='records/call')
        ros.until(self._answers, timeout=30.0, what='a first answer from records/call')

    def _answers(self) -> bool:
        """One round trip (an unknown tool: no write); a server just discovered may still
        drop the first responses, so the stream starts only after one came back."""
        future = self.client.call_async(RecordsCall.Request(tool='', args_json=''))
        try:
            return self.ros.wait(future, timeout=1.0).code == 'VALIDATION'
        except TimeoutError:
            return False

    def call(self, tool: str, **args) -> RecordsCall.Response:
        return self.ros.wait(self.client.call_async(RecordsCall.Request(
            tool=tool, args_json=json.dumps(args, ensure_ascii=False))))

    def ok(self, tool: str, **args) -> dict:
        response = self.call(tool, **args)
        assert response.ok, (tool, response.code, response.error)
        return json.loads(response.result_json)
