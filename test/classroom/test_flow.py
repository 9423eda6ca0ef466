"""The classroom's batches, in the document's order, with every degradation and command."""

from __future__ import annotations

import pytest
from core_driver import Driver, fail, succeed
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_skills.classroom.core import FLOW, ClassroomCore
from robot_skills.classroom.course import FetchLesson, LessonFetched
from robot_skills.classroom.sending import NUMBER_TIMER
from robot_skills.model.commands import ArmGesture, ArmMovePos, Fingers, Hand, HeadGesture, Speak
from robot_skills.model.outcomes import Outcome, Receipt, Status, judge
from robot_skills.model.skill import (
    Barrier,
    BatchCompleted,
    Capabilities,
    CommandCompleted,
    StartTimer,
    TimerFired,
)

WELCOME = '你好，今天讲光合作用，共三个知识点。'
OPENING = '下面我们进入第一个知识点。'
NEXT = '下面我们开始下一个知识点。'
CLASSROOM = '用课堂讲解的方式介绍光合作用'
RIGHT, PARTIAL, WRONG = '二氧化碳和水', '需要阳光', '二氧化碳'
FAREWELL = '今天我们学习了光合作用。植物用光把二氧化碳和水变成有机物和氧气。再见！'


def course(d: Driver):
    return d.state.course


def advance_to(d: Driver, phase: str) -> None:
    """Answer open batches one by one until the flow reaches ``phase``."""
    d.step_until(lambda state: state.course.phase == phase, phase)


# ---- the whole lesson --------------------------------------------------------------------

def test_a_three_point_lesson_runs_the_documents_batches_in_order(lesson):
    lesson.hear(CLASSROOM)
    lesson.hear(RIGHT)
    lesson.hear(PARTIAL)
    lesson.hear(WRONG)
    assert lesson.batches() == [
        ['arm_gesture welcome', 'head_gesture scan', 'speak'],    # 1. welcome (+ scan > 3 min)
        ['speak'],                                                # 2. opening transition
        ['arm move_pos', 'hand point'],                           # 3. number one
        ['hand open_palm', 'arm move_pos'], ['speak'],            # 4. lecture ∥ resets
        ['speak'],                                                # 5. question
        ['head_gesture nod', 'speak'],                            # 6. feedback
        ['speak'],                                                # 7. transition
        ['arm move_pos', 'hand victory'],
        ['hand open_palm', 'arm move_pos'], ['speak'],
        ['speak'],
        ['head_gesture tilt', 'speak'],
        ['speak'],
        ['arm move_pos', 'hand set_fingers_raw'],
        ['hand open_palm', 'arm move_pos'], ['speak'],
        ['speak'],
        ['head_gesture shake', 'speak'],                          # 8. last feedback, no farewell
        ['arm_gesture welcome', 'speak'],                         # 9. farewell
    ]
    said = lesson.said()
    assert said[:2] == [WELCOME, OPENING] and said[-1] == FAREWELL
    assert said[3] == '光合作用的原料是什么？你能告诉我答案吗？'
    assert said[4] == '回答正确！这两样是植物合成有机物的原料。' and said[5] == NEXT
    assert said[-2] == '回答不正确。正确答案是有机物和氧气。这是光合作用的两种产物。'
    final = course(lesson)
    assert (final.presentation_mode, final.closing) == ('completed', 'course_completed')
    assert lesson.kinds()[-1] == 'course_completed'


def test_exact_arguments_of_the_fixed_motions(lesson):
    lesson.hear(CLASSROOM)
    commands = [c for b in lesson.sent for c in b.commands]
    assert ArmGesture('welcome', 'both', 1, 1.0) in commands
    assert ArmMovePos((0,) * 7, (0, 0, 0, -100, 90, 0, -70), 1.0) in commands
    assert ArmMovePos((0,) * 7, (0,) * 7, 1.0) in commands
    assert Hand('open_palm', 'right') in commands
    lesson.hear(RIGHT)
    lesson.hear(RIGHT)
    lesson.hear(RIGHT)
    assert lesson.sent[-1].commands[0] == ArmGesture('welcome', 'right', 2, 1.0)


