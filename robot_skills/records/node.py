"""learning_records: the teaching records of document 004 as a ROS service.

Service ``records/call`` (RecordsCall): a tool name and its arguments as
JSON in; ``ok``, ``code``, ``result_json``, ``error`` out, exactly what the
Python API and the command line answer. It is the agent's: a learner-side
tool is refused there with PERMISSION. The learner's pages call
``records/learner/call`` (RecordsLearnerCall, with her ``learner_id``: her
pairs only) and the operators' tools ``records/operator/call`` (RecordsCall),
so that a deployment governs each with SROS2 (``config/sros2/policy.xml``);
the roles themselves are checked in the core (``roles.py``). Each call is one SQLite transaction,
committed (synchronous FULL) before the answer leaves: an acknowledged write
survives a crash of the node. Every call is traced on ``skill_events`` by
tool, code and the argument a refusal names, never by its words or error text
(arguments may hold a learner's words). ``args_json`` goes through the wire
parser; a store that is locked or read-only answers ``UNAVAILABLE``; any
other fault answers ``INTERNAL`` (the guard), and the node goes on.

Calls are served at once (the node is a ``ServiceNode``,
``runtime/service_node.py``), on a few worker threads: reads (``get_context``,
``verify_prep`` ...) run in parallel on snapshots, writes one at a time, so a
30-lesson course check never delays a cheap call (issue 17).

``live_wait`` waits here: with no event after its cursor the call is parked
(no polling: a future and one timer) and answered when a call appends an
event for its pair, or when ``timeout_s`` runs out. Every new event is also
published on ``records/live_events`` (RecordsEvent). Producers must write
through this node for a parked wait to wake (a write to the same file by
another process is seen by the next call, not pushed).

The same calls are served over MCP (streamable HTTP at ``/mcp``, bearer tokens)
by this process when ``mcp_http_port`` is set (``mcp/http.py``), through
``serve``: one store, one set of parked waits for ROS and MCP alike.

Parameters (read only): ``store_path``, ``store_busy_timeout``, ``mcp_http_port``
(0: no HTTP server), ``mcp_http_host`` (127.0.0.1), and the guard's
``max_field_chars``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any

from robot_skills.adapters.database import BUSY_TIMEOUT
from robot_skills.interface import (
    RECORDS_CALL,
    RECORDS_LEARNER_CALL,
    RECORDS_LIVE_EVENTS,
    RECORDS_OPERATOR_CALL,
)
from robot_skills.model import wire
from robot_skills.records import erasure
from robot_skills.records.api import TOOLS, Records, Result, Store
from robot_skills.records.live.presence import MAX_WAIT
from robot_skills.records.roles import OPERATOR, Principal, agent, learner
from robot_skills.runtime.diagnostics import store_part
from robot_skills.runtime.entry import run
from robot_skills.runtime.params import Settings, setting
from robot_skills.runtime.qos import profile
from robot_skills.runtime.service_node import ServiceNode
from robot_skills.runtime.waits import Waits
from robot_skills_interfaces.msg import RecordsEvent
from robot_skills_interfaces.srv import RecordsCall, RecordsLearnerCall

SKILL = 'learning_records'
PURGE_PERIOD = 1.0  # seconds between attempts to clear an erasure's old text from the WAL
WORKERS = 4         # calls served at once (SQLite reads in parallel; writes queue in the store)


@dataclass(frozen=True)
class RecordsSettings:
    store_path: str = setting(os.path.expanduser('~/.robot_skills/records.sqlite3'),
                              'The SQLite file of the teaching records', read_only=True)
    store_busy_timeout: float = setting(BUSY_TIMEOUT, 'Seconds a write waits for a lock held by '
                                        'another process before it answers UNAVAILABLE',
                                        low=0.0, high=600.0, read_only=True)
    mcp_http_port: int = setting(0, 'TCP port of the MCP server over streamable HTTP in this '
                                 'node, at /mcp, with bearer tokens (0: no HTTP server)',
                                 low=0, high=65535, read_only=True)
    mcp_http_host: str = setting('127.0.0.1', 'Address the MCP HTTP server listens on '
                                 '(127.0.0.1: this machine only)', read_only=True)


class LearningRecords(ServiceNode):
    """The records node (see the module docstring)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('learning_records', SKILL, **kwargs)

    def configure(self) -> None:
        value = Settings(self, RecordsSettings).value
        self.store = Store(value.store_path, value.store_busy_timeout)
        self.on_destroy(self.store.close)
        self.records = Records(self.store, limits=self.guard.limits)
        # Calls run on worker threads (reads in parallel, writes one at a time in the store),
        # so a slow course check never holds up a cheap call; a live_wait parks without a
        # thread, by pair. self.lock guards the last event published and the erasure count.
        # Closed in reverse: the workers finish before the store closes.
        self.open_workers(WORKERS, 'records')
        self._events_of: Waits[str] = self.waits()
        self._published = self.store.last_live_seq()
        self._events = self.create_publisher(RecordsEvent, RECORDS_LIVE_EVENTS.name,
                                             profile(RECORDS_LIVE_EVENTS.qos))
        self.create_service(RecordsCall, RECORDS_CALL.name, self._on_agent_call,
                            callback_group=self.calls)
        self.create_service(RecordsLearnerCall, RECORDS_LEARNER_CALL.name, self._on_learner_call,
                            callback_group=self.calls)
        self.create_service(RecordsCall, RECORDS_OPERATOR_CALL.name, self._on_operator_call,
                            callback_group=self.calls)
        # an erasure's old text leaves the WAL at a TRUNCATE checkpoint, which needs a moment
        # without readers: retried each PURGE_PERIOD until it succeeds
        self._purging = self.create_timer(PURGE_PERIOD, self._on_purge, self.serial)
        self._purging.cancel()
        self._erasures = 0
        self.report('store', store_part(self.store, self.store.version))
        http = self._http(value.mcp_http_host, value.mcp_http_port)
        self.tracer.emit('capabilities', detail={'store': value.store_path,
                                                 'schema_version': self.store.version, **http})

    def _http(self, host: str, port: int) -> dict[str, str]:
        """The MCP server over HTTP when ``port`` is set (mcp/http.py); its URL for the trace."""
        if not port:
            return {}
        from robot_skills.records.mcp.http import Http  # the SDK loads only when it serves
        http = Http(self, host, port)
        self.on_destroy(http.close)
        return {'mcp_http': http.url}

    async def _on_agent_call(self, request: RecordsCall.Request,
                             response: RecordsCall.Response) -> RecordsCall.Response:
        return await self._answer(agent(), request, response)

    async def _on_learner_call(self, request: RecordsLearnerCall.Request,
                               response: RecordsLearnerCall.Response
                               ) -> RecordsLearnerCall.Response:
        if not request.learner_id or len(request.learner_id) > 200:
            response.ok, response.code, response.result_json = False, 'VALIDATION', '{}'
            response.error = 'learner_id: 1 to 200 characters'
            self.tracer.emit('call', 'unknown', detail={'ok': False, 'code': 'VALIDATION',
                                                        'field': 'learner_id',
                                                        'role': 'learner'})
            return response
        return await self._answer(learner(request.learner_id), request, response)

    async def _on_operator_call(self, request: RecordsCall.Request,
                                response: RecordsCall.Response) -> RecordsCall.Response:
        return await self._answer(OPERATOR, request, response)

    async def _answer(self, principal: Principal, request: Any, response: Any) -> Any:
        result = await self.serve(principal, request.tool, request.args_json)
        response.ok, response.code, response.error = result.ok, result.code, result.error
        response.result_json = result.to_json()
        return response

    async def serve(self, principal: Principal, tool: str, args_json: str) -> Result:
        """One call as ``principal``, a live_wait parked until its event; traced by tool,
        code, the argument a refusal names and the caller's role (never the words)."""
        result = await self.workers.run(self._call, tool, args_json, principal)
        if tool == 'live_wait' and result.ok and result.result['timeout']:
            result = await self._wait(args_json, result, principal)
        if tool == 'erase_my_words' and result.ok and result.result['erased']:
            with self.lock:
                self._erasures += 1
                self._purging.reset()
        # a refusal is an answer, not a fault of the node: traced and logged at info
        self.tracer.emit('call', tool if tool in TOOLS else 'unknown',
                         detail={'ok': result.ok, 'code': result.code, 'field': result.field,
                                 'role': principal.role.value})
        return result

    async def _on_purge(self) -> None:
        with self.lock:
            erasures = self._erasures
        if await self.workers.run(erasure.purge, self.store):
            with self.lock:        # an erasure committed while it ran keeps the timer going
                if erasures == self._erasures:
                    self._purging.cancel()
            self.tracer.emit('purged', detail={'wal': 'truncated'})

    def _call(self, tool: str, args: str | dict, principal: Principal) -> Result:
        """One call (on a worker thread), then the live events it appended, published."""
        result = self.records.call(tool, args, principal)
        if tool not in TOOLS or TOOLS[tool].reads:
            return result
        with self.lock:        # in seq order, each once
            fresh = self.store.live_events_after(self._published)
            if fresh:
                self._published = fresh[-1]['seq']
            for row in fresh:
                self._events.publish(RecordsEvent(
                    stamp=self.get_clock().now().to_msg(), seq=row['seq'],
                    pair_id=row['pair_id'], kind=row['kind'],
                    live_session_id=row['live_session_id'] or '', payload_json=row['payload']))
        for pair_id in {row['pair_id'] for row in fresh}:
            self._events_of.settle(pair_id)
        return result

    async def _wait(self, args_json: str, first: Result, principal: Principal) -> Result:
        """Park a live_wait that found nothing until an event for its pair, or its timeout."""
        args = wire.json_object(args_json, 'args_json', self.guard.limits)   # parsed once before
        timeout = float(args.get('timeout_s', MAX_WAIT))
        if timeout <= 0:
            return first
        pair_id: str = (args.get('pair_id', '')   # a str: the first call validated the arguments
                        or await self.workers.run(self._active_pair, principal))
        self.tracer.emit('waiting', 'live_wait', detail={'timeout_s': timeout})

        def missed() -> bool:
            """An event committed between the first look and now, which woke nobody."""
            return self.store.has_live_event(pair_id, first.result['cursor'])
        if not await self._events_of.wait(pair_id, timeout, missed):
            return first
        again = ({**args, 'timeout_s': 0, 'since': first.result['cursor']}
                 if not args.get('consumer_id') else {**args, 'timeout_s': 0})
        return await self.workers.run(self._call, 'live_wait', again, principal)

    def _active_pair(self, principal: Principal) -> str:
        with self.store.read():
            return replace(self.records.context, principal=principal).pair()


def main(args: list[str] | None = None) -> int:
    return run(LearningRecords, args)
