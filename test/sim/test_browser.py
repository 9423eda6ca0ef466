"""The report in a real browser: headless Chromium renders it, the DOM has the timeline rows.

Skipped where Chromium is not installed: ``scripts/setup-env`` installs Debian's
``chromium`` when it runs as root (as in CI); elsewhere ``sudo apt-get install
chromium`` brings it.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from robot_skills.sim.drawing import slug
from robot_skills.sim.runs import ROWS

pytestmark = pytest.mark.slow
BROWSER = shutil.which('chromium') or shutil.which('chromium-browser')
PNG = b'\x89PNG\r\n\x1a\n'


@pytest.fixture(scope='module')
def chromium(tmp_path_factory):
    if BROWSER is None:
        pytest.skip('headless Chromium not found: scripts/setup-env installs Debian\'s chromium '
                    'when run as root; elsewhere: sudo apt-get install chromium')
    try:
        version = subprocess.run([BROWSER, '--version'], capture_output=True, text=True,
                                 timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        version = subprocess.CompletedProcess([BROWSER], 1, '', str(error))
    if version.returncode != 0 or 'chrom' not in version.stdout.lower():
        pytest.skip(f'{BROWSER} does not run here (a snap stub in a container?): '
                    f'{(version.stderr or version.stdout).strip()[:200]}; install Debian\'s '
                    'chromium package')
    profile = tmp_path_factory.mktemp('chromium-profile')

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([BROWSER, '--headless', '--no-sandbox', '--disable-gpu',
                               '--no-first-run', f'--user-data-dir={profile}',
                               '--enable-logging=stderr', '--v=0', *args],
                              capture_output=True, text=True, timeout=90)
    return run


def test_chromium_renders_every_timeline_row_without_script_errors(chromium, short_run):
    done = chromium('--dump-dom', short_run.report.as_uri())
    assert done.returncode == 0, done.stderr
    dom = done.stdout
    assert dom.rstrip().endswith('</html>'), 'the whole page was loaded'
    for robot in ('q5', 'tianyi'):
        for row in ROWS:
            assert f'id="row-{robot}-{slug(row)}"' in dom, (robot, row)
    assert dom.count('<img') == dom.count('<figcaption>') >= 3
    errors = [line for line in done.stderr.splitlines()
              if 'CONSOLE' in line or 'Uncaught' in line]
    assert errors == []


def test_chromium_takes_a_screenshot_of_the_report(chromium, short_run):
    shot = short_run.report.with_suffix('.png')
    done = chromium('--hide-scrollbars', '--window-size=1400,1600', f'--screenshot={shot}',
                    short_run.report.as_uri())
    assert done.returncode == 0, done.stderr
    data = shot.read_bytes()
    assert data.startswith(PNG) and len(data) > 20_000
