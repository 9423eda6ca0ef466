"""The package's ways out to what is not ROS, with no rclpy in them: the SQLite files
of the stores (``database``) and an LLM's chat endpoint (``chat``)."""
