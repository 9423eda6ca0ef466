"""The classroom's state: one course from the request to ``course_completed``, the
document's variables, and the phases its batch flow goes through.

``Phase`` names what the robot is doing (the batch it waits for); ``Closing`` is the
document's ``closing_stage``. Both are enums of strings, so traces and tests read them
as the document writes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from robot_skills.classroom.grading import Grade
from robot_skills.classroom.lesson import Lesson
from robot_skills.classroom.quota import DEFAULT_MINUTES, DEFAULT_POINTS, Plan
from robot_skills.classroom.words import Mode
from robot_skills.model.outcomes import Outcome
from robot_skills.model.skill import (
    BatchCompleted,
    BatchReturned,
    CommandCompleted,
    SkillEffect,
    SkillEvent,
)

Result = BatchReturned | BatchCompleted | CommandCompleted   # what a batch or command returns


class Phase(StrEnum):
    """What the course is doing: mostly the batch whose barrier the flow waits for."""

    ASKING = 'asking'                  # a question to the requester (mode, topic)
    WAITING = 'waiting'                # for the requester's reply
    FETCHING = 'fetching'              # a lesson from the content provider
    ENDING = 'ending'                  # one last sentence, then the course ends
    DIRECT = 'direct'                  # direct mode: one utterance after another
    WELCOME = 'welcome'
    OPENING = 'opening'                # "下面我们进入第一个知识点。"
    FORMING = 'forming'                # the number: arm pose ∥ hand (barrier: accepted)
    DISPLAYING = 'displaying'          # accepted: the hand still forming the number
    HOLDING = 'holding'                # the number formed, held number_display seconds
    LECTURE = 'lecture'
    QUESTION = 'question'
    REASK = 'reask'                    # an answer not heard: asked again
    OFF_TOPIC = 'off_topic'            # an answer off the topic: tilt, asked again
    WAITING_ANSWER = 'waiting_answer'
    FEEDBACK = 'feedback'
    HEAD_RETRY = 'head_retry'          # a failed nod or shake, once more, head only
    EXPLAIN = 'explain'                # the learner asked back: the answer, briefly
    TRANSITION = 'transition'          # "下面我们开始下一个知识点。"
    FAREWELL = 'farewell'
    STOPPING = 'stopping'              # 停止: cancels, then resets
    DONE = 'done'


class Closing(StrEnum):
    """The document's closing stage."""

    IN_PROGRESS = 'in_progress'
    CLOSING_FEEDBACK = 'closing_feedback'    # the last point's feedback (no farewell in it)
    CLOSING = 'closing'                      # the farewell
    COURSE_COMPLETED = 'course_completed'


@dataclass(frozen=True)
class Timing:
    """Seconds the flow decides itself (the node's parameters ``number_display_s`` and
    ``gesture_result_timeout``)."""

    number_display: float = 0.5    # the number, formed, is held this long before the lecture
    gesture_result: float = 5.0    # a feedback gesture or the number hand: later is a failure


@dataclass(frozen=True)
class FetchLesson(SkillEffect):
    """Effect: ask the content provider for a lesson on ``topic`` (the node does the I/O)."""

    topic: str
    minutes: float
    points: int


@dataclass(frozen=True)
class LessonFetched(SkillEvent):
    """Event: what the content provider returned (``lesson`` None when it could not)."""

    topic: str
    lesson: Lesson | None
    error: str = ''


@dataclass(frozen=True)
class Course:
    """One lesson, from the request to ``course_completed``; the document's variables."""

    number: int
    topic: str = ''
    lesson: Lesson | None = None
    minutes: float = DEFAULT_MINUTES
    points: int = DEFAULT_POINTS
    presentation_mode: str = 'unconfirmed'     # unconfirmed | classroom | direct | completed
    awaiting_state: str = 'none'               # awaiting_mode_confirmation | awaiting_topic |
    #                                            awaiting_answer | paused | none
    opening_stage: str = 'not_started'         # -> welcome_started -> ready_for_first_point
    closing: Closing = Closing.IN_PROGRESS
    current_point: int = 0
    number_gesture_disabled: bool = False
    voice_only: bool = False
    head_feedback_retry_pending: str = ''      # '' | nod | shake
    tts_chars_used: int = 0
    plan: Plan | None = None
    utterances: tuple[str, ...] = ()           # direct mode
    phase: Phase = Phase.ASKING
    waiting_for: str = ''                      # the batch whose barrier the flow waits for
    batches: int = 0
    follow_up_asked: bool = False
    answer_early: str = ''                     # an answer heard while the question was said
    grade: Grade | None = None
    last_speech: str = ''
    paused: tuple[Phase | None, str, str] = (None, '', '')  # phase, awaiting, waiting_for
    held: tuple[Result, ...] = ()
    sent: tuple[tuple[str, str], ...] = ()     # (batch id, its name) of batches not done
    pause_cut_speech: bool = False
    pause_speaking: bool = False               # a speech was in flight when paused
    resuming: bool = False                     # 继续 heard, the pause not yet left
    hand_done: Outcome | None = None           # the number hand's outcome, if before acceptance
    asked_mode: Mode | None = None
    stopped: bool = False
    gesturing: tuple[tuple[str, str], ...] = ()   # (batch id, device) of gestures in flight
    cut_gestures: tuple[str, ...] = ()         # batches whose gestures our pause cancelled
    spoken: tuple[str, ...] = ()               # what the robot said for this point (echoes)

    @property
    def active(self) -> bool:
        return self.presentation_mode != 'completed'

    @property
    def point_count(self) -> int:
        return len(self.plan.points) if self.plan else 0


@dataclass(frozen=True)
class ClassroomState:
    course: Course | None = None
    lessons: int = 0
    missing: frozenset[str] = field(default_factory=frozenset)
    last_topic: str = ''
    devices_known: bool = False     # the runtime reported which devices exist
    deferred: str = ''              # a request heard before that: taken up once they are known


TRACED = ('presentation_mode', 'awaiting_state', 'opening_stage', 'closing', 'current_point',
          'number_gesture_disabled', 'voice_only', 'head_feedback_retry_pending',
          'tts_chars_used')
