"""SIGINT and SIGTERM end every executable with status 0 within 2 s, start-up included.

Each executable is started ``ROBOT_SKILLS_STARTS`` times (10 here; ``make soak`` runs 100)
and signalled at moments spread over its first seconds: while Python imports rclpy,
while the node loads its data, while it discovers its devices, and once it spins; SIGINT
and SIGTERM alternate. Two starts run at a time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from robot_skills.executables import MODULES
from robot_skills.runtime import paths

pytestmark = pytest.mark.slow
STARTS = int(os.environ.get('ROBOT_SKILLS_STARTS', '10'))
FIRST, LAST = 0.2, 2.6          # seconds after spawn: the signal moments span these
WITHIN = 2.0
ARGS = {'robot_skills_sim': ['--scenario', paths.config('scenarios/demo.yaml')]}


def _moments() -> list[tuple[float, signal.Signals]]:
    step = (LAST - FIRST) / max(1, STARTS - 1)
    return [(FIRST + n * step, signal.SIGINT if n % 2 == 0 else signal.SIGTERM)
            for n in range(STARTS)]


def _start_and_stop(executable: str, delay: float, signum: signal.Signals) -> str | None:
    """One start, a signal after ``delay`` s; what went wrong, or None."""
    binary = os.path.join(os.path.dirname(sys.executable), executable)
    process = subprocess.Popen([binary, *ARGS.get(executable, [])], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        process.wait(timeout=delay)       # the moment of the signal (an exit before it is wrong)
        return f'ended by itself after less than {delay:.2f} s: {process.returncode}'
    except subprocess.TimeoutExpired:
        pass
    sent = time.monotonic()
    process.send_signal(signum)
    try:
        output, _ = process.communicate(timeout=WITHIN + 3)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        return f'{signum.name} at {delay:.2f} s ignored:\n{output[-1500:]}'
    took = time.monotonic() - sent
    if process.returncode != 0 or took > WITHIN:
        return (f'{signum.name} at {delay:.2f} s: status {process.returncode} after {took:.2f} s'
                f'\n{output[-1500:]}')
    return None


@pytest.mark.timeout(60 + 6 * STARTS)
@pytest.mark.parametrize('executable', sorted(MODULES))
def test_a_signal_in_the_first_seconds_ends_the_executable_cleanly(executable):
    with ThreadPoolExecutor(max_workers=2) as pool:
        problems = [p for p in pool.map(lambda m: _start_and_stop(executable, *m), _moments())
                    if p]
    assert not problems, '\n\n'.join(problems)
