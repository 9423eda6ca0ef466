"""The URDF of each simulated robot, built from the mock's joints and the robot's lengths.

    python -m robot_skills.description.urdf      # rewrites config/description/<robot>.urdf

Generated rather than hand-written so the joint names and limits are those of
``config/mock_hardware.yaml`` by construction: ``joint_states`` of the mock
(radians) drives ``robot_state_publisher`` with this file unchanged. The files
are kept in ``config/`` (installed under ``share/``) because the launch files,
RViz and Foxglove read a file; a test fails when one is not current.

Axes are chosen so the skill documents' poses mean what they say: negative
shoulder pitch raises the arm forwards, positive shoulder roll lifts it
sideways, negative elbow bends the forearm forwards and up, wrist yaw bends
the hand towards the thumb, wrist roll turns it about its own length, and a
finger at its upper limit is curled into the palm. The right arm mirrors the
left in the body's x-z plane.
"""

from __future__ import annotations

import math
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

from robot_skills.adapters.config import ConfigError, load
from robot_skills.description.body import Bodies, Robot
from robot_skills.mock_hardware.config import Body
from robot_skills.runtime import paths

ROBOTS_FILE = 'description/robots.yaml'
Vector = tuple[float, float, float]

# Left arm, in chain order (the order of config arm.joints): axis and offset from the
# previous joint as a multiple of (upper arm, forearm) down the arm.
ARM_AXES: tuple[Vector, ...] = ((0, 1, 0), (1, 0, 0), (0, 0, 1), (0, 1, 0), (0, -1, 0),
                                (1, 0, 0), (0, 0, 1))
ARM_DROPS = ((0, 0), (0, 0), (0, 0), (1, 0), (0, 1), (0, 0), (0, 0))
FINGER_X = {'index': 0.3, 'middle': 0.1, 'ring': -0.1, 'little': -0.3}   # x palm widths
THUMB_DIRECTION = np.array([1.0, 0.0, -1.0]) / math.sqrt(2.0)
EFFORT, VELOCITY = '20', '3'
COLOURS = {'body': '0.85 0.87 0.9 1', 'limb': '0.25 0.45 0.75 1', 'hand': '0.95 0.7 0.45 1',
           'head': '0.95 0.95 0.95 1'}
SIDES = {'left': 1, 'right': -1}


def mirrored(axis: Vector, sign: int) -> Vector:
    """The right arm's axis for a left-arm axis (a reflection in the x-z plane)."""
    return axis if sign > 0 else (-axis[0], axis[1], -axis[2])


def _text(values: Vector | np.ndarray) -> str:
    return ' '.join(f'{float(v):.6g}' if abs(float(v)) > 1e-12 else '0' for v in values)


class _Builder:
    """Appends links and joints to one ``<robot>`` element."""

    def __init__(self, name: str) -> None:
        self.root = ET.Element('robot', name=name)
        for material, rgba in COLOURS.items():
            ET.SubElement(ET.SubElement(self.root, 'material', name=material), 'color', rgba=rgba)

    def link(self, name: str, shape: tuple[str, dict[str, str]] | None = None,
             xyz: Vector | np.ndarray = (0, 0, 0), rpy: Vector = (0, 0, 0),
             material: str = 'limb') -> None:
        link = ET.SubElement(self.root, 'link', name=name)
        if shape is not None:
            visual = ET.SubElement(link, 'visual')
            ET.SubElement(visual, 'origin', xyz=_text(xyz), rpy=_text(rpy))
            ET.SubElement(ET.SubElement(visual, 'geometry'), shape[0], attrib=shape[1])
            ET.SubElement(visual, 'material', name=material)

    def joint(self, name: str, parent: str, child: str, xyz: Vector | np.ndarray,
              axis: Vector | np.ndarray | None = None, limits: tuple[float, float] | None = None,
              rpy: Vector = (0, 0, 0)) -> None:
        joint = ET.SubElement(self.root, 'joint', name=name,
                              type='fixed' if axis is None else 'revolute')
        ET.SubElement(joint, 'parent', link=parent)
        ET.SubElement(joint, 'child', link=child)
        ET.SubElement(joint, 'origin', xyz=_text(xyz), rpy=_text(rpy))
        if axis is not None and limits is not None:
            ET.SubElement(joint, 'axis', xyz=_text(axis))
            ET.SubElement(joint, 'limit', lower=f'{limits[0]:.6g}', upper=f'{limits[1]:.6g}',
                          effort=EFFORT, velocity=VELOCITY)


def _rod(length: float, radius: float) -> tuple[str, dict[str, str]]:
    return 'cylinder', {'radius': f'{radius:.6g}', 'length': f'{length:.6g}'}


def build(key: str, robot: Robot, body: Body, head_limits: dict[str, tuple[float, float]]
          ) -> ET.Element:
    """The ``<robot>`` element of one robot (limits in radians)."""
    b = _Builder(key)
    b.link('base_link', _rod(robot.base.height, robot.base.radius),
           (0, 0, robot.base.height / 2), material='body')
    torso = robot.torso
    b.link('torso', ('box', {'size': _text((torso.depth, torso.width, torso.height))}),
           (0, 0, torso.height / 2), material='body')
    b.joint('base_to_torso', 'base_link', 'torso', (0, 0, robot.base.height))
    pan, tilt = (f'head_{j}' for j in body.head_joints)
    b.link('neck', _rod(robot.neck, 0.03), (0, 0, robot.neck / 2), material='body')
    b.joint(pan, 'torso', 'neck', (0, 0, torso.height), (0, 0, 1), head_limits[pan])
    b.link('head', ('sphere', {'radius': f'{robot.head_radius:.6g}'}),
           (0, 0, robot.head_radius), material='head')
    b.joint(tilt, 'neck', 'head', (0, 0, robot.neck), (0, 1, 0), head_limits[tilt])
    for side, sign in SIDES.items():
        _arm(b, side, sign, robot, body)
    return b.root


