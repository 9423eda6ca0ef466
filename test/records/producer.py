"""A learner's side in its own process, for the live_wait test: one event per line on stdin.

    python producer.py <namespace> <pair_id> <live_session_id> <learner_id>
Each stdin line is a response the learner types, sent from her pages on
records/learner/call (her answer is hers: records/call refuses it); after it answers,
the line "sent <response_id>" is printed. The test decides when each event
happens, so nothing here waits on time.
"""

import json
import sys

import rclpy
from remote_side import connect

from robot_skills_interfaces.srv import RecordsLearnerCall


def main() -> None:
    namespace, pair, session, learner = sys.argv[1:5]
    node, client = connect(namespace, 'learner_side', RecordsLearnerCall, 'records/learner/call',
                           learner_id=learner)
    for line in sys.stdin:
        future = client.call_async(RecordsLearnerCall.Request(
            learner_id=learner, tool='live_learner_respond', args_json=json.dumps(
                {'pair_id': pair, 'live_session_id': session, 'text': line.strip()})))
        rclpy.spin_until_future_complete(node, future, timeout_sec=10.0)
        result = future.result()
        print('sent', json.loads(result.result_json).get('response_id') if result and result.ok
              else f'refused {result.error if result else "no answer"}', flush=True)
    node.destroy_node()
    rclpy.shutdown()


if __name__ == '__main__':
    main()
