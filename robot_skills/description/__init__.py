"""URDF models of the simulated robots, generated from the mock's own joint table."""
