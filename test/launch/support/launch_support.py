"""What the launch_testing suites share: a probe node, a test parameters file, launch runs.

Only ``test/launch/test_*.py`` import this (they put this folder on ``sys.path``), and only
where ``launch_testing`` is installed; it lives in a subfolder so that neither
``launch_test test/launch/*.py`` nor pytest takes it for a suite.

Every wait spins the probe's own executor until a condition holds or a timeout
passes, and fails naming what it waited for: no sleeps, no unbounded waits.
"""

import atexit
import codecs
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import rclpy
import yaml
from ament_index_python.packages import get_package_share_directory
from lifecycle_msgs.srv import GetState
from rcl_interfaces.srv import GetParameters
from rclpy.action import ActionClient
from rclpy.context import Context
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import parameter_value_to_python
from rclpy.qos import QoSProfile

from robot_skills.interface import SKILL_EVENTS, WATCH_QOS
from robot_skills.runtime.devices import ACTIONS
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.msg import SkillEvent

SHARE = get_package_share_directory('robot_skills')
RUN_LAUNCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'run_launch.py')
TIMEOUT = 20.0          # seconds for one exchange with a running node
READY_TIMEOUT = 120.0   # seconds for nodes to start and find each other on a loaded machine
ATTEMPT = 3.0           # seconds before a harmless request whose answer was lost is sent again
# As the skills publish skill_events: a late subscriber still gets the startup traces.
TRACE_QOS = profile(SKILL_EVENTS.qos)
LOG_QOS = profile(WATCH_QOS)
READY_KINDS = ('capabilities', 'degraded')


def launch_file(name: str) -> str:
    """The installed launch file ``name`` (what ``ros2 launch robot_skills name`` runs)."""
    return os.path.join(SHARE, 'launch', name)


def params_file(**nodes: dict) -> str:
    """config/params.yaml with the given parameters added per node (wildcard namespace),
    written to a file removed when the test process ends."""
    with open(os.path.join(SHARE, 'config', 'params.yaml'), encoding='utf-8') as stream:
        params = yaml.safe_load(stream)
    for node, values in nodes.items():
        params.setdefault(f'/**/{node}', {}).setdefault('ros__parameters', {}).update(values)
    folder = tempfile.mkdtemp(prefix='robot_skills_launch_test_')
    atexit.register(shutil.rmtree, folder, True)
    path = os.path.join(folder, 'params.yaml')
    with open(path, 'w', encoding='utf-8') as stream:
        yaml.safe_dump(params, stream)
    return path


