"""The input channels a skill listens to, turned into utterances.

``asr/events`` (AsrEvent, final results only), ``remote_message``
(RemoteMessage, counts as awake) and ``asr/json`` (std_msgs/String carrying
``{"text": ..., "kws_triggered": ...}`` for ASR drivers that publish JSON).
Callbacks only convert and hand over; the skill node decides. A message beyond
the transport cap (the guard's) is delivered as ``too_long`` without being
read, so the skill answers it like any other over-long input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rclpy.callback_groups import CallbackGroup
from std_msgs.msg import String

from robot_skills.interface import ASR_EVENTS, ASR_JSON, REMOTE_MESSAGE
from robot_skills.model.utterance import (
    Dropped,
    Source,
    Utterance,
    from_asr,
    from_asr_json,
    from_remote,
    oversized,
)
from robot_skills.runtime.guard import GuardedNode
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.msg import AsrEvent, RemoteMessage


class InputChannels:
    """Subscriptions to the three input topics, delivering ``Utterance | Dropped``."""

    def __init__(self, node: GuardedNode, deliver: Callable[[Utterance | Dropped], None],
                 max_chars: Callable[[], int], callback_group: CallbackGroup | None = None) -> None:
        self._node = node
        self._deliver = deliver
        self._max_chars = max_chars
        self._json_count = 0
        node.create_subscription(AsrEvent, ASR_EVENTS.name, self._on_asr, profile(ASR_EVENTS.qos),
                                 callback_group=callback_group, oversize=self._asr_oversize)
        node.create_subscription(RemoteMessage, REMOTE_MESSAGE.name, self._on_remote,
                                 profile(REMOTE_MESSAGE.qos),
                                 callback_group=callback_group, oversize=self._remote_oversize)
        node.create_subscription(String, ASR_JSON.name, self._on_json, profile(ASR_JSON.qos),
                                 callback_group=callback_group, oversize=self._json_oversize)

    def _on_asr(self, msg: AsrEvent) -> None:
        self._deliver(from_asr(msg.utterance_id, msg.text, msg.kws_triggered, msg.is_final,
                               msg.confidence, self._max_chars()))

    def _on_remote(self, msg: RemoteMessage) -> None:
        self._deliver(from_remote(msg.message_id, msg.sender_id, msg.text, self._max_chars()))

    def _on_json(self, msg: String) -> None:
        self._json_count += 1
        self._deliver(from_asr_json(msg.data, f'asr-json-{self._json_count}', self._max_chars(),
                                    self._node.guard.limits))

    def _asr_oversize(self, msg: AsrEvent, _: str, size: int) -> None:
        if msg.is_final:
            self._deliver(oversized(Source.ASR, msg.utterance_id, '', size, msg.kws_triggered))

    def _remote_oversize(self, msg: RemoteMessage, _: str, size: int) -> None:
        self._deliver(oversized(Source.REMOTE, msg.message_id, msg.sender_id, size, True))

    def _json_oversize(self, _: Any, __: str, size: int) -> None:
        self._json_count += 1
        self._deliver(oversized(Source.ASR, f'asr-json-{self._json_count}', '', size, False))
