"""The SROS2 access-control policy of learning_records and of its three kinds of caller.

A deployment governs who may call each records service with SROS2 (DDS-Security):
every process runs in an enclave whose signed permissions list what it may
publish, subscribe, request and answer. The core checks roles and scopes on every
call (``roles.py``); the policy makes the transport agree, so that only the
learner's pages can reach ``records/learner/call`` at all (the service trusts the
``learner_id`` its caller sends: the UI vouches for her), and only the operators'
console ``records/operator/call``.

Four enclaves, one profile each (``ENCLAVES``):

* ``/robot_skills/learning_records``: the node answers ``records/call``,
  ``records/learner/call`` and ``records/operator/call``, publishes
  ``records/live_events``, ``skill_events`` (tracing.py) and ``/diagnostics``
  (diagnostics.py), and has what rclpy and the lifecycle give every node of the
  package (managed.py): ``/rosout``, ``/parameter_events``, ``/clock`` (for
  ``use_sim_time``), the parameter and type-description services and the
  lifecycle services and ``transition_event``;
* ``/robot_skills/agent``: requests ``records/call``, subscribes
  ``records/live_events``;
* ``/robot_skills/learner_ui``: requests ``records/learner/call`` and nothing else;
* ``/robot_skills/operator``: requests ``records/operator/call``.

Each client profile also has a plain rclpy node's own endpoints (as sros2's sample
policies include ``common/node.xml`` in every profile): a node that may not create
its parameter services fails to start under ``ROS_SECURITY_STRATEGY=Enforce``.
Every grant is an ALLOW; anything not listed is denied (the DDS default of a
grant). Relative names resolve against the profile's namespace (``--namespace``,
the robot's, e.g. ``/tianyi``), ``~`` names against the namespace and node name.

    python -m robot_skills.records.sros2_policy [--namespace /] [-o config/sros2/policy.xml]
    python -m robot_skills.records.sros2_policy --check config/sros2/policy.xml

writes the policy (to stdout without ``-o``), or exits 1 when the file differs from
what this module generates. ``test/records/test_sros2_policy.py`` checks the
committed file against this module, the learning_records profile against the
endpoints a running node really has, and the file against sros2's schema.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from robot_skills.interface import (
    DIAGNOSTICS,
    RECORDS_CALL,
    RECORDS_LEARNER_CALL,
    RECORDS_LIVE_EVENTS,
    RECORDS_OPERATOR_CALL,
    SKILL_EVENTS,
)

POLICY_VERSION = '0.2.0'        # sros2's policy.xsd fixes it
ROOT = '/robot_skills'          # the enclaves' common prefix

# The records services, each with its interface (robot_skills_interfaces/srv) and the one
# client enclave that may request it (node.py serves all three).
RECORDS_SERVICES = {service.name: (service.type, client) for service, client in (
    (RECORDS_CALL, 'agent'), (RECORDS_LEARNER_CALL, 'learner_ui'),
    (RECORDS_OPERATOR_CALL, 'operator'))}
LIVE_EVENTS = (RECORDS_LIVE_EVENTS.name, RECORDS_LIVE_EVENTS.type)

# What rclpy gives every node (name -> interface): logging, parameters (served, and their
# events), the type description service (Iron and later) and the clock of use_sim_time.
NODE_PUBLISHES = {'/rosout': 'rcl_interfaces/msg/Log',
                  '/parameter_events': 'rcl_interfaces/msg/ParameterEvent'}
NODE_SUBSCRIBES = {'/parameter_events': 'rcl_interfaces/msg/ParameterEvent',
                   '/clock': 'rosgraph_msgs/msg/Clock'}
NODE_REPLIES = {
    '~/describe_parameters': 'rcl_interfaces/srv/DescribeParameters',
    '~/get_parameter_types': 'rcl_interfaces/srv/GetParameterTypes',
    '~/get_parameters': 'rcl_interfaces/srv/GetParameters',
    '~/list_parameters': 'rcl_interfaces/srv/ListParameters',
    '~/set_parameters': 'rcl_interfaces/srv/SetParameters',
    '~/set_parameters_atomically': 'rcl_interfaces/srv/SetParametersAtomically',
    '~/get_type_description': 'type_description_interfaces/srv/GetTypeDescription',
}
# What a ManagedNode (runtime/managed.py, an rclpy LifecycleNode) adds.
LIFECYCLE_REPLIES = {
    '~/change_state': 'lifecycle_msgs/srv/ChangeState',
    '~/get_available_states': 'lifecycle_msgs/srv/GetAvailableStates',
    '~/get_available_transitions': 'lifecycle_msgs/srv/GetAvailableTransitions',
    '~/get_state': 'lifecycle_msgs/srv/GetState',
    '~/get_transition_graph': 'lifecycle_msgs/srv/GetAvailableTransitions',
}
LIFECYCLE_PUBLISHES = {'~/transition_event': 'lifecycle_msgs/msg/TransitionEvent'}
# What a GuardedNode (runtime/guard.py) publishes: its traces and its diagnostics.
GUARDED_PUBLISHES = {topic.name: topic.type for topic in (SKILL_EVENTS, DIAGNOSTICS)}


@dataclass(frozen=True)
class Profile:
    """One enclave's one profile: the names it may use, each with its interface."""

    enclave: str
    node: str
    publish: dict[str, str] = field(default_factory=dict)
    subscribe: dict[str, str] = field(default_factory=dict)
    reply: dict[str, str] = field(default_factory=dict)
    request: dict[str, str] = field(default_factory=dict)


