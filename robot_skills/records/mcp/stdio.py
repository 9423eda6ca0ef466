"""``records_mcp``: the records' MCP server over stdio, for an agent host on the robot.

    records_mcp --role agent|learner|operator [--learner-id L] [--ros-args -r __ns:=/tianyi]

The host starts it and speaks MCP on its stdin and stdout (``forward.py``):
the tools are listed from ``TOOLS`` and each call is forwarded over ROS to the
node's service for the role, so the store, the waits and their wake-ups stay in
the one ``learning_records`` node. The principal is this process's
configuration, not a token: whoever may start it is already on the robot's ROS
domain, where SROS2 governs the services (``config/sros2``).

Scope is what the service gives: ``records/call`` is the robot's unscoped agent
and ``records/learner/call`` scopes to the learner, so ``--learner-id`` for an
agent or an operator and ``--pair-id`` for anyone are refused rather than
pretended (a narrower agent connects over HTTP with a token scoped to its pairs
or its learner). Options come first, ROS arguments after ``--ros-args``; the
options are checked before the SDK and rclpy load (about two seconds), so a
wrong command line answers at once.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from robot_skills.records.roles import OPERATOR, Principal, Role, agent, learner
from robot_skills.runtime import stop


def main(argv: Sequence[str] | None = None) -> int:
    stop.install()          # SIGINT and SIGTERM end the script with status 0
    args = list(sys.argv[1:] if argv is None else argv)
    split = args.index('--ros-args') if '--ros-args' in args else len(args)
    try:
        principal = _principal(_parser().parse_args(args[:split]))
        from robot_skills.records.mcp.forward import serve  # the SDK and rclpy: slow to load
        serve(principal, args[split:])
    except BaseException:
        if stop.requested():
            return 0
        raise
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog='records_mcp', description='the learning records as '
                                     'an MCP server over stdio, forwarding to learning_records',
                                     epilog='ROS arguments follow --ros-args')
    parser.add_argument('--role', required=True, choices=[role.value for role in Role])
    parser.add_argument('--learner-id', default='', help="the learner's own id (--role learner)")
    parser.add_argument('--pair-id', action='append', default=[], help='refused: the ROS '
                        'services cannot narrow a call to pairs (use an HTTP token)')
    return parser


def _principal(options: argparse.Namespace) -> Principal:
    role = Role(options.role)
    if options.pair_id:
        _usage('--pair-id: the ROS services cannot narrow a call to pairs; connect over HTTP '
               'with a token scoped to them (token issue --pair-id)')
    if role is Role.LEARNER:
        if not options.learner_id:
            _usage('--role learner needs --learner-id')
        return learner(options.learner_id)
    if options.learner_id:
        _usage(f'--learner-id: records/call is the unscoped robot agent; --role {role.value} '
               'cannot be narrowed to one learner here (use an HTTP token)')
    return agent() if role is Role.AGENT else OPERATOR


def _usage(message: str) -> NoReturn:
    print(f'records_mcp: {message}', file=sys.stderr)
    raise SystemExit(2)
