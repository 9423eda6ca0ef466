"""What a robot integrator installs: a colcon (non-symlink) build of robot_skills, used alone.

The editable venv and ``--symlink-install`` read the source tree, so a module left out
of the package (a folder without ``__init__.py``), a data file left out of
``data_files`` or a broken entry point only shows in a normal install. Here the package
is built with colcon into a temporary prefix, and from that prefix alone (its
``site-packages`` first on the path, its ``share`` first in the ament index) every
module of the source tree is imported and every executable is started until it is
ready, then stopped with SIGINT (status 0).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lifecycle_msgs.srv import GetState
from rclpy.action import ActionClient
from ros_harness import interrupt

from robot_skills.executables import MODULES
from robot_skills.interface import SKILL_EVENTS
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.action import Speak
from robot_skills_interfaces.msg import SkillEvent

ROOT = Path(__file__).resolve().parents[1]
PYTHON = f'python{sys.version_info.major}.{sys.version_info.minor}'
SKILLS = sorted(set(MODULES) - {'mock_hardware', 'robot_skills_sim'})

pytestmark = pytest.mark.slow


@pytest.fixture(scope='module')
def prefix(tmp_path_factory) -> Path:
    """robot_skills built and installed by colcon, as on a robot (no --symlink-install)."""
    work = tmp_path_factory.mktemp('colcon')
    done = subprocess.run(
        [shutil.which('colcon'), '--log-base', str(work / 'log'), 'build', '--base-paths', '.',
         'robot_skills_interfaces', '--packages-select', 'robot_skills',
         '--build-base', str(work / 'build'), '--install-base', str(work / 'install')],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
        env={**os.environ, 'PYTHONDONTWRITEBYTECODE': '1'})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return work / 'install' / 'robot_skills'


def installed(prefix: Path) -> dict[str, str]:
    """An environment that finds robot_skills in ``prefix`` only."""
    site = prefix / 'lib' / PYTHON / 'site-packages'
    return {**os.environ,
            'PYTHONPATH': os.pathsep.join([str(site), os.environ.get('PYTHONPATH', '')]),
            'AMENT_PREFIX_PATH': os.pathsep.join([str(prefix),
                                                  os.environ.get('AMENT_PREFIX_PATH', '')])}


def test_the_install_holds_the_executables_the_index_entry_and_every_data_file(prefix):
    share = prefix / 'share' / 'robot_skills'
    for name in MODULES:
        assert (prefix / 'lib' / 'robot_skills' / name).is_file(), name
    assert (share / 'package.xml').is_file()
    assert (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages' /
            'robot_skills').is_file()
    for folder in ('config', 'launch'):
        for path in (ROOT / folder).rglob('*'):
            if path.is_file():
                assert (share / path.relative_to(ROOT)).is_file(), path.relative_to(ROOT)


def test_every_module_of_the_source_tree_imports_from_the_install_alone(prefix):
    modules = sorted('.'.join(path.relative_to(ROOT).with_suffix('').parts)
                     for path in (ROOT / 'robot_skills').rglob('*.py')
                     if path.name != '__init__.py' or path.parent != ROOT)
    modules = [m.removesuffix('.__init__') for m in modules]
    script = ('import importlib, json, sys\n'
              'from robot_skills.runtime import paths\n'
              'places = {}\n'
              'for name in json.loads(sys.argv[1]):\n'
              '    places[name] = importlib.import_module(name).__file__\n'
              'print(json.dumps({"places": places, "share": str(paths.share())}))\n')
    done = subprocess.run([sys.executable, '-c', script, json.dumps(modules)],
                          capture_output=True, text=True, timeout=120, env=installed(prefix),
                          cwd=prefix)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    elsewhere = {m: f for m, f in found['places'].items() if not f.startswith(str(prefix))}
    assert not elsewhere, f'imported from outside the install: {elsewhere}'
    assert found['share'] == str(prefix / 'share' / 'robot_skills')


def _start(prefix: Path, executable: str, namespace: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [str(prefix / 'lib' / 'robot_skills' / executable), *args, '--ros-args',
         '-r', f'__ns:={namespace}', '-p', 'discovery_timeout:=0.5'],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=installed(prefix),
        cwd=prefix)


def _stop(process: subprocess.Popen) -> str:
    output = interrupt(process, timeout=10)
    assert process.returncode == 0, output[-3000:]
    return output


def _active(ros, probe, name: str) -> None:
    client = probe.create_client(GetState, f'{name}/get_state')
    ros.until(client.service_is_ready, timeout=60.0, what=f'{name} lifecycle services')
    state = ros.wait(client.call_async(GetState.Request())).current_state.label
    assert state == 'active', f'{name} is {state}'


@pytest.mark.parametrize('skill', SKILLS)
def test_each_skill_starts_from_the_install_until_ready_and_stops_cleanly(prefix, ros, skill,
                                                                         tmp_path):
    namespace = f'{ros.namespace}_{skill}'
    process = _start(prefix, skill, namespace, *(
        ['--ros-args', '-p', f'store_path:={tmp_path / "store.sqlite3"}']
        if skill in ('learning_coordinator', 'learning_records') else []))
    try:
        probe = ros.node(namespace)
        events: list[SkillEvent] = []
        probe.create_subscription(SkillEvent, 'skill_events', events.append,
                                  profile(SKILL_EVENTS.qos))
        ros.until(lambda: any(e.kind in ('capabilities', 'degraded') for e in events),
                  timeout=60.0, what=f'{skill} ready')
        _active(ros, probe, skill)
    finally:
        output = _stop(process)
    assert 'Traceback' not in output, output[-3000:]


def test_the_mock_starts_from_the_install_and_serves_its_devices(prefix, ros):
    namespace = f'{ros.namespace}_mock'
    process = _start(prefix, 'mock_hardware', namespace, '--ros-args', '-p', 'time_scale:=0.05')
    try:
        probe = ros.node(namespace)
        client = ActionClient(probe, Speak, 'tts/speak')
        ros.until(client.server_is_ready, timeout=60.0, what='tts/speak served')
        _active(ros, probe, 'mock_hardware')
        handle = ros.wait(client.send_goal_async(Speak.Goal(message='装好了')))
        assert ros.wait(handle.get_result_async()).result.state == 'completed'
    finally:
        _stop(process)


def test_the_simulation_plays_the_demo_from_the_install(prefix):
    share = prefix / 'share' / 'robot_skills'
    done = subprocess.run([str(prefix / 'lib' / 'robot_skills' / 'robot_skills_sim'),
                           '--scenario', str(share / 'config' / 'scenarios' / 'demo.yaml')],
                          capture_output=True, text=True, timeout=120, env=installed(prefix),
                          cwd=prefix)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert ' END ' in done.stdout and '0 problem(s)' in done.stdout


def test_the_installed_sros2_policy_is_the_one_the_installed_generator_writes(prefix):
    """A deployment regenerates the policy for its robot's namespace from the install."""
    share = prefix / 'share' / 'robot_skills'
    done = subprocess.run([sys.executable, '-m', 'robot_skills.records.sros2_policy',
                           '--check', str(share / 'config' / 'sros2' / 'policy.xml')],
                          capture_output=True, text=True, timeout=60, env=installed(prefix),
                          cwd=prefix)
    assert done.returncode == 0, done.stderr