def _client(name: str, node: str, request: dict[str, str],
            subscribe: dict[str, str] | None = None) -> Profile:
    return Profile(f'{ROOT}/{name}', node, dict(NODE_PUBLISHES),
                   {**NODE_SUBSCRIBES, **(subscribe or {})}, dict(NODE_REPLIES), request)


def _requests(client: str) -> dict[str, str]:
    return {name: srv for name, (srv, who) in RECORDS_SERVICES.items() if who == client}


ENCLAVES: tuple[Profile, ...] = (
    Profile(f'{ROOT}/learning_records', 'learning_records',
            publish={**NODE_PUBLISHES, **LIFECYCLE_PUBLISHES, **GUARDED_PUBLISHES,
                     LIVE_EVENTS[0]: LIVE_EVENTS[1]},
            subscribe=dict(NODE_SUBSCRIBES),
            reply={**NODE_REPLIES, **LIFECYCLE_REPLIES,
                   **{name: srv for name, (srv, _) in RECORDS_SERVICES.items()}}),
    _client('agent', 'agent', _requests('agent'), {LIVE_EVENTS[0]: LIVE_EVENTS[1]}),
    _client('learner_ui', 'learner_ui', _requests('learner_ui')),
    _client('operator', 'operator_console', _requests('operator')),
)

HEADER = ('\n  Generated by python -m robot_skills.records.sros2_policy (do not edit: regenerate).'
          '\n  The sros2 policy format 0.2.0, for:'
          '\n  ros2 security create_permission KEYSTORE ENCLAVE this-file\n')


def generate(namespace: str = '/') -> str:
    """The policy XML, every profile in ``namespace``."""
    if not namespace.startswith('/'):
        raise ValueError(f'namespace {namespace!r}: an absolute name, e.g. / or /tianyi')
    policy = ET.Element('policy', version=POLICY_VERSION)
    enclaves = ET.SubElement(policy, 'enclaves')
    for profile in ENCLAVES:
        enclave = ET.SubElement(enclaves, 'enclave', path=profile.enclave)
        element = ET.SubElement(ET.SubElement(enclave, 'profiles'), 'profile', ns=namespace,
                                node=profile.node)
        for kind, names, item in (('services', profile.reply, 'reply'),
                                  ('services', profile.request, 'request'),
                                  ('topics', profile.publish, 'publish'),
                                  ('topics', profile.subscribe, 'subscribe')):
            if names:
                listed = ET.SubElement(element, kind, {item: 'ALLOW'})
                for name in sorted(names):
                    ET.SubElement(listed, kind[:-1]).text = name
    ET.indent(policy, space='  ')
    body = ET.tostring(policy, encoding='unicode')
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<!--{HEADER}-->\n{body}\n'


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m robot_skills.records.sros2_policy',
                                     description='the SROS2 policy of learning_records and '
                                                 'its callers')
    parser.add_argument('--namespace', default='/', help="the robot's namespace (default /)")
    parser.add_argument('-o', '--output', type=Path, help='write here (default: stdout)')
    parser.add_argument('--check', type=Path, metavar='FILE',
                        help='exit 1 when FILE differs from the generated policy')
    options = parser.parse_args(argv)
    try:
        text = generate(options.namespace)
    except ValueError as error:
        print(f'cannot generate: {error}', file=sys.stderr)
        return 2
    if options.check is not None:
        current = options.check.read_text(encoding='utf-8') if options.check.is_file() else ''
        if current != text:
            print(f'{options.check} differs from the generated policy: regenerate it with '
                  f'python -m robot_skills.records.sros2_policy -o {options.check}',
                  file=sys.stderr)
            return 1
        return 0
    if options.output is None:
        sys.stdout.write(text)
    else:
        options.output.parent.mkdir(parents=True, exist_ok=True)
        options.output.write_text(text, encoding='utf-8')
    return 0


if __name__ == '__main__':
    sys.exit(main())
