"""The skill nodes the simulation can put on a robot, by executable name."""

from __future__ import annotations

from collections.abc import Callable

from rclpy.node import Node

from robot_skills.classroom.node import ClassroomPresenter
from robot_skills.coordinator.node import LearningCoordinator
from robot_skills.pbl_ta.node import PblTa
from robot_skills.records.node import LearningRecords
from robot_skills.wayfinding.node import WayfindingGuide

SKILL_NODES: dict[str, Callable[..., Node]] = {
    'wayfinding_guide': WayfindingGuide,
    'classroom_presenter': ClassroomPresenter,
    'learning_coordinator': LearningCoordinator,
    'pbl_ta': PblTa,
    'learning_records': LearningRecords,
}
# The skills that listen to the robot's voice channels (asr/events, remote_message,
# asr/json); the others take requests of their own (coordinator/requests,
# discussion/turns).
VOICE_SKILLS = frozenset({'wayfinding_guide', 'classroom_presenter'})
