"""Where the package's installed data (``config/``, ``launch/``) is.

On a robot the files come from ``share/robot_skills`` (ament index); in a source
checkout (editable install, tests) they are next to the Python package.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ament_index_python.packages import PackageNotFoundError, get_package_share_directory


@cache
def share() -> Path:
    try:
        return Path(get_package_share_directory('robot_skills'))
    except PackageNotFoundError:
        return Path(__file__).resolve().parents[2]


def config(relative: str) -> str:
    """Absolute path of ``config/<relative>``, as a parameter default."""
    return str(share() / 'config' / relative)
