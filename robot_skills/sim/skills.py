"""The skill nodes the simulation can put on a robot, by executable name."""

from __future__ import annotations

from collections.abc import Callable

from rclpy.node import Node

from robot_skills.classroom.node import ClassroomPresenter
from robot_skills.coordinator.node import LearningCoordinator
from robot_skills.discussion.node import PblTa
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
# Parameters the simulation gives a skill on top of config/params.yaml: every
# simulated run starts from empty coordinator and records stores, so a scenario
# plays the same way each time; the discussion TA speaks through the robot it runs on
# ('{robot}' is that robot's name).
SIM_PARAMETERS: dict[str, dict[str, object]] = {
    'learning_coordinator': {'store_path': ':memory:'},
    'learning_records': {'store_path': ':memory:'},
    'pbl_ta': {'robot_namespace': '/{robot}'},
}
