"""Every records tool over MCP, with its pydantic schemas, over HTTP and over stdio
(``records_mcp`` forwarding to the node over ROS); stdio refuses a scope it cannot enforce."""

from __future__ import annotations

import os
import subprocess
import sys

import anyio
from records.mcp.mcp_sides import ok, over_http, over_stdio, refusal
from records_desk import CADENCE

from robot_skills.records.api import TOOLS
from robot_skills.records.roles import agent


def _check_listing(tools: list) -> None:
    assert sorted(tool.name for tool in tools) == sorted(TOOLS)
    for tool in tools:
        declared = TOOLS[tool.name]
        assert tool.input_schema == declared.args.model_json_schema(), tool.name
        assert tool.output_schema == declared.result.model_json_schema(), tool.name
        assert tool.description.startswith(declared.doc)
        roles = ', '.join(sorted(role.value for role in declared.who))
        assert tool.description.endswith(f'May be called by: {roles}.')
        assert tool.annotations.read_only_hint is declared.reads


def test_http_lists_every_tool_with_its_pydantic_schemas(served):
    async def listing() -> list:
        async with over_http(served.url, served.token(agent()).token) as client:
            return (await client.list_tools()).tools
    _check_listing(anyio.run(listing))


def test_stdio_lists_every_tool_and_forwards_the_first_steps_to_the_node(served, tmp_path):
    log = tmp_path / 'records_mcp.log'

    async def first_steps() -> tuple[list, str]:
        async with over_stdio(served.namespace, log, '--role', 'agent') as teacher, \
                over_stdio(served.namespace, log, '--role', 'learner', '--learner-id',
                           'l1') as her:
            tools = (await teacher.list_tools()).tools
            await ok(her, 'register_learner', learner_id='l1', display_name='林小雨')
            pair = (await ok(teacher, 'create_pair', learner_id='l1',
                             learner_display_name='林小雨', provider='p', model='m',
                             display_name='小智'))['pair_id']
            contract = (await ok(teacher, 'propose_contract', pair_id=pair,
                                 goal='三个月读完高一力学', cadence=CADENCE))['contract_id']
            # her act, refused to the agent as over records/call; then hers
            taken = refusal(await teacher.call_tool('establish_contract', {
                'pair_id': pair, 'contract_id': contract}))
            assert taken['code'] == 'PERMISSION'
            await ok(her, 'establish_contract', pair_id=pair, contract_id=contract)
            return tools, pair
    tools, pair = anyio.run(first_steps)
    _check_listing(tools)
    with served.store.read():
        row = served.store.one('SELECT setup_status FROM contract WHERE pair_id = ?', pair)
    assert row['setup_status'] == 'established'


def test_stdio_refuses_a_scope_the_ros_services_cannot_enforce():
    command = os.path.join(os.path.dirname(sys.executable), 'records_mcp')
    for options, says in ((['--role', 'agent', '--pair-id', 'pair_1'], '--pair-id'),
                          (['--role', 'agent', '--learner-id', 'l1'], 'unscoped robot agent'),
                          (['--role', 'learner'], 'needs --learner-id')):
        ended = subprocess.run([command, *options], capture_output=True, text=True,
                               timeout=30, stdin=subprocess.DEVNULL)
        assert (ended.returncode, ended.stdout) == (2, ''), options
        assert says in ended.stderr
