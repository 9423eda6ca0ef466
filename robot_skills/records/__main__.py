"""The operators' command line over the same tools as ``records/call``.

    python -m robot_skills.records --list
    python -m robot_skills.records create_pair --args '{"learner_id": "l1", ...}' \
        [--store ~/.robot_skills/records.sqlite3]

Prints the result as JSON ({"ok", "code", "result", "error"}); exits 0 when
ok, 2 when the tool refused, 1 when the store cannot be opened.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from robot_skills.records.api import TOOLS, Records, Store
from robot_skills.runtime.database import StoreError


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m robot_skills.records',
                                     description='call one learning_records tool')
    parser.add_argument('tool', nargs='?', help='tool name (see --list)')
    parser.add_argument('--args', default='{}', help='the arguments as a JSON object')
    parser.add_argument('--store', default=os.path.expanduser('~/.robot_skills/records.sqlite3'),
                        help='the SQLite file (default: the node\'s default store_path)')
    parser.add_argument('--list', action='store_true', help='list the tools and exit')
    options = parser.parse_args(argv)
    if options.list or not options.tool:
        for name in sorted(TOOLS):
            print(f'{name}: {TOOLS[name].doc.splitlines()[0] if TOOLS[name].doc else ""}')
        return 0
    try:
        store = Store(options.store)
    except StoreError as error:
        print(f'cannot open the store: {error}', file=sys.stderr)
        return 1
    try:
        result = Records(store).call(options.tool, options.args)
    finally:
        store.close()
    print(json.dumps({'ok': result.ok, 'code': result.code, 'result': result.result,
                      'error': result.error}, ensure_ascii=False, indent=2, default=str))
    return 0 if result.ok else 2


if __name__ == '__main__':
    sys.exit(main())
