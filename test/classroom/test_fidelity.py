"""The classroom core where a classroom departs from the happy path (issue 15): the number
held once formed, a lesson without a device, silence and echoes, a pause in the welcome, a
cut speech going on from where it stopped, feedback gestures that never return."""

from __future__ import annotations

import pytest
from core_driver import Driver, fail, succeed

from robot_skills.classroom.core import ClassroomCore
from robot_skills.classroom.course import Timing
from robot_skills.classroom.sending import NUMBER_TIMER
from robot_skills.model.commands import (
    ArmGesture,
    ArmMovePos,
    Call,
    Device,
    Hand,
    HeadGesture,
    Speak,
)
from robot_skills.model.outcomes import Outcome, Receipt, Status, accepted, judge
from robot_skills.model.skill import (
    BatchCompleted,
    BatchReturned,
    CancelTimer,
    Capabilities,
    CommandCompleted,
    Refused,
    StartTimer,
    TimerFired,
)
from robot_skills.model.utterance import Dropped, Source

CLASSROOM = '用课堂讲解的方式介绍光合作用'
RIGHT = '二氧化碳和水'
QUESTION = '光合作用的原料是什么？你能告诉我答案吗？'
NOT_HEARD = '我没有听清，请再回答一次'
RECAP = '我们接着讲第一个知识点。'


def course(d: Driver):
    return d.state.course


def names(d: Driver) -> list[str]:
    return [b.batch_id.split(':')[1] for b in d.sent]


def open_names(d: Driver) -> list[str]:
    return [b.batch_id.split(':')[1] for b in d.open]


def at(d: Driver, phase: str) -> None:
    d.step_until(lambda state: state.course.phase == phase, phase)


def started(d: Driver) -> list[StartTimer]:
    return [o for o in d.others if isinstance(o, StartTimer)]


@pytest.fixture
def make(library, phrases, lexicon):
    def build(policy=succeed, timing: Timing | None = None, **kwargs) -> Driver:
        return Driver(ClassroomCore(library, phrases, lexicon, timing=timing or Timing()),
                      policy=policy, **kwargs)
    return build


def forming_at_displaying(d: Driver):
    """Send the request; answer batches until the number batch is accepted (no outcome)."""
    d.hear(CLASSROOM, run=False)
    at(d, 'forming')
    forming = d.open[0]
    d.finish(forming, returned_only=True)
    assert course(d).phase == 'displaying' and d.open == []
    return forming


# ---- 1. the number is seen ------------------------------------------------------------------

def test_the_number_batch_reports_each_goal_and_bounds_the_hand(make):
    d = make(timing=Timing(number_display=1.25, gesture_result=2.5))
    forming = forming_at_displaying(d)
    assert forming.each and dict(forming.result_timeouts) == {Device.HAND: 2.5}
    d.send(CommandCompleted(forming.batch_id, 1, succeed(forming.commands[1])))
    assert started(d)[-1] == StartTimer(NUMBER_TIMER, 1.25, busy=True)
    assert d.traced('number_held') == [{'number': 1, 'seconds': 1.25}]
    assert d.open == []                                   # nothing before the hold ends
    d.send(TimerFired(d.timers.pop()))
    reset, lecture = d.open
    assert list(reset.commands) == [Hand('open_palm', 'right'),
                                    ArmMovePos((0.0,) * 7, (0.0,) * 7, 1.0)]
    assert [type(c) for c in lecture.commands] == [Speak]


def test_the_arm_is_never_waited_for(make):
    d = make()
    forming = forming_at_displaying(d)
    d.send(CommandCompleted(forming.batch_id, 1, succeed(forming.commands[1])))
    d.send(TimerFired(d.timers.pop()))                    # the arm has not arrived at all
    assert open_names(d) == ['reset', 'lecture']


def test_an_arm_that_arrives_first_does_not_start_the_lecture(make):
    d = make()
    forming = forming_at_displaying(d)
    d.send(CommandCompleted(forming.batch_id, 0, succeed(forming.commands[0])))
    assert d.open == [] and d.timers == [] and course(d).phase == 'displaying'


@pytest.mark.parametrize('failed', [
    lambda c: Outcome(c, Status.TIMEOUT, Receipt(), 'no result within 5 s'),
    lambda c: judge(c, Receipt('completed', 'victory', 'x')),
    lambda c: fail(c, state=''),
], ids=['late', 'wrong gesture', 'empty receipt'])
def test_a_number_not_formed_starts_the_lecture_at_once_and_numbers_go_by_voice(make, failed):
    d = make()
    forming = forming_at_displaying(d)
    d.send(CommandCompleted(forming.batch_id, 1, failed(forming.commands[1])))
    assert d.timers == [] and open_names(d) == ['reset', 'lecture']
    assert course(d).number_gesture_disabled and not course(d).voice_only
    assert 'not formed' in d.traced('degraded')[0]['why']


