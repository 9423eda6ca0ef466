"""The robots' link dimensions (``config/description/robots.yaml``), validated.

Joint names and arm and finger limits are not here: they come from
``config/mock_hardware.yaml``, so a model can never disagree with the mock.
The head's limits are, because the mock has none (it only plays gestures); the
generator refuses head limits that one of the mock's head gestures would leave.
"""

from __future__ import annotations

from pydantic import Field

from robot_skills.mock_hardware.config import Limit
from robot_skills.model.strict import Strict

Length = Field(gt=0.0, le=3.0)


class Base(Strict):
    radius: float = Length
    height: float = Length


class Torso(Strict):
    depth: float = Length
    width: float = Length
    height: float = Length


class Robot(Strict):
    """One robot's body; the arms are mirror images of each other."""

    name: str = Field(min_length=1)
    base: Base
    torso: Torso
    shoulder_drop: float = Field(ge=0.0, le=1.0, description='shoulders below the torso top')
    shoulder_offset: float = Length
    neck: float = Length
    head_radius: float = Length
    upper_arm: float = Length
    forearm: float = Length
    palm: float = Length
    finger: float = Length


class Bodies(Strict):
    """The whole of ``config/description/robots.yaml``."""

    head_limits: dict[str, Limit]
    robots: dict[str, Robot] = Field(min_length=1)
