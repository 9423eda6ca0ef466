"""The simulation's readable timeline: one line per thing a robot heard or did."""

from __future__ import annotations

import json
from typing import Any

WIDTH = 9


def line(seconds: float, robot: str, tag: str, text: str) -> str:
    head = f'{seconds:8.3f}s  {robot:<{WIDTH}} {tag:<8} '
    return head + text.replace('\n', '\n' + ' ' * len(head))


def heard(asr: str | None, wake: bool, remote: str | None, sender: str,
          payload: str | None) -> tuple[str, str]:
    """Tag and text of an input the director sends."""
    if remote is not None:
        return 'REMOTE', f'{sender}: {remote}'
    if payload is not None:
        return 'ASR-JSON', payload
    return ('ASR' if wake else 'ASR-NOWAKE'), asr or ''


def ta_step(mode: str, reason: str, answer: dict[str, Any]) -> str:
    """What one step of the discussion TA decided, in one line."""
    if mode == 'plan':
        return (f'plan: {len(answer["must_discuss_points"])} must-discuss points, '
                f'{len(answer["likely_misreadings"])} likely misreadings: '
                + ' / '.join(answer['must_discuss_points']))
    card = answer['state_card']
    pending = f'{len(card["pending_questions"])} pending'
    if card['can_end_discussion']:
        pending += ', can end'
    if answer.get('utterance'):
        return f'speaks ({reason}): {answer["utterance"]}'
    if mode == 'refresh' and card['should_speak']:
        return f'should speak ({reason}); {pending}'
    return f'{mode}: silent ({reason}); {pending}'


def gesture_label(device: str, arguments: dict[str, Any]) -> str:
    """``arm_gesture welcome left``: how expectations and the timeline name a gesture."""
    if device == 'arm':
        return 'arm move_pos'
    side = arguments.get('side', '')
    return ' '.join(part for part in (device, str(arguments.get('action', '')), side) if part)


def command(device: str, action: str, arguments_json: str, disposition: str) -> tuple[str, str]:
    """Tag and text of a command the mock hardware received."""
    arguments = json.loads(arguments_json) if arguments_json else {}
    suffix = '' if disposition in ('accepted', 'called') else f'  [{disposition}]'
    if device == 'tts' and action == 'speak':
        forced = ' (force)' if arguments.get('force') else ''
        return 'SAY', f'{arguments.get("message", "")}{forced}{suffix}'
    if action in ('pause', 'resume', 'interrupt', 'cancel', 'estop'):
        return 'CALL', f'{device}/{action}{suffix}'
    label = gesture_label(device, arguments)
    if device == 'arm':
        label += f' right={arguments.get("right_positions")}'
    return 'MOVE', f'{label}{suffix}'


def outcome(entry: dict[str, Any]) -> tuple[str, str] | None:
    """Tag and text of a finished gesture or a failed command, from a batch_completed trace."""
    device, status = entry.get('device', ''), entry.get('status', '')
    if entry.get('state') == 'interrupted':
        return 'CUT', f'{device}: {entry.get("reason") or status}'
    if entry.get('state') == 'cancelled' and 'preempted' in entry.get('reason', ''):
        return 'REPLACED', f'{device}: by the next command to the same device'
    if status != 'succeeded':
        return 'FAILED', f'{device}: {entry.get("reason") or status}'
    if device in ('arm_gesture', 'head_gesture', 'hand', 'arm'):
        return 'DONE', f'{device} {entry.get("gesture", "")} {entry.get("state", "")}'.replace(
            '  ', ' ')
    return None
