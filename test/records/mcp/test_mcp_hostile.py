"""Hostile arguments over MCP get the answer records/call gives them (the same wire parser
and core behind both), write nothing, and the node answers the next call; in the newest
protocol and in the initialize handshake most hosts speak."""

from __future__ import annotations

import json

import anyio
import pytest
from records.mcp.mcp_sides import ok, over_http, raw_call, refusal

from robot_skills.records.roles import agent


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize('mode', ['auto', 'legacy'])
def test_hostile_arguments_answer_as_over_ros_and_write_nothing(served, sides, mode):
    assert sides.learner.call('register_learner', {'learner_id': 'l1',
                                                   'display_name': '林小雨'}).ok
    made = sides.agent.call('create_pair', {'learner_id': 'l1', 'learner_display_name': '林小雨',
                                            'provider': 'p', 'model': 'm', 'display_name': 'd'})
    pair = json.loads(made.result_json)['pair_id']
    card = {'pair_id': pair, 'front': 'f', 'back': 'b'}
    hostile = [
        ('add_flashcard', {**card, 'front': '路' * 120_000}),          # past the transport cap
        ('add_flashcard', {**card, 'front': _nested(40)}),             # past the wire's depth
        ('live_wait', {'pair_id': pair, 'timeout_s': float('nan')}),
        ('live_wait', {'pair_id': pair, 'since': 2 ** 70}),
        ('add_flashcard', {**card, 'surprise': 1}),                    # an unknown field
        ('add_flashcard', {**card, 'front': 1, 'back': ['x']}),        # wrong types
        ('add_flashcard', [card]), ('add_flashcard', 'front'), ('add_flashcard', 42),
        ('no_such_tool', card)]
    over_ros = [sides.agent.call(tool, args).code for tool, args in hostile]
    before = served.rows()

    async def over_mcp() -> tuple[list[str], dict]:
        async with over_http(served.url, served.token(agent()).token, mode) as teacher:
            codes = [refusal(await (teacher.call_tool(tool, args) if isinstance(args, dict)
                                    else raw_call(teacher, tool, args)))['code']
                     for tool, args in hostile]
            return codes, await ok(teacher, 'add_flashcard', **card)
    codes, after = anyio.run(over_mcp)
    assert codes == over_ros == ['VALIDATION'] * len(hostile)
    assert served.rows() == before + 1 and after['flashcard_id']     # only the last call wrote
