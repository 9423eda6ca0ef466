"""The URDF files match the mock: every published joint, with the mock's limits, in one tree."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yourdfpy

from robot_skills.adapters.config import ConfigError, load
from robot_skills.description.body import Bodies
from robot_skills.description.urdf import ROBOTS_FILE, head_limits, render, urdf_path
from robot_skills.mock_hardware import core
from robot_skills.mock_hardware.config import FINGERS, Body
from robot_skills.runtime import paths
from robot_skills.sim.scenario import Robots

BODY = load(paths.config('mock_hardware.yaml'), Body)
BODIES = load(paths.config(ROBOTS_FILE), Bodies)
ROBOTS = sorted(BODIES.robots)


def expected_limits() -> dict[str, tuple[float, float]]:
    """Every joint the mock publishes, with its limits in radians, read from the mock's file."""
    limits = {f'{side}_{joint}': (math.radians(BODY.arm.limits[joint].min),
                                  math.radians(BODY.arm.limits[joint].max))
              for side in core.SIDES for joint in BODY.arm.joints}
    limits.update({f'{side}_hand_{finger}': (0.0, BODY.hand.closed_radians)
                   for side in core.SIDES for finger in FINGERS})
    limits.update({f'head_{joint}': (math.radians(BODIES.head_limits[joint].min),
                                     math.radians(BODIES.head_limits[joint].max))
                   for joint in BODY.head_joints})
    return limits


def test_the_robots_of_the_simulation_have_a_model():
    sim = load(paths.config('sim.yaml'), Robots)
    assert set(sim.robots) <= set(ROBOTS)


@pytest.mark.parametrize('robot', ROBOTS)
def test_written_file_is_current(robot):
    """``python -m robot_skills.description.urdf`` rewrites them after a change of either file."""
    assert urdf_path(robot).read_text(encoding='utf-8') == render(robot, BODIES, BODY), \
        f'{urdf_path(robot)} is stale: run python -m robot_skills.description.urdf'


@pytest.mark.parametrize('robot', ROBOTS)
def test_tree_is_valid_with_one_root(robot):
    model = yourdfpy.URDF.load(str(urdf_path(robot)), load_meshes=False)
    assert model.validate()
    assert model.base_link == 'base_link'
    links = {link.name for link in model.robot.links}
    children = [joint.child for joint in model.robot.joints]
    assert len(children) == len(set(children)) == len(links) - 1
    assert set(children) == links - {'base_link'}
    assert all(joint.parent in links for joint in model.robot.joints)


@pytest.mark.parametrize('robot', ROBOTS)
def test_every_published_joint_exists_with_the_mocks_limits(robot):
    model = yourdfpy.URDF.load(str(urdf_path(robot)), load_meshes=False)
    limits = expected_limits()
    assert sorted(core.joint_names(BODY)) == sorted(limits)
    assert sorted(model.actuated_joint_names) == sorted(limits)
    for name, (lower, upper) in limits.items():
        joint = model.joint_map[name]
        assert joint.type == 'revolute', name
        assert joint.limit.lower == pytest.approx(lower, abs=1e-5), name
        assert joint.limit.upper == pytest.approx(upper, abs=1e-5), name


def test_a_changed_mock_limit_is_a_stale_model():
    limits = dict(BODY.arm.limits)
    limits['elbow'] = limits['elbow'].model_copy(update={'min': -120.0})
    changed = BODY.model_copy(update={'arm': BODY.arm.model_copy(update={'limits': limits})})
    assert render('tianyi', BODIES, changed) != urdf_path('tianyi').read_text(encoding='utf-8')


def test_head_limits_must_hold_every_head_gesture(tmp_path: Path):
    narrow = BODIES.model_copy(update={'head_limits': {
        **BODIES.head_limits, 'pan': BODIES.head_limits['pan'].model_copy(
            update={'min': -10.0, 'max': 10.0})}})
    with pytest.raises(ConfigError, match='head gesture shake reaches pan=20'):
        head_limits(narrow, BODY, 'robots.yaml')
    missing = BODIES.model_copy(update={'head_limits': {'pan': BODIES.head_limits['pan']}})
    with pytest.raises(ConfigError, match="head joints"):
        head_limits(missing, BODY, 'robots.yaml')
