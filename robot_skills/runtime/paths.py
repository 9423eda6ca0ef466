"""Where the package's installed data (``config/``, ``launch/``) is.

On a robot the files come from ``share/robot_skills`` (ament index); in a source
checkout (editable install, tests) they are next to the Python package.
"""

from __future__ import annotations

import json
import sys
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


def write_schema(relative: str, schema: dict) -> None:
    """Write a JSON Schema exported from pydantic models to ``config/<relative>``.

    The ``python -m`` entry of each module that owns such models calls this after
    the models change; a test checks the shipped file is current.
    """
    path = Path(config(relative))
    path.write_text(json.dumps(schema, ensure_ascii=False, indent=2) + '\n', encoding='utf-8')
    print(f'wrote {path}', file=sys.stderr)
