"""The shared ROS shell of every skill node (rclpy lives here, not in cores).

robot.py        facade over the devices: batches, barriers, receipts, timeouts
skill_runner.py steps a pure core and carries out its effects
service_node.py the shell of a request/response node: its workers, callback groups and lock
inputs.py       asr/events, remote_message and asr/json as utterances
tracing.py      skill_events publisher
params.py       parameters declared once from frozen dataclasses
devices.py      the contract's device table and message conversions
entry.py        main() of every executable
paths.py        where installed config files are
"""
