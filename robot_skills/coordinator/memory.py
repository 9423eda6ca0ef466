"""What the coordinator keeps in memory only, bounded and expiring.

"这次不要记忆" means nothing of the learner's next requests reaches the store: while memory is
paused, dispatches (for dedupe) and queued reminders (for merging) live here instead,
and are forgotten after their window or when the process ends. A learner in the crisis
flow (referred, not yet back to learning) is remembered here too, with the region once
named: never in the store, never longer than the flow's window of silence. How often a
handover was refused (the document allows one resubmission) is counted here too: a
refused input writes nothing to the store, and a flood of refused handovers cannot grow
it.

Every map is bounded (``MAX_KEYS`` learners or handovers, ``MAX_PER_LEARNER`` entries
each, the oldest forgotten first), so no input can grow memory without limit.

Thread-safe: one lock around every method (the node's workers share one Memory).
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any, TypeVar

from robot_skills.coordinator.core import CrisisFlow

MAX_KEYS = 10_000
MAX_PER_LEARNER = 256
F = TypeVar('F', bound=Callable[..., Any])


def _locked(method: F) -> F:
    @functools.wraps(method)
    def locked(self: Memory, *args: Any) -> Any:
        with self._lock:
            return method(self, *args)
    return locked  # type: ignore[return-value]


class _Bounded(OrderedDict[str, Any]):
    """An LRU map of at most ``MAX_KEYS`` keys."""

    def touch(self, key: str, default: Any) -> Any:
        value = self.setdefault(key, default)
        self.move_to_end(key)
        while len(self) > MAX_KEYS:
            self.popitem(last=False)
        return value


class Memory:
    """Dispatches, reminders and handover refusals that are never written to the store."""

    def __init__(self) -> None:
        self._dispatches = _Bounded()      # learner -> deque[(at, concept key, SKILL)]
        self._reminders = _Bounded()       # learner -> deque[(at, id, kind, content)]
        self._refused = _Bounded()         # handover key -> refusals
        self._crisis = _Bounded()          # learner -> (last message at, CrisisFlow)
        self._ids = itertools.count(-1, -1)   # negative: never a stored reminder's id
        self._lock = threading.Lock()

    @_locked
    def dispatch(self, learner_id: str, concept: str, skill: str, at: float) -> None:
        entries = self._dispatches.touch(learner_id, deque(maxlen=MAX_PER_LEARNER))
        entries.append((at, concept, skill))

    @_locked
    def recent(self, learner_id: str, since: float) -> set[tuple[str, str]]:
        """(concept key, SKILL) dispatched for the learner after ``since``."""
        return {(concept, skill) for at, concept, skill in self._dispatches.get(learner_id, ())
                if at > since}

    @_locked
    def remind(self, learner_id: str, kind: str, content: str, at: float) -> int:
        entries = self._reminders.touch(learner_id, deque(maxlen=MAX_PER_LEARNER))
        reminder_id = next(self._ids)
        entries.append((at, reminder_id, kind, content))
        return reminder_id

    @_locked
    def queued(self, learner_id: str, since: float) -> list[tuple[int, str, str]]:
        """(id, kind, content) of the reminders queued in memory since ``since``."""
        return [(rid, kind, content) for at, rid, kind, content
                in self._reminders.get(learner_id, ()) if at >= since]

    @_locked
    def crisis(self, learner_id: str, now: float, window: float) -> CrisisFlow | None:
        """The learner's crisis flow, unless ``window`` seconds passed without a message."""
        at, flow = self._crisis.get(learner_id, (0.0, None))
        return flow if flow is not None and now - at < window else None

    @_locked
    def hold_crisis(self, learner_id: str, region: str | None, now: float) -> None:
        self._crisis.touch(learner_id, None)
        self._crisis[learner_id] = (now, CrisisFlow(region))

    @_locked
    def leave_crisis(self, learner_id: str) -> None:
        self._crisis.pop(learner_id, None)

    @_locked
    def refusals(self, key: str) -> int:
        return int(self._refused.get(key, 0))

    @_locked
    def refuse(self, key: str) -> None:
        self._refused[key] = int(self._refused.touch(key, 0)) + 1
