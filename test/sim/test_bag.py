"""The MCAP recording reads back with mcap_ros2: every message, every field, in order."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest
from mcap.reader import make_reader
from mcap_ros2.decoder import DecoderFactory

from robot_skills.sim import bag
from robot_skills.sim.recorder import TOPICS, Message


def _decoded(path):
    with path.open('rb') as stream:
        reader = make_reader(stream, decoder_factories=[DecoderFactory()])
        summary = reader.get_summary()
        return summary, list(reader.iter_decoded_messages(log_time_order=False))


def _sample(msg_type):
    """A message of ``msg_type`` with a non-default value in each plain field."""
    msg = msg_type()
    for name, kind in msg_type.get_fields_and_field_types().items():
        if kind == 'string':
            setattr(msg, name, f'{name} 你好')
        elif kind in ('int32', 'uint32', 'int64', 'uint64', 'int8', 'uint8'):
            setattr(msg, name, 7)
        elif kind == 'boolean':
            setattr(msg, name, True)
        elif kind == 'sequence<string>':
            setattr(msg, name, ['a', 'b'])
        elif kind == 'sequence<double>':
            setattr(msg, name, [0.5, -1.25])
    return msg


def test_every_recorded_type_reads_back_field_for_field(tmp_path):
    messages = [Message(1_000 + i, 'r', f'/r/{topic}', _sample(msg_type))
                for i, (topic, msg_type, _) in enumerate(TOPICS) if bag.bagged(msg_type)]
    assert len(messages) == len(TOPICS) - 1         # all but the speech feedback
    path = bag.write(tmp_path / 'all.mcap', messages)
    summary, decoded = _decoded(path)
    assert summary.statistics.message_count == len(messages)
    assert [d.channel.topic for d in decoded] == [m.topic for m in messages]
    for original, read in zip(messages, decoded, strict=True):
        assert read.schema.name == bag.type_name(type(original.msg))
        assert read.message.log_time == original.stamp_ns
        for name in type(original.msg).get_fields_and_field_types():
            value = getattr(original.msg, name)
            if isinstance(value, (str, bool, int, float)):
                assert getattr(read.decoded_message, name) == value, name
            elif isinstance(value, list) and value and isinstance(value[0], (str, float)):
                assert list(getattr(read.decoded_message, name)) == value, name


@pytest.mark.slow
def test_the_runs_recording_holds_every_command_the_mock_logged(short_run):
    summary, decoded = _decoded(short_run.bag)
    assert summary.statistics.message_count == len(decoded)
    topics = Counter(d.channel.topic for d in decoded)
    for robot in ('q5', 'tianyi'):
        for relative in ('mock_hardware/commands', 'joint_states', 'skill_events',
                         'asr/events', 'tts/speak/_action/status'):
            assert topics[f'/{robot}/{relative}'] > 0, (robot, relative)
    sequences = defaultdict(list)
    for d in decoded:
        if d.channel.topic.endswith('/mock_hardware/commands'):
            sequences[d.channel.topic].append(d.decoded_message.sequence)
            json.loads(d.decoded_message.arguments_json)
    for topic, seen in sequences.items():
        assert sorted(seen) == list(range(1, len(seen) + 1)), topic
