"""Clients of learning_records' three services for tests, as a robot node, a learner's pages
or an operator's console would hold them.

``Client.call``/``ok`` go to ``records/call`` (the agent), ``learner(learner_id)`` returns
that learner's side on ``records/learner/call``, ``operator`` the side on
``records/operator/call``; each side has the same ``call``/``ok``/``send``.
"""

from __future__ import annotations

import json
from typing import Any

from ros_harness import Harness, Recorder

from robot_skills.interface import DEEP_QOS
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.msg import SkillEvent
from robot_skills_interfaces.srv import RecordsCall, RecordsLearnerCall

QOS = profile(DEEP_QOS)


class Side:
    """One service of the node, called as one principal (``learner_id`` for the learner's)."""

    def __init__(self, ros: Harness, client: Any, srv: Any, **fixed: str) -> None:
        self.ros, self.client, self.srv, self.fixed = ros, client, srv, fixed

    def request(self, tool: str, args_json: str) -> Any:
        return self.srv.Request(tool=tool, args_json=args_json, **self.fixed)

    def send(self, tool: str, **args):
        """The call in flight (a future)."""
        return self.client.call_async(self.request(tool, json.dumps(args, ensure_ascii=False)))

    def call(self, tool: str, **args) -> Any:
        return self.ros.wait(self.send(tool, **args))

    def ok(self, tool: str, **args) -> dict:
        response = self.call(tool, **args)
        assert response.ok, (tool, response.code, response.error)
        return json.loads(response.result_json)


class Client(Side):
    """The agent's side (``records/call``) and, on demand, the learner's and the operator's."""

    def __init__(self, ros: Harness, namespace: str | None = None) -> None:
        probe = ros.node(namespace)
        self.events = Recorder(probe, SkillEvent, 'skill_events')
        super().__init__(ros, _ready(ros, probe.create_client(RecordsCall, 'records/call',
                                                              qos_profile=QOS),
                                     RecordsCall.Request(tool='', args_json=''),
                                     'records/call'), RecordsCall)
        self._probe = probe
        self._learner_client: Any = None
        self._operator: Side | None = None

    def learner(self, learner_id: str) -> Side:
        """``learner_id``'s own pages: ``records/learner/call``, scoped to her pairs."""
        if self._learner_client is None:
            self._learner_client = _ready(self.ros, self._probe.create_client(
                RecordsLearnerCall, 'records/learner/call', qos_profile=QOS),
                RecordsLearnerCall.Request(learner_id='probe', tool='', args_json=''),
                'records/learner/call')
        return Side(self.ros, self._learner_client, RecordsLearnerCall, learner_id=learner_id)

    @property
    def operator(self) -> Side:
        """The operators' console: ``records/operator/call``."""
        if self._operator is None:
            self._operator = Side(self.ros, _ready(self.ros, self._probe.create_client(
                RecordsCall, 'records/operator/call', qos_profile=QOS),
                RecordsCall.Request(tool='', args_json=''), 'records/operator/call'),
                RecordsCall)
        return self._operator


def _ready(ros: Harness, client: Any, harmless: Any, what: str) -> Any:
    """``client`` once its service has answered one call (an unknown tool: no write); a server
    just discovered may still drop the first responses, so the stream starts only after one
    came back."""
    ros.until(client.service_is_ready, timeout=30.0, what=what)

    def answers() -> bool:
        try:
            return ros.wait(client.call_async(harmless), timeout=1.0).code == 'VALIDATION'
        except TimeoutError:
            return False
    ros.until(answers, timeout=30.0, what=f'a first answer from {what}')
    return client
