"""The simulated robot: pure behaviour in core.py, body data in config.py, ROS node in node.py."""
