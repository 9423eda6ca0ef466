"""The role table of docs/skills/learning_records.md, made from ``TOOLS`` so it cannot drift."""

from __future__ import annotations

from robot_skills.records.api import TOOLS
from robot_skills.records.roles import Role


def role_table() -> str:
    """One Markdown row per tool: a ✓ under each role that may call it, and whether it reads."""
    roles = list(Role)
    rows = ['| tool | ' + ' | '.join(role.value for role in roles) + ' | reads only |',
            '|---|' + '---|' * len(roles) + '---|']
    for name in sorted(TOOLS):
        tool = TOOLS[name]
        marks = ' | '.join('✓' if role in tool.who else '' for role in roles)
        rows.append(f'| `{name}` | {marks} | {"✓" if tool.reads else ""} |')
    return '\n'.join(rows)


if __name__ == '__main__':
    print(role_table())
