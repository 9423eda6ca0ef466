"""mock_hardware: one node serving every device of the contract, like the real robot.

Skills run unchanged against it or against a TianYi 2.0 / Q5 robot: same
action and service names (relative, so ``__ns:=/q5`` picks the robot), same
receipts. Timing follows parameters (speech lasts ``len(message) /
chars_per_second * time_scale`` seconds), goals are validated against
``config/mock_hardware.yaml``, faults can be injected per device at run time,
and every command is published, in the order the mock decided it, on
``mock_hardware/commands``.

Parameters: see ``MockSettings`` and ``FaultSettings`` (``fault.<device>.mode``,
``fault.<device>.delay`` for tts, arm_gesture, head_gesture, arm, hand).

Actions (servers): ``tts/speak``, ``arm_gesture``, ``head_gesture``,
``arm/move_pos``, ``hand``.
Services: ``tts/pause``, ``tts/resume``, ``tts/interrupt``, ``arm_gesture/cancel``,
``head_gesture/cancel`` (std_srvs/Trigger); ``estop`` (std_srvs/SetBool: true
engages, false releases).
Topics (published): ``joint_states`` (sensor_msgs/JointState),
``mock_hardware/commands`` (HardwareCommand).

How goals run: a goal is accepted (the documents' "call returned") and then
driven only by timers; when it ends, the node calls ``goal_handle.execute()``
with the finished result. Nothing waits inside a callback, so the executor
sleeps between events instead of polling pending coroutines.

Second speech while one is speaking: ``speak_overlap`` = ``queue`` (default)
or ``reject``. Queue is the default because a real TTS serialises its output
and the skills' rule "speech never overlaps" is then visible, not destructive:
every queued goal is logged with disposition ``queued``. ``force`` interrupts
the current speech (result ``interrupted``) and speaks at once; ``tts/interrupt``
ends the current speech and empties the queue.
A new goal on a busy gesture device (arm_gesture, head_gesture, arm, one hand)
preempts the running one, which ends ``cancelled``.

Like every node it is guarded: an action server callback that fails rejects
the goal (or ends it ``error``) instead of ending the process.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any

from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.action.server import ServerGoalHandle
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.task import Future
from rclpy.timer import Timer
from sensor_msgs.msg import JointState
from std_msgs.msg import Header
from std_srvs.srv import SetBool, Trigger

from robot_skills.adapters.config import load
from robot_skills.interface import (
    ARM_GESTURE_CANCEL,
    ESTOP,
    HEAD_GESTURE_CANCEL,
    JOINT_STATES,
    MOCK_COMMANDS,
    TTS_INTERRUPT,
    TTS_PAUSE,
    TTS_RESUME,
)
from robot_skills.mock_hardware import core
from robot_skills.mock_hardware.config import FINGERS, Body
from robot_skills.mock_hardware.core import FaultMode, JointModel, Speech
from robot_skills.model.commands import Device
from robot_skills.runtime import paths
from robot_skills.runtime.devices import ACTIONS
from robot_skills.runtime.diagnostics import Report
from robot_skills.runtime.entry import run
from robot_skills.runtime.guard import GuardedNode, oversized
from robot_skills.runtime.params import Settings, setting
from robot_skills.runtime.qos import profile
from robot_skills_interfaces.msg import HardwareCommand

MOTION_DEVICES = frozenset({Device.ARM_GESTURE, Device.HEAD_GESTURE, Device.ARM, Device.HAND})


@dataclass(frozen=True)
class MockSettings:
    body_file: str = setting(paths.config('mock_hardware.yaml'),
                             'Joint names, limits, gesture timing and presets', read_only=True)
    chars_per_second: float = setting(4.5, 'Simulated speech rate', low=0.1, high=1000.0)
    time_scale: float = setting(1.0, 'Multiplies every duration (0.1 runs ten times faster)',
                                low=0.0, high=100.0)
    speak_overlap: str = setting('queue', 'What a speak goal does while another is speaking',
                                 choices=('queue', 'reject'))
    feedback_period: float = setting(0.25, 'Seconds between tts/speak feedback messages',
                                     low=0.01, high=10.0)
    joint_state_rate: float = setting(10.0, 'joint_states messages per second (0 disables)',
                                      low=0.0, high=200.0)
    result_keep_seconds: int = setting(
        2, 'How long finished goals stay in the action status arrays (clients fetch results '
        'at once; a short window keeps status messages small under load)', low=1, high=900,
        read_only=True)


@dataclass(frozen=True)
class FaultSettings:
    mode: str = setting('none', 'Injected fault of this device',
                        choices=tuple(m.value for m in FaultMode))
    delay: float = setting(1.0, 'Seconds before answering a goal request (delay_accept)',
                           low=0.0, high=600.0)


@dataclass(eq=False)
class _Run:
    """An accepted goal that has not ended yet."""

    handle: ServerGoalHandle
    device: Device
    slot: str
    gesture: str
    action_id: str
    joints: frozenset[str] = frozenset()
    timer: Timer | None = None
    speech: Speech | None = None


class MockHardware(GuardedNode):
    """The simulated robot (see the module docstring for its interface)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('mock_hardware', 'mock_hardware', **kwargs)

    def configure(self) -> None:
        self.settings = Settings(self, MockSettings)
        self.faults = {d: Settings(self, FaultSettings, f'fault.{d.value}.') for d in Device}
        self.body = load(self.settings.value.body_file, Body)
        self.joints = JointModel(core.joint_names(self.body))
        self._lock = threading.RLock()
        self._group = ReentrantCallbackGroup()
        self._sequence = 0
        self._ids = 0
        self._estop = False
        self._runs: dict[str, _Run] = {}          # slot -> running goal
        self._speech_queue: deque[_Run] = deque()
        self._results: dict[int, Any] = {}        # id(goal handle) -> result to deliver
        self._feedback_timer: Timer | None = None
        self._commands = self.create_publisher(HardwareCommand, MOCK_COMMANDS.name,
                                               profile(MOCK_COMMANDS.qos))
        self._joint_states = self.create_publisher(JointState, JOINT_STATES.name,
                                                   profile(JOINT_STATES.qos))
        self._servers = [self._serve(device) for device in Device]
        for service, handler in ((TTS_PAUSE, self._on_pause), (TTS_RESUME, self._on_resume),
                                 (TTS_INTERRUPT, self._on_interrupt),
                                 (ARM_GESTURE_CANCEL, self._on_cancel_arm),
                                 (HEAD_GESTURE_CANCEL, self._on_cancel_head)):
            self.create_service(Trigger, service.name, handler, callback_group=self._group)
        self.create_service(SetBool, ESTOP.name, self._on_estop, callback_group=self._group)
        self.report('devices', self._diagnose)
        rate = self.settings.value.joint_state_rate
        if rate > 0:
            self.create_timer(1.0 / rate, self._publish_joints, self._group)

    def _diagnose(self) -> Report:
        with self._lock:
            running, queued, estop = sorted(self._runs), len(self._speech_queue), self._estop
        return Report({'running': ', '.join(running), 'speech_queued': str(queued),
                       'estop': 'on' if estop else 'off'},
                      'emergency stop: motion refused' if estop else '')

    def _now(self) -> float:
        """The node's clock in seconds (ROS time: a simulated clock drives the mock too)."""
        return self.get_clock().now().nanoseconds / 1e9

    # ---- goal intake ----------------------------------------------------------------

    def _serve(self, device: Device) -> ActionServer:
        spec = ACTIONS[device]

        async def on_goal(goal: Any) -> GoalResponse:
            return await self._decide(device, goal)

        guard, name = self.guard, spec.name
        return ActionServer(
            self, spec.action_type, name,
            execute_callback=guard.call(self._deliver, f'{name} execute',
                                        lambda _: spec.action_type.Result(state='error')),
            goal_callback=guard.call(on_goal, f'{name} goal', lambda _: GoalResponse.REJECT),
            result_timeout=self.settings.value.result_keep_seconds,
            handle_accepted_callback=guard.call(lambda handle: self._start(device, handle),
                                                f'{name} accepted',
                                                lambda handle: self._fail(device, handle)),
            cancel_callback=guard.call(lambda handle: self._on_cancel_goal(device, handle),
                                       f'{name} cancel', lambda _: CancelResponse.REJECT),
            callback_group=self._group)

    async def _decide(self, device: Device, goal: Any) -> GoalResponse:
        if not self.active:                                   # a lifecycle state, not a fault
            self._log(device, _action_name(device, goal)[:40], {}, '', 'rejected')
            return GoalResponse.REJECT
        if oversized(goal, self.guard.limits.max_chars):      # the transport cap, as elsewhere
            self._log(device, _action_name(device, goal)[:40], {}, '', 'rejected')
            return GoalResponse.REJECT
        fault = self.faults[device].value
        if fault.mode == FaultMode.REJECT:
            self._log(device, _action_name(device, goal), _fields(goal), '', 'rejected')
            return GoalResponse.REJECT
        if (device is Device.TTS and self.settings.value.speak_overlap == 'reject'
                and not goal.force and self._busy_speaking()):
            self._log(device, 'speak', _fields(goal), '', 'rejected')
            return GoalResponse.REJECT
        if fault.mode == FaultMode.DELAY_ACCEPT and fault.delay > 0:
            await self._after(fault.delay)
        return GoalResponse.ACCEPT

    def _after(self, seconds: float) -> Future:
        """A future done after ``seconds`` (used only for delay_accept)."""
        done: Future = Future()

        def fire() -> None:
            self._drop_timer(timer)
            done.set_result(None)

        timer = self.create_timer(seconds, fire, self._group)
        return done

    def _busy_speaking(self) -> bool:
        with self._lock:
            return Device.TTS.value in self._runs or bool(self._speech_queue)

    def _start(self, device: Device, handle: ServerGoalHandle) -> None:
        goal = handle.request
        with self._lock:
            self._ids += 1
            run_ = _Run(handle, device, _slot(device, goal), _action_name(device, goal),
                        f'{device.value}-{self._ids}')
            fault = FaultMode(self.faults[device].value.mode)
            problem = self._problem(device, goal)
            queued = (device is Device.TTS and not goal.force and not problem
                      and fault is FaultMode.NONE and self._busy_speaking())
            self._log(device, run_.gesture, _fields(goal), _goal_id(handle),
                      'queued' if queued else 'accepted')
            if fault is FaultMode.ERROR:
                self._end(run_, 'error', f'injected fault on {device.value}')
            elif fault is FaultMode.EMPTY_RECEIPT:
                self._end(run_, '', '', empty=True)
            elif problem:
                self._end(run_, 'error', problem)
            elif fault is FaultMode.NEVER_FINISH:
                self._preempt(run_.slot)
                self._runs[run_.slot] = run_
            elif device is Device.TTS:
                self._enqueue_speech(run_, goal.force, queued)
            else:
                self._move(run_, goal)

    def _problem(self, device: Device, goal: Any) -> str:
        """Why a goal cannot run (validation, e-stop), or ''."""
        if device in MOTION_DEVICES and self._estop:
            return 'estop'
        if device is Device.TTS:
            return core.check_speech(goal.message)
        if device is Device.ARM_GESTURE:
            return core.check_arm_gesture(self.body, goal.action, goal.side, goal.cycles,
                                          goal.speed)
        if device is Device.HEAD_GESTURE:
            return core.check_head_gesture(self.body, goal.action)
        if device is Device.HAND:
            return core.check_hand(self.body, goal.action, goal.side, _fingers(goal))
        return core.check_move_pos(self.body, list(goal.left_positions),
                                   list(goal.right_positions), goal.speed)

    # ---- speech -----------------------------------------------------------------------

    def _enqueue_speech(self, run_: _Run, force: bool, queued: bool) -> None:
        if force:
            current = self._runs.get(Device.TTS.value)
            if current is not None:
                self._end(current, 'interrupted', 'interrupted by a forced speech', advance=False)
            self._speak(run_)
        elif queued:
            self._speech_queue.append(run_)
        else:
            self._speak(run_)

    def _speak(self, run_: _Run) -> None:
        message = run_.handle.request.message
        value = self.settings.value
        run_.speech = Speech(len(message), core.speech_seconds(
            message, value.chars_per_second, value.time_scale))
        run_.speech.start(self._now())
        self._runs[run_.slot] = run_
        self._schedule(run_, run_.speech.seconds)
        self._speech_feedback(run_)
        if self._feedback_timer is None:
            self._feedback_timer = self.create_timer(
                value.feedback_period, self._on_feedback_tick, self._group)

    def _speech_feedback(self, run_: _Run) -> None:
        assert run_.speech is not None
        feedback = ACTIONS[Device.TTS].action_type.Feedback(
            state='paused' if run_.speech.paused else 'speaking', action_id=run_.action_id,
            chars_spoken=run_.speech.chars_spoken(self._now()))
        run_.handle.publish_feedback(feedback)

    def _on_feedback_tick(self) -> None:
        with self._lock:
            current = self._runs.get(Device.TTS.value)
            if current is None or current.speech is None:
                self._drop_timer(self._feedback_timer)
                self._feedback_timer = None
            elif not current.speech.paused:
                self._speech_feedback(current)

    def _next_speech(self) -> None:
        if Device.TTS.value not in self._runs and self._speech_queue:
            self._speak(self._speech_queue.popleft())

    def _on_pause(self, _: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        with self._lock:
            self._log(Device.TTS, 'pause', {}, '', 'called')
            current = self._runs.get(Device.TTS.value)
            if current is None or current.speech is None or current.speech.paused:
                return _answer(response, False, 'nothing is speaking')
            current.speech.pause(self._now())
            self._drop_timer(current.timer)
            current.timer = None
            self._speech_feedback(current)
            return _answer(response, True, f'paused {current.action_id}')

    def _on_resume(self, _: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        with self._lock:
            self._log(Device.TTS, 'resume', {}, '', 'called')
            current = self._runs.get(Device.TTS.value)
            if current is None or current.speech is None or not current.speech.paused:
                return _answer(response, False, 'nothing is paused')
            now = self._now()
            current.speech.resume(now)
            self._schedule(current, current.speech.remaining(now))
            self._speech_feedback(current)
            return _answer(response, True, f'resumed {current.action_id}')

    def _on_interrupt(self, _: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        with self._lock:
            self._log(Device.TTS, 'interrupt', {}, '', 'called')
            ended = [*self._speech_queue]
            self._speech_queue.clear()
            current = self._runs.get(Device.TTS.value)
            if current is not None:
                ended.insert(0, current)
            for run_ in ended:
                self._end(run_, 'interrupted', 'interrupted by tts/interrupt', advance=False)
            return _answer(response, True, f'interrupted {len(ended)} speech goal(s)')

    # ---- motion -----------------------------------------------------------------------

    def _move(self, run_: _Run, goal: Any) -> None:
        value = self.settings.value
        if run_.device is Device.ARM_GESTURE:
            gesture = self.body.arm_gestures[goal.action]
            sides = ['left', 'right'] if goal.side == 'both' else [goal.side]
            frames = core.gesture_frames(gesture, goal.cycles, self.body.arm.joints,
                                         [f'{s}_' for s in sides])
            seconds = core.gesture_seconds(gesture, goal.cycles, goal.speed, value.time_scale)
        elif run_.device is Device.HEAD_GESTURE:
            gesture = self.body.head_gestures[goal.action]
            frames = core.gesture_frames(gesture, 1, self.body.head_joints, ['head_'])
            seconds = core.gesture_seconds(gesture, 1, 1.0, value.time_scale)
        elif run_.device is Device.HAND:
            fingers = core.fingers_of(self.body, goal.action, _fingers(goal))
            frames = core.hand_frames(self.body, goal.side, fingers)
            seconds = self.body.hand.seconds * value.time_scale
        else:
            frames = core.move_frames(self.body, list(goal.left_positions),
                                      list(goal.right_positions))
            seconds = core.move_seconds(self.body, goal.speed, value.time_scale)
        self._preempt(run_.slot)
        run_.joints = frozenset().union(*(targets for _, targets in frames))
        self.joints.play(frames, self._now(), seconds)
        self._runs[run_.slot] = run_
        feedback_type = ACTIONS[run_.device].action_type.Feedback
        if run_.device is Device.ARM:
            run_.handle.publish_feedback(feedback_type(
                left_positions=list(goal.left_positions),
                right_positions=list(goal.right_positions)))
        else:
            run_.handle.publish_feedback(feedback_type(state='running'))
        self._schedule(run_, seconds)

    def _preempt(self, slot: str) -> None:
        current = self._runs.get(slot)
        if current is not None:
            ended = 'interrupted' if current.device is Device.TTS else 'cancelled'
            self._end(current, ended, 'preempted by a newer goal', advance=False)

    def _cancel_slot(self, device: Device, response: Trigger.Response) -> Trigger.Response:
        with self._lock:
            self._log(device, 'cancel', {}, '', 'called')
            current = self._runs.get(device.value)
            if current is None:
                return _answer(response, True, 'nothing was running')
            self._end(current, 'cancelled', f'cancelled by {device.value}/cancel')
            return _answer(response, True, f'cancelled {current.action_id}')

    def _on_cancel_arm(self, _: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        return self._cancel_slot(Device.ARM_GESTURE, response)

    def _on_cancel_head(self, _: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        return self._cancel_slot(Device.HEAD_GESTURE, response)

    def _on_estop(self, request: SetBool.Request, response: SetBool.Response) -> SetBool.Response:
        with self._lock:
            self._log(Device.ARM, 'estop', {'engage': request.data}, '', 'called')
            self._estop = request.data
            if request.data:
                for run_ in [r for r in self._runs.values() if r.device in MOTION_DEVICES]:
                    self._end(run_, 'error', 'estop')
            response.success = True
            response.message = 'emergency stop engaged' if request.data else 'released'
            return response

    def _on_cancel_goal(self, device: Device, handle: ServerGoalHandle) -> CancelResponse:
        with self._lock:
            run_ = next((r for r in [*self._runs.values(), *self._speech_queue]
                         if r.handle is handle), None)
            if run_ is None:
                return CancelResponse.REJECT
            self._log(device, 'cancel', {}, _goal_id(handle), 'called')
            if run_ in self._speech_queue:
                self._speech_queue.remove(run_)
                self._end(run_, 'interrupted', 'cancelled before it was spoken', advance=False)
            else:
                ended = 'interrupted' if device is Device.TTS else 'cancelled'
                self._end(run_, ended, 'goal cancelled')
            return CancelResponse.ACCEPT

    # ---- ending goals -------------------------------------------------------------------

    def _schedule(self, run_: _Run, seconds: float) -> None:
        def finished() -> None:
            with self._lock:
                if self._runs.get(run_.slot) is run_:
                    self._end(run_, 'completed', '')

        self._drop_timer(run_.timer)
        run_.timer = self.create_timer(max(seconds, 1e-4), finished, self._group)

    def _end(self, run_: _Run, state: str, error: str, empty: bool = False,
             advance: bool = True) -> None:
        """End a goal with a receipt and hand its result to the action server."""
        self._drop_timer(run_.timer)
        run_.timer = None
        if self._runs.get(run_.slot) is run_:
            del self._runs[run_.slot]
            if state != 'completed':
                self.joints.halt(set(run_.joints), self._now())
        result = ACTIONS[run_.device].action_type.Result()
        if not empty:
            result.state, result.action_id, result.error = state, run_.action_id, error
            if hasattr(result, 'gesture'):
                result.gesture = run_.gesture
        self._results[id(run_.handle)] = result
        run_.handle.execute()
        if run_.device is Device.TTS and advance:
            self._next_speech()

    def _fail(self, device: Device, handle: ServerGoalHandle) -> None:
        """An accepted goal whose start failed ends ``error`` (its client still gets a result)."""
        with self._lock:
            self._results[id(handle)] = ACTIONS[device].action_type.Result(
                state='error', error='internal error (traced)')
        handle.execute()

    def _deliver(self, handle: ServerGoalHandle) -> Any:
        """The action server's execute callback: the result is already decided."""
        with self._lock:
            result = self._results.pop(id(handle))
        if handle.is_cancel_requested:
            handle.canceled()
        elif result.state in ('completed', 'running', ''):
            handle.succeed()
        else:
            handle.abort()
        return result

    def _drop_timer(self, timer: Timer | None) -> None:
        if timer is not None:
            timer.cancel()
            self.destroy_timer(timer)

    # ---- observation --------------------------------------------------------------------

    def _log(self, device: Device, action: str, arguments: dict[str, Any], goal_id: str,
             disposition: str) -> None:
        with self._lock:
            self._sequence += 1
            self._commands.publish(HardwareCommand(
                stamp=self.get_clock().now().to_msg(), sequence=self._sequence,
                device=device.value, action=action,
                arguments_json=json.dumps(arguments, ensure_ascii=False),
                goal_id=goal_id, disposition=disposition))

    def _publish_joints(self) -> None:
        with self._lock:
            positions = self.joints.sample(self._now())
        self._joint_states.publish(JointState(
            header=Header(stamp=self.get_clock().now().to_msg()), name=self.joints.names,
            position=positions))


def _answer(response: Trigger.Response, success: bool, message: str) -> Trigger.Response:
    response.success, response.message = success, message
    return response


def _fields(goal: Any) -> dict[str, Any]:
    """The goal's fields as JSON-ready values (arrays become lists)."""
    def plain(value: Any) -> Any:
        return value if isinstance(value, (str, int, float, bool)) else [float(v) for v in value]

    return {name: plain(getattr(goal, name)) for name in goal.get_fields_and_field_types()}


def _fingers(goal: Any) -> dict[str, int]:
    return {name: getattr(goal, name) for name in FINGERS}


def _action_name(device: Device, goal: Any) -> str:
    if device is Device.TTS:
        return 'speak'
    if device is Device.ARM:
        return 'move_pos'
    return goal.action


def _slot(device: Device, goal: Any) -> str:
    return f'hand/{goal.side}' if device is Device.HAND else device.value


def _goal_id(handle: ServerGoalHandle) -> str:
    return bytes(handle.goal_id.uuid).hex()


def main(args: list[str] | None = None) -> int:
    return run(MockHardware, args)
