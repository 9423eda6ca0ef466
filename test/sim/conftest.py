"""One short recorded run, shared by the report, recording and browser tests (about 15 s)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

SCENARIO = Path(__file__).with_name('short_run.yaml')


@dataclass(frozen=True)
class ShortRun:
    report: Path
    bag: Path
    stdout: str


@pytest.fixture(scope='session')
def short_run(tmp_path_factory) -> ShortRun:
    """``robot_skills_sim --scenario short_run.yaml --report DIR --record DIR/run.mcap``."""
    out = tmp_path_factory.mktemp('short_run')
    done = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), 'robot_skills_sim'), '--scenario',
         str(SCENARIO), '--report', str(out), '--record', str(out / 'run.mcap')],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return ShortRun(out / 'short-run.html', out / 'run.mcap', done.stdout)
