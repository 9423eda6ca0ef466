"""The TianYi 2.0 classroom presenter as a pure state machine (no rclpy).

The document's batch list (标准课堂流程 / 0. 推理批次编排) is the machine: each
batch is one set of goals sent together, and the next batch starts only at the
barrier the document names:

 1. welcome: arm_gesture welcome (both, 1, 1.0) ∥ welcome speech (∥ one head
    scan for courses over 3 minutes); completion barrier;
 2. opening transition: "下面我们进入第一个知识点。"; completion barrier, then
    ``opening_stage=ready_for_first_point``;
 3. number formation (points 1-5): arm/move_pos display pose ∥ hand number;
    the barrier is acceptance ("都被接受后");
 4. lecture: title and body in one speech ∥ right hand open_palm ∥ both arms
    to zeros; the speech's completion is the barrier;
 5. question + "你能告诉我答案吗？", then wait for a real answer;
 6. feedback: head nod | tilt | shake ∥ feedback speech (a failed nod or shake
    receipt is retried once, head only, before anything else; a second
    failure leaves the feedback voice-only; never a tilt instead);
 7. "下面我们开始下一个知识点。", then 3. for the next point;
 8. the last feedback (no farewell in it), then
 9. farewell: summary speech ∥ arm_gesture welcome (right, 2, 1.0);
10. ``course_completed``.

Degradations: more than 5 points are numbered by voice only; any arm/hand
error sets ``number_gesture_disabled``; a welcome error makes the lesson
voice-only; a failed speech (welcome, transition, lecture, question) stops the
physical lesson with a report; missing devices at start: no tts, no lesson;
no motion, voice only. Pause / continue / stop follow section 6.

Assumptions where the document is silent (also in docs/skills/classroom_presenter.md):
the head scan of long courses goes into the welcome batch (it is "at the opening"
and uses no arm); a topic with fewer points than requested is taught with all it has, and
the welcome says how many; after "继续" when tts/resume fails, the robot
interrupts what is left of the paused speech, says where it resumes, and goes
on with the next batch, so nothing already said is replayed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from robot_skills.classroom.controls import Controls
from robot_skills.classroom.course import (
    ClassroomState,
    Closing,
    Course,
    FetchLesson,
    LessonFetched,
    Phase,
    Result,
    Timing,
)
from robot_skills.classroom.grading import Grader, Tier
from robot_skills.classroom.lesson import Lesson, Library, Phrases
from robot_skills.classroom.quota import (
    DEFAULT_MINUTES,
    DEFAULT_POINTS,
    Feedback,
    PlanError,
    plan,
    plan_direct,
)
from robot_skills.classroom.sending import HEAD_FOR, NEUTRAL, NUMBER_TIMER, speech_of
from robot_skills.classroom.words import Command, Lexicon, Mode, Reader, Request
from robot_skills.interface import ARM_GESTURE, ARM_MOVE_POS, HAND, HEAD_GESTURE, TTS_SPEAK
from robot_skills.language.text import hanzi, ordinal
from robot_skills.model.commands import (
    ArmGesture,
    ArmMovePos,
    Call,
    Device,
    Fingers,
    Hand,
    HeadGesture,
    Speak,
)
from robot_skills.model.commands import Command as DeviceCommand
from robot_skills.model.outcomes import Acceptance, Outcome, Status
from robot_skills.model.skill import (
    Barrier,
    BatchCompleted,
    BatchReturned,
    CancelTimer,
    Capabilities,
    CommandCompleted,
    Effect,
    Event,
    Heard,
    Refused,
    Step,
    TimerFired,
    Trace,
)

DISPLAY_RIGHT = (0.0, 0.0, 0.0, -100.0, 90.0, 0.0, -70.0)
RAW_THUMB = 92
NUMBER_HANDS = {
    1: Hand('point', 'right'),
    2: Hand('victory', 'right'),
    3: Hand('set_fingers_raw', 'right', Fingers(little=100, thumb_bend=RAW_THUMB)),
    4: Hand('set_fingers_raw', 'right', Fingers(thumb_bend=RAW_THUMB)),
    5: Hand('open_palm', 'right'),
}
LONG_COURSE_MINUTES = 3
ANSWER_LIMIT = 60
MOTION_DEVICES = frozenset({Device.ARM_GESTURE, Device.HEAD_GESTURE, Device.ARM, Device.HAND})
CLAUSE_END = frozenset('，。！？；：,.!?;:、')
CONTROLS = ('pause', 'pause_cut', 'resume', 'recover', 'recap')   # batches taken up while paused
ASKING_BACK = (Phase.QUESTION, Phase.REASK, Phase.OFF_TOPIC)   # an answer may come during them
SPEECH_STOPS = frozenset({Phase.WELCOME, Phase.OPENING, Phase.LECTURE, Phase.QUESTION,
                          Phase.DIRECT, Phase.ASKING, Phase.TRANSITION})   # a failed speech ends


@dataclass(frozen=True)
class Transition:
    """What the flow does after the batch of a phase returns or completes: the
    ``ClassroomCore`` method that takes the step, and the phases it may leave the course in
    (a test holds every step of the suite to them; ``docs/classroom-flow.md`` draws them)."""

    handler: str
    to: tuple[Phase, ...]


_REPLIED = (Phase.WAITING, Phase.ASKING, Phase.FETCHING, Phase.ENDING, Phase.WELCOME,
            Phase.DIRECT)      # what a reply heard while asking leads to, once it is said
_ANSWERED = (Phase.WAITING_ANSWER, Phase.FEEDBACK, Phase.REASK, Phase.OFF_TOPIC)
_AFTER_FEEDBACK = (Phase.EXPLAIN, Phase.FAREWELL, Phase.TRANSITION)
_POINT = (Phase.FORMING, Phase.LECTURE)
FLOW: dict[tuple[Phase, type], Transition] = {
    (Phase.ASKING, BatchCompleted): Transition('_asked', _REPLIED),
    (Phase.ENDING, BatchCompleted): Transition('_ended', (Phase.DONE,)),
    (Phase.DIRECT, BatchCompleted): Transition('_said_direct', (Phase.DIRECT, Phase.DONE)),
    (Phase.WELCOME, BatchCompleted): Transition('_welcomed', (Phase.OPENING,)),
    (Phase.OPENING, BatchCompleted): Transition('_point_next', _POINT),
    (Phase.FORMING, BatchReturned): Transition(
        '_forming_accepted', (Phase.DISPLAYING, Phase.HOLDING, Phase.LECTURE)),
    (Phase.LECTURE, BatchCompleted): Transition('_lectured', (Phase.QUESTION,)),
    (Phase.QUESTION, BatchReturned): Transition('_question_accepted', (Phase.QUESTION,)),
    (Phase.QUESTION, BatchCompleted): Transition('_question_asked', _ANSWERED),
    (Phase.REASK, BatchCompleted): Transition('_question_asked', _ANSWERED),
    (Phase.OFF_TOPIC, BatchCompleted): Transition('_question_asked', _ANSWERED),
    (Phase.FEEDBACK, BatchCompleted): Transition('_feedback_done',
                                                 (Phase.HEAD_RETRY, *_AFTER_FEEDBACK)),
    (Phase.HEAD_RETRY, BatchCompleted): Transition('_head_retried', _AFTER_FEEDBACK),
    (Phase.EXPLAIN, BatchCompleted): Transition('_explained', (Phase.FAREWELL, Phase.TRANSITION)),
    (Phase.TRANSITION, BatchCompleted): Transition('_point_next', _POINT),
    (Phase.FAREWELL, BatchCompleted): Transition('_farewell_said', (Phase.DONE,)),
}


class ClassroomCore(Controls):
    """Decides every batch of the classroom presenter."""

    skill = 'classroom_presenter'

    def __init__(self, library: Library, phrases: Phrases, lexicon: Lexicon,
                 provider: bool = False, timing: Timing | None = None) -> None:
        self.library = library
        self.phrases = phrases
        self.read = Reader(lexicon, library.names())
        self.grader = Grader(lexicon)
        self.provider = provider
        self.timing = timing or Timing()

    def initial(self) -> ClassroomState:
        return ClassroomState()

    def label(self, state: ClassroomState) -> str:
        course = state.course
        if course is None or not course.active:
            return 'idle'
        return course.awaiting_state if course.awaiting_state != 'none' else course.phase

    def session_id(self, state: ClassroomState) -> str:
        return f'lesson-{state.course.number}' if state.course else ''

    # ---- events -------------------------------------------------------------------------

    def step(self, state: ClassroomState, event: Event) -> Step[ClassroomState]:
        if isinstance(event, Capabilities):
            return self._devices(state, event)
        if isinstance(event, Heard):
            return self._heard(state, event.utterance.text)
        if isinstance(event, Refused):
            return self._refused(state, event)
        if isinstance(event, LessonFetched):
            return self._fetched(state, event)
        if isinstance(event, TimerFired):
            return self._timer(state, event)
        if isinstance(event, (BatchReturned, BatchCompleted, CommandCompleted)):
            return self._result(state, event)
        return Step(state)

    def _devices(self, state: ClassroomState, event: Capabilities) -> Step[ClassroomState]:
        """The devices are known: a request that waited for them is decided now."""
        text = state.deferred
        state = replace(state, missing=frozenset(event.missing), devices_known=True, deferred='')
        trace = Trace('devices', detail={'missing': list(event.missing)})
        if not text:
            return Step(state, (trace,))
        step = self._heard(state, text)
        return Step(step.state, (trace, *step.effects))

    def _refused(self, state: ClassroomState, event: Refused) -> Step[ClassroomState]:
        """An empty final result while the answer is awaited is an answer not heard."""
        course = state.course
        if (event.dropped.reason == 'empty' and course is not None and course.active
                and course.awaiting_state == 'awaiting_answer'
                and course.phase == Phase.WAITING_ANSWER):
            return self._answer(state, '')
        return self._ignore(state, f'input refused ({event.dropped.reason})')

    def _heard(self, state: ClassroomState, text: str) -> Step[ClassroomState]:
        course = state.course
        if course is None or not course.active:
            return self._new_request(state, text)
        command = self.read.command(text)
        if command is Command.STOP:
            if course.stopped:
                return self._ignore(state, 'already stopping', text)
            return self._stop(state)
        if course.awaiting_state == 'paused':
            if command is Command.RESUME:
                return self._resume(state)
            return self._ignore(state, 'paused: only 继续 or 停止 count', text)
        if command is Command.PAUSE and course.presentation_mode in ('classroom', 'direct'):
            return self._pause(state)
        if course.phase == Phase.ASKING and course.awaiting_state in ('awaiting_mode_confirmation',
                                                                  'awaiting_topic'):
            return self._set(state, replace(course, answer_early=text),   # still asking
                             [Trace('answer_early', detail={'chars': len(text)})])
        if course.awaiting_state == 'awaiting_mode_confirmation':
            return self._mode_reply(state, text)
        if course.awaiting_state == 'awaiting_topic':
            return self._topic_reply(state, text)
        if course.awaiting_state == 'awaiting_answer':
            if course.phase in ASKING_BACK:           # still speaking: keep it
                return self._set(state, replace(course, answer_early=text),
                                 [Trace('answer_early', detail={'chars': len(text)})])
            return self._answer(state, text)
        return self._ignore(state, f'busy with {course.phase}', text)

    # ---- requests -----------------------------------------------------------------------

    def _new_request(self, state: ClassroomState, text: str) -> Step[ClassroomState]:
        if state.deferred and self.read.command(text) is Command.STOP:
            return Step(replace(state, deferred=''), (Trace('ignored', detail={
                'why': 'the request waiting for the devices was cancelled',
                'chars': len(text)}),))
        request = self.read.request(text)
        if request.again and state.last_topic and not request.topic:
            request = replace(request, teaching=True, topic=state.last_topic)
        if not request.teaching or (self.read.command(text) and not request.topic):
            return self._ignore(state, 'not a request to teach a topic', text)
        if not state.devices_known:     # decide before acting: nothing moves without tts
            return Step(replace(state, deferred=text), (Trace('waiting_for_devices', detail={
                'chars': len(text)}),))
        if TTS_SPEAK.name in state.missing:
            return Step(state, (Trace('refused', detail={
                'why': 'no tts/speak on this robot: a lesson cannot be given',
                'text': self.phrases.no_tts, 'chars': len(text)}),))
        course = Course(state.lessons + 1, minutes=request.minutes or DEFAULT_MINUTES,
                        points=request.points or DEFAULT_POINTS, asked_mode=request.mode,
                        number_gesture_disabled=any(d in state.missing
                                                    for d in (ARM_MOVE_POS.name, HAND.name)))
        state = replace(state, lessons=course.number)
        trace = Trace('request', detail={'chars': len(text), 'topic': request.topic,
                                         'other_topic': request.other_topic,
                                         'mode': request.mode, 'minutes': request.minutes,
                                         'points': request.points})
        step = self._with_topic(state, course, request)
        return Step(step.state, (trace, *step.effects))

    def _with_topic(self, state: ClassroomState, course: Course,
                    request: Request) -> Step[ClassroomState]:
        if request.topic:
            return self._with_lesson(state, replace(course, topic=request.topic),
                                     self.library.lessons[request.topic])
        if request.other_topic:
            course = replace(course, topic=request.other_topic)
            if self.provider:
                return self._set(state, replace(course, phase=Phase.FETCHING), [
                    FetchLesson(course.topic, course.minutes, course.points)])
            return self._finish_with(state, course, self.phrases.no_material.format(
                topic=course.topic), 'no_material')
        return self._say(state, replace(course, awaiting_state='awaiting_topic'), Phase.ASKING,
                         self.phrases.topic_question)

    def _fetched(self, state: ClassroomState, event: LessonFetched) -> Step[ClassroomState]:
        course = state.course
        if course is None or course.phase != Phase.FETCHING or course.topic != event.topic:
            return self._ignore(state, 'a lesson that is no longer wanted', event.topic)
        if event.lesson is None:
            return self._finish_with(state, course, self.phrases.no_material.format(
                topic=course.topic), 'no_material', {'provider': event.error})
        return self._with_lesson(state, course, event.lesson)

    def _with_lesson(self, state: ClassroomState, course: Course,
                     lesson: Lesson) -> Step[ClassroomState]:
        course = replace(course, lesson=lesson, topic=lesson.topic)
        state = replace(state, last_topic=lesson.topic)
        if course.asked_mode is None:
            return self._say(state, replace(course, awaiting_state='awaiting_mode_confirmation'),
                             Phase.ASKING, self.phrases.mode_question)
        return self._begin(state, course, course.asked_mode)

    def _mode_reply(self, state: ClassroomState, text: str) -> Step[ClassroomState]:
        course = state.course
        assert course is not None
        request = self.read.request(text)
        if request.topic and request.topic != course.topic:    # a new, complete request
            return self._new_request(replace(state, course=None), text)
        mode = self.read.mode_reply(text)
        if mode is not None:
            return self._begin(state, replace(course, awaiting_state='none'), mode)
        if course.follow_up_asked:
            return self._ignore(state, 'still no choice of mode', text)
        return self._say(state, replace(course, follow_up_asked=True), Phase.ASKING,
                         self.phrases.mode_follow_up)

    def _topic_reply(self, state: ClassroomState, text: str) -> Step[ClassroomState]:
        course = state.course
        assert course is not None
        request = self.read.request(text)
        topic = request.topic or request.other_topic
        if not topic:
            return self._ignore(state, 'no topic heard', text)
        mode = request.mode or course.asked_mode
        return self._with_topic(state, replace(course, awaiting_state='none', asked_mode=mode),
                                replace(request, topic=request.topic,
                                        other_topic=request.other_topic))

    def _begin(self, state: ClassroomState, course: Course, mode: Mode) -> Step[ClassroomState]:
        lesson = course.lesson
        assert lesson is not None
        points = min(course.points, len(lesson.points))
        effects: list[Effect] = []
        if points < course.points:
            effects.append(Trace('degraded', detail={
                'why': f'{lesson.topic} has {len(lesson.points)} points', 'asked': course.points}))
        try:
            if mode is Mode.DIRECT:
                direct = plan_direct(lesson, self.phrases, course.minutes, points)
                course = replace(course, presentation_mode='direct', utterances=direct.utterances)
            else:
                course = replace(course, presentation_mode='classroom',
                                 plan=plan(lesson, self.phrases, course.minutes, points))
        except PlanError as error:
            text = self.phrases.cannot_fit.format(count=ordinal(points),
                                                  minutes=f'{course.minutes:g}')
            return self._finish_with(state, course, text, 'cannot_fit',
                                     {'problems': error.problems})
        effects.append(Trace('course', detail={'mode': mode, 'topic': lesson.topic,
                                               'minutes': course.minutes, 'points': points}))
        step = self._direct_next(state, course) if mode is Mode.DIRECT else self._welcome(
            state, course)
        return Step(step.state, (*effects, *step.effects))

    # ---- the classroom batches -------------------------------------------------------------

    def _welcome(self, state: ClassroomState, course: Course) -> Step[ClassroomState]:
        assert course.plan is not None
        others: list[DeviceCommand] = []
        if self._can(state, ARM_GESTURE.name, course):
            others.append(ArmGesture('welcome', 'both', 1, 1.0))
        if course.minutes > LONG_COURSE_MINUTES and self._can(state, HEAD_GESTURE.name, course):
            others.append(HeadGesture('scan'))
        return self._say(state, replace(course, opening_stage='welcome_started'), Phase.WELCOME,
                         course.plan.welcome, others)

    def _start_point(self, state: ClassroomState, course: Course,
                     number: int) -> Step[ClassroomState]:
        course = replace(course, current_point=number, grade=None, answer_early='', spoken=())
        if (number <= len(NUMBER_HANDS) and not course.number_gesture_disabled
                and self._can(state, ARM_MOVE_POS.name, course)
                and self._can(state, HAND.name, course)):
            course, batch = self._batch(course, 'forming', [
                ArmMovePos(NEUTRAL, DISPLAY_RIGHT, 1.0), NUMBER_HANDS[number]], Barrier.BOTH,
                each=True)
            return self._set(state, replace(course, phase=Phase.FORMING,
                                            waiting_for=batch.batch_id), [batch])
        return self._lecture(state, course, reset=False)

    def _lecture(self, state: ClassroomState, course: Course, reset: bool,
                 reset_hand: bool = True, reset_arm: bool = True) -> Step[ClassroomState]:
        assert course.plan is not None
        planned = course.plan.points[course.current_point - 1]
        effects: list[Effect] = []
        reset_hand = reset_hand and self._can(state, HAND.name, course)
        reset_arm = reset_arm and self._can(state, ARM_MOVE_POS.name, course)
        if reset and (reset_hand or reset_arm):
            commands: list[DeviceCommand] = []
            if reset_hand:
                commands.append(Hand('open_palm', 'right'))
            if reset_arm:
                commands.append(ArmMovePos(NEUTRAL, NEUTRAL, 1.0))
            course, batch = self._batch(course, 'reset', commands, Barrier.BOTH)
            effects.append(batch)
        step = self._say(state, course, Phase.LECTURE, planned.lecture)
        return Step(step.state, (*effects, *step.effects))

    def _question(self, state: ClassroomState, course: Course) -> Step[ClassroomState]:
        assert course.plan is not None
        planned = course.plan.points[course.current_point - 1]
        return self._say(state, course, Phase.QUESTION, planned.question, barrier=Barrier.BOTH)

    def _answer(self, state: ClassroomState, text: str) -> Step[ClassroomState]:
        course = state.course
        assert course is not None and course.plan is not None
        planned = course.plan.points[course.current_point - 1]
        point = planned.point
        assert course.lesson is not None
        taught = tuple(s for s in course.spoken if planned.lecture.endswith(s))
        asked = tuple(s for s in course.spoken if s not in taught)
        grade = self.grader.grade(text, point, asked, course.lesson.vocabulary(),
                                  taught=(planned.lecture, *taught))
        trace = Trace('graded', detail={'point': course.current_point, 'chars': len(text),
                                        'tier': grade.tier, 'hit': list(grade.hit),
                                        'why': grade.why, 'asks': grade.asks})
        feedback = Feedback(self.phrases, point)
        if grade.tier is Tier.NOT_HEARD:
            step = self._say(state, course, Phase.REASK, self.phrases.not_heard)
        elif grade.tier is Tier.OFF_TOPIC:
            head = [HeadGesture('tilt')] if self._can(state, HEAD_GESTURE.name, course) else []
            step = self._say(state, course, Phase.OFF_TOPIC, feedback.off_topic(), head)
        else:
            last = course.current_point == course.point_count
            text_ = {Tier.CORRECT: feedback.correct, Tier.INCORRECT: feedback.incorrect}.get(
                grade.tier, lambda: feedback.partial(list(grade.hit)))()
            head = ([HeadGesture(HEAD_FOR[grade.tier])]
                    if self._can(state, HEAD_GESTURE.name, course) else [])
            course = replace(course, awaiting_state='none', grade=grade,
                             closing=Closing.CLOSING_FEEDBACK if last else course.closing)
            step = self._say(state, course, Phase.FEEDBACK, text_, head)
        return Step(step.state, (trace, *step.effects))

    def _after_feedback(self, state: ClassroomState, course: Course) -> Step[ClassroomState]:
        assert course.plan is not None and course.grade is not None
        plan = course.plan
        if course.grade.asks and course.phase != Phase.EXPLAIN:
            point = course.plan.points[course.current_point - 1].point
            answer = point.body if hanzi(point.body) <= ANSWER_LIMIT else point.short
            return self._say(state, replace(course, phase=Phase.EXPLAIN), Phase.EXPLAIN, answer)
        if course.closing is Closing.CLOSING_FEEDBACK:
            course = replace(course, closing=Closing.CLOSING)
            others = ([ArmGesture('welcome', 'right', 2, 1.0)]
                      if self._can(state, ARM_GESTURE.name, course) else [])
            return self._say(state, course, Phase.FAREWELL, plan.farewell, others)
        return self._say(state, course, Phase.TRANSITION, plan.point_transition)

    # ---- results ------------------------------------------------------------------------------

    def _result(self, state: ClassroomState,
                event: Result
                ) -> Step[ClassroomState]:
        course = state.course
        name = dict(course.sent).get(event.batch_id) if course is not None else None
        if course is None or name is None:
            return self._ignore(state, 'a result of an earlier lesson', event.batch_id)
        if isinstance(event, BatchCompleted):       # its last result: forgotten once taken up
            held = course.awaiting_state == 'paused' and name not in CONTROLS
            course = replace(course, gesturing=tuple(g for g in course.gesturing
                                                     if g[0] != event.batch_id),
                             sent=course.sent if held else tuple(
                                 s for s in course.sent if s[0] != event.batch_id))
            state = replace(state, course=course)
        faults = self._faults(course, event)
        if faults:      # a stopped robot stops moving: the rest of the lesson is voice only
            course = replace(course, voice_only=True, number_gesture_disabled=True)
            step = self._set(state, course, [Trace('degraded', detail={
                'why': 'motion fault: the rest of the lesson is voice only',
                'reasons': faults})])
            rest = self._result_of(step.state, course, name, event)
            return Step(rest.state, (*step.effects, *rest.effects))
        return self._result_of(state, course, name, event)

    def _result_of(self, state: ClassroomState, course: Course, name: str,
                   event: Result
                   ) -> Step[ClassroomState]:
        if course.awaiting_state == 'paused' and name not in CONTROLS:
            return self._set(state, replace(course, held=(*course.held, event)), [])
        if isinstance(event, CommandCompleted):
            return self._number_formed(state, course, event)
        if (name == 'forming' and isinstance(event, BatchCompleted)
                and event.batch_id == course.waiting_for and course.phase == Phase.DISPLAYING):
            step = self._motion_check(state, course, event)    # its hand result was missed
            rest = self._hand_result(step.state, _ongoing(step.state), event.outcomes[1])
            return Step(rest.state, (*step.effects, *rest.effects))
        if name in ('forming', 'reset') and (isinstance(event, BatchCompleted)
                                             or event.batch_id != course.waiting_for):
            return self._motion_check(state, course, event)
        if name in ('pause', 'pause_cut', 'resume', 'recover', 'recap', 'stop_cancel',
                    'stop_reset'):
            return self._control_result(state, course, name, event)
        if event.batch_id != course.waiting_for:
            return self._ignore(state, 'not the result the flow waits for', event.batch_id)
        if course.pause_cut_speech and isinstance(event, BatchCompleted):
            course = replace(course, pause_cut_speech=False)
            unsaid = _unsaid(speech_of(event))
            if unsaid:        # go on from the first clause not yet spoken, in the same phase
                head = self._retry_due(course, event)
                if head:
                    course = replace(course, head_feedback_retry_pending=head)
                return self._say(state, course, course.phase, unsaid, barrier=Barrier.COMPLETED)
            event = _as_done(event)
        if isinstance(event, BatchReturned):
            return self._next(state, course, event)
        return self._completed(state, course, event)

    def _faults(self, course: Course,
                event: Result) -> list[str]:
        """Motion faults in ``event`` that stop the robot moving (none once voice only)."""
        if course.voice_only:
            return []
        if isinstance(event, BatchReturned):
            return [a.reason for a in event.acceptances if _refused_motion(a)]
        outcomes = (event.outcome,) if isinstance(event, CommandCompleted) else event.outcomes
        return [o.reason or o.receipt.state for o in outcomes
                if _motion_fault(o) or (_gesture(o) and o.receipt.state == 'cancelled'
                                        and not _cut(event.batch_id, o, course))]

    def _number_formed(self, state: ClassroomState, course: Course,
                       event: CommandCompleted) -> Step[ClassroomState]:
        """The number hand finished: hold it ``number_display`` seconds, then the lecture
        (never waiting for the arm). A hand that failed, or a fault, starts it at once."""
        if event.batch_id != course.waiting_for:
            return Step(state)
        if course.phase == Phase.FORMING:       # done before every goal was accepted: kept
            if isinstance(event.outcome.command, Hand):
                return self._set(state, replace(course, hand_done=event.outcome), [])
            return Step(state)
        if course.phase not in (Phase.DISPLAYING, Phase.HOLDING):
            return Step(state)
        return self._hand_result(state, course, event.outcome)

    def _hand_result(self, state: ClassroomState, course: Course,
                     outcome: Outcome) -> Step[ClassroomState]:
        if course.voice_only:
            step = self._lecture(state, replace(course, phase=Phase.LECTURE), reset=False)
            return Step(step.state, (CancelTimer(NUMBER_TIMER), *step.effects))
        if not isinstance(outcome.command, Hand):
            return Step(state)                              # the arm: never waited for
        if outcome.ok:
            return self._set(state, replace(course, phase=Phase.HOLDING), [
                self._hold(), Trace('number_held', detail={
                    'number': course.current_point, 'seconds': self.timing.number_display})])
        course = replace(course, number_gesture_disabled=True)
        step = self._lecture(state, course, reset=True)
        return Step(step.state, (Trace('degraded', detail={
            'why': 'the number was not formed: numbers by voice only',
            'reason': outcome.reason}), *step.effects))

    def _timer(self, state: ClassroomState, event: TimerFired) -> Step[ClassroomState]:
        course = state.course
        if (event.name != NUMBER_TIMER or course is None or course.phase != Phase.HOLDING
                or course.awaiting_state == 'paused'):
            return self._ignore(state, f'a timer no longer wanted ({event.name})')
        return self._lecture(state, course, reset=True)

    def _forming_accepted(self, state: ClassroomState, course: Course,
                          event: BatchReturned) -> Step[ClassroomState]:
        """The number's goals returned: all accepted, the lecture waits for the number; a
        refusal disables numbers, resets what was accepted and lectures at once."""
        accepted = [a.accepted for a in event.acceptances]
        if all(accepted) and not course.voice_only:
            done, course = course.hand_done, replace(course, phase=Phase.DISPLAYING,
                                                     hand_done=None)
            if done is None:
                return self._set(state, course, [])
            return self._hand_result(state, course, done)
        course = replace(course, number_gesture_disabled=True)
        return self._lecture(state, course, reset=any(accepted), reset_arm=accepted[0],
                             reset_hand=accepted[1])

    def _question_accepted(self, state: ClassroomState, course: Course,
                           event: BatchReturned) -> Step[ClassroomState]:
        """The question was accepted: answers count from now on."""
        return self._set(state, replace(course, awaiting_state='awaiting_answer'), [])

    def _completed(self, state: ClassroomState, course: Course,
                   event: BatchCompleted) -> Step[ClassroomState]:
        """A failed speech stops the physical lesson where the document says so; otherwise
        the flow table (``FLOW``) names the step after the batch of the course's phase."""
        speech = speech_of(event)
        if speech is not None and not speech.ok and course.phase in SPEECH_STOPS:
            return self._speech_failed(state, course, speech)
        return self._next(state, course, event)

    def _next(self, state: ClassroomState, course: Course,
              event: BatchReturned | BatchCompleted) -> Step[ClassroomState]:
        """The step ``FLOW`` names for the course's phase and this kind of result."""
        transition = FLOW.get((course.phase, type(event)))
        if transition is None:
            return self._ignore(state, f'no step after {course.phase}', event.batch_id)
        handler: Callable[[ClassroomState, Course, Any], Step[ClassroomState]] = getattr(
            self, transition.handler)
        return handler(state, course, event)

    def _asked(self, state: ClassroomState, course: Course,
               event: BatchCompleted) -> Step[ClassroomState]:
        return self._take_early(state, replace(course, phase=Phase.WAITING, waiting_for=''),
                                self._heard)

    def _ended(self, state: ClassroomState, course: Course,
               event: BatchCompleted) -> Step[ClassroomState]:
        return self._complete(state, course, 'said the last thing')

    def _said_direct(self, state: ClassroomState, course: Course,
                     event: BatchCompleted) -> Step[ClassroomState]:
        return self._direct_next(state, course)

    def _welcomed(self, state: ClassroomState, course: Course,
                  event: BatchCompleted) -> Step[ClassroomState]:
        """A welcome wave that failed (not one our own pause cancelled) makes the lesson
        voice only; then the opening transition."""
        failed = [o for o in event.outcomes if not o.ok and isinstance(o.command, ArmGesture)
                  and not _cut(event.batch_id, o, course)]
        course = replace(course, voice_only=course.voice_only or bool(failed))
        trace = [Trace('degraded', detail={'why': 'welcome gesture failed: voice only',
                                           'reason': failed[0].reason})] if failed else []
        step = self._say(state, course, Phase.OPENING, self.phrases.opening_transition)
        return Step(step.state, (*trace, *step.effects))

    def _point_next(self, state: ClassroomState, course: Course,
                    event: BatchCompleted) -> Step[ClassroomState]:
        course = replace(course, opening_stage='ready_for_first_point')
        return self._start_point(state, course, course.current_point + 1)

    def _lectured(self, state: ClassroomState, course: Course,
                  event: BatchCompleted) -> Step[ClassroomState]:
        return self._question(state, course)

    def _question_asked(self, state: ClassroomState, course: Course,
                        event: BatchCompleted) -> Step[ClassroomState]:
        return self._take_early(
            state, replace(course, phase=Phase.WAITING_ANSWER, waiting_for=''), self._answer)

    def _head_retried(self, state: ClassroomState, course: Course,
                      event: BatchCompleted) -> Step[ClassroomState]:
        head = event.outcomes[0]
        trace = [] if head.ok else [Trace('degraded', detail={
            'why': f'{_action(head)} failed twice: feedback by voice only',
            'reason': head.reason})]
        step = self._after_feedback(state, replace(course, head_feedback_retry_pending=''))
        return Step(step.state, (*trace, *step.effects))

    def _explained(self, state: ClassroomState, course: Course,
                   event: BatchCompleted) -> Step[ClassroomState]:
        return self._after_feedback(state, course)

    def _farewell_said(self, state: ClassroomState, course: Course,
                       event: BatchCompleted) -> Step[ClassroomState]:
        assert course.plan is not None
        speech = speech_of(event)
        trace = [Trace('text_only', detail={'text': course.plan.farewell})] if (
            speech is not None and not speech.ok) else []
        step = self._complete(state, course, 'farewell said')
        return Step(step.state, (*trace, *step.effects))

    def _take_early(self, state: ClassroomState, course: Course,
                    handle: Callable[[ClassroomState, str], Step[ClassroomState]]
                    ) -> Step[ClassroomState]:
        """The robot stopped asking: what was heard meanwhile is taken up now."""
        if not course.answer_early:
            return self._set(state, course, [])
        text, course = course.answer_early, replace(course, answer_early='')
        return handle(replace(state, course=course), text)

    def _feedback_done(self, state: ClassroomState, course: Course,
                       event: BatchCompleted) -> Step[ClassroomState]:
        """The feedback was said: a failed nod or shake once more, head only; then the
        explanation, the farewell or the next transition."""
        speech = speech_of(event)
        effects: list[Effect] = []
        if speech is not None and not speech.ok:
            effects.append(Trace('text_only', detail={'text': course.last_speech}))
        action = self._retry_due(course, event) or (
            course.head_feedback_retry_pending if not course.voice_only else '')
        if action:
            head = next((o for o in event.outcomes if isinstance(o.command, HeadGesture)), None)
            course, batch = self._batch(replace(course, head_feedback_retry_pending=action),
                                        'head_retry', [HeadGesture(action)])
            step = self._set(state, replace(course, phase=Phase.HEAD_RETRY,
                                            waiting_for=batch.batch_id), [batch])
            retry = Trace('retry', detail={'action': action, 'reason': head.reason if head
                                           else 'failed before its speech was cut'})
            return Step(step.state, (*effects, retry, *step.effects))
        step = self._after_feedback(state, course)
        return Step(step.state, (*effects, *step.effects))

    def _retry_due(self, course: Course, event: BatchCompleted) -> str:
        """The nod or shake of this feedback batch that failed its receipt ('' if none): the
        document retries it once, unless the robot stopped moving or our pause cut it."""
        if course.phase != Phase.FEEDBACK or course.voice_only:
            return ''
        head = next((o for o in event.outcomes if isinstance(o.command, HeadGesture)), None)
        if (head is None or head.ok or _action(head) not in ('nod', 'shake')
                or _cut(event.batch_id, head, course)):
            return ''
        return _action(head)

    def _motion_check(self, state: ClassroomState, course: Course,
                      event: BatchReturned | BatchCompleted) -> Step[ClassroomState]:
        """Arm/hand of the number gestures: any error disables them for the rest."""
        if isinstance(event, BatchReturned):
            failures = [a.reason for a in event.acceptances if not a.accepted]
        else:
            failures = [o.reason for o in event.outcomes if _motion_error(o)]
        if not failures or course.number_gesture_disabled:
            return Step(state)
        step = self._set(state, replace(course, number_gesture_disabled=True), [])
        return Step(step.state, (*step.effects, Trace('degraded', detail={
            'why': 'arm/hand error: numbers by voice only', 'reasons': failures})))

    def _speech_failed(self, state: ClassroomState, course: Course,
                       speech: Outcome) -> Step[ClassroomState]:
        step = self._complete(state, replace(course, stopped=True), 'speech failed')
        return Step(step.state, (Trace('error', detail={
            'why': 'tts failed: the physical lesson stops', 'reason': speech.reason,
            'phase': course.phase}), *step.effects))

    # ---- direct mode ---------------------------------------------------------------------------

    def _direct_next(self, state: ClassroomState, course: Course) -> Step[ClassroomState]:
        """The next utterance of a direct explanation (``current_point`` counts them)."""
        index = course.current_point
        if index >= len(course.utterances):
            return self._complete(state, course, 'direct explanation said')
        return self._say(state, replace(course, current_point=index + 1), Phase.DIRECT,
                         course.utterances[index])

