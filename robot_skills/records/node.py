"""learning_records: the teaching records of document 004 as a ROS service.

Service ``records/call`` (RecordsCall): a tool name and its arguments as
JSON in; ``ok``, ``code``, ``result_json``, ``error`` out, exactly what the
Python API and the command line answer. Each call is one SQLite transaction,
committed (synchronous FULL) before the answer leaves: an acknowledged write
survives a crash of the node. Every call is traced on ``skill_events`` by
tool and outcome only (arguments may hold a learner's words).

Parameters (read only): ``store_path``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy

from robot_skills.records.api import Records, Store
from robot_skills.runtime.entry import run
from robot_skills.runtime.params import Settings, setting
from robot_skills.runtime.tracing import Tracer
from robot_skills_interfaces.srv import RecordsCall

SKILL = 'learning_records'
# rclpy's default service queue keeps 10 requests: a burst of 20 calls in flight loses
# the rest silently (seen here). Callers should use a deep queue as well.
QOS = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE)


@dataclass(frozen=True)
class RecordsSettings:
    store_path: str = setting(os.path.expanduser('~/.robot_skills/records.sqlite3'),
                              'The SQLite file of the teaching records', read_only=True)


class LearningRecords(Node):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__('learning_records', **kwargs)
        value = Settings(self, RecordsSettings).value
        self.store = Store(value.store_path)
        self.records = Records(self.store)
        self.tracer = Tracer(self, SKILL)
        self.create_service(RecordsCall, 'records/call', self._on_call, qos_profile=QOS)
        self.tracer.emit('capabilities', detail={'store': value.store_path,
                                                 'schema_version': self.store.version})

    def _on_call(self, request: RecordsCall.Request,
                 response: RecordsCall.Response) -> RecordsCall.Response:
        result = self.records.call(request.tool, request.args_json)
        response.ok, response.code, response.error = result.ok, result.code, result.error
        response.result_json = result.to_json()
        # a refusal is an answer, not a fault of the node: traced and logged at info
        self.tracer.emit('call', request.tool, detail={'ok': result.ok, 'code': result.code,
                                                       'error': result.error})
        return response

    def destroy_node(self) -> None:
        self.store.close()
        super().destroy_node()


def main(args: list[str] | None = None) -> int:
    return run(LearningRecords, args)
