"""One name, one class, wherever a reader meets it.

No module of the package defines a class and imports another class of the same name, or
imports two classes of the same name from two modules (an alias, ``Command as
DeviceCommand``, says which is meant, and is allowed).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import robot_skills

PACKAGE = Path(robot_skills.__file__).parent


def _modules() -> dict[str, ast.Module]:
    return {'.'.join(path.relative_to(PACKAGE.parent).with_suffix('').parts):
            ast.parse(path.read_text(encoding='utf-8')) for path in PACKAGE.rglob('*.py')}


def _classes(tree: ast.Module) -> set[str]:
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}


def _clashes(modules: dict[str, ast.Module]) -> list[str]:
    classes = {name: _classes(tree) for name, tree in modules.items()}
    clashes = []
    for name, tree in modules.items():
        met: dict[str, set[str]] = defaultdict(set)
        for defined in classes[name]:
            met[defined].add(name)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in classes:
                for alias in node.names:
                    if alias.asname is None and alias.name in classes[node.module]:
                        met[alias.name].add(node.module)
        clashes += [f'{name}: {cls} from {sorted(where)}' for cls, where in met.items()
                    if len(where) > 1]
    return clashes


def test_no_module_meets_two_classes_of_one_name():
    assert not _clashes(_modules())


def test_the_check_sees_a_clash_and_lets_an_alias_pass():
    a = ast.parse('class Step: ...\nclass Heard: ...\n')
    assert _clashes({'a': a, 'b': ast.parse('from a import Step\nclass Step: ...\n')}) == \
        ["b: Step from ['a', 'b']"]
    assert _clashes({'a': a, 'b': ast.parse('from a import Step as Other\nclass Step: ...\n'),
                     'c': ast.parse('class Heard: ...\n'),
                     'd': ast.parse('from a import Heard\nfrom c import Heard as H\n')}) == []
    assert _clashes({'a': a, 'c': ast.parse('class Heard: ...\n'),
                     'd': ast.parse('from a import Heard\nfrom c import Heard\n')}) == \
        ["d: Heard from ['a', 'c']"]