class Probe:
    """One node in a private context and executor, talking to launched robots over DDS."""

    def __init__(self, name: str) -> None:
        self.context = Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node(name, context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._traces: dict[str, list[SkillEvent]] = {}
        self._mock_clients: dict[str, list[ActionClient]] = {}
        self._publishers: dict = {}

    def close(self) -> None:
        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.try_shutdown(context=self.context)

    # ---- waiting ----------------------------------------------------------------------

    def spin_until(self, done, what: str, timeout: float = TIMEOUT) -> None:
        """Spin until ``done()`` holds; fail naming ``what`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not done():
            remaining = deadline - time.monotonic()
            if remaining <= 0.0:
                raise AssertionError(f'{what}: not within {timeout:g} s')
            self.executor.spin_once(timeout_sec=min(0.1, remaining))

    def wait(self, future, what: str, timeout: float = TIMEOUT):
        self.spin_until(future.done, what, timeout)
        return future.result()

    # ---- readiness --------------------------------------------------------------------

    def traces(self, namespace: str) -> list[SkillEvent]:
        """Every SkillEvent on ``<namespace>/skill_events`` since the nodes started."""
        if namespace not in self._traces:
            log: list[SkillEvent] = []
            self.node.create_subscription(SkillEvent, f'{namespace}/skill_events', log.append,
                                          TRACE_QOS)
            self._traces[namespace] = log
        return self._traces[namespace]

    def skills_ready(self, namespace: str, skills) -> None:
        """Wait until each skill traced ``capabilities`` or ``degraded`` (device discovery
        over); fail if one is degraded, naming what it misses."""
        log = self.traces(namespace)

        def found(skill):
            return next((e for e in log if e.skill == skill and e.kind in READY_KINDS), None)

        self.spin_until(lambda: all(found(s) for s in skills),
                        f'{namespace}: discovery of {", ".join(skills)}', READY_TIMEOUT)
        degraded = {s: found(s).detail_json for s in skills if found(s).kind != 'capabilities'}
        if degraded:
            raise AssertionError(f'{namespace}: skills started degraded: {degraded}')

    def mock_ready(self, namespace: str) -> None:
        """Wait until the mock under ``namespace`` serves every device action."""
        if namespace not in self._mock_clients:
            self._mock_clients[namespace] = [
                ActionClient(self.node, spec.action_type, f'{namespace}/{spec.name}')
                for spec in ACTIONS.values()]
        clients = self._mock_clients[namespace]
        self.spin_until(lambda: all(c.server_is_ready() for c in clients),
                        f'{namespace}: mock_hardware action servers', READY_TIMEOUT)

    # ---- talking ----------------------------------------------------------------------

    def record(self, message_type, topic: str, qos: QoSProfile = LOG_QOS) -> list:
        """Every message on ``topic`` from now on, once a publisher of it is matched."""
        log: list = []
        subscription = self.node.create_subscription(message_type, topic, log.append, qos)
        self.spin_until(lambda: subscription.get_publisher_count() > 0,
                        f'a publisher of {topic}', READY_TIMEOUT)
        return log

    def publisher(self, message_type, topic: str):
        """A publisher on ``topic`` (one per topic, so its messages keep their order) once
        the topic has a subscriber: reliable, so what it publishes is delivered."""
        if topic not in self._publishers:
            self._publishers[topic] = self.node.create_publisher(message_type, topic, 10)
        publisher = self._publishers[topic]
        self.spin_until(lambda: publisher.get_subscription_count() > 0,
                        f'a subscriber of {topic}', READY_TIMEOUT)
        return publisher

    def publish(self, message_type, topic: str, message) -> None:
        self.publisher(message_type, topic).publish(message)

    def call(self, client, request, what: str, *, retry: bool = False):
        """The response to ``request``; with ``retry`` (only for requests that change nothing)
        the request is sent again every ``ATTEMPT`` seconds until one is answered.

        A server that has not yet discovered this client's response reader when the request
        arrives drops the response (Fast DDS logs "failed to send response (timeout): client
        will not receive response"); ``service_is_ready`` sees only this side of discovery.
        """
        if not retry:
            return self.wait(client.call_async(request), what)
        deadline = time.monotonic() + READY_TIMEOUT
        while True:
            future = client.call_async(request)
            remaining = deadline - time.monotonic()
            try:
                return self.wait(future, what, min(ATTEMPT, max(remaining, 0.0)))
            except AssertionError:
                if remaining <= ATTEMPT:
                    raise

    def service(self, service_type, name: str, harmless=None):
        """A client of ``name`` once the server is discovered; with a ``harmless`` request
        (one the server refuses or answers without changing anything), once it answered one,
        so both directions of discovery are done before the test's own calls."""
        client = self.node.create_client(service_type, name)
        self.spin_until(client.service_is_ready, f'the service {name}', READY_TIMEOUT)
        if harmless is not None:
            self.call(client, harmless, f'a first answer of {name}', retry=True)
        return client

    def parameters(self, node: str, names: list[str]) -> dict:
        """Current values of parameters of the node ``node`` (its full name)."""
        request = GetParameters.Request(names=names)
        client = self.service(GetParameters, f'{node}/get_parameters')
        response = self.call(client, request, f'parameters of {node}', retry=True)
        return {name: parameter_value_to_python(value)
                for name, value in zip(names, response.values, strict=True)}

    def lifecycle_state(self, node: str) -> str:
        """The lifecycle state of the node ``node`` (its full name), e.g. 'active'."""
        client = self.service(GetState, f'{node}/get_state')
        return self.call(client, GetState.Request(), f'the state of {node}',
                         retry=True).current_state.label


class LaunchRun:
    """``run_launch.py FILE ARGS`` in its own process group, its output read as it comes.

    ``stop`` ends it (SIGINT, as Ctrl-C) and, should it hang, kills the whole group: a test
    never leaves a process behind.
    """

    STARTED = re.compile(r'\[INFO\] \[([\w-]+)\]: process started with pid \[(\d+)\]')
    ENDED = re.compile(r'\[(?:INFO|ERROR)\] \[([\w-]+)\]: process (?:has finished cleanly|has '
                       r'died) \[pid (\d+)')

    def __init__(self, launch: str, *arguments: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, RUN_LAUNCH, launch_file(launch), *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=0,
            start_new_session=True)
        self.output = ''
        self._decoder = codecs.getincrementaldecoder('utf-8')('replace')
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ)
        self._open = True

    def _read(self, timeout: float) -> bool:
        """Read what arrives within ``timeout``; False once the output has ended."""
        if self._open and self._selector.select(timeout):
            chunk = os.read(self.process.stdout.fileno(), 65536)
            self.output += self._decoder.decode(chunk, final=not chunk)
            self._open = bool(chunk)
        return self._open

    def _read_to_end(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self._open:
            remaining = deadline - time.monotonic()
            if remaining <= 0.0:
                return False
            self._read(remaining)
        return True

    def wait_for(self, pattern: str, count: int = 1, timeout: float = 60.0) -> None:
        """Read until ``pattern`` occurred ``count`` times in the output."""
        deadline = time.monotonic() + timeout
        while len(re.findall(pattern, self.output)) < count:
            remaining = deadline - time.monotonic()
            if remaining <= 0.0 or not self._read(remaining):
                raise AssertionError(f'{pattern!r} x{count} not seen:\n{self.output}')

    def finish(self, timeout: float = 60.0) -> int:
        """Wait for the launch to end by itself; its exit status."""
        if not self._read_to_end(timeout):
            self.stop()
            raise AssertionError(f'the launch did not end within {timeout:g} s:\n{self.output}')
        return self.process.wait(timeout=timeout)

    def stop(self) -> int:
        """Ctrl-C: SIGINT to the launch and its nodes (launch then signals no node itself
        and escalates to SIGTERM after 5 s); 30 s later, kill whatever is left of the group."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
        if not self._read_to_end(30.0):
            os.killpg(self.process.pid, signal.SIGKILL)
            self._read_to_end(10.0)
        self._selector.close()
        self.process.stdout.close()
        return self.process.wait(timeout=10.0)

    def started(self) -> list[str]:
        return [name for name, _ in self.STARTED.findall(self.output)]

    def still_running(self) -> list[str]:
        """Processes the launch started and never reported as ended."""
        ended = {pid for _, pid in self.ENDED.findall(self.output)}
        return [f'{name} (pid {pid})' for name, pid in self.STARTED.findall(self.output)
                if pid not in ended]


def run_launch(launch: str, *arguments: str, timeout: float = 60.0) -> tuple[int, str]:
    """Run a launch to its end; its exit status and output."""
    run = LaunchRun(launch, *arguments)
    code = run.finish(timeout)
    run.stop()
    return code, run.output
