"""wayfinding_guide: routes for floors 2-6, spoken by the Q5 robot at the front desk.

Parameters (besides the runtime's, see ``RuntimeSettings``):
  building_file          config/wayfinding/building.yaml (read only)
  clarification_timeout  seconds a clarification question stays open (read only)
  max_pending            questions that may wait behind the current answer (read only);
                         past that the oldest voice question is dropped (traced), and a
                         remote one gets the "busy" reply
Subscribes: ``asr/events``, ``asr/json``, ``remote_message``.
Publishes: ``remote_reply``, ``skill_events``.
Action clients: ``tts/speak`` and ``arm_gesture`` only. The document forbids
base drive, navigation, head, waist, leg control and the speaker; the node
creates no client for any of them (nor for tts/pause|resume|interrupt or
arm_gesture/cancel, which the document does not use), so it cannot move the
robot's base whatever it is told.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from robot_skills.adapters.config import load
from robot_skills.model.commands import Device
from robot_skills.runtime import paths
from robot_skills.runtime.entry import run
from robot_skills.runtime.guard import GuardedNode
from robot_skills.runtime.params import Settings, setting
from robot_skills.runtime.skill_runner import SkillRunner
from robot_skills.wayfinding.building import Building
from robot_skills.wayfinding.core import WayfindingCore

DEVICES = (Device.TTS, Device.ARM_GESTURE)


@dataclass(frozen=True)
class WayfindingSettings:
    building_file: str = setting(paths.config('wayfinding/building.yaml'),
                                 'The building: floors, places, routes, phrases', read_only=True)
    clarification_timeout: float = setting(
        30.0, 'Seconds a clarification question waits for its answer', low=1.0, high=3600.0,
        read_only=True)
    max_pending: int = setting(5, 'Questions that may wait behind the current answer',
                               low=1, high=1000, read_only=True)


class WayfindingGuide(GuardedNode):
    """The wayfinding skill node (see the module docstring)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('wayfinding_guide', WayfindingCore.skill, **kwargs)

    def configure(self) -> None:
        self.settings = Settings(self, WayfindingSettings)
        building = load(self.settings.value.building_file, Building)
        core = WayfindingCore(building, self.settings.value.clarification_timeout,
                              self.settings.value.max_pending)
        self.runner = SkillRunner(self, core, DEVICES, controls=())


def main(args: list[str] | None = None) -> int:
    return run(WayfindingGuide, args)