def _arm(b: _Builder, side: str, sign: int, robot: Robot, body: Body) -> None:
    """Seven joints down the arm; each link draws the segment to the next joint, if any."""
    parent = 'torso'
    offset: Vector = (0, sign * robot.shoulder_offset, robot.torso.height - robot.shoulder_drop)
    lengths = (robot.upper_arm, robot.forearm)
    drops = [sum(n * length for n, length in zip(d, lengths, strict=True)) for d in ARM_DROPS]
    for index, joint in enumerate(body.arm.joints):
        if drops[index]:
            offset = (0, 0, -drops[index])
        child = f'{side}_{joint}_link'
        rod = drops[index + 1] if index + 1 < len(drops) else 0.0
        b.link(child, _rod(rod, 0.035) if rod else None, (0, 0, -rod / 2))
        limit = body.arm.limits[joint]
        b.joint(f'{side}_{joint}', parent, child, offset, mirrored(ARM_AXES[index], sign),
                (math.radians(limit.min), math.radians(limit.max)))
        parent, offset = child, (0, 0, 0)
    _hand(b, side, sign, parent, robot, body)


def _hand(b: _Builder, side: str, sign: int, wrist: str, robot: Robot, body: Body) -> None:
    """Palm frame (z out of the palm), four fingers and a thumb, each with a tip frame."""
    hand = f'{side}_hand'
    palm = robot.palm
    b.link(hand, ('box', {'size': _text((palm * 0.8, palm * 0.25, palm))}), (0, 0, -palm / 2),
           material='hand')
    b.joint(f'{side}_wrist_to_hand', wrist, hand, (0, 0, 0))
    b.link(f'{side}_palm')
    b.joint(f'{side}_hand_to_palm', hand, f'{side}_palm', (0, 0, -palm / 2),
            rpy=(sign * math.pi / 2, 0, 0))
    normal = np.array([0.0, -sign, 0.0])                 # the palm faces the body at zero
    closed = (0.0, body.hand.closed_radians)
    for finger, x in FINGER_X.items():
        link = f'{hand}_{finger}_link'
        b.link(link, _rod(robot.finger, 0.009), (0, 0, -robot.finger / 2), material='hand')
        b.joint(f'{hand}_{finger}', hand, link, (x * palm, 0, -palm),
                np.cross([0.0, 0.0, -1.0], normal), closed)
        _tip(b, link, (0, 0, -robot.finger))
    rotation, bend = f'{hand}_thumb_rotation_link', f'{hand}_thumb_bend_link'
    b.link(rotation)
    b.joint(f'{hand}_thumb_rotation', hand, rotation, (0.45 * palm, 0, -0.3 * palm),
            mirrored((0, 0, 1), sign), closed)
    thumb = robot.finger * 0.8
    b.link(bend, _rod(thumb, 0.01), THUMB_DIRECTION * thumb / 2, (0, -math.pi / 4, 0), 'hand')
    b.joint(f'{hand}_thumb_bend', rotation, bend, (0, 0, 0), np.cross(THUMB_DIRECTION, normal),
            closed)
    _tip(b, bend, THUMB_DIRECTION * thumb)


def _tip(b: _Builder, link: str, xyz: Vector | np.ndarray) -> None:
    b.link(f'{link.removesuffix("_link")}_tip')
    b.joint(f'{link}_to_tip', link, f'{link.removesuffix("_link")}_tip', xyz)


def head_limits(bodies: Bodies, body: Body, path: str) -> dict[str, tuple[float, float]]:
    """The head's limits in radians, after checking the mock's head gestures stay within."""
    if set(bodies.head_limits) != set(body.head_joints):
        raise ConfigError(path, [f'field head_limits: must name exactly the mock\'s head '
                                 f'joints {body.head_joints}'])
    problems = [f'field head_limits: head gesture {name} reaches {joint}={value:g}, outside '
                f'[{bodies.head_limits[joint].min:g}, {bodies.head_limits[joint].max:g}]'
                for name, gesture in body.head_gestures.items() for frame in gesture.keyframes
                for joint, value in frame.pose.items()
                if not bodies.head_limits[joint].min <= value <= bodies.head_limits[joint].max]
    if problems:
        raise ConfigError(path, problems)
    return {f'head_{joint}': (math.radians(limit.min), math.radians(limit.max))
            for joint, limit in bodies.head_limits.items()}


def render(key: str, bodies: Bodies, body: Body, path: str = ROBOTS_FILE) -> str:
    """The URDF text of robot ``key``."""
    root = build(key, bodies.robots[key], body, head_limits(bodies, body, path))
    ET.indent(root)
    comment = (f'<!-- {bodies.robots[key].name}: generated by python -m '
               'robot_skills.description.urdf from config/mock_hardware.yaml and '
               'config/description/robots.yaml; do not edit. -->\n')
    return '<?xml version="1.0"?>\n' + comment + ET.tostring(root, encoding='unicode') + '\n'


def urdf_path(robot: str) -> Path:
    """Where robot ``robot``'s URDF is installed (``config/description/<robot>.urdf``)."""
    return Path(paths.config(f'description/{robot}.urdf'))


def main() -> int:
    robots_file = paths.config(ROBOTS_FILE)
    bodies = load(robots_file, Bodies)
    body = load(paths.config('mock_hardware.yaml'), Body)
    for key in bodies.robots:
        urdf_path(key).write_text(render(key, bodies, body, robots_file), encoding='utf-8')
        print(f'wrote {urdf_path(key)}', file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
