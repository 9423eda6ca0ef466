"""Shared pure vocabulary of the skills: nothing here imports rclpy.

Cores speak in these types; the ROS shell in ``robot_skills.runtime`` turns them
into goals, services and messages.
"""
