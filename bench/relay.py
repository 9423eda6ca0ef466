"""The floor of the skill path: a bare rclpy node that turns each ASR event into a goal.

No core, no runtime, no tracing: subscription callback -> ``send_goal_async``.
When the goal's result is in, it publishes one ``idle`` SkillEvent so the bench
paces it exactly like a skill. It reports the one-way publish -> callback
latency it saw as JSON on exit.
"""

from __future__ import annotations

import json
import sys

import rclpy
from rclpy.action import ActionClient
from rclpy.node import Node
from rclpy.time import Time

from robot_skills import interface
from robot_skills.runtime import stop
from robot_skills.runtime.entry import executor_from_env, init, spin
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.action import Speak
from robot_skills_interfaces.msg import AsrEvent, SkillEvent


class Relay(Node):
    def __init__(self) -> None:
        super().__init__('relay')
        self.client = ActionClient(self, Speak, interface.TTS_SPEAK.name)
        self.pubsub_ms: list[float] = []
        self.create_subscription(AsrEvent, interface.ASR_EVENTS.name, self._on_asr,
                                 profile(interface.ASR_EVENTS.qos))
        self.events = self.create_publisher(SkillEvent, interface.SKILL_EVENTS.name,
                                            profile(interface.SKILL_EVENTS.qos))

    def _on_asr(self, msg: AsrEvent) -> None:
        now = self.get_clock().now()
        self.pubsub_ms.append((now - Time.from_msg(msg.stamp)).nanoseconds / 1e6)
        self.client.send_goal_async(Speak.Goal(message=msg.text)).add_done_callback(
            self._on_accepted)

    def _on_accepted(self, future) -> None:
        future.result().get_result_async().add_done_callback(
            lambda _: self.events.publish(SkillEvent(skill='relay', kind='idle')))


def main() -> None:
    init(sys.argv)
    node = Relay()
    executor = executor_from_env()
    executor.add_node(node)
    with stop.spinning():          # a signal ends the spin; the figures are still printed
        spin(executor)
    print(json.dumps({'pubsub_ms': node.pubsub_ms}), flush=True)
    rclpy.try_shutdown()


if __name__ == '__main__':
    main()