def test_pause_suspends_the_hold_and_continue_holds_again(make):
    d = make()
    d.hear(CLASSROOM, run=False)
    at(d, 'holding')
    d.hear('暂停', run=False)
    assert CancelTimer(NUMBER_TIMER) in d.others and d.timers == []
    d.run()
    assert 'lecture' not in names(d)
    d.hear('继续', run=False)
    while not d.timers:
        d.finish(d.open[0])
    assert d.timers == [NUMBER_TIMER] and 'lecture' not in names(d)
    d.run()
    assert names(d).count('lecture') == 1 and course(d).awaiting_state == 'awaiting_answer'


def test_stop_cancels_the_hold(make):
    d = make()
    d.hear(CLASSROOM, run=False)
    at(d, 'holding')
    d.hear('停止')
    assert d.timers == [] and 'lecture' not in names(d)
    assert course(d).presentation_mode == 'completed'


def test_a_fault_during_the_hold_starts_the_lecture_voice_only(make):
    d = make()
    forming = forming_at_displaying(d)
    d.send(CommandCompleted(forming.batch_id, 1, succeed(forming.commands[1])))
    d.send(CommandCompleted(forming.batch_id, 0, fail(forming.commands[0], error='estop')))
    assert d.timers == [] and open_names(d) == ['lecture']   # no reset: nothing moves
    assert course(d).voice_only


# ---- 2. the devices are known before anything moves ---------------------------------------

def unknown_devices(d: Driver) -> Driver:
    d.state = d.core.initial()        # as at start-up, before the runtime looked for devices
    return d


def test_a_request_before_the_devices_are_known_waits_for_them(make):
    d = unknown_devices(make())
    d.hear(CLASSROOM)
    assert d.sent == [] and d.kinds() == ['waiting_for_devices']
    d.send(Capabilities(()))
    d.run()
    assert names(d)[0] == 'welcome'


def test_no_tts_found_refuses_the_waiting_request_and_moves_nothing(make, phrases):
    d = unknown_devices(make())
    d.hear(CLASSROOM)
    d.send(Capabilities(('tts/speak',)))
    assert d.sent == []
    assert d.traced('refused')[0]['text'] == phrases.no_tts


def test_no_motion_found_starts_the_waiting_request_by_voice(make):
    d = unknown_devices(make())
    d.hear(CLASSROOM)
    d.send(Capabilities(('arm_gesture', 'head_gesture', 'arm/move_pos', 'hand')))
    d.run()
    assert d.sent and all(isinstance(c, Speak) for b in d.sent for c in b.commands)


# ---- 4. silence and echoes ------------------------------------------------------------------

def empty() -> Refused:
    return Refused(Dropped(Source.ASR, 'empty', 'u-empty'))


def test_an_empty_answer_is_asked_again(make):
    d = make()
    d.hear(CLASSROOM, run=False)
    at(d, 'waiting_answer')
    d.send(empty())
    d.run()
    assert d.said()[-1] == NOT_HEARD and d.sent[-1].commands == (Speak(NOT_HEARD),)
    assert course(d).awaiting_state == 'awaiting_answer'
    d.hear(RIGHT)
    assert d.traced('graded')[-1]['tier'] == 'correct'


def test_an_empty_result_when_no_answer_is_awaited_is_ignored(make):
    d = make()
    d.hear(CLASSROOM, run=False)
    at(d, 'lecture')
    sent = len(d.sent)
    d.send(empty())
    assert len(d.sent) == sent and d.traced('ignored')


@pytest.mark.parametrize('echo', [
    QUESTION, '光合作用的原料是什么', '你能告诉我答案吗', NOT_HEARD,
], ids=['question', 'question only', 'invitation', 'not heard'])
def test_an_echo_is_an_echo_also_after_the_not_heard_reply(make, echo):
    d = make()
    d.hear(CLASSROOM, run=False)
    at(d, 'waiting_answer')
    d.send(empty())
    d.run()
    d.hear(echo)
    assert d.said()[-2:] == [NOT_HEARD, NOT_HEARD]
    assert d.sent[-1].commands == (Speak(NOT_HEARD),)          # no head gesture either
    assert d.traced('graded')[-1]['why'] == "an echo of the robot's own speech"