def _ongoing(state: ClassroomState) -> Course:
    """The course a step has just set (a step of the flow never ends without one)."""
    assert state.course is not None
    return state.course


def _action(outcome: Outcome) -> str:
    """The gesture an outcome is the receipt of ('' for speech, poses and calls)."""
    command = outcome.command
    return command.action if isinstance(command, ArmGesture | HeadGesture | Hand) else ''


def _motion_fault(outcome: Outcome) -> bool:
    """An explicit error of a motion goal (e-stop, motor fault, a refused goal): the
    document's "停止新的实体动作". An empty, mismatched or late receipt is a failed receipt,
    which the feedback rules retry; a cancel call that found nothing to cancel is no fault."""
    if outcome.command.device not in MOTION_DEVICES or isinstance(outcome.command, Call):
        return False
    return outcome.status in (Status.REJECTED, Status.UNAVAILABLE) or (
        outcome.receipt.state == 'error')


def _gesture(outcome: Outcome) -> bool:
    """A semantic gesture: nothing of ours replaces one, so its cancel is ours or a fault
    ("意外 cancelled"); a pose or hand goal is replaced by our next one."""
    return isinstance(outcome.command, (ArmGesture, HeadGesture))


def _refused_motion(acceptance: Acceptance) -> bool:
    return (acceptance.command.device in MOTION_DEVICES
            and not isinstance(acceptance.command, Call)
            and acceptance.status in (Status.REJECTED, Status.UNAVAILABLE))


