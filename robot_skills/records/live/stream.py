"""The live event stream: every learner event is appended in the same transaction as its
record, so the stream and the records cannot disagree (the node publishes it)."""

from __future__ import annotations

import json

from robot_skills.records.tools import Context


def emit(context: Context, pair_id: str, kind: str, session_id: str | None,
         payload: dict) -> None:
    context.store.run('INSERT INTO live_event (pair_id, kind, live_session_id, payload, at) '
                      'VALUES (?, ?, ?, ?, ?)', pair_id, kind, session_id,
                      json.dumps(payload, ensure_ascii=False), context.now())
