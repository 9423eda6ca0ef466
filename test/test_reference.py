"""The generated pages are current, and their parameter tables are what running nodes declare."""

from __future__ import annotations

import pytest
from rclpy.parameter import Parameter

from robot_skills.mock_hardware.node import MockHardware
from robot_skills.reference import COMMAND, DOCS, NODES, PAGES, RCLPY_OWN, parameter_names
from robot_skills.sim.skills import SKILL_NODES

NODE_CLASSES = {**SKILL_NODES, 'mock_hardware': MockHardware}
IN_MEMORY = {'learning_coordinator', 'learning_records'}     # no store in the home folder


@pytest.mark.parametrize('name', sorted(PAGES))
def test_the_committed_page_is_what_the_generator_writes(name):
    committed = (DOCS / name).read_text(encoding='utf-8') if (DOCS / name).exists() else ''
    assert committed == PAGES[name](), f'docs/{name} is stale: run {COMMAND}'


def test_every_executable_node_has_a_parameter_table():
    assert set(NODES) == set(NODE_CLASSES)


@pytest.mark.parametrize('node', sorted(NODES))
def test_the_table_lists_exactly_the_parameters_the_running_node_declares(ros, node):
    overrides = [Parameter('store_path', value=':memory:')] if node in IN_MEMORY else []
    running = ros.add(NODE_CLASSES[node], parameter_overrides=overrides)
    declared = set(running.list_parameters([], 0).names) - RCLPY_OWN
    assert declared == parameter_names(node)
