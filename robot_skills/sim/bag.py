"""The recorded run as a rosbag2 MCAP file: Foxglove opens it, ``ros2 bag play`` replays it.

Messages are stored as rosbag2 stores them: CDR bytes from rclpy's own
serializer, one channel per topic, and a ``ros2msg`` schema per type. The
schema text is generated from the type's rosidl definition (its ``SLOT_TYPES``)
rather than read from ``.msg`` files; constants carry no data and are left
out. The speech feedback the recorder keeps for the report is not written:
its type, ``Speak_FeedbackMessage``, is no valid ROS message name, so no
player or decoder could read it. ``mcap_ros2``'s decoder reads the file back
in the tests.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mcap.writer import CompressionType, Writer
from rclpy.serialization import serialize_message
from rosidl_parser.definition import (
    AbstractNestedType,
    AbstractString,
    AbstractWString,
    Array,
    BasicType,
    BoundedSequence,
    BoundedString,
    BoundedWString,
    NamespacedType,
)

from robot_skills.sim.recorder import Message

BASIC = {'boolean': 'bool', 'octet': 'byte', 'float': 'float32', 'double': 'float64',
         'long double': 'float64'}
SEPARATOR = '=' * 80
MESSAGE_NAME = re.compile(r'[A-Z][A-Za-z0-9]*\Z')     # rosidl's rule for a message name


def bagged(msg_type: type) -> bool:
    """Whether a type can be written: one a ROS message parser accepts by name."""
    return bool(MESSAGE_NAME.match(msg_type.__name__))


def type_name(msg_type: type) -> str:
    """``sensor_msgs/msg/JointState``: the name rosbag2 gives a message type."""
    package, kind = msg_type.__module__.split('.')[:2]
    return f'{package}/{kind}/{msg_type.__name__}'


def _field_type(slot: Any) -> str:
    if isinstance(slot, AbstractNestedType):
        inner = _field_type(slot.value_type)
        if isinstance(slot, Array):
            return f'{inner}[{slot.size}]'
        if isinstance(slot, BoundedSequence):
            return f'{inner}[<={slot.maximum_size}]'
        return f'{inner}[]'
    if isinstance(slot, BasicType):
        return BASIC.get(slot.typename, slot.typename)
    if isinstance(slot, (AbstractString, AbstractWString)):
        base = 'wstring' if isinstance(slot, AbstractWString) else 'string'
        if isinstance(slot, (BoundedString, BoundedWString)):
            return f'{base}<={slot.maximum_size}'
        return base
    if isinstance(slot, NamespacedType):
        return f'{_package(slot)}/{slot.name}'
    raise TypeError(f'no ros2msg spelling for {type(slot).__name__}')


def _nested(slot: Any) -> NamespacedType | None:
    while isinstance(slot, AbstractNestedType):
        slot = slot.value_type
    return slot if isinstance(slot, NamespacedType) else None


def _package(slot: NamespacedType) -> str:
    return next(iter(slot.namespaces))


def _resolve(slot: NamespacedType) -> Any:
    """The Python class of a nested type (``Speak_Feedback`` lives on ``Speak``)."""
    module = importlib.import_module('.'.join(slot.namespaces))
    if hasattr(module, slot.name):
        return getattr(module, slot.name)
    action, _, part = slot.name.partition('_')
    holder = getattr(module, action)
    return getattr(holder, part, None) or getattr(holder.Impl, part)


def _fields(msg_type: Any) -> tuple[str, list[NamespacedType]]:
    names = list(msg_type.get_fields_and_field_types())
    text = '\n'.join(f'{_field_type(slot)} {name}'
                     for slot, name in zip(msg_type.SLOT_TYPES, names, strict=True))
    return text + '\n', [n for n in map(_nested, msg_type.SLOT_TYPES) if n is not None]


def schema_text(msg_type: type) -> str:
    """The type's ``ros2msg`` definition with every nested type, as rosbag2 writes it."""
    text, pending = _fields(msg_type)
    seen: set[str] = set()
    parts = [text]
    while pending:
        slot = pending.pop(0)
        name = f'{_package(slot)}/{slot.name}'
        if name in seen:
            continue
        seen.add(name)
        nested_text, more = _fields(_resolve(slot))
        parts.append(f'{SEPARATOR}\nMSG: {name}\n{nested_text}')
        pending.extend(more)
    return '\n'.join(parts)


def write(path: Path | str, messages: Iterable[Message]) -> Path:
    """Write ``messages`` (those of a ``bagged`` type) into a new MCAP file at ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    schemas: dict[type, int] = {}
    channels: dict[str, int] = {}
    with path.open('wb') as stream:
        writer = Writer(stream, compression=CompressionType.ZSTD)
        writer.start(profile='ros2', library='robot_skills_sim')
        sequence = 0
        for message in messages:
            msg_type = type(message.msg)
            if not bagged(msg_type):
                continue
            if msg_type not in schemas:
                schemas[msg_type] = writer.register_schema(
                    name=type_name(msg_type), encoding='ros2msg',
                    data=schema_text(msg_type).encode())
            if message.topic not in channels:
                channels[message.topic] = writer.register_channel(
                    topic=message.topic, message_encoding='cdr', schema_id=schemas[msg_type])
            writer.add_message(channel_id=channels[message.topic], log_time=message.stamp_ns,
                               publish_time=message.stamp_ns, sequence=sequence,
                               data=serialize_message(message.msg))
            sequence += 1
        writer.finish()
    return path
