"""How the classroom core makes its batches and sets its course: what every part of the
flow (the lesson, and pause, continue and stop) shares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from robot_skills.classroom.course import TRACED, ClassroomState, Closing, Course, Phase, Timing
from robot_skills.classroom.grading import Tier
from robot_skills.classroom.lesson import Phrases
from robot_skills.language.text import hanzi
from robot_skills.model.commands import ArmGesture, Hand, HeadGesture, Speak
from robot_skills.model.commands import Command as DeviceCommand
from robot_skills.model.outcomes import Outcome
from robot_skills.model.skill import (
    Barrier,
    BatchCompleted,
    Effect,
    SendBatch,
    StartTimer,
    Step,
    Trace,
)

NEUTRAL = (0.0,) * 7
HEAD_FOR = {Tier.CORRECT: 'nod', Tier.PARTIAL: 'tilt', Tier.INCORRECT: 'shake'}
NUMBER_TIMER = 'number_display'
SPOKEN_KEPT = 8          # what the robot said for a point, kept to recognise echoes


class Sender:
    """Batches, the course's variables traced as they change, and the course's end."""

    phrases: Phrases
    timing: Timing

    def _batch(self, course: Course, name: str, commands: list[DeviceCommand],
               barrier: Barrier = Barrier.COMPLETED, each: bool = False) -> tuple[Course,
                                                                                SendBatch]:
        """One batch; a feedback gesture (nod, shake, tilt) and the number hand finish within
        ``gesture_result`` or count as failed receipts."""
        number = course.batches + 1
        quick = {c.device for c in commands
                 if (isinstance(c, HeadGesture) and c.action in HEAD_FOR.values())
                 or (isinstance(c, Hand) and name == 'forming')}
        short = tuple((device, self.timing.gesture_result) for device in sorted(quick))
        batch = SendBatch(f'{course.number}:{name}:{number}', tuple(commands), barrier, each,
                          short)
        spoken = [c.message for c in commands if isinstance(c, Speak)]
        gestures = tuple((batch.batch_id, c.device.value) for c in commands
                         if isinstance(c, (ArmGesture, HeadGesture)))
        course = replace(course, batches=number, gesturing=course.gesturing + gestures,
                         sent=(*course.sent, (batch.batch_id, name)),
                         tts_chars_used=course.tts_chars_used + sum(hanzi(s) for s in spoken),
                         last_speech=spoken[-1] if spoken else course.last_speech,
                         spoken=(*course.spoken, *spoken)[-SPOKEN_KEPT:])
        return course, batch

    def _say(self, state: ClassroomState, course: Course, phase: Phase, text: str,
             others: Sequence[DeviceCommand] | None = None,
             barrier: Barrier = Barrier.COMPLETED) -> Step[ClassroomState]:
        """Send ``text`` (with ``others`` in the same batch); the flow waits for it."""
        course, batch = self._batch(course, phase, [*(others or []), Speak(text)], barrier)
        return self._set(state, replace(course, phase=phase, waiting_for=batch.batch_id), [batch])

    def _set(self, state: ClassroomState, course: Course,
             effects: Sequence[Effect]) -> Step[ClassroomState]:
        before = state.course
        changed = {name: getattr(course, name) for name in TRACED
                   if before is None or getattr(before, name) != getattr(course, name)}
        trace = [Trace('variables', detail=changed)] if changed else []
        return Step(replace(state, course=course), (*trace, *effects))

    def _finish_with(self, state: ClassroomState, course: Course, text: str, why: str,
                     detail: dict[str, Any] | None = None) -> Step[ClassroomState]:
        """Say one last thing and end the course (no material, cannot fit ...)."""
        step = self._say(state, replace(course, awaiting_state='none'), Phase.ENDING, text)
        return Step(step.state, (Trace('ending', detail={'why': why, **(detail or {})}),
                                 *step.effects))

    def _can(self, state: ClassroomState, device: str, course: Course) -> bool:
        return device not in state.missing and not course.voice_only

    def _ignore(self, state: ClassroomState, why: str, text: str = '') -> Step[ClassroomState]:
        return Step(state, (Trace('ignored', detail={'why': why, 'chars': len(text)}),))

    def _complete(self, state: ClassroomState, course: Course, why: str) -> Step[ClassroomState]:
        closing = (Closing.COURSE_COMPLETED if course.closing is Closing.CLOSING
                   else course.closing)
        course = replace(course, presentation_mode='completed', closing=closing,
                         awaiting_state='none', phase=Phase.DONE, waiting_for='')
        step = self._set(state, course, [])
        return Step(step.state, (*step.effects, Trace('course_completed', 'idle', {
            'why': why, 'topic': course.topic, 'tts_chars_used': course.tts_chars_used})))

    def _hold(self) -> StartTimer:
        """The number on show: the robot is still presenting, not waiting for anyone."""
        return StartTimer(NUMBER_TIMER, self.timing.number_display, busy=True)


def speech_of(event: BatchCompleted) -> Outcome | None:
    return next((o for o in event.outcomes if isinstance(o.command, Speak)), None)