def test_a_long_verbatim_stretch_of_the_lecture_is_an_echo_but_its_facts_are_an_answer(make):
    d = make()
    d.hear('用课堂讲解的方式介绍极限', run=False)
    at(d, 'waiting_answer')
    lecture = [s for s in d.said() if s.startswith('第一个知识点')][0]
    stretch = lecture[lecture.index('当'):lecture.index('极限。') + 2]
    d.hear(stretch)
    assert d.said()[-1] == NOT_HEARD
    d.hear('接近零，零是它的极限')                      # the lecture's own words, as an answer
    assert d.traced('graded')[-1]['tier'] == 'correct'


def test_an_answer_before_the_question_is_accepted_is_ignored_not_graded(make):
    d = make()
    d.hear(CLASSROOM, run=False)
    at(d, 'question')
    d.hear(RIGHT, run=False)                  # the question is sent, not yet accepted
    assert d.traced('ignored')[-1]['why'] == 'busy with question' and not d.traced('graded')
    d.run()
    assert not d.traced('graded') and course(d).phase == 'waiting_answer'


# ---- 5. a pause during the welcome -----------------------------------------------------------

def cancelled(command) -> Outcome:
    return Outcome(command, Status.FAILED, Receipt('cancelled', command.action, 'x',
                                                   'cancelled by arm_gesture/cancel'),
                   'ended cancelled')


def test_a_pause_during_the_welcome_keeps_the_gestures(make):
    d = make(policy=lambda c: cancelled(c) if isinstance(c, ArmGesture) else succeed(c))
    d.hear(CLASSROOM, run=False)
    d.hear('暂停', run=False)
    d.run()
    d.hear('继续')
    assert not course(d).voice_only and 'forming' in names(d)


def test_a_welcome_cancelled_by_someone_else_makes_the_lesson_voice_only(make):
    d = make(policy=lambda c: cancelled(c) if isinstance(c, ArmGesture) else succeed(c))
    d.hear(CLASSROOM)
    assert course(d).voice_only and 'forming' not in names(d)


# ---- 6. a cut speech goes on from its first unsaid clause ------------------------------------

def cut_lecture(spoken_of):
    """A robot whose lecture is cut by the pause after ``spoken_of(text)`` characters."""
    cut = []

    def policy(command):
        if isinstance(command, Speak) and command.message.startswith('第一个知识点') and not cut:
            cut.append(command)
            return Outcome(command, Status.FAILED, Receipt('interrupted', '', 'x'),
                           'ended interrupted', chars_spoken=spoken_of(command.message))
        return succeed(command)
    return policy


def failing(*controls: str):
    def wrap(policy):
        def answer(command):
            if isinstance(command, Call) and command.control.value in controls:
                return fail(command)
            return policy(command)
        return answer
    return wrap


def lecture_of(d: Driver) -> str:
    return next(s for s in d.said() if s.startswith('第一个知识点'))


def second_clause(text: str) -> int:
    return text.index('。') + 1


def second_clause_words(text: str) -> int:
    """Every word of the first clause said; its full stop (silence) not yet."""
    return text.index('。')


@pytest.mark.parametrize('controls', [('tts/pause',), ('tts/resume',)],
                         ids=['pause fell back to interrupt', 'resume failed'])
@pytest.mark.parametrize('where, rest', [
    (lambda t: 0, lambda t: t),                                        # nothing heard yet
    (lambda t: second_clause(t) + 2, lambda t: t[second_clause(t):]),  # inside clause two
    (second_clause, lambda t: t[second_clause(t):]),                   # exactly at its start
    (lambda t: len(t) - 3, lambda t: t[t.rindex('。', 0, len(t) - 1) + 1:]),  # in the last
    (second_clause_words, lambda t: t[second_clause(t):]),   # words said, not the full stop
], ids=['none', 'inside', 'boundary', 'last', 'punctuation'])
def test_a_cut_lecture_goes_on_from_its_first_unsaid_clause(make, controls, where, rest):
    d = make(policy=failing(*controls)(cut_lecture(where)))
    d.hear(CLASSROOM, run=False)
    at(d, 'lecture')
    d.hear('暂停')
    d.hear('继续')
    lecture = lecture_of(d)
    said = d.said()
    after = said[said.index(RECAP) + 1:]
    assert after[:2] == [rest(lecture), QUESTION]
    assert said.count(lecture) == (2 if rest(lecture) == lecture else 1)


