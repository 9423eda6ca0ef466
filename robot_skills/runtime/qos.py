"""The one conversion from the interface's pure ``Qos`` to rclpy's ``QoSProfile``."""

from __future__ import annotations

from functools import cache

from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

from robot_skills.interface import Durability, History, Qos, Reliability

_RELIABILITY = {Reliability.RELIABLE: ReliabilityPolicy.RELIABLE,
                Reliability.BEST_EFFORT: ReliabilityPolicy.BEST_EFFORT}
_DURABILITY = {Durability.VOLATILE: DurabilityPolicy.VOLATILE,
               Durability.TRANSIENT_LOCAL: DurabilityPolicy.TRANSIENT_LOCAL}
_HISTORY = {History.KEEP_LAST: HistoryPolicy.KEEP_LAST, History.KEEP_ALL: HistoryPolicy.KEEP_ALL}


@cache
def profile(qos: Qos) -> QoSProfile:
    """The rclpy profile for ``qos`` (one object per profile, as module constants were)."""
    return QoSProfile(depth=qos.depth, reliability=_RELIABILITY[qos.reliability],
                      durability=_DURABILITY[qos.durability], history=_HISTORY[qos.history])