def test_colcon_sees_both_packages():
    done = subprocess.run([shutil.which('colcon'), 'list', '--base-paths', '.',
                           'robot_skills_interfaces'], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    listed = {line.split()[0]: line.split()[-1] for line in done.stdout.splitlines()}
    assert listed == {'robot_skills': '(ros.ament_python)',
                      'robot_skills_interfaces': '(ros.ament_cmake)'}


# Import name -> what provides it on a robot: a rosdep key of package.xml, or a pip
# distribution of requirements-robot.txt.
ROSDEP = {'yaml': 'python3-yaml', 'numpy': 'python3-numpy', 'matplotlib': 'python3-matplotlib'}
PIP = {'pydantic': 'pydantic', 'pypinyin': 'pypinyin', 'cn2an': 'cn2an',
       'rapidfuzz': 'RapidFuzz', 'fsrs': 'fsrs', 're2': 'google-re2', 'opencc': 'OpenCC',
       'yourdfpy': 'yourdfpy', 'mcap': 'mcap', 'mcp': 'mcp', 'mcp_types': 'mcp-types',
       'anyio': 'anyio', 'starlette': 'starlette', 'uvicorn': 'uvicorn'}


def _imports() -> set[str]:
    names = set()
    for path in [*(ROOT / 'robot_skills').rglob('*.py'), *(ROOT / 'launch').glob('*.py')]:
        for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split('.')[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split('.')[0])
    return names - set(sys.stdlib_module_names) - {'robot_skills', '__future__'}


def test_every_import_is_declared_for_rosdep_or_pip_at_the_tested_version():
    declared = set(re.findall(r'<(?:depend|exec_depend)>([^<]+)</',
                              (ROOT / 'package.xml').read_text(encoding='utf-8')))
    pinned = dict(line.split('==') for line in (ROOT / 'requirements-robot.txt')
                  .read_text(encoding='utf-8').splitlines() if '==' in line)
    tested = dict(line.split('==') for line in (ROOT / 'constraints.txt')
                  .read_text(encoding='utf-8').splitlines() if '==' in line)
    for name in sorted(_imports()):
        if name in PIP:
            assert pinned.get(PIP[name]) == tested[PIP[name]], name
        else:
            assert ROSDEP.get(name, name) in declared, f'{name}: not in package.xml'
    assert 'python3-pydantic' not in declared      # Debian/Ubuntu ship v1; the code needs v2
    assert set(pinned) == set(PIP.values())
