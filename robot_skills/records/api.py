"""The records' Python API: every tool by name (gathered from each module's ``TOOLS``,
an explicit list), and the one way to call any of them: ``Records(Store(path)).call(name,
args)``.

``Records.call`` is the only entry, shared by the Python API, the ROS service
``records/call``, the MCP server and the command line (what it checks and answers:
``tools.py``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from robot_skills.adapters.database import StoreUnavailableError
from robot_skills.model import wire
from robot_skills.model.strict import describe
from robot_skills.records import (
    closure,
    concepts,
    contracts,
    courses,
    documents,
    erasure,
    exercises,
    export,
    learner,
    mindmaps,
    pairs,
    readbacks,
)
from robot_skills.records.errors import ToolError
from robot_skills.records.live import presence, sessions, threads
from robot_skills.records.roles import Principal
from robot_skills.records.store import Store
from robot_skills.records.tools import Context, Result, Tool

__all__ = ['TOOLS', 'Records', 'Result', 'Store']


def by_name(lists: Iterable[tuple[Tool, ...]]) -> dict[str, Tool]:
    """Every tool of ``lists`` by name; a name given twice is a bug, refused at import."""
    tools: dict[str, Tool] = {}
    for listed in lists:
        for found in listed:
            if found.name in tools:
                raise ValueError(f'two records tools are named {found.name!r}')
            tools[found.name] = found
    return tools


MODULES = (pairs, contracts, courses, documents, concepts, exercises, mindmaps, sessions,
           presence, threads, closure, learner, readbacks, export, erasure)
TOOLS = by_name(module.TOOLS for module in MODULES)


class Records:
    """The Python API: ``Records(store).call('create_pair', {...})``."""

    def __init__(self, store: Store, clock: Callable[[], datetime] | None = None,
                 new_id: Callable[[str], str] | None = None,
                 limits: wire.Limits = wire.LIMITS) -> None:
        self.context = Context(store)
        self.limits = limits
        if clock is not None:
            self.context.clock = clock
        if new_id is not None:
            self.context.new_id = new_id

    def call(self, name: str, arguments: dict | str | None = None,
             principal: Principal | None = None) -> Result:
        """Call a tool as ``principal`` (every transport passes its caller's; None is the
        process owning the store, acting in each tool's own role, unscoped)."""
        found = TOOLS.get(name)
        if found is None:
            return Result(False, 'VALIDATION', error=f'no tool {name[:80]!r}; tools: '
                                                     f'{", ".join(sorted(TOOLS))}')
        if principal is not None and principal.role not in found.who:
            roles = ', '.join(sorted(role.value for role in found.who))
            return Result(False, 'PERMISSION', error=f'{name} is for: {roles}; not for '
                                                     f'{principal.role.value}')
        data: Any = arguments
        try:
            data = self._object(arguments)
            args = found.args.model_validate(data)
            wire.checked(args.model_dump(), 'args_json', self.limits)   # after lax coercion
        except wire.WireError as error:
            return Result(False, 'VALIDATION', error=str(error),
                          field=error.named(found.args.model_fields))
        except ValidationError as error:
            return Result(False, 'VALIDATION', error='; '.join(describe(error, data)),
                          field=_location(error, found.args))
        store = self.context.store
        context = replace(self.context, principal=principal)     # per call: calls run in parallel
        try:
            with store.read() if found.reads else store.write():   # a refusal rolls back
                value = found.run(context, args)
                checked = found.result.model_validate(value)
        except ToolError as error:
            return _refused(error)
        except StoreUnavailableError as error:
            return Result(False, 'UNAVAILABLE', error=f'nothing was written: {error}; retry')
        except sqlite3.IntegrityError as error:      # the schema's own guard of a final state
            return Result(False, 'CONFLICT', error=str(error))
        except sqlite3.OperationalError as error:
            if not found.reads or 'readonly' not in str(error):
                raise
            return Result(False, 'INTERNAL', error=f'{name} is declared a read but tried to '
                                                   'write (nothing written): a bug')
        except ValidationError as error:
            return Result(False, 'INTERNAL', error=f'{name} returned a result that breaks its '
                                                   f'model (nothing written): {error}')
        return Result(True, result=checked.model_dump(mode='json', exclude_unset=True,
                                                     by_alias=True))

    def _object(self, arguments: dict | str | None) -> dict:
        """The arguments as an object: JSON text through the wire parser, a dict checked."""
        if isinstance(arguments, dict):
            return wire.checked(arguments, 'args_json', self.limits)
        return wire.json_object(arguments or '', 'args_json', self.limits)


def _refused(error: ToolError) -> Result:
    return Result(False, error.code, {'shortfall': error.shortfall} if error.shortfall else {},
                  error.message)


def _location(error: ValidationError, model: type[BaseModel]) -> str:
    """The argument the first problem is about (``args_json.since``), when the tool declares
    it: an unknown key is the caller's text and stays out of traces."""
    first = error.errors()[0]['loc']
    declared = bool(first) and first[0] in model.model_fields
    return f'args_json.{first[0]}' if declared else 'args_json'
