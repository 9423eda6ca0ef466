"""What a person said to the robot, from any input channel.

The three input channels of the contract (``asr/events``, ``remote_message`` and
``asr/json`` for drivers that publish JSON) are normalised here into one
``Utterance`` so cores never see transport details. Input that cannot be an
utterance (a partial ASR result, empty text, malformed JSON, text beyond the
size limit) becomes a ``Dropped`` value with a reason that is traced. The
JSON goes through the one wire parser (``wire.py``): depth, numbers and size
are checked before the model reads it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from robot_skills.model import wire


class Source(StrEnum):
    ASR = 'asr'
    REMOTE = 'remote'


@dataclass(frozen=True)
class Utterance:
    """One final utterance; ``awake`` is the wake word (always true for remote text)."""

    source: Source
    text: str
    awake: bool
    utterance_id: str
    sender_id: str = ''
    confidence: float = 1.0


@dataclass(frozen=True)
class Dropped:
    """Input that is not an utterance, with the reason (for tracing and replies).

    ``awake`` tells whether the person addressed the robot (the wake word, or
    any remote text), so a skill answers only input it would have answered.
    """

    source: Source
    reason: str
    utterance_id: str = ''
    sender_id: str = ''
    detail: str = ''
    awake: bool = False


class AsrJson(BaseModel):
    """The payload of ``asr/json``: ``{"text": ..., "kws_triggered": ...}``."""

    model_config = ConfigDict(extra='ignore')

    text: str
    kws_triggered: bool
    is_final: bool = True
    utterance_id: str = ''
    confidence: float = 1.0


def clean(text: str) -> str:
    """Strip surrounding space and control characters an ASR or keyboard may leave."""
    return ''.join(ch for ch in text if unicodedata.category(ch) != 'Cc').strip()


def from_asr(utterance_id: str, text: str, kws_triggered: bool, is_final: bool,
             confidence: float, max_chars: int) -> Utterance | Dropped:
    if not is_final:
        return Dropped(Source.ASR, 'not_final', utterance_id)
    return _checked(Utterance(Source.ASR, clean(text), kws_triggered, utterance_id,
                              confidence=confidence), max_chars)


def from_remote(message_id: str, sender_id: str, text: str,
                max_chars: int) -> Utterance | Dropped:
    return _checked(Utterance(Source.REMOTE, clean(text), True, message_id, sender_id), max_chars)


def from_asr_json(payload: str, fallback_id: str, max_chars: int,
                  limits: wire.Limits = wire.LIMITS) -> Utterance | Dropped:
    try:
        data = wire.model(wire.json_value(payload, 'data', limits), AsrJson, 'data')
    except wire.WireError as error:
        return Dropped(Source.ASR, 'malformed_json', fallback_id,   # no key of theirs
                       detail=f'{error.field}: {error.problem}'[:200])
    return from_asr(data.utterance_id or fallback_id, data.text, data.kws_triggered,
                    data.is_final, data.confidence, max_chars)


def oversized(source: Source, utterance_id: str, sender_id: str, size: int,
              awake: bool) -> Dropped:
    """Input beyond the transport cap: refused unread, as too long."""
    return Dropped(source, 'too_long', utterance_id, sender_id, detail=f'{size} characters',
                   awake=awake)


def _checked(utterance: Utterance, max_chars: int) -> Utterance | Dropped:
    if not utterance.text:
        reason = 'empty'
    elif len(utterance.text) > max_chars:
        reason = 'too_long'
    else:
        return utterance
    return Dropped(utterance.source, reason, utterance.utterance_id, utterance.sender_id,
                   detail=f'{len(utterance.text)} characters', awake=utterance.awake)
