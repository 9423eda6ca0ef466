"""A robot-side consumer in its own process, for the live_wait test.

    python consumer.py <namespace> <pair_id> <consumer_id>
Waits with live_wait (consumer_id, acknowledging each batch with ``since`` on
the next call) and prints one JSON line per answer. It keeps no state of its
own: restarted, it continues from the cursor the store keeps.
"""

import json
import sys

import rclpy
from remote_side import connect

from robot_skills_interfaces.srv import RecordsCall

WAIT = 20


def main() -> None:
    namespace, pair, consumer = sys.argv[1:4]
    node, client = connect(namespace, 'robot_side')
    since = None
    while rclpy.ok():
        args = {'pair_id': pair, 'consumer_id': consumer, 'timeout_s': WAIT,
                'known_contract_version': 'v3', **({'since': since} if since else {})}
        future = client.call_async(RecordsCall.Request(tool='live_wait',
                                                       args_json=json.dumps(args)))
        rclpy.spin_until_future_complete(node, future, timeout_sec=WAIT + 10)
        result = json.loads(future.result().result_json)
        print(json.dumps({'timeout': result['timeout'],
                          'seqs': [e['seq'] for e in result['events']]}), flush=True)
        if result['events']:
            since = result['cursor']


if __name__ == '__main__':
    main()
