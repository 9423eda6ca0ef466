"""Forward kinematics of the models agrees with the skill documents' poses.

The classroom's number display (``DISPLAY_RIGHT`` and ``NUMBER_HANDS``, the
poses the presenter really sends) must show the audience the number: right
hand in front of the torso, above the elbow, palm towards the audience, and
as many fingers extended as the number.
"""

from __future__ import annotations

import numpy as np
import pytest

from robot_skills.adapters.config import load
from robot_skills.classroom.core import DISPLAY_RIGHT, NUMBER_HANDS
from robot_skills.classroom.sending import NEUTRAL
from robot_skills.description.body import Bodies
from robot_skills.description.kinematics import Model
from robot_skills.description.urdf import ROBOTS_FILE
from robot_skills.mock_hardware import core
from robot_skills.mock_hardware.config import Body
from robot_skills.runtime import paths

BODY = load(paths.config('mock_hardware.yaml'), Body)
BODIES = load(paths.config(ROBOTS_FILE), Bodies)
ROBOTS = sorted(BODIES.robots)
FORWARD = np.array([1.0, 0.0, 0.0])
TIPS = ('index', 'middle', 'ring', 'little', 'thumb_bend')


def joints_of(frames: list[tuple[float, dict[str, float]]]) -> dict[str, float]:
    """The final joint positions (radians) of a motion as the mock plays it."""
    return frames[-1][1]


def number_pose(number: int) -> dict[str, float]:
    hand = NUMBER_HANDS[number]
    raw = {name: getattr(hand.fingers, name) for name in core.FINGERS}
    fingers = core.fingers_of(BODY, hand.action, raw)
    return {**joints_of(core.move_frames(BODY, list(NEUTRAL), list(DISPLAY_RIGHT))),
            **joints_of(core.hand_frames(BODY, hand.side, fingers))}


@pytest.fixture(scope='module', params=ROBOTS)
def robot(request):
    return request.param, Model.of(request.param)


def test_all_zero_pose_both_arms_hang_down(robot):
    key, model = robot
    model.pose({})
    length = BODIES.robots[key].upper_arm + BODIES.robots[key].forearm
    for side in core.SIDES:
        shoulder = model.position(f'{side}_{BODY.arm.joints[0]}_link')
        elbow = model.position(f'{side}_elbow_link')
        palm = model.position(f'{side}_palm')
        assert shoulder[2] > elbow[2] > palm[2]
        assert shoulder[2] - palm[2] > length
        assert np.linalg.norm((palm - shoulder)[:2]) < 1e-6


@pytest.mark.parametrize('number', sorted(NUMBER_HANDS))
def test_number_display_pose_shows_the_palm_in_front_above_the_elbow(robot, number):
    key, model = robot
    body = BODIES.robots[key]
    model.pose(number_pose(number))
    palm, elbow = model.frame('right_palm'), model.position('right_elbow_link')
    assert palm[0, 3] > body.torso.depth / 2, 'in front of the torso'
    assert abs(palm[1, 3]) <= body.shoulder_offset, 'within the shoulders'
    assert palm[2, 3] > elbow[2], 'above the elbow'
    assert palm[:3, 2] @ FORWARD > 0.8, 'palm towards the audience'


@pytest.mark.parametrize('number', sorted(NUMBER_HANDS))
def test_number_display_extends_as_many_fingers_as_the_number(robot, number):
    key, model = robot
    model.pose(number_pose(number))
    palm = model.frame('right_palm')
    finger = BODIES.robots[key].finger
    curled = [tip for tip in TIPS
              if (model.position(f'right_hand_{tip}_tip') - palm[:3, 3]) @ palm[:3, 2]
              > 0.5 * finger]
    assert len(TIPS) - len(curled) == number, curled


def test_the_left_arm_mirrors_the_right(robot):
    _, model = robot
    model.pose(joints_of(core.move_frames(BODY, list(DISPLAY_RIGHT), list(DISPLAY_RIGHT))))
    left, right = model.frame('left_palm'), model.frame('right_palm')
    mirror = np.diag([1.0, -1.0, 1.0])
    assert np.allclose(mirror @ left[:3, 3], right[:3, 3], atol=1e-9)
    assert np.allclose(mirror @ left[:3, 2], right[:3, 2], atol=1e-9)
