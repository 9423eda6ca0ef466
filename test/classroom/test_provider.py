"""The optional LLM lesson provider against a local stub server (no network)."""

from __future__ import annotations

import json

import pytest
from llm_stub import Stub, lesson_json

from robot_skills.adapters.chat import ChatEndpoint
from robot_skills.classroom.provider import LessonProvider, ProviderError
from robot_skills.classroom.quota import plan


@pytest.fixture
def stub():
    servers: list[Stub] = []

    def make(*contents: str) -> Stub:
        servers.append(Stub(list(contents)))
        return servers[-1]
    yield make
    for server in servers:
        server.close()


def _check(phrases):
    return lambda lesson: plan(lesson, phrases, 5, 3)


def test_a_valid_lesson_is_taken_as_it_is(stub, phrases):
    server = stub(lesson_json())
    provider = LessonProvider(ChatEndpoint(server.url, 'teacher-model', 'secret-key', 5.0))
    lesson = provider.fetch('月相变化', 3, _check(phrases))
    assert lesson.topic == '月相变化' and len(lesson.points) == 3
    (request,) = server.requests
    assert request['model'] == 'teacher-model' and request['temperature'] == 0
    assert '月相变化' in request['messages'][-1]['content']
    assert server.headers[0]['Authorization'] == 'Bearer secret-key'


def test_a_code_fenced_answer_is_accepted(stub, phrases):
    server = stub(f'```json\n{lesson_json()}\n```')
    assert LessonProvider(ChatEndpoint(server.url, 'm')).fetch('月相变化', 3, _check(phrases)).points


def test_malformed_output_is_retried_once_with_the_errors(stub, phrases):
    server = stub('this is not json', lesson_json())
    lesson = LessonProvider(ChatEndpoint(server.url, 'm')).fetch('月相变化', 3, _check(phrases))
    assert lesson.topic == '月相变化' and len(server.requests) == 2
    assert 'not valid' in server.requests[1]['messages'][-1]['content']


def test_two_invalid_answers_are_a_provider_error(stub, phrases):
    server = stub('{"topic": "x"}', '{"topic": "x", "points": []}')
    with pytest.raises(ProviderError, match='no valid lesson after a retry'):
        LessonProvider(ChatEndpoint(server.url, 'm')).fetch('x', 3, _check(phrases))
    assert len(server.requests) == 2


def test_an_over_budget_lesson_is_refused_by_the_planner_and_retried(stub, phrases):
    data = json.loads(lesson_json())
    data['points'][0]['body'] = '板块' * 80
    data['points'][0]['short'] = '板块' * 60
    server = stub(json.dumps(data, ensure_ascii=False), json.dumps(data, ensure_ascii=False))
    with pytest.raises(ProviderError, match='lecture'):
        LessonProvider(ChatEndpoint(server.url, 'm')).fetch('月相变化', 3, _check(phrases))
    assert 'lecture' in server.requests[1]['messages'][-1]['content']


def test_an_unreachable_endpoint_is_a_provider_error(phrases):
    provider = LessonProvider(ChatEndpoint('http://127.0.0.1:9/v1', 'm', timeout=2.0))
    with pytest.raises(ProviderError, match='did not answer usably'):
        provider.fetch('x', 3, _check(phrases))