@pytest.mark.parametrize('spoken', [len, lambda t: len(t) - 1], ids=['all', 'but the stop'])
def test_a_lecture_cut_after_its_last_clause_goes_on_to_the_question(make, spoken):
    d = make(policy=failing('tts/pause')(cut_lecture(spoken)))
    d.hear(CLASSROOM, run=False)
    at(d, 'lecture')
    d.hear('暂停')
    d.hear('继续')
    said = d.said()
    assert said[said.index(RECAP) + 1] == QUESTION


def test_pause_and_resume_that_work_let_the_device_go_on(make):
    d = make()
    d.hear(CLASSROOM, run=False)
    at(d, 'lecture')
    d.hear('暂停')
    d.hear('继续')
    assert RECAP not in d.said() and d.said().count(lecture_of(d)) == 1


# ---- 7. feedback gestures never hold a lesson ------------------------------------------------

def test_every_feedback_gesture_has_the_short_result_timeout(make):
    d = make(timing=Timing(gesture_result=2.5),
             policy=lambda c: (Outcome(c, Status.TIMEOUT, Receipt(), 'no result within 2.5 s')
                               if c.device is Device.HEAD_GESTURE and c.action == 'nod'
                               else succeed(c)))
    d.hear(CLASSROOM)
    for answer in (RIGHT, '需要阳光', '二氧化碳'):
        d.hear(answer)
    heads = [b for b in d.sent if any(c.device is Device.HEAD_GESTURE for c in b.commands)]
    feedback = [b for b in heads if b.batch_id.split(':')[1] in ('feedback', 'head_retry')]
    assert len(feedback) == 4                      # nod, its retry, tilt, shake (closing)
    assert all(dict(b.result_timeouts) == {Device.HEAD_GESTURE: 2.5} for b in feedback)
    welcome = d.sent[0]                            # the scan is not a feedback gesture
    assert welcome.result_timeouts == ()
    assert d.said()[-1].startswith('今天我们学习了')   # the late nod did not hold the lesson


# ---- found by a hostile review: orderings, repeats and long pauses ---------------------------

def test_a_hand_done_before_the_arm_is_accepted_is_not_lost(make):
    d = make()
    d.hear(CLASSROOM, run=False)
    at(d, 'forming')
    forming = d.open.pop(0)
    d.send(CommandCompleted(forming.batch_id, 1, succeed(forming.commands[1])))
    d.send(BatchReturned(forming.batch_id, tuple(accepted(c) for c in forming.commands)))
    assert d.timers == [NUMBER_TIMER]                        # held from the acceptance on
    d.run()
    assert course(d).awaiting_state == 'awaiting_answer'


def test_a_number_batch_completed_while_displaying_releases_the_lecture(make):
    """Should the hand's own result be missed, the batch's completion still carries it."""
    d = make()
    forming = forming_at_displaying(d)
    d.send(BatchCompleted(forming.batch_id, tuple(succeed(c) for c in forming.commands)))
    assert d.timers == [NUMBER_TIMER]


def test_continue_said_twice_resumes_once(make):
    d = make(policy=failing('tts/resume')(succeed))
    d.hear(CLASSROOM, run=False)
    at(d, 'lecture')
    d.hear('暂停')
    d.hear('继续', run=False)
    d.hear('继续', run=False)
    d.run()
    assert names(d).count('resume') == 1 and names(d).count('recap') == 1
    d.hear(RIGHT)
    assert d.traced('graded')


def test_a_pause_with_nothing_said_needs_no_recap_and_leaves_no_trace(make):
    d = make(policy=failing('tts/pause', 'tts/resume')(succeed))
    d.hear(CLASSROOM, run=False)
    at(d, 'holding')
    d.hear('暂停')                  # nothing is being said: the pause falls back to interrupt
    d.hear('继续', run=False)
    at(d, 'lecture')
    assert RECAP not in d.said() and not course(d).pause_cut_speech


def test_a_long_pause_that_outlives_the_speech_goal_goes_on_from_the_clause(make):
    d = make(policy=failing('tts/resume')(succeed))
    d.hear(CLASSROOM, run=False)
    at(d, 'lecture')
    lecture = d.open.pop()
    d.hear('暂停')
    text = lecture.commands[-1].message
    d.send(BatchCompleted(lecture.batch_id, (Outcome(
        lecture.commands[-1], Status.TIMEOUT, Receipt(), 'no result within 120 s',
        chars_spoken=second_clause(text) + 1),)))
    d.hear('继续')
    said = d.said()
    assert said[said.index(RECAP) + 1:][:2] == [text[second_clause(text):], QUESTION]
    assert course(d).awaiting_state == 'awaiting_answer'