def _cut(batch_id: str, outcome: Outcome, course: Course) -> bool:
    """A gesture our own pause or stop cancelled (not a device's failure)."""
    return batch_id in course.cut_gestures and outcome.receipt.state == 'cancelled'


def _unsaid(speech: Outcome | None) -> str:
    """What a cut speech had still to say, from its first clause not yet spoken ('' if it
    was all said, or not cut). A clause counts as said once its words are (its closing
    punctuation is silence); a speech that timed out while paused was cut too."""
    if speech is None or not isinstance(speech.command, Speak) or not (
            speech.receipt.state == 'interrupted' or speech.status is Status.TIMEOUT):
        return ''
    text, spoken = speech.command.message, max(0, speech.chars_spoken)
    start = 0
    for index, char in enumerate(text):
        if char in CLAUSE_END:
            if index > spoken:
                break
            start = index + 1
    rest = text[start:] if spoken < len(text) else ''
    return rest if rest.strip(''.join(CLAUSE_END) + ' ') else ''


def _motion_error(outcome: Outcome) -> bool:
    """An error of an arm/hand command; a pose replaced by the next one is not an error."""
    if outcome.status in (Status.REJECTED, Status.TIMEOUT, Status.UNAVAILABLE):
        return True
    return outcome.receipt.state in ('error', '')


def _as_done(event: BatchCompleted) -> BatchCompleted:
    """A speech cut while paused counts as said: it is never replayed."""
    outcomes = tuple(replace(o, status=Status.SUCCEEDED) if isinstance(o.command, Speak)
                     and o.receipt.state == 'interrupted' else o for o in event.outcomes)
    return BatchCompleted(event.batch_id, outcomes)