def test_barriers_are_the_documents(lesson):
    lesson.hear(CLASSROOM)
    barriers = {batch.batch_id.split(':')[1]: batch.barrier for batch in lesson.sent}
    assert barriers['forming'] is Barrier.BOTH        # next batch once both are accepted
    assert barriers['question'] is Barrier.BOTH       # answers count once it is accepted
    assert barriers['welcome'] is barriers['lecture'] is Barrier.COMPLETED


def test_nothing_of_the_next_batch_is_sent_before_its_barrier(lesson):
    lesson.hear(CLASSROOM, run=False)
    for name in ('welcome', 'opening'):
        assert len(lesson.open) == 1 and lesson.open[0].batch_id.split(':')[1] == name
        lesson.finish(lesson.open[0])
    forming = lesson.open[0]
    lesson.finish(forming, returned_only=True)        # accepted: the number is being formed
    assert lesson.open == [] and lesson.timers == []
    hand = forming.commands[1]
    lesson.send(CommandCompleted(forming.batch_id, 0, succeed(forming.commands[0])))
    assert lesson.timers == []                        # the arm is never waited for
    lesson.send(CommandCompleted(forming.batch_id, 1, succeed(hand)))
    assert lesson.open == [] and lesson.timers == [NUMBER_TIMER]   # formed: held, then
    assert [o for o in lesson.others if isinstance(o, StartTimer)][-1].seconds == 0.5
    lesson.send(TimerFired(lesson.timers.pop()))      # the lecture batch goes out
    assert [b.batch_id.split(':')[1] for b in lesson.open] == ['reset', 'lecture']
    lecture = lesson.open[1]
    lesson.finish(lesson.open[0])
    assert [b.batch_id.split(':')[1] for b in lesson.open] == ['lecture']
    lesson.finish(lecture)
    assert lesson.open[0].batch_id.split(':')[1] == 'question'


@pytest.mark.parametrize('number, hand', [
    (1, Hand('point', 'right')), (2, Hand('victory', 'right')),
    (3, Hand('set_fingers_raw', 'right', Fingers(little=100, thumb_bend=92))),
    (4, Hand('set_fingers_raw', 'right', Fingers(thumb_bend=92))),
    (5, Hand('open_palm', 'right')),
])
def test_number_gestures_one_to_five(lesson, number, hand):
    lesson.hear('用课堂讲解的方式讲水的沸腾，讲七个知识点')
    for _ in range(number - 1):
        lesson.hear('不知道')
    forming = [b for b in lesson.sent if ':forming:' in b.batch_id]
    assert forming[number - 1].commands[1] == hand


def test_points_beyond_five_are_numbered_by_voice_only(lesson):
    lesson.hear('用课堂讲解的方式讲水的沸腾，讲七个知识点')
    for _ in range(7):
        lesson.hear('不知道')
    assert len([b for b in lesson.sent if ':forming:' in b.batch_id]) == 5
    lectures = [s for s in lesson.said() if '个知识点：' in s]
    assert lectures[5].startswith('第六个知识点：') and lectures[6].startswith('第七个知识点：')
    assert course(lesson).presentation_mode == 'completed'


def test_courses_of_three_minutes_or_less_skip_the_scan(lesson):
    lesson.hear('用课堂方式讲讲光合作用，三分钟')
    assert lesson.batches()[0] == ['arm_gesture welcome', 'speak']


def test_the_audience_is_never_called_students(lesson):
    lesson.hear(CLASSROOM)
    for _ in range(3):
        lesson.hear(RIGHT)
    assert not any('同学' in text for text in lesson.said())


# ---- mode, topic, material -------------------------------------------------------------------

def test_an_unspecified_request_gets_only_the_mode_question(lesson):
    lesson.hear('帮我介绍一下地壳运动')
    assert lesson.batches() == [['speak']]
    assert lesson.said() == ['你想用课堂讲解方式，加入提问和动作互动，还是直接语音讲解？']
    assert course(lesson).awaiting_state == 'awaiting_mode_confirmation'
    lesson.hear('可以')
    assert lesson.batches()[1][0] == 'arm_gesture welcome'
    assert course(lesson).presentation_mode == 'classroom'


