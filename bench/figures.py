"""How the bench measures: percentiles, pure-function throughput, node processes and their RSS."""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import psutil
from rclpy.executors import Executor

from robot_skills.interface import WATCH_QOS
from robot_skills.runtime.qos import profile

ROOT = Path(__file__).resolve().parents[1]
RELIABLE = profile(WATCH_QOS)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def throughput(label: str, function: Callable[[], object], seconds: float = 1.0) -> dict:
    """Calls per second of a pure function on one core, and its median call time."""
    times = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start_ = time.perf_counter()
        function()
        times.append(time.perf_counter() - start_)
    return {'label': label, 'per_second': len(times) / sum(times),
            'median_us': statistics.median(times) * 1e6}


def start(command: list[str], namespace: str, executor: str = 'single',
          params: tuple[str, ...] = ()) -> subprocess.Popen:
    """A node executable in its own namespace; stderr goes to a log under /tmp."""
    env = {**os.environ, 'ROBOT_SKILLS_EXECUTOR': executor}
    errors = open(f'/tmp/robot_skills_bench{namespace.replace("/", "_")}.log', 'w')  # noqa: SIM115
    return subprocess.Popen([*command, '--ros-args', '-r', f'__ns:={namespace}', *params,
                             '--log-level', 'warn'],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=errors, text=True)


def stop(process: subprocess.Popen) -> str:
    """SIGINT (what ros2 launch sends), then the process's stdout."""
    process.send_signal(signal.SIGINT)
    try:
        output, _ = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
    return output


def rss_mb(process: subprocess.Popen) -> float:
    return psutil.Process(process.pid).memory_info().rss / 2**20


def spin_until(executor: Executor, predicate: Callable[[], object], timeout: float) -> bool:
    """Spin until ``predicate()`` holds; False after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        executor.spin_once(timeout_sec=0.05)
    return True
