"""The SROS2 policy of learning_records (config/sros2/policy.xml) and its generator.

Always: the committed file is the generator's output, every records service is
answered by the node and requested by its one client only, and each profile
grants exactly what a running node (and a plain client node) has. With a copy of
the ros2/sros2 repository (``SROS2_REPO``: a clone or a bare mirror; its files
are not vendored here): the file is valid against sros2's own ``policy.xsd``, and
sros2's ``permissions.xsl`` turns every enclave into DDS permissions valid
against its ``permissions.xsd``, as ``ros2 security create_permission`` does.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rclpy.node import Node
from rclpy.parameter import Parameter

from robot_skills.records.node import LearningRecords
from robot_skills.records.sros2_policy import (
    GUARDED_PUBLISHES,
    LIFECYCLE_PUBLISHES,
    LIFECYCLE_REPLIES,
    LIVE_EVENTS,
    NODE_PUBLISHES,
    NODE_REPLIES,
    NODE_SUBSCRIBES,
    RECORDS_SERVICES,
    generate,
)
from robot_skills_interfaces.msg import RecordsEvent
from robot_skills_interfaces.srv import RecordsCall, RecordsLearnerCall

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / 'config' / 'sros2' / 'policy.xml'
SROS2_REPO = Path(os.environ.get('SROS2_REPO', '/work/.mirror/ros2+sros2/repo'))
NODE = '/robot_skills/learning_records'
CLIENTS = {'records/call': '/robot_skills/agent',
           'records/learner/call': '/robot_skills/learner_ui',
           'records/operator/call': '/robot_skills/operator'}
KINDS = ('reply', 'request', 'publish', 'subscribe')


def _profiles(text: str) -> dict[str, dict]:
    """Enclave path -> {'ns', 'node', and a set of names per kind}; every rule an ALLOW."""
    policy = ET.fromstring(text)
    assert policy.tag == 'policy' and policy.get('version') == '0.2.0'
    found: dict[str, dict] = {}
    for enclave in policy.iterfind('enclaves/enclave'):
        (profile,) = enclave.iterfind('profiles/profile')
        entry = {'ns': profile.get('ns'), 'node': profile.get('node'),
                 **{kind: set() for kind in KINDS}}
        for rules in profile:
            assert rules.tag in ('services', 'topics'), rules.tag
            assert set(rules.attrib.values()) == {'ALLOW'}, rules.attrib
            for kind in rules.attrib:
                names = [item.text for item in rules]
                assert len(names) == len(set(names)), names
                entry[kind] |= set(names)
        assert enclave.get('path') not in found
        found[enclave.get('path')] = entry
    return found


def test_the_committed_policy_is_the_generated_one(tmp_path):
    assert COMMITTED.read_text(encoding='utf-8') == generate(), (
        'config/sros2/policy.xml drifted: python -m robot_skills.records.sros2_policy '
        '-o config/sros2/policy.xml')

    def check(path: Path) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, '-m', 'robot_skills.records.sros2_policy',
                               '--check', str(path)], capture_output=True, text=True,
                              timeout=60)
    assert check(COMMITTED).returncode == 0
    drifted = tmp_path / 'policy.xml'
    drifted.write_text(generate().replace('records/learner/call', 'records/*'),
                       encoding='utf-8')
    refused = check(drifted)
    assert refused.returncode == 1 and 'regenerate it' in refused.stderr
    robot = generate('/tianyi')
    assert {p['ns'] for p in _profiles(robot).values()} == {'/tianyi'}
    with pytest.raises(ValueError, match='absolute'):
        generate('tianyi')


def test_each_records_service_is_answered_by_the_node_and_requested_by_its_client_only():
    profiles = _profiles(COMMITTED.read_text(encoding='utf-8'))
    assert set(profiles) == {NODE, *CLIENTS.values()}
    assert {p['ns'] for p in profiles.values()} == {'/'}
    for service, client in CLIENTS.items():
        assert {path for path, p in profiles.items() if service in p['reply']} == {NODE}
        assert {path for path, p in profiles.items() if service in p['request']} == {client}
        assert not any(service in p['publish'] | p['subscribe'] for p in profiles.values())
    learner, agent = profiles['/robot_skills/learner_ui'], profiles['/robot_skills/agent']
    assert learner['request'] == {'records/learner/call'}          # nothing else to ask
    assert agent['request'] == {'records/call'}                    # not hers, not operators'
    assert profiles['/robot_skills/operator']['request'] == {'records/operator/call'}
    assert profiles[NODE]['request'] == set()                      # the node asks no one
    assert {path for path, p in profiles.items() if 'records/live_events' in p['publish']} \
        == {NODE}
    assert {path for path, p in profiles.items()
            if 'records/live_events' in p['subscribe']} == {'/robot_skills/agent'}
    for path in CLIENTS.values():          # a client has a plain node's own endpoints only
        own = profiles[path]
        assert own['reply'] == set(NODE_REPLIES) and own['publish'] == set(NODE_PUBLISHES)
        assert own['subscribe'] - set(NODE_SUBSCRIBES) <= {'records/live_events'}
    names = {name for p in profiles.values() for kind in KINDS for name in p[kind]}
    assert not [name for name in names if set(name) & set('*?[]{}')]   # no wildcards


def _resolve(name: str, namespace: str, node: str) -> str:
    """A policy name as sros2's permissions.xsl resolves it in a profile."""
    base = namespace.rstrip('/')
    if name.startswith('/'):
        return name
    if name.startswith('~'):
        return f'{base}/{node}{name[1:]}'
    return f'{base}/{name}'


