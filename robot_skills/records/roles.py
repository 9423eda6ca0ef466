"""Who may call which records tool, and on whose records (issue 18).

Document 004 writes its tools for the teacher, "老师(agent)"; a few are the
learner's own acts on her pages (her name, her signature, her verdicts, her
answers, her close bell); and the people who run a deployment (operators)
read and export. Every tool declares its roles (``@tool(..., who=...)``) and
every call through a transport carries a ``Principal``: its role and the
scope it may touch. ``Records.call`` refuses a tool the role may not call and
``Context.pair`` refuses a pair outside the scope, both with PERMISSION and
before anything runs, so the store never changes on a refusal. The check is
the core's: ROS, MCP and the command line only say who is calling.

Scope: a learner principal touches only her own pairs (her ``learner_id``);
an agent principal touches every pair (``learner_id`` and ``pair_ids``
empty), one learner's pairs, or the listed pairs; an operator every pair.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Role(StrEnum):
    AGENT = 'agent'         # the teacher of document 004 (老师(agent))
    LEARNER = 'learner'     # the learner, from her own pages
    OPERATOR = 'operator'   # the people who run the deployment (command line)


AGENT = frozenset({Role.AGENT})
LEARNER = frozenset({Role.LEARNER})
READER = frozenset({Role.AGENT, Role.OPERATOR})                # the teacher's reads
SHARED_READ = frozenset({Role.AGENT, Role.LEARNER, Role.OPERATOR})   # her materials


@dataclass(frozen=True)
class Principal:
    """Who calls: a role and the learner or pairs it may touch (empty: every one)."""

    role: Role
    learner_id: str = ''
    pair_ids: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.role is Role.LEARNER and not self.learner_id:
            raise ValueError('a learner principal names her learner_id')
        if self.role is Role.OPERATOR and (self.learner_id or self.pair_ids):
            raise ValueError('an operator principal is not scoped')

    @property
    def unscoped(self) -> bool:
        return not self.learner_id and not self.pair_ids

    def describe(self) -> str:
        """For traces and errors: the role and the kind of scope, never a learner's name."""
        scope = ('every pair' if self.unscoped else
                 'her pairs' if self.role is Role.LEARNER else
                 "one learner's pairs" if self.learner_id else f'{len(self.pair_ids)} pair(s)')
        return f'{self.role.value} ({scope})'


def agent(learner_id: str = '', pair_ids: frozenset[str] = frozenset()) -> Principal:
    return Principal(Role.AGENT, learner_id, pair_ids)


def learner(learner_id: str) -> Principal:
    return Principal(Role.LEARNER, learner_id)


OPERATOR = Principal(Role.OPERATOR)
