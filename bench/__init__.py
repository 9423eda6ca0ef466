"""make bench: the project's latency, throughput and memory figures next to the rclpy floor."""
