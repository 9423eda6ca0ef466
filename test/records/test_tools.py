"""The tool registry: every tool has argument and result models; a bad result is a bug."""

from __future__ import annotations

from robot_skills.records.api import TOOLS
from robot_skills.records.tools import Args, Out, PairArgs, Tool


def test_every_tool_declares_its_models_and_says_what_it_does():
    assert len(TOOLS) == 62          # test_roles.py names each with its roles
    for tool in TOOLS.values():
        assert issubclass(tool.args, Args) and issubclass(tool.result, Out), tool.name
        assert tool.doc, tool.name
        assert tool.args.model_config['extra'] == 'forbid'


def test_a_result_that_breaks_its_model_writes_nothing(desk, monkeypatch):
    class Leaky(Out):
        learner_id: str

    def leak(context, args):
        context.store.run("INSERT INTO learner VALUES ('x', 'x', 'now')")
        return {'learner_id': 'x', 'password': 'hunter2'}

    monkeypatch.setitem(TOOLS, 'leak', Tool('leak', PairArgs, Leaky, leak, 'a bug'))
    result = desk.call('leak')
    assert (result.ok, result.code) == (False, 'INTERNAL') and 'password' in result.error
    assert desk.store.one('SELECT count(*) AS n FROM learner')['n'] == 0
