"""Parameters the simulation gives a skill on top of config/params.yaml.

Read by both ways of running it: ``robot_skills_sim`` (in one process) and
``sim.launch.py`` (one process per node), so it imports nothing heavy. Every simulated
run starts from empty coordinator and records stores, so a scenario plays the same way
each time; the discussion TA speaks through the robot it runs on ('{robot}' is that
robot's name; the launch file gives it the robot's full namespace).
"""

from __future__ import annotations

SIM_PARAMETERS: dict[str, dict[str, object]] = {
    'learning_coordinator': {'store_path': ':memory:'},
    'learning_records': {'store_path': ':memory:'},
    'pbl_ta': {'robot_namespace': '/{robot}'},
}