@pytest.mark.parametrize('answer', ['光合作用的原料是二氧化碳和水', '原料是二氧化碳和水。'])
def test_a_full_sentence_right_answer_from_the_lecture_is_an_answer(make, answer):
    d = make()
    d.hear(CLASSROOM)
    d.hear(answer)
    assert d.traced('graded')[0]['tier'] == 'correct'


def test_stop_before_the_devices_are_known_drops_the_waiting_request(make):
    d = unknown_devices(make())
    d.hear(CLASSROOM)
    d.hear('停止')
    d.send(Capabilities(()))
    d.run()
    assert d.sent == []


def test_the_rest_of_a_cut_lecture_is_still_the_lecture(make):
    d = make(policy=failing('tts/pause')(succeed))
    d.hear('用课堂讲解的方式介绍水的沸腾，讲四个知识点')
    for answer in ('一百摄氏度，标准大气压', '降低，比如高山上'):
        d.hear(answer)
    d.hear('达到沸点，继续吸热', run=False)
    at(d, 'lecture')
    lecture = d.open.pop()
    text = lecture.commands[-1].message
    d.hear('暂停')
    d.send(BatchCompleted(lecture.batch_id, (Outcome(
        lecture.commands[-1], Status.FAILED, Receipt('interrupted', '', 'x'), 'cut',
        chars_spoken=text.rindex('。', 0, len(text) - 1) + 3),)))
    d.hear('继续')
    d.hear('把水变成水蒸气')              # the lecture's words: graded, not an echo
    assert d.traced('graded')[-1]['tier'] == 'partial'


def test_a_cancel_call_that_finds_nothing_to_cancel_is_no_motion_fault(make):
    d = make(policy=lambda c: (judge(c, Receipt('error', error='no gesture running'))
                               if isinstance(c, Call) and c.control.value == 'head_gesture/cancel'
                               else succeed(c)))
    d.hear(CLASSROOM)
    d.hear(RIGHT, run=False)
    at(d, 'feedback')
    d.hear('暂停')
    d.hear('继续')
    d.hear(RIGHT)
    assert not course(d).voice_only and 'forming' in names(d)[-6:]


def test_a_nod_cancelled_by_someone_else_stops_all_motion(make):
    d = make(policy=lambda c: (fail(c, 'cancelled', 'cancelled by someone else')
                               if isinstance(c, HeadGesture) and c.action == 'nod'
                               else succeed(c)))
    d.hear(CLASSROOM)
    d.hear(RIGHT)
    assert 'head_retry' not in names(d) and course(d).voice_only


def test_a_stop_cancels_gestures_as_ours_and_still_resets(make):
    d = make(policy=lambda c: cancelled(c) if isinstance(c, ArmGesture) else succeed(c))
    d.hear(CLASSROOM, run=False)
    d.hear('停止')
    assert 'stop_reset' in names(d) and not course(d).voice_only


def test_a_nod_that_failed_in_a_cut_feedback_is_still_retried(make):
    d = make(policy=failing('tts/pause')(
        lambda c: judge(c, Receipt('completed', 'tilt', 'x')) if isinstance(c, HeadGesture)
        and c.action == 'nod' and 'head_retry' not in names(d) else succeed(c)))
    d.hear(CLASSROOM)
    d.hear(RIGHT, run=False)
    at(d, 'feedback')
    feedback = d.open.pop()
    d.hear('暂停')
    speech = feedback.commands[-1]
    d.send(BatchCompleted(feedback.batch_id, (
        judge(feedback.commands[0], Receipt('completed', 'tilt', 'x')),
        Outcome(speech, Status.FAILED, Receipt('interrupted', '', 'x'), 'cut',
                chars_spoken=3))))
    d.hear('继续')
    assert names(d).count('head_retry') == 1


@pytest.mark.parametrize('stage', ['welcome', 'direct'])
def test_the_recap_names_a_point_only_inside_a_point(make, stage):
    d = make(policy=failing('tts/pause', 'tts/resume')(succeed))
    d.hear(CLASSROOM if stage == 'welcome' else '直接讲讲光合作用', run=False)
    at(d, stage)
    d.hear('暂停')
    d.hear('继续')
    assert '我们接着讲。' in d.said() and RECAP not in d.said()


def test_stop_said_twice_stops_once(make):
    d = make()
    d.hear(CLASSROOM, run=False)
    at(d, 'lecture')
    d.hear('停止', run=False)
    d.hear('停止', run=False)
    d.run()
    assert d.kinds().count('course_completed') == 1 and names(d).count('stop_reset') == 1
