"""The skill nodes the simulation can put on a robot, by executable name."""

from __future__ import annotations

from collections.abc import Callable

from rclpy.node import Node

from robot_skills.classroom.node import ClassroomPresenter
from robot_skills.wayfinding.node import WayfindingGuide

SKILL_NODES: dict[str, Callable[..., Node]] = {
    'wayfinding_guide': WayfindingGuide,
    'classroom_presenter': ClassroomPresenter,
}