@pytest.mark.parametrize('reply', ['直接讲解', '不用', '普通介绍吧', '只说就行'])
def test_choosing_direct_speech_gives_speech_only(lesson, reply):
    lesson.hear('帮我介绍一下地壳运动')
    lesson.hear(reply)
    assert all(batch == ['speak'] for batch in lesson.batches())
    said = lesson.said()[1:]
    assert said[0].startswith('我来介绍地壳运动。') and not any('你能告诉我答案吗' in s for s in said)
    assert course(lesson).presentation_mode == 'completed'
    assert not any(s.startswith('今天我们学习了') for s in said)        # no second summary


def test_an_unclear_reply_gets_one_follow_up_then_silence(lesson):
    lesson.hear('帮我介绍一下地壳运动')
    lesson.hear('随便')
    lesson.hear('嗯')
    assert lesson.said()[1:] == ['请选择课堂互动讲解，或直接语音讲解']
    lesson.hear('课堂讲解')
    assert course(lesson).presentation_mode == 'classroom'


def test_an_explicit_direct_request_needs_no_confirmation(lesson):
    lesson.hear('直接介绍一下地壳运动，不用互动')
    assert lesson.said()[0].startswith('我来介绍地壳运动。')
    assert all(batch == ['speak'] for batch in lesson.batches())


def test_no_topic_gets_one_short_question(lesson):
    lesson.hear('开始上课')
    assert lesson.said() == ['你想让我讲哪个主题？']
    lesson.hear('极限')
    assert lesson.batches()[1][0] == 'arm_gesture welcome'      # classroom already chosen
    assert lesson.said()[1] == '你好，今天讲极限，共三个知识点。'


def test_a_topic_without_material_is_said_honestly(lesson):
    lesson.hear('用课堂方式介绍一下量子力学')
    assert lesson.said() == ['关于量子力学，我还没有准备好的讲解材料，不能随便讲，抱歉。']
    assert course(lesson).presentation_mode == 'completed' and len(lesson.sent) == 1


def test_a_course_that_cannot_fit_is_refused(lesson):
    lesson.hear('用课堂方式讲水的沸腾，一分钟，讲七个知识点')
    assert lesson.said() == ['七个知识点在1分钟里讲不完，可以多给我一些时间，或者少讲几个知识点。']
    assert lesson.traced('ending')[0]['why'] == 'cannot_fit'


def test_fewer_points_than_asked_are_taught_and_said(lesson):
    lesson.hear('用课堂方式讲光合作用，讲五个知识点')
    assert lesson.said()[0] == WELCOME
    assert lesson.traced('degraded')[0]['asked'] == 5


def test_the_provider_is_asked_for_a_topic_without_a_lesson(library, phrases, lexicon):
    d = Driver(ClassroomCore(library, phrases, lexicon, provider=True))
    d.hear('用课堂方式介绍一下量子力学')
    assert d.others == [FetchLesson('量子力学', 5.0, 3)] and d.sent == []
    d.send(LessonFetched('量子力学', library.lessons['极限']))
    d.run()
    assert d.said()[0] == '你好，今天讲极限，共三个知识点。'


def test_a_provider_failure_is_said_honestly(library, phrases, lexicon):
    d = Driver(ClassroomCore(library, phrases, lexicon, provider=True))
    d.hear('用课堂方式介绍一下量子力学')
    d.send(LessonFetched('量子力学', None, 'no valid lesson after a retry'))
    d.run()
    assert d.said() == ['关于量子力学，我还没有准备好的讲解材料，不能随便讲，抱歉。']


# ---- answers ------------------------------------------------------------------------------

@pytest.mark.parametrize('answer', ['嗯', '', '光合作用的原料是什么？你能告诉我答案吗？', '我觉得是'])
def test_an_answer_that_cannot_be_judged_is_asked_again_without_a_gesture(lesson, answer):
    lesson.hear(CLASSROOM)
    sent = len(lesson.sent)
    lesson.hear(answer)
    assert lesson.batches()[sent:] == [['speak']]
    assert lesson.said()[-1] == '我没有听清，请再回答一次'
    assert course(lesson).awaiting_state == 'awaiting_answer'
    lesson.hear(RIGHT)
    assert lesson.batches()[sent + 1] == ['head_gesture nod', 'speak']


