"""暂停 / 继续 / 停止 (the document's section 6): what the classroom core does to pause,
resume and stop a lesson, whatever batch is under way."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import replace

from robot_skills.classroom.course import ClassroomState, Closing, Course, Phase, Result
from robot_skills.classroom.sending import NEUTRAL, NUMBER_TIMER, Sender, speech_of
from robot_skills.interface import ARM_GESTURE, ARM_MOVE_POS, HAND, HEAD_GESTURE
from robot_skills.language.text import ordinal
from robot_skills.model.commands import ArmMovePos, Call, Control, Hand, HeadGesture, Speak
from robot_skills.model.commands import Command as DeviceCommand
from robot_skills.model.outcomes import Status
from robot_skills.model.skill import BatchCompleted, BatchReturned, CancelTimer, Step, Trace

SPEAKING = frozenset({Phase.ASKING, Phase.ENDING, Phase.DIRECT, Phase.WELCOME, Phase.OPENING,
                      Phase.LECTURE, Phase.QUESTION, Phase.REASK, Phase.OFF_TOPIC, Phase.FEEDBACK,
                      Phase.EXPLAIN, Phase.TRANSITION, Phase.FAREWELL})


class Controls(Sender, ABC):
    """Pause, continue and stop; the lesson's flow takes up the results held meanwhile."""

    @abstractmethod
    def _result(self, state: ClassroomState, event: Result) -> Step[ClassroomState]:
        """A batch's or a command's result, taken up by the flow (``core.py``)."""

    def _pause(self, state: ClassroomState) -> Step[ClassroomState]:
        course = state.course
        assert course is not None
        commands: list[DeviceCommand] = [Call(Control.TTS_PAUSE)]   # cancel what moves
        moving = {device for _, device in course.gesturing}
        if 'head_gesture' in moving:
            commands.append(Call(Control.HEAD_GESTURE_CANCEL))
        if 'arm_gesture' in moving:
            commands.append(Call(Control.ARM_GESTURE_CANCEL))
        holding = [CancelTimer(NUMBER_TIMER)] if course.phase == Phase.HOLDING else []
        course = replace(course, awaiting_state='paused',
                         paused=(course.phase, course.awaiting_state, course.waiting_for),
                         pause_speaking=course.phase in SPEAKING and bool(course.waiting_for),
                         cut_gestures=_cut_now(course))
        course, batch = self._batch(course, 'pause', commands)
        step = self._set(state, course, [*holding, batch])
        return Step(step.state, (*step.effects, Trace('paused', 'paused', {
            'text': '已暂停', 'point': course.current_point})))

    def _resume(self, state: ClassroomState) -> Step[ClassroomState]:
        course = state.course
        assert course is not None
        if course.resuming:
            return self._ignore(state, '继续 again while resuming')
        course, batch = self._batch(replace(course, resuming=True), 'resume',
                                    [Call(Control.TTS_RESUME)])
        return self._set(state, course, [batch])

    def _control_result(self, state: ClassroomState, course: Course, name: str,
                        event: BatchReturned | BatchCompleted) -> Step[ClassroomState]:
        if not isinstance(event, BatchCompleted):
            return Step(state)
        first = event.outcomes[0]
        if name in ('pause', 'pause_cut'):
            if first.ok or name == 'pause_cut':
                return Step(state)
            course, batch = self._batch(replace(course,
                                                pause_cut_speech=course.pause_speaking),
                                        'pause_cut', [Call(Control.TTS_INTERRUPT)])
            return self._set(state, course, [batch, Trace('pause_fallback', detail={
                'reason': first.reason})])
        if name == 'resume':    # nothing was being said, or the device simply goes on
            cut = course.pause_cut_speech or _timed_out(course.held)
            if not course.pause_speaking or (first.ok and not cut):
                return self._replay(state, course)
            course, batch = self._batch(replace(course, pause_cut_speech=True), 'recover',
                                        [Call(Control.TTS_INTERRUPT)])
            return self._set(state, course, [batch])
        if name == 'recover':
            course, batch = self._batch(course, 'recap', [Speak(self._recap(course))])
            return self._set(state, course, [batch])
        if name == 'recap':
            return self._replay(state, course)
        if name == 'stop_cancel':
            return self._stop_reset(state, course)
        return self._complete(state, course, 'stopped')                    # stop_reset

    def _recap(self, course: Course) -> str:
        """One sentence on where the lesson resumes: the point, or just "we go on" in the
        welcome, a direct explanation or the farewell (no point to name there)."""
        if (course.presentation_mode == 'direct' or course.current_point == 0
                or course.closing is not Closing.IN_PROGRESS):
            return self.phrases.resume_short
        return self.phrases.resume_recap.format(ordinal=ordinal(course.current_point))

    def _replay(self, state: ClassroomState, course: Course) -> Step[ClassroomState]:
        """Leave the pause: the flow takes up the results held while paused."""
        if course.awaiting_state != 'paused':
            return self._ignore(state, 'not paused any more')
        held = course.held
        phase, awaiting, waiting_for = course.paused
        assert phase is not None        # set by the pause
        course = replace(course, awaiting_state=awaiting, phase=phase, waiting_for=waiting_for,
                         held=(), paused=(None, '', ''), resuming=False, pause_speaking=False)
        hold = [self._hold()] if phase == Phase.HOLDING else []
        step = self._set(state, course, [Trace('resumed', detail={'held': len(held)}), *hold])
        effects = list(step.effects)
        for event in held:
            step = self._result(step.state, event)
            effects += step.effects
        return Step(step.state, tuple(effects))

    def _stop(self, state: ClassroomState) -> Step[ClassroomState]:
        course = state.course
        assert course is not None
        commands: list[DeviceCommand] = [Call(Control.TTS_INTERRUPT)]
        if HEAD_GESTURE.name not in state.missing:
            commands.append(Call(Control.HEAD_GESTURE_CANCEL))
        if ARM_GESTURE.name not in state.missing:
            commands.append(Call(Control.ARM_GESTURE_CANCEL))
        course, batch = self._batch(replace(course, stopped=True, phase=Phase.STOPPING,
                                            awaiting_state='none',
                                            cut_gestures=_cut_now(course)), 'stop_cancel',
                                    commands)
        step = self._set(state, replace(course, waiting_for=batch.batch_id),
                         [CancelTimer(NUMBER_TIMER), batch])
        return Step(step.state, (Trace('stopping', detail={'point': course.current_point}),
                                 *step.effects))

    def _stop_reset(self, state: ClassroomState, course: Course) -> Step[ClassroomState]:
        """The document's resets "在安全可用时": never after a motion fault."""
        commands: list[DeviceCommand] = []
        if self._can(state, HAND.name, course):
            commands.append(Hand('open_palm', 'right'))
        if self._can(state, HEAD_GESTURE.name, course):
            commands.append(HeadGesture('reset'))
        if self._can(state, ARM_MOVE_POS.name, course):
            commands.append(ArmMovePos(NEUTRAL, NEUTRAL, 1.0))
        if not commands:
            return self._complete(state, course, 'stopped')
        course, batch = self._batch(course, 'stop_reset', commands)
        return self._set(state, replace(course, waiting_for=batch.batch_id), [batch])


def _cut_now(course: Course) -> tuple[str, ...]:
    """The batches whose gestures a pause or stop about to be sent cancels."""
    return (*course.cut_gestures, *sorted({b for b, _ in course.gesturing}))


def _timed_out(held: tuple[Result, ...]) -> bool:
    """A speech held during the pause ended by the result timeout (a very long pause)."""
    return any(isinstance(e, BatchCompleted) and (o := speech_of(e)) is not None
               and o.status is Status.TIMEOUT for e in held)
