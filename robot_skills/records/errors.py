"""The structured errors of every records tool (004): a code, a human message, a shortfall.

VALIDATION (the arguments are wrong), NOT_FOUND (no such record in this pair),
CONFLICT (the record's state forbids it: a second active pair, a re-grade
without ``regrade: true``, a final state), PERMISSION (the caller may not do
it: an agent editing a learner's mind map). ``shortfall`` carries what the
document asks to be given back structurally (a contract's missing courses and
lessons, the pair that already exists).
"""

from __future__ import annotations

from typing import Any, Literal

Code = Literal['VALIDATION', 'NOT_FOUND', 'CONFLICT', 'PERMISSION']


class ToolError(Exception):
    def __init__(self, code: Code, message: str, shortfall: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code: Code = code
        self.message = message
        self.shortfall = shortfall or {}


def validation(message: str, **shortfall: Any) -> ToolError:
    return ToolError('VALIDATION', message, shortfall)


def not_found(what: str, ident: object) -> ToolError:
    return ToolError('NOT_FOUND', f'no {what} {ident!r} in this pair')


def conflict(message: str, **shortfall: Any) -> ToolError:
    return ToolError('CONFLICT', message, shortfall)


def permission(message: str) -> ToolError:
    return ToolError('PERMISSION', message)
