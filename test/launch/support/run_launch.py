"""Run one launch file as ``ros2 launch`` would, where ros2cli is not installed.

    python run_launch.py FILE [name:=value ...]

Exits with the launch service's return code (non-zero when an action raised,
e.g. a launch argument that failed its check). The launch_testing suites run it
in a subprocess to check that a bad argument stops the launch before any node
starts.
"""

import sys

from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource

from launch import LaunchDescription, LaunchService


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    path, arguments = argv[0], [a.split(':=', 1) for a in argv[1:]]
    if any(len(pair) != 2 for pair in arguments):
        print('arguments are name:=value', file=sys.stderr)
        return 2
    service = LaunchService(argv=argv[1:])
    service.include_launch_description(LaunchDescription([IncludeLaunchDescription(
        PythonLaunchDescriptionSource(path),
        launch_arguments=[(name, value) for name, value in arguments])]))
    return service.run()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
