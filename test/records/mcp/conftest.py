"""Fixtures of the MCP tests: the node served over HTTP, and its ROS callers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from records.mcp.mcp_sides import Served, Sides, ready
from ros_harness import Harness, Recorder

from robot_skills.interface import DEEP_QOS
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.msg import SkillEvent
from robot_skills_interfaces.srv import RecordsCall, RecordsLearnerCall


@pytest.fixture
def served(ros: Harness, tmp_path: Path) -> Iterator[Served]:
    node = Served(tmp_path / 'records.sqlite3', f'{ros.namespace}_mcp')
    try:
        yield node
    finally:
        node.close()


@pytest.fixture
def sides(ros: Harness, served: Served) -> Sides:
    probe = ros.node(served.namespace)
    events = Recorder(probe, SkillEvent, 'skill_events')
    agent = ready(ros, probe.create_client(RecordsCall, 'records/call',
                                           qos_profile=profile(DEEP_QOS)), RecordsCall)
    her = ready(ros, probe.create_client(RecordsLearnerCall, 'records/learner/call',
                                         qos_profile=profile(DEEP_QOS)), RecordsLearnerCall,
                learner_id='l1')
    return Sides(agent, her, events)


