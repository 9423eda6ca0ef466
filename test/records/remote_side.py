"""What the consumer and producer processes share: a node with a warmed-up records client."""

import sys

import rclpy
from rclpy.node import Node

from robot_skills.interface import DEEP_QOS
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.srv import RecordsCall

QOS = profile(DEEP_QOS)


def connect(namespace: str, name: str, srv=RecordsCall, service: str = 'records/call',
            **fixed: str) -> tuple[Node, object]:
    """A node and a client of ``service`` (records/call, or the learner's records/learner/call
    with her ``learner_id`` in ``fixed``) that has had one answer (a server just discovered may
    drop the first ones)."""
    rclpy.init()
    node = Node(name, namespace=namespace)
    client = node.create_client(srv, service, qos_profile=QOS)
    if not client.wait_for_service(timeout_sec=30.0):
        sys.exit(f'{service} never appeared')
    for _ in range(30):
        probe = client.call_async(srv.Request(tool='', args_json='', **fixed))
        rclpy.spin_until_future_complete(node, probe, timeout_sec=1.0)
        if probe.done():
            break
    return node, client
