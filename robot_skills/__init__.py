"""robot_skills: deterministic ROS 2 nodes for five robot skills.

Layout:
  model/          shared pure vocabulary (no rclpy): device commands, outcomes,
                  utterances, skill events/effects, config loading
  runtime/        shared ROS shell (rclpy): robot facade, skill node, inputs,
                  tracing, parameters, entry points
  mock_hardware/  the simulated robot serving every device of the contract
  sim/            the all-in-one simulation: scenarios, console, timeline
  <skill>/        one folder per skill: core.py (pure), node.py (ROS adapter)
"""