def test_an_off_topic_answer_gets_a_tilt_and_the_question_again(lesson):
    lesson.hear(CLASSROOM)
    sent = len(lesson.sent)
    lesson.hear('今天真开心啊我们去公园')
    assert lesson.batches()[sent:] == [['head_gesture tilt', 'speak']]
    assert lesson.said()[-1] == '我们回到刚才的问题：光合作用的原料是什么？你能告诉我答案吗？'
    assert course(lesson).awaiting_state == 'awaiting_answer'


def test_feedback_words_and_head_gestures_are_exclusive(lesson):
    lesson.hear(CLASSROOM)
    for answer in (RIGHT, PARTIAL, WRONG):
        lesson.hear(answer)
    pairs = [(b.commands[0].action, b.commands[1].message) for b in lesson.sent
             if len(b.commands) == 2 and isinstance(b.commands[0], HeadGesture)]
    assert [(head, text.split('。')[0].split('！')[0]) for head, text in pairs] == [
        ('nod', '回答正确'), ('tilt', '部分正确'), ('shake', '回答不正确')]


def test_an_answer_during_the_question_is_graded_when_the_question_ends(lesson):
    lesson.hear(CLASSROOM, run=False)
    advance_to(lesson, 'question')
    question = lesson.open[0]
    lesson.finish(question, returned_only=True)
    lesson.hear(RIGHT, run=False)
    assert lesson.open == []                                     # no speech over the question
    lesson.send(BatchCompleted(question.batch_id, (succeed(question.commands[0]),)))
    assert lesson.open[0].commands[0] == HeadGesture('nod')


def test_a_question_in_the_answer_is_answered_before_the_transition(lesson):
    lesson.hear('用课堂方式讲水的沸腾')
    lesson.hear('标准大气压下一百度吗？')
    said = lesson.said()
    feedback = said.index('回答正确！这是水在标准大气压下的沸点。')
    assert said[feedback + 1].startswith('在一个标准大气压下')      # the point, at most 60
    assert said[feedback + 2] == NEXT


# ---- receipts and degradations -----------------------------------------------------------------

def mismatched(command):
    """A receipt naming another gesture: a failed receipt, not a device error."""
    return judge(command, Receipt('completed', 'tilt', 'x'))


def late(command):
    """No result within the gesture timeout (the runtime's TIMEOUT)."""
    return Outcome(command, Status.TIMEOUT, Receipt(), 'no result within 5 s')


def test_a_failed_nod_is_retried_once_head_only_before_the_transition(library, phrases, lexicon):
    nods = iter([mismatched, succeed])
    d = Driver(ClassroomCore(library, phrases, lexicon),
               policy=lambda c: next(nods)(c) if c == HeadGesture('nod') else succeed(c))
    d.hear(CLASSROOM)
    d.hear(RIGHT)
    batches = d.batches()
    feedback = batches.index(['head_gesture nod', 'speak'])
    assert batches[feedback + 1] == ['head_gesture nod'] and batches[feedback + 2] == ['speak']
    assert d.said().count('回答正确！这两样是植物合成有机物的原料。') == 1   # not replayed
    assert d.traced('retry') == [{'action': 'nod',
                                  'reason': "receipt names 'tilt', expected 'nod'"}]


@pytest.mark.parametrize('failed', [mismatched, late, lambda c: fail(c, state='')])
def test_a_second_head_failure_degrades_to_voice_and_never_tilts(library, phrases, lexicon,
                                                                  failed):
    d = Driver(ClassroomCore(library, phrases, lexicon),
               policy=lambda c: failed(c) if c == HeadGesture('shake') else succeed(c))
    d.hear(CLASSROOM)
    d.hear('氧气和糖')
    heads = [c.action for b in d.sent for c in b.commands if isinstance(c, HeadGesture)]
    assert heads.count('shake') == 2 and 'tilt' not in heads
    assert 'shake failed twice' in d.traced('degraded')[0]['why']
    assert NEXT in d.said()


