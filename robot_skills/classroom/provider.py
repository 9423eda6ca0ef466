"""An optional source of lessons for topics nobody authored: any OpenAI-compatible endpoint.

The endpoint (``POST {base_url}/chat/completions``) is asked for exactly the
lesson file structure as JSON. Its answer goes through the same pydantic
schema and the same quota planner as an authored lesson; invalid output is
sent back once with the errors, and a second failure is a ``ProviderError``:
the robot then says it has no prepared material, it never improvises. The
caller runs ``fetch`` off the executor thread.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from robot_skills.adapters.chat import ChatEndpoint, ChatError
from robot_skills.adapters.config import ConfigError, parse
from robot_skills.classroom.lesson import Lesson
from robot_skills.classroom.quota import PlanError

FENCE = re.compile(r'^```(?:json)?\s*|\s*```$')
INSTRUCTIONS = """You write short lessons for a classroom robot that speaks Chinese.
Answer with one JSON object and nothing else, with exactly this structure:
{"topic": str, "aliases": [str], "summary": str (one line),
 "points": [{"title": str (2-4 characters), "body": str (core statement, one example,
 one closing sentence; at most 90 Chinese characters), "short": str (at most 10 Chinese
 characters), "question": str (at most 20 Chinese characters, no invitation),
 "answer": str, "reason": str (one short sentence),
 "expected": [{"label": str, "synonyms": [str]}] (2 or 3 items),
 "partial_credit": 1}]}
Only state facts you are sure of. Never address the audience as 同学."""


class ProviderError(Exception):
    """The provider gave no usable lesson."""


@dataclass(frozen=True)
class LessonProvider:
    endpoint: ChatEndpoint

    def fetch(self, topic: str, points: int, check: Callable[[Lesson], object]) -> Lesson:
        """A lesson on ``topic`` that passes ``check`` (the planner), asking at most twice."""
        messages = [{'role': 'system', 'content': INSTRUCTIONS},
                    {'role': 'user', 'content': f'主题：{topic}。写{points}个知识点。'}]
        problems = ''
        for _ in range(2):
            content = self._complete(messages)
            try:
                lesson = parse(FENCE.sub('', content.strip()), Lesson, 'provider.json')
                check(lesson)
                return lesson
            except (ConfigError, PlanError) as error:
                problems = str(error)
                messages += [{'role': 'assistant', 'content': content},
                             {'role': 'user', 'content': f'The lesson is not valid: {problems}\n'
                                                         'Answer with the corrected JSON only.'}]
        raise ProviderError(f'no valid lesson after a retry: {problems}')

    def _complete(self, messages: list[dict]) -> str:
        try:
            return self.endpoint.complete(messages)
        except ChatError as error:
            raise ProviderError(str(error)) from error
