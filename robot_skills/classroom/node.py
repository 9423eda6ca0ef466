"""classroom_presenter: lessons on the TianYi 2.0 robot, every batch as the document orders.

Parameters (besides the runtime's, see ``RuntimeSettings``), all read only:
  lessons_dir       config/lessons (every *.yaml is a lesson)
  phrases_file      config/classroom/phrases.yaml
  words_file        config/classroom/words.yaml
  llm_base_url      OpenAI-compatible endpoint for topics without a lesson ('' = none)
  llm_model         the model to ask
  llm_key_env       environment variable holding the API key
  llm_timeout       seconds per request
  number_display_s  seconds the formed number is held before the lecture (0.5)
  gesture_result_timeout  seconds a feedback gesture or the number hand may take (5)
Subscribes: ``asr/events``, ``asr/json``, ``remote_message``.
Publishes: ``remote_reply``, ``skill_events``.
Action clients: ``tts/speak``, ``arm_gesture``, ``head_gesture``, ``arm/move_pos``,
``hand``; service clients: ``tts/pause|resume|interrupt``,
``arm_gesture/cancel``, ``head_gesture/cancel``. Nothing the document forbids
(raw head joints, nav, waist, raise, shake_hands, salute, high_five, chat)
has a client.

Every lesson is planned at startup (5 minutes; 3 points and all points): a
lesson that breaks a budget stops the node with the text named.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from robot_skills.adapters.config import ConfigError, load
from robot_skills.classroom.core import ClassroomCore
from robot_skills.classroom.course import FetchLesson, LessonFetched, Timing
from robot_skills.classroom.lesson import Library, Phrases
from robot_skills.classroom.provider import LessonProvider, ProviderError
from robot_skills.classroom.quota import DEFAULT_MINUTES, DEFAULT_POINTS, PlanError, plan
from robot_skills.classroom.words import Lexicon
from robot_skills.model.commands import Device
from robot_skills.runtime import llm, paths
from robot_skills.runtime.entry import run
from robot_skills.runtime.guard import GuardedNode
from robot_skills.runtime.llm import LlmSettings
from robot_skills.runtime.params import Settings, setting
from robot_skills.runtime.skill_runner import SkillRunner

DEVICES = (Device.TTS, Device.ARM_GESTURE, Device.HEAD_GESTURE, Device.ARM, Device.HAND)


@dataclass(frozen=True)
class ClassroomSettings:
    lessons_dir: str = setting(paths.config('lessons'), 'Folder of lesson files',
                               read_only=True)
    phrases_file: str = setting(paths.config('classroom/phrases.yaml'),
                                'What the presenter says besides lessons', read_only=True)
    words_file: str = setting(paths.config('classroom/words.yaml'),
                              'How requests, commands and answers are recognised', read_only=True)
    number_display_s: float = setting(
        0.5, 'Seconds the formed number is held before the lecture starts (never waiting '
        'for the arm)', low=0.0, high=10.0, read_only=True)
    gesture_result_timeout: float = setting(
        5.0, 'Seconds a feedback gesture (nod, shake, tilt) or the number hand may take to '
        'finish; later counts as a failed receipt', low=0.1, high=120.0, read_only=True)


def check_library(library: Library, phrases: Phrases) -> None:
    """Every lesson must fit the default course and a course of all its points."""
    for lesson in library.lessons.values():
        for points in sorted({min(DEFAULT_POINTS, len(lesson.points)), len(lesson.points)}):
            try:
                plan(lesson, phrases, DEFAULT_MINUTES, points)
            except PlanError as error:
                raise ConfigError(f'lesson {lesson.topic!r}', error.problems) from error


class ClassroomPresenter(GuardedNode):
    """The classroom skill node (see the module docstring)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('classroom_presenter', ClassroomCore.skill, **kwargs)

    def configure(self) -> None:
        self.settings = Settings(self, ClassroomSettings)
        value = self.settings.value
        library = Library.load(value.lessons_dir)
        self.phrases = load(value.phrases_file, Phrases)
        check_library(library, self.phrases)
        lexicon = load(value.words_file, Lexicon)
        endpoint = Settings(self, LlmSettings, llm.PREFIX).value.endpoint()
        self.provider = LessonProvider(endpoint) if endpoint else None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix='lesson-provider')
        self.on_destroy(lambda: self._pool.shutdown(wait=False, cancel_futures=True))
        core = ClassroomCore(library, self.phrases, lexicon, provider=self.provider is not None,
                             timing=Timing(value.number_display_s, value.gesture_result_timeout))
        self.runner = SkillRunner(self, core, DEVICES, handlers={FetchLesson: self._fetch})

    def _fetch(self, request: FetchLesson) -> None:
        """Ask the provider on a worker thread; the answer comes back as an event."""
        def work() -> None:
            assert self.provider is not None
            try:
                lesson = self.provider.fetch(request.topic, request.points, lambda lesson: plan(
                    lesson, self.phrases, request.minutes,
                    min(request.points, len(lesson.points))))
                event = LessonFetched(request.topic, lesson)
            except ProviderError as error:
                event = LessonFetched(request.topic, None, str(error))
            self.runner.post_threadsafe(event)
        self._pool.submit(work)


def main(args: list[str] | None = None) -> int:
    return run(ClassroomPresenter, args)
