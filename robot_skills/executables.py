"""The console scripts (``ros2 run robot_skills <name>``), each stoppable from its first line.

Each installs the stop handlers (``runtime.stop``) and only then imports its
node's module, which loads rclpy, the interfaces and the data files: a SIGINT
or SIGTERM during that second or two still ends the process with status 0.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

from robot_skills.runtime import stop

MODULES = {
    'mock_hardware': 'robot_skills.mock_hardware.node',
    'wayfinding_guide': 'robot_skills.wayfinding.node',
    'classroom_presenter': 'robot_skills.classroom.node',
    'learning_coordinator': 'robot_skills.coordinator.node',
    'pbl_ta': 'robot_skills.pbl_ta.node',
    'learning_records': 'robot_skills.records.node',
    'robot_skills_sim': 'robot_skills.sim.main',
}


def _run(name: str) -> int:
    stop.install()
    try:
        return importlib.import_module(MODULES[name]).main()
    except BaseException:
        if stop.requested():   # Stopped, or what a half-imported C extension made of it
            return 0
        raise


def __getattr__(name: str) -> Callable[[], int]:
    """``from robot_skills.executables import pbl_ta`` (what a console script does)."""
    if name in MODULES:
        return lambda: _run(name)
    raise AttributeError(name)


if __name__ == '__main__':
    sys.exit(_run(sys.argv.pop(1)))