def test_an_empty_receipt_is_a_failure_too(library, phrases, lexicon):
    d = Driver(ClassroomCore(library, phrases, lexicon),
               policy=lambda c: fail(c, state='') if c == HeadGesture('nod') else succeed(c))
    d.hear(CLASSROOM)
    d.hear(RIGHT)
    assert [c for b in d.sent for c in b.commands].count(HeadGesture('nod')) == 2


def test_a_failed_tilt_is_not_retried(library, phrases, lexicon):
    d = Driver(ClassroomCore(library, phrases, lexicon),
               policy=lambda c: fail(c) if c == HeadGesture('tilt') else succeed(c))
    d.hear(CLASSROOM)
    d.hear('二氧化碳')                             # one of two expected points: partial
    assert [c for b in d.sent for c in b.commands].count(HeadGesture('tilt')) == 1


def test_a_welcome_error_makes_the_whole_lesson_voice_only(library, phrases, lexicon):
    d = Driver(ClassroomCore(library, phrases, lexicon),
               policy=lambda c: fail(c) if isinstance(c, ArmGesture) else succeed(c))
    d.hear(CLASSROOM)
    for answer in (RIGHT, RIGHT, RIGHT):
        d.hear(answer)
    assert all(batch == ['speak'] for batch in d.batches()[1:])
    assert course(d).voice_only and d.said()[-1] == FAREWELL


@pytest.mark.parametrize('broken', ['hand', 'arm'])
def test_an_empty_arm_or_hand_receipt_disables_number_gestures(library, phrases, lexicon,
                                                                broken):
    def policy(command):
        return fail(command, state='') if command.device.value == broken else succeed(command)
    d = Driver(ClassroomCore(library, phrases, lexicon), policy=policy)
    d.hear(CLASSROOM)
    d.hear(RIGHT)
    assert course(d).number_gesture_disabled and not course(d).voice_only
    assert len([b for b in d.sent if ':forming:' in b.batch_id]) == 1
    assert 'numbers by voice only' in d.traced('degraded')[0]['why']
    assert HeadGesture('nod') in [c for b in d.sent for c in b.commands]   # still nods


MOTION_FAULTS = {
    'e-stop': lambda c: fail(c, error='estop'),
    'motor fault': lambda c: fail(c, error='motor overheated'),
    'rejected': None,
}


@pytest.mark.parametrize('fault', sorted(MOTION_FAULTS))
@pytest.mark.parametrize('device', ['hand', 'arm', 'head_gesture', 'arm_gesture'])
def test_any_motion_fault_makes_the_rest_of_the_lesson_voice_only(library, phrases, lexicon,
                                                                   device, fault):
    """Whatever device faults, however: no retry, no further number, no wave; speech goes on."""
    fired = []

    def broken(command):
        return command.device.value == device and not fired and (
            device != 'arm_gesture' or command == ArmGesture('welcome', 'both', 1, 1.0))

    def policy(command):
        if MOTION_FAULTS[fault] and broken(command):
            fired.append(command)
            return MOTION_FAULTS[fault](command)
        return succeed(command)

    def reject(command):
        if MOTION_FAULTS[fault] is None and broken(command):
            fired.append(command)
            return True
        return False
    d = Driver(ClassroomCore(library, phrases, lexicon), policy=policy, reject=reject)
    d.hear(CLASSROOM)
    for answer in (RIGHT, RIGHT, RIGHT):
        d.hear(answer)
    assert fired, 'the fault was never injected'
    faulted = next(i for i, b in enumerate(d.sent) if fired[0] in b.commands)
    later = [c for b in d.sent[faulted + 1:] for c in b.commands]
    assert all(isinstance(c, Speak) for c in later), later
    assert course(d).voice_only and course(d).closing == 'course_completed'
    assert d.said()[-1] == FAREWELL and NEXT in d.said()[-6:]
    assert 'motion fault' in d.traced('degraded')[0]['why']
    assert d.traced('retry') == []


