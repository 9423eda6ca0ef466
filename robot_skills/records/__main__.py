"""The operators' command line: the operator role over the records tools, and the MCP tokens.

    python -m robot_skills.records --list
    python -m robot_skills.records get_context --args '{"pair_id": "pair_…"}' \
        [--store ~/.robot_skills/records.sqlite3]
    python -m robot_skills.records token issue --role agent|learner|operator \
        [--learner-id L] [--pair-id P ...] [--days 30] [--label TEXT]
    python -m robot_skills.records token revoke TOKEN_ID
    python -m robot_skills.records token list

A tool call runs as the operator (roles.py): the operators read and export;
the teacher's pen and the learner's own acts are refused with PERMISSION.
Prints JSON ({"ok", "code", "result", "error"} for a tool); exits 0 when ok,
2 when refused, 1 when the store cannot be opened.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime

from robot_skills.adapters.database import StoreError
from robot_skills.records import access
from robot_skills.records.api import TOOLS, Records, Store
from robot_skills.records.roles import OPERATOR, Principal, Role

STORE = os.path.expanduser('~/.robot_skills/records.sqlite3')


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    options = (_token_parser() if argv[:1] == ['token'] else _tool_parser()).parse_args(argv)
    if getattr(options, 'list', False) or not getattr(options, 'tool', 'token'):
        for name in sorted(TOOLS):
            who = ', '.join(sorted(role.value for role in TOOLS[name].who))
            print(f'{name} [{who}]: {TOOLS[name].doc.splitlines()[0] if TOOLS[name].doc else ""}')
        return 0
    try:
        store = Store(options.store)
    except StoreError as error:
        print(f'cannot open the store: {error}', file=sys.stderr)
        return 1
    try:
        return _token(store, options) if argv[:1] == ['token'] else _tool(store, options)
    finally:
        store.close()


def _tool(store: Store, options: argparse.Namespace) -> int:
    result = Records(store).call(options.tool, options.args, OPERATOR)
    _print({'ok': result.ok, 'code': result.code, 'result': result.result,
            'error': result.error})
    return 0 if result.ok else 2


def _token(store: Store, options: argparse.Namespace) -> int:
    now = datetime.now(UTC)
    if options.verb == 'list':
        _print(access.listed(store, options.limit))
        return 0
    if options.verb == 'revoke':
        found = access.revoke(store, options.token_id, now)
        _print({'ok': found, 'token_id': options.token_id})
        return 0 if found else 2
    try:
        principal = Principal(Role(options.role), options.learner_id,
                              frozenset(options.pair_id))
        issued = access.issue(store, principal, options.days, now, options.label)
    except ValueError as error:
        print(f'cannot issue: {error}', file=sys.stderr)
        return 2
    _print({'token_id': issued.token_id, 'token': issued.token,
            'expires_at': issued.expires_at, 'principal': principal.describe()})
    return 0


def _tool_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog='python -m robot_skills.records',
                                     description='call one learning_records tool as the '
                                                 'operator, or manage MCP tokens (token -h)')
    parser.add_argument('tool', nargs='?', help='tool name (see --list)')
    parser.add_argument('--args', default='{}', help='the arguments as a JSON object')
    parser.add_argument('--store', default=STORE,
                        help="the SQLite file (default: the node's default store_path)")
    parser.add_argument('--list', action='store_true', help='list the tools and their roles')
    return parser


def _token_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog='python -m robot_skills.records token',
                                     description='the bearer tokens of the MCP server')
    parser.add_argument('token')
    verbs = parser.add_subparsers(dest='verb', required=True)
    issue = verbs.add_parser('issue', help='issue a token (printed once)')
    issue.add_argument('--role', required=True, choices=[role.value for role in Role])
    issue.add_argument('--learner-id', default='', help="a learner's own, or an agent's "
                                                        'one learner')
    issue.add_argument('--pair-id', action='append', default=[],
                       help="an agent's pair (repeat); none: every pair")
    issue.add_argument('--days', type=float, default=30.0, help='good for (default 30)')
    issue.add_argument('--label', default='', help='who holds it, for token list')
    revoke = verbs.add_parser('revoke', help='revoke a token by its id')
    revoke.add_argument('token_id')
    listing = verbs.add_parser('list', help='the newest tokens, without secrets')
    listing.add_argument('--limit', type=int, default=access.LISTED,
                         help=f'how many (default {access.LISTED})')
    for verb in (issue, revoke, listing):
        verb.add_argument('--store', default=STORE, help='the SQLite file')
    return parser


def _print(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2, default=str))


if __name__ == '__main__':
    sys.exit(main())
