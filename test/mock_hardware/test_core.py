"""The mock robot's timing, validation and joint motion, without ROS."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robot_skills.adapters.config import ConfigError, load, parse
from robot_skills.mock_hardware import core
from robot_skills.mock_hardware.config import Body
from robot_skills.runtime import paths

BODY = load(paths.config('mock_hardware.yaml'), Body)
DISPLAY = [0, 0, 0, -100, 90, 0, -70]   # the classroom's number-display pose
NEUTRAL = [0] * 7


def test_speech_lasts_length_over_rate_times_scale():
    assert core.speech_seconds('一二三四五六七八九', 4.5, 1.0) == pytest.approx(2.0)
    assert core.speech_seconds('一二三四五六七八九', 4.5, 0.5) == pytest.approx(1.0)
    assert core.speech_seconds('一二三四五六七八九', 9.0, 1.0) == pytest.approx(1.0)


def test_speech_progress_pauses_and_resumes():
    speech = core.Speech(chars=10, seconds=2.0)
    speech.start(100.0)
    assert speech.chars_spoken(101.0) == 5 and speech.remaining(101.0) == pytest.approx(1.0)
    speech.pause(101.0)
    assert speech.paused
    assert speech.chars_spoken(150.0) == 5          # nothing is spoken while paused
    speech.resume(150.0)
    assert speech.remaining(150.5) == pytest.approx(0.5)
    assert speech.chars_spoken(151.0) == 10 and speech.remaining(160.0) == 0.0


@given(chars=st.integers(0, 500), seconds=st.floats(0.0, 100.0),
       marks=st.lists(st.floats(0.0, 50.0), min_size=1, max_size=8))
def test_speech_progress_is_monotonic_and_bounded(chars, seconds, marks):
    speech = core.Speech(chars, seconds)
    speech.start(0.0)
    now, spoken = 0.0, 0
    for i, step in enumerate(marks):
        now += step
        if i % 2:
            speech.pause(now) if not speech.paused else speech.resume(now)
        current = speech.chars_spoken(now)
        assert spoken <= current <= chars
        assert 0.0 <= speech.remaining(now) <= seconds
        spoken = current


@pytest.mark.parametrize('args, problem', [
    (('welcome', 'left', 1, 1.0), ''),
    (('welcome', 'both', 2, 0.5), ''),
    (('reset', 'right', 0, 1.0), ''),
    (('raise', 'left', 1, 1.0), "unknown arm gesture 'raise'"),
    (('high_five', 'left', 1, 1.0), 'unknown arm gesture'),
    (('welcome', 'up', 1, 1.0), "side must be left, right or both, not 'up'"),
    (('welcome', 'left', 11, 1.0), 'cycles must be 0-10'),
    (('welcome', 'left', -1, 1.0), 'cycles must be 0-10'),
    (('welcome', 'left', 1, 0.0), 'speed must be in [0.05, 2]'),
    (('welcome', 'left', 1, float('nan')), 'speed must be in [0.05, 2]'),
    (('welcome', 'left', 1, 3.0), 'speed must be in [0.05, 2]'),
    (('welcome', 'left', 1, 1e-30), 'speed must be in [0.05, 2]'),     # would last 1e30 s
])
def test_arm_gesture_validation(args, problem):
    found = core.check_arm_gesture(BODY, *args)
    assert found.startswith(problem) if problem else found == ''


@pytest.mark.parametrize('action, ok', [('nod', True), ('shake', True), ('tilt', True),
                                        ('scan', True), ('reset', True), ('spin', False),
                                        ('', False)])
def test_head_gesture_validation(action, ok):
    assert (core.check_head_gesture(BODY, action) == '') is ok


@pytest.mark.parametrize('action, side, fingers, problem', [
    ('point', 'right', {}, ''),
    ('victory', 'left', {}, ''),
    ('open_palm', 'right', {}, ''),
    ('set_fingers_raw', 'right', dict(little=100, ring=0, middle=0, index=0, thumb_bend=92,
                                      thumb_rotation=0), ''),
    ('set_fingers_raw', 'right', dict(little=101, ring=0, middle=0, index=0, thumb_bend=0,
                                      thumb_rotation=0), 'finger values must be 0-100'),
    ('set_fingers_raw', 'right', dict(little=0, ring=-1, middle=0, index=0, thumb_bend=0,
                                      thumb_rotation=0), 'finger values must be 0-100'),
    ('reset', 'right', {}, "unknown hand action 'reset'"),
    ('fist', 'right', {}, "unknown hand action 'fist'"),
    ('point', 'both', {}, "side must be left or right, not 'both'"),
])
def test_hand_validation(action, side, fingers, problem):
    found = core.check_hand(BODY, action, side, fingers)
    assert found.startswith(problem) if problem else found == ''


@pytest.mark.parametrize('left, right, speed, problem', [
    (NEUTRAL, DISPLAY, 1.0, ''),
    (NEUTRAL, NEUTRAL, 2.0, ''),
    (NEUTRAL[:6], DISPLAY, 1.0, 'left_positions needs 7 values, got 6'),
    (NEUTRAL, DISPLAY + [0], 1.0, 'right_positions needs 7 values, got 8'),
    ([], [], 1.0, 'left_positions needs 7 values, got 0'),
    (NEUTRAL, [0, 0, 0, float('nan'), 0, 0, 0], 1.0, 'right_positions: elbow is not finite'),
    (NEUTRAL, [float('inf')] + [0] * 6, 1.0, 'right_positions: shoulder_pitch is not finite'),
    (NEUTRAL, [0, 0, 0, 30, 0, 0, 0], 1.0, 'right_positions: elbow=30 is outside its limits'),
    ([0, 0, 0, 0, 0, 0, -91], NEUTRAL, 1.0, 'left_positions: wrist_roll=-91 is outside'),
    (NEUTRAL, NEUTRAL, 0.0, 'speed must be in [0.05, 2]'),
])
def test_move_pos_validation(left, right, speed, problem):
    found = core.check_move_pos(BODY, left, right, speed)
    assert found.startswith(problem) if problem else found == ''


def test_speech_validation():
    assert core.check_speech('你好') == ''
    assert core.check_speech('  ') == 'empty message: nothing to say'


def test_joint_names_cover_arms_head_and_hands():
    names = core.joint_names(BODY)
    assert len(names) == 7 * 2 + 2 + 6 * 2 == len(set(names))
    assert names[0] == 'left_shoulder_pitch' and 'head_tilt' in names
    assert 'right_hand_thumb_rotation' in names


def test_joints_follow_a_move_and_stop_at_the_target():
    model = core.JointModel(core.joint_names(BODY))
    model.play(core.move_frames(BODY, NEUTRAL, DISPLAY), start=0.0, seconds=2.0)
    half = dict(zip(model.names, model.sample(1.0), strict=True))
    assert half['right_elbow'] == pytest.approx(math.radians(-50))
    done = dict(zip(model.names, model.sample(5.0), strict=True))
    assert done['right_elbow'] == pytest.approx(math.radians(-100))
    assert done['right_wrist_yaw'] == pytest.approx(math.radians(90))
    assert not model.moving


def test_a_welcome_on_one_side_moves_only_that_arm_and_returns():
    model = core.JointModel(core.joint_names(BODY))
    frames = core.gesture_frames(BODY.arm_gestures['welcome'], 1, BODY.arm.joints, ['right_'])
    model.play(frames, 0.0, 2.0)
    peak = dict(zip(model.names, model.sample(0.5), strict=True))
    assert peak['right_shoulder_pitch'] == pytest.approx(math.radians(-120))
    assert peak['left_shoulder_pitch'] == 0.0
    assert all(v == pytest.approx(0.0) for v in model.sample(2.5))


def test_cycles_repeat_the_keyframes():
    frames = core.gesture_frames(BODY.arm_gestures['welcome'], 2, BODY.arm.joints, ['left_'])
    assert [round(at, 3) for at, _ in frames] == [0.125, 0.25, 0.375, 0.5, 0.625, 0.75,
                                                  0.875, 1.0]


def test_halt_freezes_joints_where_they_are():
    model = core.JointModel(core.joint_names(BODY))
    model.play(core.move_frames(BODY, NEUTRAL, DISPLAY), 0.0, 2.0)
    model.halt({'right_elbow'}, 1.0)
    positions = dict(zip(model.names, model.sample(10.0), strict=True))
    assert positions['right_elbow'] == pytest.approx(math.radians(-50))
    assert positions['right_wrist_yaw'] == pytest.approx(math.radians(90))


def test_hand_presets_close_fingers():
    model = core.JointModel(core.joint_names(BODY))
    fingers = core.fingers_of(BODY, 'point', {})
    model.play(core.hand_frames(BODY, 'right', fingers), 0.0, 0.5)
    positions = dict(zip(model.names, model.sample(1.0), strict=True))
    assert positions['right_hand_index'] == 0.0
    assert positions['right_hand_little'] == pytest.approx(BODY.hand.closed_radians)


def test_the_shipped_body_file_is_valid_and_bad_ones_are_named():
    with pytest.raises(ConfigError, match="entry arm_gestures.welcome, field 'keyframes'"):
        parse('arm: {joints: [a,b,c,d,e,f,g], limits: {a: {min: 0, max: 1}}, move_seconds: 1}\n'
              'head_joints: [pan]\n'
              'hand: {seconds: 1, closed_radians: 1, presets: {}}\n'
              'arm_gestures: {welcome: {seconds: 1, keyframes: [{at: 0.5}]}}\n'
              'head_gestures: {}\n', Body, 'mock.yaml')
