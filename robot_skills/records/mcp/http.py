"""The records' MCP server over streamable HTTP, hosted inside the records node.

Inside, not beside: a call runs through ``LearningRecords.serve`` on the node's
executor (``bridge.py``), so a ``live_wait`` parked over HTTP is woken by a write
over ROS and the other way round, by the node's one wait machinery.

uvicorn serves on a thread of its own with its own asyncio loop. The node binds
the socket itself in ``configure()``, so a port already taken fails the node's
start with the reason and a client can connect as soon as the node is up (the
backlog holds it until uvicorn accepts). Port 0 means no HTTP server; there is
no ephemeral-port option (tests pick a free port first); the URL served is in
the node's ``capabilities`` trace (``mcp_http``).

Every HTTP request is authorised on its own: ``Authorization: Bearer <token>``
(``access.py``) must stand for a principal now, or the answer is 401 and nothing
runs, so a revoked or expired token stops working on its next request, even
inside an open MCP session. On a loopback host the SDK's DNS-rebinding
protection checks ``Host`` and ``Origin``. Request bodies beyond the SDK's
4 MiB are refused (413) before parsing; anything smaller reaches the core.

Shutdown with the node (``on_destroy``): a ``live_wait`` parked over HTTP is
answered UNAVAILABLE at once (no event consumed: call again), uvicorn stops
accepting and gives the other open responses ``GRACE`` seconds, then cancels
them.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import uvicorn
from mcp.server import ServerRequestContext
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from robot_skills.records import access
from robot_skills.records.api import Result
from robot_skills.records.mcp.bridge import on_executor
from robot_skills.records.mcp.server import build
from robot_skills.records.roles import Principal

if TYPE_CHECKING:
    from robot_skills.records.node import LearningRecords

PRINCIPAL = 'records.principal'     # the ASGI scope key the bearer check fills
GRACE = 0.2         # seconds open responses get at shutdown before they are cancelled
JOIN = 2.0          # seconds close() waits for the server's thread


class Http:
    """The MCP server of ``node`` on ``host``:``port`` (see the module docstring)."""

    def __init__(self, node: LearningRecords, host: str, port: int) -> None:
        self._node = node
        family = socket.AF_INET6 if ':' in host else socket.AF_INET
        self._socket = socket.create_server((host, port), family=family)
        self.url = f'http://{f"[{host}]" if ":" in host else host}:{port}/mcp'
        app = build(self._call, _principal).streamable_http_app(host=host)
        self._server = uvicorn.Server(uvicorn.Config(
            Bearer(app, self._authorised), log_config=None, access_log=False,
            # uvicorn annotates it int, but hands it to asyncio.wait_for: a float works
            timeout_graceful_shutdown=GRACE, log_level='warning'))  # type: ignore[arg-type]
        self._thread = threading.Thread(target=self._server.run, kwargs={
            'sockets': [self._socket]}, name='records-mcp-http', daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None     # uvicorn's, once called
        self._stopping = asyncio.Event()
        self._thread.start()

    def close(self) -> None:
        if self._loop is not None:              # parked waits answer at once (_call)
            with contextlib.suppress(RuntimeError):     # that loop has ended already
                self._loop.call_soon_threadsafe(self._stopping.set)
        self._server.should_exit = True
        self._thread.join(JOIN)
        self._socket.close()

    def _authorised(self, authorization: str) -> Principal | None:
        """The principal of an ``Authorization`` header's bearer token; None (traced) when it
        stands for nobody now."""
        scheme, _, token = authorization.partition(' ')
        principal = (access.principal_of(self._node.store, token.strip(), datetime.now(UTC))
                     if scheme.lower() == 'bearer' else None)
        if principal is None and self._node.executor is not None:   # traced by the node
            self._node.executor.create_task(self._node.tracer.emit, 'input_rejected', detail={
                'service': 'mcp_http', 'reason': 'no valid bearer token'})
        return principal

    async def _call(self, principal: Principal, tool: str, args_json: str) -> Result:
        executor = self._node.executor
        if executor is None:
            return Result(False, 'UNAVAILABLE', error='the records node is not spinning')
        self._loop = asyncio.get_running_loop()
        work = asyncio.ensure_future(on_executor(executor, lambda: self._serve(
            principal, tool, args_json)))
        if tool != 'live_wait':         # the others end well within GRACE
            return await work
        stopping = asyncio.ensure_future(self._stopping.wait())
        try:
            await asyncio.wait({work, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            work.cancel()               # a no-op once answered; else its answer is dropped
        if work.done():                 # answered before the cancel above
            return work.result()
        return Result(False, 'UNAVAILABLE', error='the records node is stopping: the wait '
                                                  'ended without consuming an event; call '
                                                  'live_wait again once the node is back')

    async def _serve(self, principal: Principal, tool: str, args_json: str) -> Result:
        """On the executor: what the node's services do with a call (guard included)."""
        node = self._node
        if not node.active:
            return Result(False, 'UNAVAILABLE', error=f'{node.get_name()} is {node.state}: '
                                                      'not taking calls')
        try:
            return await node.serve(principal, tool, args_json)
        except Exception as error:      # noqa: BLE001 - answered INTERNAL, traced as the guard does
            node.guard.report('mcp_http', error)
            return Result(False, 'INTERNAL', error='internal error (traced as error on '
                                                   'skill_events)')


class Bearer:
    """ASGI middleware: a request whose ``Authorization`` header ``principal_of`` finds no
    principal for is 401; otherwise the principal is in the scope for the MCP handlers."""

    def __init__(self, app: ASGIApp, principal_of: Callable[[str], Principal | None]) -> None:
        self._app = app
        self._principal_of = principal_of

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope['type'] != 'http':
            await self._app(scope, receive, send)
            return
        principal = self._principal_of(dict(scope['headers']).get(b'authorization', b'')
                                       .decode('latin-1'))
        if principal is None:
            await JSONResponse({'error': 'invalid_token', 'error_description':
                                'Authorization: Bearer <token> (python -m robot_skills.records '
                                'token issue)'}, status_code=401,
                               headers={'WWW-Authenticate': 'Bearer'})(scope, receive, send)
            return
        scope[PRINCIPAL] = principal
        await self._app(scope, receive, send)


def _principal(ctx: ServerRequestContext) -> Principal:
    if ctx.request is None:     # every call here comes over HTTP (Bearer put the principal in)
        raise RuntimeError('an MCP call without its HTTP request')
    return ctx.request.scope[PRINCIPAL]
