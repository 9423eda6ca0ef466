"""Commands describe themselves for traces and know their device."""

from robot_skills.model.commands import (
    ArmGesture,
    ArmMovePos,
    Call,
    Control,
    Device,
    Fingers,
    Hand,
    Speak,
    describe,
)


def test_devices():
    assert Speak('x').device is Device.TTS
    assert ArmMovePos((0,) * 7, (0,) * 7).device is Device.ARM
    assert Call(Control.ARM_GESTURE_CANCEL).device is Device.ARM_GESTURE
    assert Call(Control.TTS_INTERRUPT).device is Device.TTS


def test_describe_is_json_ready_and_shows_fingers_only_for_raw():
    assert describe(ArmGesture('welcome', 'right')) == {
        'device': 'arm_gesture', 'action': 'welcome', 'side': 'right', 'cycles': 1, 'speed': 1.0}
    assert 'fingers' not in describe(Hand('point'))
    raw = describe(Hand('set_fingers_raw', fingers=Fingers(little=100, thumb_bend=92)))
    assert raw['fingers']['little'] == 100 and raw['fingers']['thumb_bend'] == 92
    assert describe(Call(Control.TTS_PAUSE)) == {'device': 'tts', 'call': 'tts/pause'}