def test_a_rejected_hand_stops_every_motion_of_the_lesson(library, phrases, lexicon):
    d = Driver(ClassroomCore(library, phrases, lexicon),
               reject=lambda c: isinstance(c, Hand))
    d.hear(CLASSROOM)
    assert [b for b in d.sent if ':reset:' in b.batch_id] == []
    assert course(d).number_gesture_disabled and course(d).voice_only


@pytest.mark.parametrize('phase', ['welcome', 'opening', 'lecture', 'question'])
def test_a_speech_failure_stops_the_physical_lesson(library, phrases, lexicon, phase):
    def policy(command):
        if isinstance(command, Speak) and d.state.course.phase == phase:
            return fail(command)
        return succeed(command)
    d = Driver(ClassroomCore(library, phrases, lexicon), policy=policy)
    d.hear(CLASSROOM)
    assert course(d).presentation_mode == 'completed' and course(d).stopped
    assert d.traced('error')[0]['phase'] == phase
    sent = len(d.sent)
    d.hear(RIGHT)
    assert len(d.sent) == sent


def test_without_tts_no_lesson_starts(lesson):
    lesson.send(Capabilities(('tts/speak',)))
    lesson.hear(CLASSROOM)
    assert lesson.sent == [] and 'no tts/speak' in lesson.traced('refused')[0]['why']


def test_without_motion_devices_the_lesson_is_voice_only(lesson):
    lesson.send(Capabilities(('arm_gesture', 'head_gesture', 'arm/move_pos', 'hand')))
    lesson.hear(CLASSROOM)
    lesson.hear(RIGHT)
    assert all(batch == ['speak'] for batch in lesson.batches())


# ---- pause, continue, stop at every stage ----------------------------------------------------

STAGES = ['welcome', 'opening', 'forming', 'holding', 'lecture', 'question',
          'waiting_answer', 'feedback', 'transition']


def _at(lesson, stage):
    lesson.hear(CLASSROOM, run=False)
    if stage in ('feedback', 'transition'):
        advance_to(lesson, 'waiting_answer')
        lesson.hear(RIGHT, run=False)
    advance_to(lesson, stage)


@pytest.mark.parametrize('stage, cancels', [
    ('welcome', ['head_gesture/cancel', 'arm_gesture/cancel']), ('feedback', ['head_gesture/cancel']),
    ('lecture', []), ('question', [])])
def test_a_pause_cancels_only_the_gestures_in_progress(lesson, stage, cancels):
    _at(lesson, stage)
    lesson.hear('暂停', run=False)
    assert [c.control.value for c in lesson.sent[-1].commands] == ['tts/pause', *cancels]


@pytest.mark.parametrize('stage', STAGES)
def test_pause_then_continue_at_every_stage(lesson, stage):
    _at(lesson, stage)
    said = len(lesson.said())
    lesson.hear('暂停', run=False)
    pause = lesson.sent[-1]
    assert [c.control.value for c in pause.commands][0] == 'tts/pause'
    assert course(lesson).awaiting_state == 'paused'
    lesson.run()                                   # results arrive while paused: held
    lesson.hear(RIGHT)                             # a late answer while paused: ignored
    assert len(lesson.said()) == said and lesson.traced('ignored')
    lesson.hear('继续')
    assert any(c.control.value == 'tts/resume' for b in lesson.sent for c in b.commands
               if hasattr(c, 'control'))
    for _ in range(3):
        if course(lesson).presentation_mode == 'completed':
            break
        lesson.hear(RIGHT)
    assert course(lesson).presentation_mode == 'completed'
    assert course(lesson).closing == 'course_completed'
    assert lesson.said()[-1] == FAREWELL


@pytest.mark.parametrize('stage', STAGES)
def test_stop_at_every_stage_resets_the_robot_and_ends(lesson, stage):
    _at(lesson, stage)
    lesson.hear('停止')
    cancel, reset = lesson.sent[-2:]
    assert [c.control.value for c in cancel.commands] == [
        'tts/interrupt', 'head_gesture/cancel', 'arm_gesture/cancel']
    assert list(reset.commands) == [Hand('open_palm', 'right'), HeadGesture('reset'),
                                    ArmMovePos((0,) * 7, (0,) * 7, 1.0)]
    assert course(lesson).presentation_mode == 'completed'
    sent = len(lesson.sent)
    lesson.hear(RIGHT)
    lesson.hear('继续上课')
    assert len(lesson.sent) == sent


