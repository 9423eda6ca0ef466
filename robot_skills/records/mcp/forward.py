"""Serve MCP on stdin and stdout, forwarding each call over ROS to the records node.

The tools are listed from this process's ``TOOLS``; each call goes to the
node's service for the principal's role (``records/call``,
``records/learner/call`` with her id, ``records/operator/call``) through the
node's own executor (``bridge.py``), so the store, the waits and their wake-ups
live in the one ``learning_records`` node.

stdout is the MCP channel: the SDK diverts file descriptor 1 to stderr while it
serves, and ROS starts only after that, with rcutils logging to stderr (forced
here), so nothing of ROS or Fast DDS can write into the protocol.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import rclpy
from mcp.server.stdio import stdio_server
from rclpy.client import Client
from rclpy.executors import Executor, SingleThreadedExecutor
from rclpy.node import Node

from robot_skills.interface import (
    DEEP_QOS,
    RECORDS_CALL,
    RECORDS_LEARNER_CALL,
    RECORDS_OPERATOR_CALL,
)
from robot_skills.records.live.presence import MAX_WAIT
from robot_skills.records.mcp.bridge import on_executor
from robot_skills.records.mcp.server import build
from robot_skills.records.roles import Principal, Role
from robot_skills.records.tools import Result
from robot_skills.runtime import entry
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.srv import RecordsCall, RecordsLearnerCall

SERVICES = {Role.AGENT: RECORDS_CALL.name, Role.LEARNER: RECORDS_LEARNER_CALL.name,
            Role.OPERATOR: RECORDS_OPERATOR_CALL.name}
FOUND = 30.0            # seconds a call waits for the node's service to be discovered
PROBE = 1.0             # seconds one probe waits for its answer (a fresh match may drop one)
ANSWER = MAX_WAIT + 10.0    # seconds a forwarded call waits for its answer (live_wait parks)
JOIN = 1.0          # seconds the end waits for the ROS thread


def serve(principal: Principal, ros_args: list[str]) -> None:
    """Serve until the host closes stdin."""
    anyio.run(_serve, principal, ros_args)


async def _serve(principal: Principal, ros_args: list[str]) -> None:
    async with stdio_server() as (read, write):       # fd 1 is diverted from here on
        with _forwarder(principal, ros_args) as forward:
            server = build(forward.call, lambda _ctx: principal)
            await server.run(read, write, server.create_initialization_options())


@contextmanager
def _forwarder(principal: Principal, ros_args: list[str]) -> Iterator[Forward]:
    """The rclpy context started (stderr logging), a client node spinning on its own thread."""
    os.environ['RCUTILS_LOGGING_USE_STDOUT'] = '0'     # read by rclpy's init below
    entry.init(['records_mcp', *ros_args])
    executor = SingleThreadedExecutor()
    node = Node(f'records_mcp_{os.getpid()}')
    executor.add_node(node)
    spinner = threading.Thread(target=executor.spin, name='records-mcp-ros', daemon=True)
    spinner.start()
    try:
        yield Forward(node, executor, principal)
    finally:
        executor.shutdown(timeout_sec=0)        # wakes the spin, which ends
        spinner.join(JOIN)
        node.destroy_node()
        rclpy.try_shutdown()


class Forward:
    """Calls as ``principal`` over its role's service of the records node."""

    def __init__(self, node: Node, executor: Executor, principal: Principal) -> None:
        self._srv = RecordsLearnerCall if principal.role is Role.LEARNER else RecordsCall
        self._fixed = {'learner_id': principal.learner_id} if principal.learner_id else {}
        self._service = SERVICES[principal.role]
        # either role's service type: rclpy's create_client cannot infer the two from _srv
        self._client: Client[Any, Any] = node.create_client(self._srv, self._service,
                                                             qos_profile=profile(DEEP_QOS))
        self._executor = executor
        self._ready = anyio.Lock()
        self._answered = False

    async def call(self, _principal: Principal, tool: str, args_json: str) -> Result:
        if not await self._reachable():
            return Result(False, 'UNAVAILABLE', error=f'no learning_records node answers '
                                                      f'{self._service} (its namespace, '
                                                      'ROS_DOMAIN_ID?)')
        response = await self._send(tool, args_json, ANSWER)
        if response is None:
            return Result(False, 'UNAVAILABLE', error=f'{self._service}: no answer within '
                                                      f'{ANSWER:g} s')
        return Result(response.ok, response.code, json.loads(response.result_json or '{}'),
                      response.error)

    async def _reachable(self) -> bool:
        """Once per process: the service discovered and one harmless call answered (an unknown
        tool writes nothing): a server just matched may drop the first responses."""
        async with self._ready:
            if not self._answered:
                found = await anyio.to_thread.run_sync(self._client.wait_for_service, FOUND)
                deadline = anyio.current_time() + FOUND
                while found and not self._answered and anyio.current_time() < deadline:
                    self._answered = await self._send('', '', PROBE) is not None
            return self._answered

    async def _send(self, tool: str, args_json: str, timeout: float) -> Any:
        """The service's response, or None after ``timeout`` seconds."""
        request = self._srv.Request(tool=tool, args_json=args_json, **self._fixed)

        async def sent() -> Any:
            return await self._client.call_async(request)
        with anyio.move_on_after(timeout):
            return await on_executor(self._executor, sent)
        return None
