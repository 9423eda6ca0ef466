"""Reading a recorded run: goals become bars with their end, failures and releases marks."""

from __future__ import annotations

import json
import uuid

from action_msgs.msg import GoalInfo, GoalStatus, GoalStatusArray
from builtin_interfaces.msg import Time
from sensor_msgs.msg import JointState
from unique_identifier_msgs.msg import UUID

from robot_skills.sim.recorder import Message
from robot_skills.sim.runs import read
from robot_skills_interfaces.msg import HardwareCommand, SkillEvent

SECOND = 1_000_000_000


def _command(goal: str, device: str, action: str, disposition: str, **arguments) -> HardwareCommand:
    return HardwareCommand(device=device, action=action, goal_id=goal, disposition=disposition,
                           arguments_json=json.dumps(arguments))


def _status(goal: str, status: int) -> GoalStatusArray:
    info = GoalInfo(goal_id=UUID(uuid=list(bytes.fromhex(goal))))
    return GoalStatusArray(status_list=[GoalStatus(goal_info=info, status=status)])


def _event(kind: str, **detail) -> SkillEvent:
    return SkillEvent(skill='classroom_presenter', kind=kind, detail_json=json.dumps(detail))


def _run(*timed):
    messages = [Message(int(at * SECOND), 'tianyi', f'/tianyi/{topic}', msg)
                for at, topic, msg in timed]
    return read(messages, ['tianyi'], 0)['tianyi']


def test_a_goal_runs_from_its_decision_to_the_end_its_status_reports():
    arm, hand = uuid.uuid4().hex, uuid.uuid4().hex
    run = _run((1.0, 'mock_hardware/commands', _command(arm, 'arm', 'move_pos', 'accepted',
                                                        right_positions=[0.0, -100.0])),
               (1.1, 'mock_hardware/commands', _command(hand, 'hand', 'point', 'accepted',
                                                        side='right')),
               (2.0, 'arm/move_pos/_action/status', _status(arm, GoalStatus.STATUS_ABORTED)),
               (2.5, 'hand/_action/status', _status(hand, GoalStatus.STATUS_SUCCEEDED)),
               (3.0, 'hand/_action/status', _status(hand, GoalStatus.STATUS_ABORTED)))
    bars = {bar.row: bar for bar in run.bars}
    assert (bars['arm'].start, bars['arm'].end, bars['arm'].state) == (1.0, 2.0, 'failed')
    assert bars['arm'].label == 'move_pos 0 -100'
    assert (bars['right hand'].end, bars['right hand'].state) == (2.5, 'done')   # first end wins


def test_a_goal_that_never_ends_stays_open_and_refusals_are_failures():
    speech = uuid.uuid4().hex
    run = _run((1.0, 'mock_hardware/commands', _command(speech, 'tts', 'speak', 'accepted',
                                                        message='你好')),
               (1.5, 'mock_hardware/commands', _command('', 'head_gesture', 'nod', 'rejected')),
               (2.0, 'mock_hardware/commands', _command('', 'tts', 'pause', 'called')))
    assert [(b.row, b.state, b.end) for b in run.bars] == [('speech', 'open', None)]
    assert [(m.row, m.kind, m.label) for m in run.marks] == [
        ('head', 'failure', 'nod rejected'), ('speech', 'call', 'tts/pause')]


def test_batches_show_their_span_their_release_and_their_failed_outcomes():
    run = _run((1.0, 'skill_events', _event('batch_sent', batch_id='1:number:1')),
               (2.0, 'skill_events', _event('batch_sent', batch_id='1:lecture:1',
                                            release_to_send_ms=0.4)),
               (3.0, 'skill_events', _event('batch_completed', batch_id='1:number:1', outcomes=[
                   {'device': 'hand', 'status': 'failed', 'state': 'error', 'gesture': 'point',
                    'reason': 'estop'}])))
    assert [(b.label, b.start, b.end) for b in run.bars] == [('1:number:1', 1.0, 3.0),
                                                             ('1:lecture:1', 2.0, None)]
    assert [(m.kind, m.at) for m in run.marks] == [('barrier', 2.0), ('failure', 3.0)]
    assert run.marks[1].label == 'hand: estop'


def test_a_number_is_drawn_as_it_was_held_until_the_arm_or_hand_moves_on():
    names = ['right_elbow', 'right_hand_index']
    moved = uuid.uuid4().hex
    run = _run((1.00, 'joint_states', JointState(name=names, position=[-1.0, 0.0])),
               (1.05, 'skill_events', _event('number_held', number=1, seconds=0.5)),
               (1.40, 'joint_states', JointState(name=names, position=[-1.7, 0.0])),
               (1.55, 'mock_hardware/commands', _command(moved, 'arm', 'move_pos', 'accepted')),
               (1.60, 'joint_states', JointState(name=names, position=[-0.5, 0.0])))
    assert [(p.label, p.at, p.positions['right_elbow']) for p in run.poses] == [
        ('number 1 shown', 1.4, -1.7)]


def test_stamps_not_the_order_of_receipt_say_what_came_first():
    """Topics arrive on different threads: a joint state of the next motion can be received
    before the command that started it. The stamps keep the held number apart from it."""
    names = ['right_elbow']
    moved = uuid.uuid4().hex

    def stamped(at: float, msg):
        (msg.header if hasattr(msg, 'header') else msg).stamp = Time(
            sec=int(at), nanosec=round(at % 1 * SECOND))
        return msg

    run = _run((1.05, 'skill_events', _event('number_held', number=2, seconds=0.5)),
               (1.58, 'joint_states', stamped(1.55, JointState(name=names, position=[-0.9]))),
               (1.60, 'mock_hardware/commands',
                stamped(1.50, _command(moved, 'arm', 'move_pos', 'accepted'))),
               (1.62, 'joint_states', stamped(1.45, JointState(name=names, position=[-1.7]))))
    assert [(p.label, p.positions['right_elbow']) for p in run.poses] == [
        ('number 2 shown', -1.7)]
