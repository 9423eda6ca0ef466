"""The records tools as an MCP server: listed from ``TOOLS``, answered by the core.

``tools/list`` gives every tool with its argument model's JSON schema as
``inputSchema`` and its result model's as ``outputSchema`` (exactly
``model_json_schema()``), its docstring and the roles that may call it.

``tools/call`` hands the arguments to ``call`` as the JSON text
``records/call`` would carry, so the wire parser's size, depth and number
checks and the core's validation answer exactly as over ROS. Nothing in the SDK
judges the arguments first: the low-level server checks no input schema, and
arguments that are not an object (which the SDK's check of the request would
answer INVALID_PARAMS) go to the core too, so a list or a string is the core's
VALIDATION rather than a JSON-RPC error. (A message nested beyond the SDK's JSON
parser, about 200 levels, is a JSON-RPC parse error: it never reaches a tool.)

A success is the result as structured content plus the same JSON as text; a
refusal is a tool error (``isError``) whose text is the JSON
``{"code", "error", "shortfall"?}`` (code: VALIDATION, NOT_FOUND, CONFLICT,
PERMISSION, UNAVAILABLE, INTERNAL), so an agent reads the code, not prose.
While a call is pending (a parked ``live_wait``), a client that gave a
``progressToken`` gets a progress notification every second.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.context import CallNext, HandlerResult

from robot_skills.records.api import TOOLS, Result
from robot_skills.records.roles import Principal
from robot_skills.records.tools import Tool

Caller = Callable[[Principal, str, str], Awaitable[Result]]      # principal, tool, args_json
Identify = Callable[[ServerRequestContext], Principal]
PROGRESS_EVERY = 1.0        # seconds between progress notifications of a pending call
INSTRUCTIONS = ('The teaching records of document 004. A refused call is a tool error whose '
                'text is JSON with "code" (VALIDATION, NOT_FOUND, CONFLICT, PERMISSION, '
                'UNAVAILABLE, INTERNAL), "error" and, where useful, a structured "shortfall".')


def listed(tool: Tool) -> types.Tool:
    roles = ', '.join(sorted(role.value for role in tool.who))
    return types.Tool(name=tool.name, description=f'{tool.doc}\n\nMay be called by: {roles}.',
                      input_schema=tool.args.model_json_schema(),
                      output_schema=tool.result.model_json_schema(),
                      annotations=types.ToolAnnotations(read_only_hint=tool.reads))


def answered(result: Result) -> types.CallToolResult:
    """The core's answer as MCP: structured content, or a tool error carrying the code."""
    if result.ok:
        return types.CallToolResult(content=[types.TextContent(type='text',
                                                               text=result.to_json())],
                                    structured_content=result.result)
    body = {'code': result.code, 'error': result.error, **result.result}   # result: shortfall
    return types.CallToolResult(is_error=True, content=[types.TextContent(
        type='text', text=json.dumps(body, ensure_ascii=False, default=str))])


def build(call: Caller, identify: Identify) -> Server:
    """An MCP server whose every call runs as ``identify(ctx)`` through ``call``."""
    tools = [listed(tool) for tool in TOOLS.values()]
    schemas = {tool.name: tool.input_schema for tool in tools}

    async def answer(ctx: ServerRequestContext, name: str, arguments: Any) -> types.CallToolResult:
        text = '' if arguments is None else json.dumps(arguments, ensure_ascii=False)
        return answered(await _reporting(ctx, call(identify(ctx), name, text)))

    async def list_tools(ctx: ServerRequestContext,
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: ServerRequestContext,
                        params: types.CallToolRequestParams) -> types.CallToolResult:
        return await answer(ctx, params.name, params.arguments)

    async def any_arguments(ctx: ServerRequestContext, call_next: CallNext) -> HandlerResult:
        """``arguments`` that are not an object: the SDK's own check of the request would
        answer INVALID_PARAMS before any handler; the core answers, as over records/call."""
        params = ctx.params or {}
        arguments = params.get('arguments')
        if (ctx.method == 'tools/call' and isinstance(params.get('name'), str)
                and arguments is not None and not isinstance(arguments, Mapping)):
            return await answer(ctx, params['name'], arguments)
        return await call_next(ctx)

    server: Server = Server('learning_records', instructions=INSTRUCTIONS,
                            on_list_tools=list_tools, on_call_tool=call_tool,
                            get_tool_input_schema=schemas.get)
    server.middleware.append(any_arguments)
    return server


async def _reporting(ctx: ServerRequestContext, pending: Awaitable[Result]) -> Result:
    """``pending``'s result; each second it takes, a progress notification (a no-op when the
    client gave no progressToken)."""
    task = asyncio.ensure_future(pending)
    waited = 0.0
    try:
        while not (await asyncio.wait({task}, timeout=PROGRESS_EVERY))[0]:
            waited += PROGRESS_EVERY
            await ctx.session.report_progress(waited, message=f'waiting ({waited:.0f} s)')
        return task.result()
    finally:
        task.cancel()
