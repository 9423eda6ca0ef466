"""The input channels a skill listens to, turned into utterances.

``asr/events`` (AsrEvent, final results only), ``remote_message``
(RemoteMessage, counts as awake) and ``asr/json`` (std_msgs/String carrying
``{"text": ..., "kws_triggered": ...}`` for ASR drivers that publish JSON).
Callbacks only convert and hand over; the skill node decides.
"""

from __future__ import annotations

from collections.abc import Callable

from rclpy.callback_groups import CallbackGroup
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy
from std_msgs.msg import String

from robot_skills.model.utterance import Dropped, Utterance, from_asr, from_asr_json, from_remote
from robot_skills_interfaces.msg import AsrEvent, RemoteMessage

INPUT_QOS = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE)


class InputChannels:
    """Subscriptions to the three input topics, delivering ``Utterance | Dropped``."""

    def __init__(self, node: Node, deliver: Callable[[Utterance | Dropped], None],
                 max_chars: Callable[[], int], callback_group: CallbackGroup | None = None) -> None:
        self._deliver = deliver
        self._max_chars = max_chars
        self._json_count = 0
        node.create_subscription(AsrEvent, 'asr/events', self._on_asr, INPUT_QOS,
                                 callback_group=callback_group)
        node.create_subscription(RemoteMessage, 'remote_message', self._on_remote, INPUT_QOS,
                                 callback_group=callback_group)
        node.create_subscription(String, 'asr/json', self._on_json, INPUT_QOS,
                                 callback_group=callback_group)

    def _on_asr(self, msg: AsrEvent) -> None:
        self._deliver(from_asr(msg.utterance_id, msg.text, msg.kws_triggered, msg.is_final,
                               msg.confidence, self._max_chars()))

    def _on_remote(self, msg: RemoteMessage) -> None:
        self._deliver(from_remote(msg.message_id, msg.sender_id, msg.text, self._max_chars()))

    def _on_json(self, msg: String) -> None:
        self._json_count += 1
        self._deliver(from_asr_json(msg.data, f'asr-json-{self._json_count}', self._max_chars()))
