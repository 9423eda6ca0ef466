"""The document's JSON (003, JSON Mode / State Only Mode / 讨论预案模式), as models.

``state_card`` holds exactly pending_questions, should_speak and
can_end_discussion; a discuss answer is exactly {"state_card", "utterance"},
a refresh answer exactly {"state_card"}, a plan exactly its three lists.
``extra='forbid'`` makes a previous card with any other field a clear error,
and ``schema()`` is what ``config/schemas/pbl-ta.schema.json`` holds (``python
-m robot_skills.pbl_ta.card`` rewrites it), so outside parties can check
the answers without this code.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from robot_skills.runtime import paths

SCHEMA_FILE = 'schemas/pbl-ta.schema.json'


class Exact(BaseModel):
    model_config = ConfigDict(extra='forbid', frozen=True, strict=True)


class StateCard(Exact):
    pending_questions: list[str]
    should_speak: bool
    can_end_discussion: bool


class DiscussAnswer(Exact):
    state_card: StateCard
    utterance: str


class RefreshAnswer(Exact):
    state_card: StateCard


class PlanAnswer(Exact):
    must_discuss_points: list[str]
    likely_misreadings: list[str]
    trigger_questions: list[str]


def schema() -> dict:
    """One JSON Schema with a definition per mode's answer."""
    defs = {}
    for model in (PlanAnswer, DiscussAnswer, RefreshAnswer):
        one = model.model_json_schema(ref_template='#/$defs/{model}')
        defs.update(one.pop('$defs', {}))
        defs[model.__name__] = one
    return {'$schema': 'https://json-schema.org/draft/2020-12/schema',
            'title': 'pbl_ta answers (003): plan, discuss, refresh', '$defs': defs,
            'oneOf': [{'$ref': f'#/$defs/{name}'}
                      for name in ('PlanAnswer', 'DiscussAnswer', 'RefreshAnswer')]}


def main() -> None:
    """Write the JSON Schema to config/ (run after changing the models)."""
    paths.write_schema(SCHEMA_FILE, schema())


if __name__ == '__main__':
    main()
