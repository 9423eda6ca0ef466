"""Everything the simulated robots said and did, kept in memory for the report and the bag.

An ordinary ROS node beside the director: it subscribes, in each robot's
namespace, to what a person looking at the robot would watch (inputs, the
mock's command log and joint states, the skills' traces, replies, decisions)
and to each device action's status and speech feedback, which tell when a
goal ended and how much of a cut speech was heard. It only stores messages
(the receipt time, in nanoseconds of the wall clock, as rosbag2 logs them);
the report and the MCAP writer read them after the run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from action_msgs.msg import GoalStatusArray
from rclpy.node import Node
from rclpy.qos import QoSProfile
from sensor_msgs.msg import JointState

from robot_skills.interface import (
    ASR_EVENTS,
    COORDINATOR_DECISIONS,
    COORDINATOR_REQUESTS,
    DISCUSSION_TURNS,
    JOINT_STATES,
    MOCK_COMMANDS,
    REMOTE_MESSAGE,
    REMOTE_REPLY,
    SKILL_EVENTS,
    WATCH_LATCHED_QOS,
    WATCH_QOS,
)
from robot_skills.model.commands import Device
from robot_skills.runtime.devices import ACTIONS
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.msg import (
    AsrEvent,
    DiscussionTurn,
    HardwareCommand,
    LearningRequest,
    RemoteMessage,
    RoutingDecision,
    SkillEvent,
    TextReply,
)

RELIABLE = profile(WATCH_QOS)
LATCHED = profile(WATCH_LATCHED_QOS)
# (relative topic, type, QoS): what each robot is watched on.
TOPICS: tuple[tuple[str, Any, QoSProfile], ...] = (
    (ASR_EVENTS.name, AsrEvent, RELIABLE),
    (REMOTE_MESSAGE.name, RemoteMessage, RELIABLE),
    (COORDINATOR_REQUESTS.name, LearningRequest, RELIABLE),
    (DISCUSSION_TURNS.name, DiscussionTurn, RELIABLE),
    (MOCK_COMMANDS.name, HardwareCommand, RELIABLE),
    (JOINT_STATES.name, JointState, RELIABLE),
    (SKILL_EVENTS.name, SkillEvent, LATCHED),
    (REMOTE_REPLY.name, TextReply, RELIABLE),
    (COORDINATOR_DECISIONS.name, RoutingDecision, RELIABLE),
    *((f'{spec.name}/_action/status', GoalStatusArray, LATCHED) for spec in ACTIONS.values()),
    (f'{ACTIONS[Device.TTS].name}/_action/feedback',
     ACTIONS[Device.TTS].action_type.Impl.FeedbackMessage, RELIABLE),
)


@dataclass(frozen=True)
class Message:
    """One message as received: when (ns, wall clock), from which robot, on which topic."""

    stamp_ns: int
    robot: str
    topic: str            # absolute: /<robot>/<relative>
    msg: Any


class Recorder(Node):
    """Keeps every message of ``TOPICS`` of each robot, in the order received."""

    def __init__(self, robots: Iterable[str], **kwargs: Any) -> None:
        super().__init__('sim_recorder', **kwargs)
        self._lock = threading.Lock()
        self._messages: list[Message] = []
        self.started_ns = time.time_ns()
        for robot in robots:
            for relative, msg_type, qos in TOPICS:
                topic = f'/{robot}/{relative}'
                self.create_subscription(
                    msg_type, topic,
                    lambda msg, robot=robot, topic=topic: self._keep(robot, topic, msg), qos)

    def _keep(self, robot: str, topic: str, msg: Any) -> None:
        with self._lock:
            self._messages.append(Message(time.time_ns(), robot, topic, msg))

    @property
    def messages(self) -> list[Message]:
        """A copy of what was received so far, in order of receipt."""
        with self._lock:
            return list(self._messages)