def test_a_failed_pause_falls_back_to_interrupt_and_continue_recaps(library, phrases, lexicon):
    def policy(command):
        if getattr(command, 'control', None) and command.control.value in ('tts/pause',
                                                                             'tts/resume'):
            return fail(command)
        return succeed(command)
    d = Driver(ClassroomCore(library, phrases, lexicon), policy=policy)
    _at(d, 'lecture')
    d.hear('暂停')
    controls = [c.control.value for b in d.sent for c in b.commands if hasattr(c, 'control')]
    assert controls[-1] == 'tts/interrupt'
    lectures = d.said().count(d.said()[-1])
    d.hear('继续')
    said = d.said()
    assert '我们接着讲第一个知识点。' in said
    assert said[-1] == '光合作用的原料是什么？你能告诉我答案吗？'   # on to the question
    assert said.count(said[said.index('我们接着讲第一个知识点。') - 1]) == lectures


def test_late_events_after_the_course_do_nothing_and_a_new_topic_starts_again(lesson):
    lesson.hear(CLASSROOM)
    for answer in (RIGHT, RIGHT, RIGHT):
        lesson.hear(answer)
    sent, said = len(lesson.sent), len(lesson.said())
    for late in ('继续上课', '继续课堂', '暂停', RIGHT, FAREWELL):
        lesson.hear(late)
    assert len(lesson.sent) == sent
    lesson.hear('用课堂方式讲讲极限')
    assert lesson.said()[said] == '你好，今天讲极限，共三个知识点。'


# ---- the document's variables only move forward ---------------------------------------------------

STEPS = st.lists(st.sampled_from([RIGHT, PARTIAL, WRONG, '嗯', '暂停', '继续', '今天真开心啊我们去公园',
                                  'ok']), max_size=12)


@settings(max_examples=150, deadline=None)
@given(steps=STEPS, failing=st.sets(st.sampled_from(['nod', 'shake', 'tilt', 'welcome', 'hand',
                                                     'move_pos', 'speak'])))
def test_state_variables_only_move_forward(core, steps, failing):
    def policy(command):
        action = getattr(command, 'action', 'speak' if isinstance(command, Speak) else '')
        return fail(command) if action in failing and action != 'speak' else succeed(command)
    d = Driver(core, policy=policy)
    order = {'opening_stage': ['not_started', 'welcome_started', 'ready_for_first_point'],
             'closing': ['in_progress', 'closing_feedback', 'closing', 'course_completed']}
    seen = {name: 0 for name in order}
    chars = 0
    d.hear(CLASSROOM)
    for text in steps:
        d.hear(text)
        c = course(d)
        for name, values in order.items():
            position = values.index(getattr(c, name))
            assert position >= seen[name]
            seen[name] = position
        assert c.tts_chars_used >= chars
        chars = c.tts_chars_used
        assert c.head_feedback_retry_pending in ('', 'nod', 'shake')
        assert c.presentation_mode in ('unconfirmed', 'classroom', 'direct', 'completed')


def test_every_step_of_the_flow_table_is_a_method_of_the_core(core):
    for (phase, result), transition in FLOW.items():
        assert callable(getattr(core, transition.handler, None)), (phase, transition.handler)
        assert transition.to, (phase, result)


def test_a_batch_is_forgotten_once_its_last_result_is_taken_up(lesson):
    """The course keeps the name of a batch only while a result of it may come: a long
    lesson, or one re-asked without end, does not grow it."""
    lesson.hear(CLASSROOM)
    advance_to(lesson, 'waiting_answer')
    for _ in range(30):                 # not heard: asked again, a batch each time
        lesson.hear('')
        advance_to(lesson, 'waiting_answer')
    assert len(course(lesson).sent) <= 1, course(lesson).sent
    lesson.hear(RIGHT)
    lesson.hear(PARTIAL)
    lesson.hear(WRONG)
    assert course(lesson).presentation_mode == 'completed'
    assert course(lesson).sent == ()
