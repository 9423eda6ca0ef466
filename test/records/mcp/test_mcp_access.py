"""Who may call over MCP: a bearer token that stands for nobody now (expired, revoked,
unknown, missing) is HTTP 401 and nothing runs, even inside an open session; a principal
calling beyond its role or scope is a PERMISSION tool error and the store is unchanged."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import anyio
import httpx2
import pytest
from mcp.shared.exceptions import MCPError
from records.mcp.mcp_sides import over_http, refusal

from robot_skills.records import access
from robot_skills.records.api import TOOLS
from robot_skills.records.roles import OPERATOR, agent, learner

CALL = {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call', 'params': {
    'name': 'register_learner', 'arguments': {'learner_id': 'l9', 'display_name': 'x'}}}


def _calls(sides) -> list[str]:
    return [event.state for event in sides.events.messages if event.kind == 'call']


def test_a_token_that_stands_for_nobody_now_is_401_and_nothing_runs(served, sides, ros):
    expired = served.token(learner('l9'), days=1.0,
                           now=datetime.now(UTC) - timedelta(days=2)).token
    revoked = served.token(learner('l9'))
    assert access.revoke(served.store, revoked.token_id, datetime.now(UTC))
    good = served.token(learner('l9')).token
    headers = [{'Authorization': f'Bearer {expired}'}, {'Authorization': f'Bearer {revoked.token}'},
               {'Authorization': f'Bearer {good[:-4]}abcd'}, {'Authorization': f'Basic {good}'},
               {'Authorization': 'Bearer'}, {}]
    before, traced = served.rows(), len(_calls(sides))
    with httpx2.Client(timeout=10.0) as http:
        for header in headers:
            answer = http.post(served.url, json=CALL, headers={
                **header, 'Accept': 'application/json, text/event-stream'})
            assert answer.status_code == 401, header
            assert answer.headers['WWW-Authenticate'] == 'Bearer'
    assert served.rows() == before
    ros.until(lambda: sum(e.kind == 'input_rejected' for e in sides.events.messages) ==
              len(headers), what='each refusal traced')
    assert len(_calls(sides)) == traced        # no call reached the node

    async def revoked_mid_session() -> None:
        gone = served.token(agent())
        async with over_http(served.url, gone.token) as teacher:
            assert refusal(await teacher.call_tool('get_context', {}))['code'] == 'VALIDATION'
            access.revoke(served.store, gone.token_id, datetime.now(UTC))
            with pytest.raises(MCPError):
                await teacher.call_tool('create_pair', {
                    'learner_id': 'l9', 'learner_display_name': 'x', 'provider': 'p',
                    'model': 'm', 'display_name': 'd'})
    anyio.run(revoked_mid_session)
    assert served.rows() == before


def test_a_call_beyond_the_role_or_the_scope_is_permission_and_writes_nothing(served, sides):
    assert sides.learner.call('register_learner', {'learner_id': 'l1',
                                                   'display_name': '林小雨'}).ok
    made = sides.agent.call('create_pair', {'learner_id': 'l1', 'learner_display_name': '林小雨',
                                            'provider': 'p', 'model': 'm', 'display_name': 'd'})
    pair = json.loads(made.result_json)['pair_id']
    tokens = {who: served.token(principal).token for who, principal in (
        ('teacher', agent()), ('her', learner('l1')), ('another', learner('l2')),
        ('elsewhere', agent(pair_ids=frozenset({'pair_other'}))))}
    before = served.rows()
    refused = [
        ('her', 'create_pair', {'learner_id': 'l1', 'learner_display_name': 'x',
                                'provider': 'p', 'model': 'm', 'display_name': 'd'}),
        ('teacher', 'adhoc_learner_send', {'pair_id': pair, 'text': '冒名'}),
        ('another', 'adhoc_learner_send', {'pair_id': pair, 'text': '冒名'}),
        ('elsewhere', 'add_flashcard', {'pair_id': pair, 'front': 'f', 'back': 'b'})]

    async def calls() -> list[dict]:
        answers = []
        for who, tool, args in refused:
            async with over_http(served.url, tokens[who]) as client:
                answers.append(refusal(await client.call_tool(tool, args)))
        return answers
    assert [answer['code'] for answer in anyio.run(calls)] == ['PERMISSION'] * len(refused)
    assert served.rows() == before


def test_every_tool_for_every_role_over_http_as_in_the_core(served):
    """The role matrix through the transport: each role's token reaches exactly its tools
    (PERMISSION otherwise, the store unchanged); the core's matrix is test_roles.py."""
    principals = {'agent': agent(), 'learner': learner('l1'), 'operator': OPERATOR}
    tokens = {role: served.token(principal).token for role, principal in principals.items()}
    before = served.rows()

    async def matrix(allowed: bool) -> dict[tuple[str, str], str]:
        codes = {}
        for role, token in tokens.items():
            async with over_http(served.url, token) as client:
                for name, tool in sorted(TOOLS.items()):
                    if (role in {r.value for r in tool.who}) == allowed:
                        result = await client.call_tool(name, {})
                        codes[name, role] = refusal(result)['code'] if result.is_error else ''
        return codes

    refused = anyio.run(matrix, False)
    assert len(refused) == sum(3 - len(tool.who) for tool in TOOLS.values())
    assert set(refused.values()) == {'PERMISSION'}
    assert served.rows() == before
    allowed = anyio.run(matrix, True)
    assert len(allowed) == sum(len(tool.who) for tool in TOOLS.values())
    assert 'PERMISSION' not in allowed.values(), allowed
