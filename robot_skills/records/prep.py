"""verify_prep's validator (004: 备课收尾必调), also the publish gate's.

One implementation judges a lesson: each check is a function returning
pass, skip, a warning (⚠️, looked at by a person) or a failure (❌, blocks
publishing). A course is judged lesson by lesson in order, and its status is
the worst of them. The compact report carries the status, every error and
warning verbatim and the counts of passed and skipped checks; the verbose one
every check. Checks of parts this store does not hold yet (concepts,
flashcards, exercises, mind maps: issue 7's remainder) report ``skip``.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Verdict = Literal['pass', 'skip', 'warn', 'fail']
H1 = re.compile(r'^# +\S', re.MULTILINE)
EMPTY_LINK = re.compile(r'\[[^\]]*\]\(\s*\)')
PLACEHOLDER = re.compile(r'\b(TODO|TBD|FIXME|XXX)\b|lorem ipsum|待补|待填|占位', re.IGNORECASE)
SHORTEST, LONGEST = 200, 20000


@dataclass(frozen=True)
class Check:
    id: str
    verdict: Verdict
    message: str = ''


def _content(lesson: sqlite3.Row) -> list[Check]:
    text = lesson['content_markdown']
    checks = [Check('content.non_empty', 'fail' if not text.strip() else 'pass',
                    '❌ 课文为空' if not text.strip() else '')]
    headings = H1.findall(text)
    checks.append(Check('content.h1', 'fail' if not headings else
                        'warn' if len(headings) > 1 else 'pass',
                        '❌ 课文没有一级标题 (# …)' if not headings else
                        f'⚠️ 课文有 {len(headings)} 个一级标题' if len(headings) > 1 else ''))
    first = next((line[2:].strip() for line in text.splitlines() if line.startswith('# ')), '')
    checks.append(Check('content.title', 'warn' if first and first != lesson['title'] else
                        'pass', f'⚠️ 一级标题「{first}」与课题「{lesson["title"]}」不一致'
                        if first and first != lesson['title'] else ''))
    size = len(text.strip())
    checks.append(Check('content.length', 'warn' if size < SHORTEST or size > LONGEST else
                        'pass', f'⚠️ 课文 {size} 字，建议 {SHORTEST}–{LONGEST} 字'
                        if size < SHORTEST or size > LONGEST else ''))
    checks.append(Check('content.links', 'fail' if EMPTY_LINK.search(text) else 'pass',
                        '❌ 课文有空链接 [..]()' if EMPTY_LINK.search(text) else ''))
    placeholder = PLACEHOLDER.search(text)
    checks.append(Check('content.placeholders', 'fail' if placeholder else 'pass',
                        f'❌ 课文留有占位「{placeholder.group(0)}」' if placeholder else ''))
    return checks


def _not_yet(lesson: sqlite3.Row) -> list[Check]:
    return [Check(name, 'skip') for name in ('concepts.coverage', 'flashcards.references',
                                             'exercises.references', 'mindmap.topology')]


CHECKS: tuple[Callable[[sqlite3.Row], list[Check]], ...] = (_content, _not_yet)


def judge(lesson: sqlite3.Row) -> list[Check]:
    return [check for family in CHECKS for check in family(lesson)]


def status(checks: list[Check]) -> str:
    if any(c.verdict == 'fail' for c in checks):
        return 'FAIL'
    return 'PASS_WITH_WARNINGS' if any(c.verdict == 'warn' for c in checks) else 'PASS'


def report(lesson: sqlite3.Row, verbose: bool = False) -> dict:
    checks = judge(lesson)
    result = {'lesson_id': lesson['lesson_id'], 'title': lesson['title'],
              'status': status(checks),
              'errors': [c.message for c in checks if c.verdict == 'fail'],
              'warnings': [c.message for c in checks if c.verdict == 'warn'],
              'check_counts': {'pass': sum(c.verdict == 'pass' for c in checks),
                               'skip': sum(c.verdict == 'skip' for c in checks)}}
    if verbose:
        result['checks'] = [{'id': c.id, 'result': c.verdict, 'message': c.message}
                            for c in checks]
    return result


def course_report(lessons: list[sqlite3.Row], verbose: bool = False) -> dict:
    reports = [report(lesson, verbose) for lesson in lessons]
    order = ('PASS', 'PASS_WITH_WARNINGS', 'FAIL')
    worst = max((r['status'] for r in reports), key=order.index)
    return {'lesson_count': len(reports), 'overall_status': worst, 'lessons': reports}
