"""Forward kinematics of a robot's URDF (yourdfpy): where its frames are in a pose.

The tests check the skill documents' poses with it and the run report draws
the robot from the joint states the mock recorded, so both read the same model
the launch files hand to ``robot_state_publisher``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yourdfpy

from robot_skills.description.urdf import urdf_path


@dataclass(frozen=True)
class Segment:
    """A piece of the drawn body between two points of the world frame (base_link)."""

    start: np.ndarray
    end: np.ndarray
    kind: str          # 'limb', 'hand', 'body', 'head': the URDF material


class Model:
    """One robot's URDF with its joints set to a pose (radians; joints not named at 0)."""

    def __init__(self, path: Path | str) -> None:
        self.urdf = yourdfpy.URDF.load(str(path), load_meshes=False)

    @classmethod
    def of(cls, robot: str) -> Model:
        return cls(urdf_path(robot))

    def pose(self, positions: Mapping[str, float]) -> Model:
        """Set the actuated joints named in ``positions``; every other joint goes to 0."""
        known = set(self.urdf.actuated_joint_names)
        self.urdf.update_cfg({name: float(positions.get(name, 0.0)) for name in known})
        return self

    def frame(self, link: str) -> np.ndarray:
        """The 4x4 pose of ``link`` in ``base_link``."""
        return self.urdf.get_transform(link, self.urdf.base_link)

    def position(self, link: str) -> np.ndarray:
        return self.frame(link)[:3, 3]

    def segments(self) -> list[Segment]:
        """The body as line segments: each cylinder's axis, and the edges of each box.

        A sphere (the head) is drawn as a segment from its centre to its top.
        """
        out: list[Segment] = []
        for link in self.urdf.robot.links:
            for visual in link.visuals:
                origin = visual.origin if visual.origin is not None else np.eye(4)
                pose = self.frame(link.name) @ origin
                kind = visual.material.name if visual.material is not None else 'limb'
                out.extend(_shape(visual.geometry, pose, kind))
        return out


def _shape(geometry: yourdfpy.Geometry, pose: np.ndarray, kind: str) -> list[Segment]:
    def world(points: np.ndarray) -> np.ndarray:
        return (pose[:3, :3] @ points.T).T + pose[:3, 3]

    if geometry.cylinder is not None:
        half = geometry.cylinder.length / 2
        ends = world(np.array([[0, 0, -half], [0, 0, half]]))
        return [Segment(ends[0], ends[1], kind)]
    if geometry.sphere is not None:
        ends = world(np.array([[0, 0, -geometry.sphere.radius], [0, 0, geometry.sphere.radius]]))
        return [Segment(ends[0], ends[1], kind)]
    if geometry.box is not None:
        corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)],
                           dtype=float) * np.asarray(geometry.box.size) / 2
        points = world(corners)
        return [Segment(points[i], points[j], kind) for i in range(8) for j in range(i + 1, 8)
                if bin(i ^ j).count('1') == 1]
    return []
