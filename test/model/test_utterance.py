"""Input channels normalised into utterances, and what is refused."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robot_skills.model.utterance import (
    Dropped,
    Source,
    Utterance,
    clean,
    from_asr,
    from_asr_json,
    from_remote,
)


def test_final_asr_becomes_an_utterance_with_its_wake_flag():
    heard = from_asr('u1', '  小范小范，贝旺路怎么走\n', True, True, 0.9, 100)
    assert heard == Utterance(Source.ASR, '小范小范，贝旺路怎么走', True, 'u1', confidence=0.9)


def test_partial_asr_is_dropped():
    assert from_asr('u1', '小范', True, False, 0.5, 100) == Dropped(Source.ASR, 'not_final', 'u1')


@pytest.mark.parametrize('text', ['', '   ', '\x00\x07', '\n\t'])
def test_empty_or_control_only_text_is_refused(text):
    dropped = from_remote('m1', 'visitor', text, 100)
    assert isinstance(dropped, Dropped) and dropped.reason == 'empty'
    assert dropped.sender_id == 'visitor'


def test_too_long_text_is_refused_with_its_size():
    dropped = from_remote('m1', 'v', '长' * 101, 100)
    assert isinstance(dropped, Dropped)
    assert (dropped.reason, dropped.detail) == ('too_long', '101 characters')
    assert isinstance(from_remote('m1', 'v', '长' * 100, 100), Utterance)


def test_remote_text_counts_as_awake():
    heard = from_remote('m7', 'visitor-3', '三层厕所在哪', 100)
    assert heard.awake and heard.source is Source.REMOTE and heard.sender_id == 'visitor-3'


def test_asr_json_payload():
    payload = json.dumps({'text': '小范小范 停止', 'kws_triggered': True, 'utterance_id': 'j1'},
                         ensure_ascii=False)
    heard = from_asr_json(payload, 'fallback', 100)
    assert heard == Utterance(Source.ASR, '小范小范 停止', True, 'j1')


def test_asr_json_without_id_uses_the_fallback_and_honours_is_final():
    assert from_asr_json('{"text": "x", "kws_triggered": false}', 'f9', 100).utterance_id == 'f9'
    partial = from_asr_json('{"text": "x", "kws_triggered": true, "is_final": false}', 'f', 100)
    assert isinstance(partial, Dropped) and partial.reason == 'not_final'


@pytest.mark.parametrize('payload', [
    'not json', '{"text": "x"}', '{"kws_triggered": true}', '[1, 2]', '"text"', '',
    '{"text": 5, "kws_triggered": "maybe"}', '{' * 5000,
])
def test_malformed_json_is_dropped_with_a_reason(payload):
    dropped = from_asr_json(payload, 'f1', 100)
    assert isinstance(dropped, Dropped) and dropped.reason == 'malformed_json'
    assert dropped.detail and len(dropped.detail) <= 200


@given(st.text(max_size=300))
def test_any_text_gives_an_utterance_or_a_reasoned_drop(text):
    result = from_remote('m', 's', text, 200)
    if isinstance(result, Utterance):
        assert result.text == clean(text) and 0 < len(result.text) <= 200
    else:
        assert result.reason in ('empty', 'too_long')


@given(st.binary(max_size=200))
def test_arbitrary_bytes_as_json_never_raise(raw):
    result = from_asr_json(raw.decode('utf-8', errors='replace'), 'f', 100)
    assert isinstance(result, (Utterance, Dropped))
