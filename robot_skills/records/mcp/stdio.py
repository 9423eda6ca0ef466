"""``records_mcp``: the records' MCP server over stdio, for an agent host on the robot.

    records_mcp --role agent|learner|operator [--learner-id L] [--ros-args -r __ns:=/tianyi]

The host starts it and speaks MCP on its stdin and stdout. The tools are listed
from this process's ``TOOLS``; each call is forwarded over ROS to the node's
service for the role (``records/call``, ``records/learner/call`` with the
learner's id, ``records/operator/call``), so the store, the waits and their
wake-ups stay in the one ``learning_records`` node. The principal is this
process's configuration, not a token: whoever may start it is already on the
robot's ROS domain, where SROS2 governs the services (``config/sros2``).

Scope is what the service gives: records/call is the robot's unscoped agent and
records/learner/call scopes to the learner, so ``--learner-id`` for an agent and
``--pair-id`` for anyone are refused rather than pretended (a narrower agent
connects over HTTP with a token scoped to its pairs or learner).

stdout is the MCP channel: the SDK diverts file descriptor 1 to stderr while
it serves, before ROS starts, and rcutils logs to stderr (forced here), so
nothing of ROS or Fast DDS can write into the protocol.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

import anyio
import rclpy
from mcp.server.stdio import stdio_server
from rclpy.executors import Executor, SingleThreadedExecutor
from rclpy.node import Node
from rclpy.utilities import remove_ros_args

from robot_skills.records.live import MAX_WAIT
from robot_skills.records.mcp.bridge import on_executor
from robot_skills.records.mcp.server import build
from robot_skills.records.roles import OPERATOR, Principal, Role, agent, learner
from robot_skills.records.tools import Result
from robot_skills.runtime import entry, stop
from robot_skills.runtime.guard import DEEP_QOS
from robot_skills_interfaces.srv import RecordsCall, RecordsLearnerCall

SERVICES = {Role.AGENT: 'records/call', Role.LEARNER: 'records/learner/call',
            Role.OPERATOR: 'records/operator/call'}
FOUND = 30.0            # seconds a call waits for the node's service to be discovered
PROBE = 1.0             # seconds one probe waits for its answer (a fresh match may drop one)
ANSWER = MAX_WAIT + 10.0    # seconds a forwarded call waits for its answer (live_wait parks)
JOIN = 1.0          # seconds the end waits for the ROS thread


def main(argv: Sequence[str] | None = None) -> int:
    stop.install()          # SIGINT and SIGTERM end the script with status 0
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        options = _parser().parse_args(remove_ros_args(['records_mcp', *args])[1:])
        principal = _principal(options)
        anyio.run(_serve, principal, args)
    except BaseException:
        if stop.requested():
            return 0
        raise
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog='records_mcp', description='the learning records as '
                                     'an MCP server over stdio, forwarding to learning_records')
    parser.add_argument('--role', required=True, choices=[role.value for role in Role])
    parser.add_argument('--learner-id', default='', help="the learner's own id (--role learner)")
    parser.add_argument('--pair-id', action='append', default=[], help='refused: the ROS '
                        'services cannot narrow a call to pairs (use an HTTP token)')
    return parser


def _principal(options: argparse.Namespace) -> Principal:
    role = Role(options.role)
    if options.pair_id:
        _usage('--pair-id: the ROS services cannot narrow a call to pairs; connect over HTTP '
               'with a token scoped to them (token issue --pair-id)')
    if role is Role.LEARNER:
        if not options.learner_id:
            _usage('--role learner needs --learner-id')
        return learner(options.learner_id)
    if options.learner_id:
        _usage(f'--learner-id: records/call is the unscoped robot agent; --role {role.value} '
               'cannot be narrowed to one learner here (use an HTTP token)')
    return agent() if role is Role.AGENT else OPERATOR


def _usage(message: str) -> NoReturn:
    print(f'records_mcp: {message}', file=sys.stderr)
    raise SystemExit(2)


async def _serve(principal: Principal, args: list[str]) -> None:
    async with stdio_server() as (read, write):       # fd 1 is diverted from here on
        with _forwarder(principal, args) as forward:
            server = build(forward.call, lambda _ctx: principal)
            await server.run(read, write, server.create_initialization_options())


@contextmanager
def _forwarder(principal: Principal, args: list[str]) -> Iterator[Forward]:
    """rclpy started (stderr logging), a client node spinning on its own thread."""
    os.environ['RCUTILS_LOGGING_USE_STDOUT'] = '0'     # read by rclpy's init below
    entry.init(['records_mcp', *args])
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
        self._client = node.create_client(self._srv, self._service, qos_profile=DEEP_QOS)
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