def _graph(probe: Node, name: str, namespace: str) -> dict[str, dict[str, str]]:
    """What the node ``namespace/name`` has, by kind: resolved name -> interface."""
    def by(found: list) -> dict[str, str]:
        return {topic: types[0] for topic, types in found}
    return {'publish': by(probe.get_publisher_names_and_types_by_node(name, namespace)),
            'subscribe': by(probe.get_subscriber_names_and_types_by_node(name, namespace)),
            'reply': by(probe.get_service_names_and_types_by_node(name, namespace)),
            'request': by(probe.get_client_names_and_types_by_node(name, namespace))}


def _granted(path: str, namespace: str) -> dict[str, set[str]]:
    profile = _profiles(generate(namespace))[path]
    return {kind: {_resolve(n, namespace, profile['node']) for n in profile[kind]}
            for kind in KINDS}


def _exactly(ros, probe: Node, path: str, node: str,
             required: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """The node has every granted name of the ``required`` kinds (nothing over-granted) and
    uses nothing that is not granted (nothing missing: Enforce would stop it)."""
    granted = _granted(path, ros.namespace)

    def complete() -> bool:
        graph = _graph(probe, node, ros.namespace)
        return all(granted[kind] <= set(graph[kind]) for kind in required)
    ros.until(complete, timeout=20.0, what=f'every endpoint of {node} discovered')
    graph = _graph(probe, node, ros.namespace)
    for kind in KINDS:
        assert set(graph[kind]) <= granted[kind], (path, kind, set(graph[kind]) -
                                                   granted[kind])
    return graph


def test_the_node_profile_is_exactly_what_a_running_node_has(ros, tmp_path):
    ros.add(LearningRecords, parameter_overrides=[
        Parameter('store_path', value=str(tmp_path / 'records.sqlite3'))])
    graph = _exactly(ros, ros.node(), NODE, 'learning_records',
                     ('publish', 'reply', 'request'))
    ns = ros.namespace
    interfaces = {**NODE_PUBLISHES, **LIFECYCLE_PUBLISHES, **GUARDED_PUBLISHES,
                  LIVE_EVENTS[0]: LIVE_EVENTS[1], **NODE_REPLIES, **LIFECYCLE_REPLIES,
                  **{name: srv for name, (srv, _) in RECORDS_SERVICES.items()}}
    typed = {_resolve(name, ns, 'learning_records'): srv for name, srv in interfaces.items()}
    for kind in ('publish', 'reply'):              # the table's interfaces are the node's
        for name, interface in graph[kind].items():
            assert typed[name] == interface, (name, interface)


@pytest.mark.parametrize('path, node', [('/robot_skills/agent', 'agent'),
                                        ('/robot_skills/learner_ui', 'learner_ui'),
                                        ('/robot_skills/operator', 'operator_console')])
def test_a_client_node_built_as_documented_needs_exactly_its_profile(ros, path, node):
    client = ros.add(lambda **kw: Node(node, **kw))
    service = {v: k for k, v in CLIENTS.items()}[path]
    client.create_client(RecordsLearnerCall if service == 'records/learner/call'
                         else RecordsCall, service)
    if path == '/robot_skills/agent':
        client.create_subscription(RecordsEvent, 'records/live_events', lambda _: None, 10)
    _exactly(ros, ros.node(), path, node, ('publish', 'reply', 'request'))


def _sros2(path: str) -> bytes | None:
    """A file of the sros2 repository at SROS2_REPO (a work tree, or a bare git mirror)."""
    if (SROS2_REPO / path).is_file():
        return (SROS2_REPO / path).read_bytes()
    if not (SROS2_REPO / 'HEAD').is_file():
        return None
    shown = subprocess.run(['git', '--git-dir', str(SROS2_REPO), 'show', f'HEAD:{path}'],
                           capture_output=True, timeout=60)
    return shown.stdout if shown.returncode == 0 else None


def _schema(tmp_path: Path, path: str):
    """An xmlschema of sros2's ``path``, local files only; skip without the repository."""
    xmlschema = pytest.importorskip('xmlschema')
    text = _sros2(path)
    if text is None:
        pytest.skip(f'no sros2 repository at {SROS2_REPO} (set SROS2_REPO to a clone or a '
                    f'bare mirror of github.com/ros2/sros2): its schemas are not vendored '
                    f'here and CI has no network')
    local = tmp_path / Path(path).name
    local.write_bytes(text)
    # policy.xsd imports the XML namespace (xml:base) from www.w3.org: xmlschema's own copy
    # of that W3C schema answers it (sros2 ships the same file in xml_cache); no download
    return xmlschema.XMLSchema10(str(local), allow='local', defuse='always')


def test_the_policy_is_valid_against_sros2_s_schema(tmp_path):
    schema = _schema(tmp_path, 'sros2/sros2/policy/schemas/policy.xsd')
    schema.validate(str(COMMITTED))
    for namespace in ('/', '/tianyi'):
        schema.validate(generate(namespace))
    assert not schema.is_valid(generate().replace('reply="ALLOW"', 'reply="MAYBE"'))
    assert not schema.is_valid(generate().replace('<policy version="0.2.0">', '<policy>'))


def test_sros2_turns_every_enclave_into_valid_dds_permissions(tmp_path):
    """What ``ros2 security create_permission`` does before it signs: the enclave's policy
    through sros2's permissions.xsl, validated against its permissions.xsd."""
    etree = pytest.importorskip('lxml.etree')
    permissions = _schema(tmp_path, 'sros2/sros2/policy/schemas/dds/permissions.xsd')
    xsl = etree.XSLT(etree.fromstring(_sros2('sros2/sros2/policy/templates/dds/'
                                             'permissions.xsl')))
    tree = etree.fromstring(COMMITTED.read_bytes())
    granted: dict[str, dict[str, set[str]]] = {}
    for enclave in tree.iterfind('enclaves/enclave'):
        policy = etree.Element('policy')        # as sros2's get_policy_from_tree
        etree.SubElement(policy, 'enclaves').append(enclave)
        dds = xsl(policy, allow_ros_discovery_topic=etree.XSLT.strparam('1'))
        permissions.validate(etree.tostring(dds).decode())
        (grant,) = dds.iterfind('permissions/grant')
        assert grant.findtext('subject_name') == f"CN={enclave.get('path')}"
        assert grant.findtext('default') == 'DENY' and grant.find('deny_rule') is None
        granted[enclave.get('path')] = {
            kind: {t.text for t in grant.iterfind(f'allow_rule/{kind}/topics/topic')}
            for kind in ('publish', 'subscribe')}
    for service, client in CLIENTS.items():
        request, reply = f'rq/{service}Request', f'rr/{service}Reply'
        assert {p for p, g in granted.items() if request in g['publish']} == {client}
        assert {p for p, g in granted.items() if reply in g['subscribe']} == {client}
        assert {p for p, g in granted.items() if request in g['subscribe']} == {NODE}
        assert {p for p, g in granted.items() if reply in g['publish']} == {NODE}
    assert 'rt/records/live_events' in granted['/robot_skills/agent']['subscribe']
    learner = granted['/robot_skills/learner_ui']['publish']
    assert {topic for topic in learner if topic.startswith('rq/')} == {
        'rq/records/learner/callRequest'}
