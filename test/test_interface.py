"""The interface table: the contract's names are in it, each once, each with a real type."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from robot_skills import interface
from robot_skills.interface import ACTIONS, SERVICES, TOPICS
from robot_skills.model.commands import Control
from robot_skills.runtime.devices import ACTIONS as DEVICE_ACTIONS

# Spelt out here on purpose (shared/design/interfaces.md): a rename in the table fails this test.
CONTRACT = {
    'asr/events': 'robot_skills_interfaces/msg/AsrEvent',
    'remote_message': 'robot_skills_interfaces/msg/RemoteMessage',
    'remote_reply': 'robot_skills_interfaces/msg/TextReply',
    'skill_events': 'robot_skills_interfaces/msg/SkillEvent',
    'joint_states': 'sensor_msgs/msg/JointState',
    'tts/speak': 'robot_skills_interfaces/action/Speak',
    'arm_gesture': 'robot_skills_interfaces/action/ArmGesture',
    'head_gesture': 'robot_skills_interfaces/action/HeadGesture',
    'arm/move_pos': 'robot_skills_interfaces/action/ArmMovePos',
    'hand': 'robot_skills_interfaces/action/HandGesture',
    'tts/pause': 'std_srvs/srv/Trigger',
    'tts/resume': 'std_srvs/srv/Trigger',
    'tts/interrupt': 'std_srvs/srv/Trigger',
    'arm_gesture/cancel': 'std_srvs/srv/Trigger',
    'head_gesture/cancel': 'std_srvs/srv/Trigger',
}
EVERYTHING = (*TOPICS, *SERVICES, *ACTIONS)


def test_the_contract_names_are_in_the_table_with_their_types():
    table = {entry.name: entry.type for entry in EVERYTHING}
    assert {name: table.get(name) for name in CONTRACT} == CONTRACT


def test_each_name_is_in_the_table_once():
    names = [entry.name for entry in EVERYTHING]
    assert len(names) == len(set(names))


@pytest.mark.parametrize('entry', EVERYTHING, ids=lambda e: e.name)
def test_each_type_is_a_generated_interface(entry):
    package, kind, name = entry.type.split('/')
    assert hasattr(importlib.import_module(f'{package}.{kind}'), name)


def test_every_named_constant_is_listed():
    listed = set(EVERYTHING)
    named = {value for value in vars(interface).values()
             if isinstance(value, interface.Topic | interface.Service | interface.Action)}
    assert named == listed


def test_the_devices_and_controls_take_their_names_from_the_table():
    assert {spec.name for spec in DEVICE_ACTIONS.values()} == {a.name for a in ACTIONS}
    assert {c.value for c in Control} <= {s.name for s in SERVICES}
    types = {a.name: a.type for a in ACTIONS}
    for spec in DEVICE_ACTIONS.values():
        module = spec.action_type.__module__.split('.')[0]
        assert types[spec.name] == f'{module}/action/{spec.action_type.__name__}'


def test_a_pure_core_may_import_the_table_without_rclpy():
    loaded = subprocess.run(
        [sys.executable, '-c', 'import sys, robot_skills.interface, robot_skills.model.commands; '
         'print(sorted(m for m in sys.modules if m.startswith("rclpy")))'],
        capture_output=True, text=True, timeout=60, check=True).stdout
    assert loaded.strip() == '[]'
