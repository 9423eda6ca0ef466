"""The tool registry: every tool has argument and result models; a bad result is a bug."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import robot_skills.records
from robot_skills.records.api import MODULES, TOOLS, by_name
from robot_skills.records.tools import Args, PairArgs, Tool, ToolResult


def test_every_tool_declares_its_models_and_says_what_it_does():
    assert len(TOOLS) == 62          # test_roles.py names each with its roles
    for tool in TOOLS.values():
        assert issubclass(tool.args, Args) and issubclass(tool.result, ToolResult), tool.name
        assert tool.doc, tool.name
        assert tool.args.model_config['extra'] == 'forbid'


def test_the_registry_is_each_modules_own_list_of_every_tool_it_defines():
    """Explicit lists, so nothing registers itself by being imported: each module of the
    package that defines a tool is in MODULES, and lists every tool it defines."""
    package = robot_skills.records
    for info in pkgutil.walk_packages(package.__path__, f'{package.__name__}.'):
        module = importlib.import_module(info.name)
        defined = {value.name for value in vars(module).values() if isinstance(value, Tool)}
        if defined:
            assert module in MODULES, info.name
            assert defined == {tool.name for tool in module.TOOLS}, info.name
    assert {t.name for m in MODULES for t in m.TOOLS} == set(TOOLS)


def test_two_tools_of_one_name_are_refused():
    first = TOOLS['create_pair']
    with pytest.raises(ValueError, match='create_pair'):
        by_name([(first,), (first,)])


def test_a_result_that_breaks_its_model_writes_nothing(desk, monkeypatch):
    class Leaky(ToolResult):
        learner_id: str

    def leak(context, args):
        context.store.run("INSERT INTO learner VALUES ('x', 'x', 'now')")
        return {'learner_id': 'x', 'password': 'hunter2'}

    monkeypatch.setitem(TOOLS, 'leak', Tool('leak', PairArgs, Leaky, leak, 'a bug'))
    result = desk.call('leak')
    assert (result.ok, result.code) == (False, 'INTERNAL') and 'password' in result.error
    assert desk.store.one('SELECT count(*) AS n FROM learner')['n'] == 0
