"""learning_records over MCP (issue 18): a tool call over streamable HTTP next to records/call.

One learning_records process serves both: ROS (``records/call``) and MCP over
HTTP on loopback (``mcp_http_port``). The same read (verify_prep of a lesson)
and the same committed write (add_flashcard) are timed through each, from a
client in this process, one call at a time. Then 50 MCP clients, each in its
own session with its own token check, write at once; every write must be
acknowledged and found in the store afterwards.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from bench.figures import percentile, start, stop
from bench.records import TEXT, done
from robot_skills.records import access
from robot_skills.records.api import Records, Store
from robot_skills.records.roles import agent

CLIENTS = 50
WRITES_EACH = 10
READY = 30.0       # seconds the node has to serve HTTP


def measure(count: int, index: int) -> dict:
    namespace = f'/bench{os.getpid()}_mcp{index}'
    with tempfile.TemporaryDirectory() as folder:
        path = f'{folder}/bench.sqlite3'
        store = Store(path)
        records = Records(store)
        token = access.issue(store, agent(), 1.0, datetime.now(UTC), 'bench').token
        pair, lesson = _lesson(records)
        store.close()
        port = _free_port()
        node = start(['learning_records'], namespace,
                     params=('-p', f'store_path:={path}', '-p', f'mcp_http_port:={port}'))
        try:
            figures = asyncio.run(_timed(f'http://127.0.0.1:{port}/mcp', token, pair, lesson,
                                         count))
        finally:
            stop(node)
        with sqlite3.connect(path) as db:
            stored = db.execute("SELECT count(*) FROM flashcard WHERE front LIKE 'c%'")
            figures['concurrent_stored'] = stored.fetchone()[0]
    return figures


def _lesson(records: Records) -> tuple[str, str]:
    ok = done(records)
    ok('register_learner', learner_id='l', display_name='林')
    pair = ok('create_pair', learner_id='l', learner_display_name='林', provider='p',
              model='m', display_name='d')['pair_id']
    course = ok('create_course', pair_id=pair, title='t')['course_id']
    return pair, ok('add_lesson', pair_id=pair, course_id=course, title='t',
                    content_markdown=TEXT)['lesson_id']


async def _timed(url: str, token: str, pair: str, lesson: str, count: int) -> dict:
    headers = {'Authorization': f'Bearer {token}'}
    deadline = time.monotonic() + READY
    while True:         # the node's HTTP server comes up after its ROS start: wait for it
        try:
            async with _session(url, headers) as session:
                return await _figures(url, headers, session, pair, lesson, count)
        except* (httpx2.ConnectError, OSError):
            if time.monotonic() > deadline:
                raise


@asynccontextmanager
async def _session(url: str, headers: dict[str, str]) -> AsyncIterator[ClientSession]:
    """An initialised MCP client session over streamable HTTP."""
    async with httpx2.AsyncClient(headers=headers, timeout=30.0) as http, \
            streamable_http_client(url, http_client=http) as (read, write), \
            ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def _figures(url: str, headers: dict[str, str], session: ClientSession, pair: str,
                   lesson: str, count: int) -> dict:
    async def call(tool: str, **args: object) -> float:
        began = time.perf_counter()
        result = await session.call_tool(tool, args)
        if result.is_error:
            raise RuntimeError(f'{tool}: {result.content}')
        return (time.perf_counter() - began) * 1e3

    writes = [await call('add_flashcard', pair_id=pair, front=f'w{n}', back='b')
              for n in range(count + 50)][50:]
    reads = [await call('verify_prep', pair_id=pair, lesson_id=lesson)
             for _ in range(count + 50)][50:]

    async def client(number: int) -> int:
        async with _session(url, headers) as own:
            acknowledged = 0
            for n in range(WRITES_EACH):
                result = await own.call_tool('add_flashcard', {
                    'pair_id': pair, 'front': f'c{number}_{n}', 'back': 'b'})
                acknowledged += not result.is_error
            return acknowledged

    began = time.perf_counter()
    acknowledged = sum(await asyncio.gather(*(client(n) for n in range(CLIENTS))))
    return {'write_p50': percentile(writes, 0.5), 'write_p99': percentile(writes, 0.99),
            'read_p50': percentile(reads, 0.5), 'read_p99': percentile(reads, 0.99),
            'concurrent_sent': CLIENTS * WRITES_EACH, 'concurrent_acknowledged': acknowledged,
            'concurrent_s': time.perf_counter() - began}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


def report(figures: dict, over_ros: dict) -> None:
    print('\n| learning_records, one call at a time | p50 ms | p99 ms |\n|---|---|---|')
    for kind, what in (('read', 'verify_prep of a lesson'), ('write', 'add_flashcard, committed')):
        print(f'| {what}: records/call over ROS | {over_ros[f"{kind}_p50"]:.3f} | '
              f'{over_ros[f"{kind}_p99"]:.3f} |')
        print(f'| {what}: MCP tools/call over streamable HTTP | {figures[f"{kind}_p50"]:.3f} | '
              f'{figures[f"{kind}_p99"]:.3f} |')
    lost = figures['concurrent_sent'] - figures['concurrent_stored']
    print(f'\n{CLIENTS} MCP clients at once, {WRITES_EACH} writes each: '
          f'{figures["concurrent_acknowledged"]} of {figures["concurrent_sent"]} acknowledged, '
          f'{figures["concurrent_stored"]} in the store ({lost} lost), '
          f'in {figures["concurrent_s"]:.1f} s')
