"""learning_records served over MCP for the tests: the real node over real DDS, the SDK's
own clients (the fixtures are in ``conftest.py``).

``Served`` is a records node in this process, in a context of its own whose executor
spins on a thread of its own (as ``learning_records`` spins in its main thread while
uvicorn serves on another), with MCP over HTTP on a free port. The test's ROS side
(``Sides``) lives in the harness's context, spun by whoever waits on it.
MCP clients run in ``anyio.run``; a ROS wait inside one goes to a worker thread.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx2
import mcp_types as types
import rclpy
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from rclpy.context import Context
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter
from ros_harness import Harness, Recorder

from robot_skills.records import access
from robot_skills.records.api import Store
from robot_skills.records.node import LearningRecords
from robot_skills.records.roles import Principal

WAIT = 20.0         # seconds a parked wait may last in a test (it is woken long before)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


class Served:
    """learning_records in this process with MCP over HTTP (see the module docstring)."""

    def __init__(self, path: Path, namespace: str) -> None:
        self.path, self.namespace, self.port = path, namespace, free_port()
        self.url = f'http://127.0.0.1:{self.port}/mcp'
        self.context = Context()
        rclpy.init(context=self.context)
        self.node = LearningRecords(context=self.context, namespace=namespace,
                                    parameter_overrides=[
                                        Parameter('store_path', value=str(path)),
                                        Parameter('mcp_http_port', value=self.port)])
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._spinner = threading.Thread(target=self.executor.spin, daemon=True)
        self._spinner.start()
        self.store = Store(str(path))        # the operators' own connection, as their CLI has

    def token(self, principal: Principal, days: float = 1.0,
              now: datetime | None = None) -> access.Issued:
        return access.issue(self.store, principal, days, now or datetime.now(UTC), 'test')

    def rows(self) -> int:
        """Every row of every table but the tokens': what a call may have written."""
        with sqlite3.connect(self.path) as db:
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = "
                                               "'table' AND name != 'access_token'")]
            return sum(db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables)

    def close(self) -> None:
        self.executor.shutdown()
        self._spinner.join(5.0)
        self.node.destroy_node()
        self.store.close()
        rclpy.try_shutdown(context=self.context)


class Side:
    """One service of the node as a ROS caller holds it (the learner's pages, a robot node)."""

    def __init__(self, ros: Harness, client: Any, srv: Any, **fixed: str) -> None:
        self.ros, self.client, self.srv, self.fixed = ros, client, srv, fixed

    def send(self, tool: str, args_json: str) -> Any:
        return self.client.call_async(self.srv.Request(tool=tool, args_json=args_json,
                                                       **self.fixed))

    def call(self, tool: str, args: Any) -> Any:
        """Call with ``args`` as JSON text (a str is sent as it is)."""
        text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
        return self.ros.wait(self.send(tool, text))


@dataclass
class Sides:
    agent: Side
    learner: Side           # learner l1
    events: Recorder        # the node's skill_events

    def parked(self) -> int:
        return sum(1 for event in self.events.messages if event.kind == 'waiting')


def ready(ros: Harness, client: Any, srv: Any, **fixed: str) -> Side:
    """The side once its service answered one harmless call (an unknown tool): a server
    just matched may drop the first responses."""
    side = Side(ros, client, srv, **fixed)
    ros.until(client.service_is_ready, timeout=30.0, what='the service')

    def answers() -> bool:
        try:
            return ros.wait(side.send('', ''), timeout=1.0).code == 'VALIDATION'
        except TimeoutError:
            return False
    ros.until(answers, timeout=30.0, what='a first answer')
    return side


@asynccontextmanager
async def over_http(url: str, token: str, mode: str = 'auto') -> AsyncIterator[Client]:
    """An MCP client session over streamable HTTP with a bearer token; ``mode`` 'legacy' is
    the initialize handshake of the hosts before 2026-07-28, 'auto' the newest protocol."""
    async with httpx2.AsyncClient(headers={'Authorization': f'Bearer {token}'},
                                  timeout=httpx2.Timeout(30.0, read=60.0)) as http, \
            Client(streamable_http_client(url, http_client=http), mode=mode) as client:
        yield client


@asynccontextmanager
async def over_stdio(namespace: str, log: Path, *options: str) -> AsyncIterator[Client]:
    """``records_mcp`` started as an MCP host starts it, speaking to the node in ``namespace``;
    every line on its stdout must be MCP (a stray one fails the test)."""
    command = os.path.join(os.path.dirname(sys.executable), 'records_mcp')
    strays: list[Exception] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):
            strays.append(message)
    with log.open('a') as errors:
        params = StdioServerParameters(command=command, args=[
            *options, '--ros-args', '-r', f'__ns:={namespace}'], env=dict(os.environ))
        async with Client(stdio_client(params, errlog=errors), message_handler=on_message,
                          read_timeout_seconds=60.0) as client:
            yield client
    assert strays == []


class AnyArguments(types.CallToolRequestParams):
    arguments: Any = None


class RawCall(types.CallToolRequest):
    """tools/call whose arguments may be anything (what a hostile client sends)."""

    params: AnyArguments


async def raw_call(client: Client, tool: str, arguments: Any) -> types.CallToolResult:
    return await client.session.send_request(
        RawCall(params=AnyArguments(name=tool, arguments=arguments)), types.CallToolResult)


async def ok(client: Client, tool: str, **args: Any) -> dict:
    """A call that must succeed; its structured content (the text block says the same)."""
    result = await client.call_tool(tool, args)
    assert not result.is_error, (tool, result.content[0].text)
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


def refusal(result: types.CallToolResult) -> dict:
    """A tool error's JSON body ({"code", "error", "shortfall"?})."""
    assert result.is_error and result.structured_content is None
    return json.loads(result.content[0].text)
