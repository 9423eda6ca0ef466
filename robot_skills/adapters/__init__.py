"""The package's ways out to what is not ROS, with no rclpy in them: the SQLite files
of the stores (``database``), an LLM's chat endpoint (``chat``) and the data files of
``config/`` (``config``)."""
