"""verify_prep's validator (004: 备课收尾必调), also the publish gate's.

One implementation judges a lesson across its parts: the text's format,
its concepts, the flashcards they reference, its exercises' concept
references and its mind maps' topology. Each check returns pass, skip
(nothing of that kind to check), a warning (⚠️, looked at by a person) or a
failure (❌, blocks publishing). A course is judged lesson by lesson in
order, and its status is the worst of them. The compact report carries the
status, every error and warning verbatim and the counts of passed and
skipped checks; the verbose one every check.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from robot_skills.records.documents import h1_headings
from robot_skills.records.mindmaps import stored_problems
from robot_skills.records.store import Store
from robot_skills.records.tools import ToolResult

Verdict = Literal['pass', 'skip', 'warn', 'fail']
EMPTY_LINK = re.compile(r'\[[^\]]*\]\(\s*\)')
PLACEHOLDER = re.compile(r'\b(TODO|TBD|FIXME|XXX)\b|lorem ipsum|待补|待填|占位', re.IGNORECASE)
SHORTEST, LONGEST = 200, 20000


@dataclass(frozen=True)
class Check:
    id: str
    verdict: Verdict
    message: str = ''


class CheckRow(ToolResult):
    id: str
    result: Verdict
    message: str


class Counts(ToolResult):
    pass_: int = Field(alias='pass')
    skip: int


class LessonReport(ToolResult):
    lesson_id: str
    title: str
    status: Literal['PASS', 'PASS_WITH_WARNINGS', 'FAIL']
    errors: list[str]
    warnings: list[str]
    check_counts: Counts
    checks: list[CheckRow] | None = None


class Report(ToolResult):
    """verify_prep's answer: one lesson's report, or a course's."""

    lesson_id: str | None = None
    title: str | None = None
    status: Literal['PASS', 'PASS_WITH_WARNINGS', 'FAIL'] | None = None
    errors: list[str] | None = None
    warnings: list[str] | None = None
    check_counts: Counts | None = None
    checks: list[CheckRow] | None = None
    course_id: str | None = None
    lesson_count: int | None = None
    overall_status: Literal['PASS', 'PASS_WITH_WARNINGS', 'FAIL'] | None = None
    lessons: list[LessonReport] | None = None


def _content(store: Store, lesson: sqlite3.Row) -> list[Check]:
    text = lesson['content_markdown']
    checks = [Check('content.non_empty', 'fail' if not text.strip() else 'pass',
                    '❌ 课文为空' if not text.strip() else '')]
    headings = h1_headings(text)
    checks.append(Check('content.h1', 'fail' if not headings else
                        'warn' if len(headings) > 1 else 'pass',
                        '❌ 课文没有一级标题 (# …)' if not headings else
                        f'⚠️ 课文有 {len(headings)} 个一级标题' if len(headings) > 1 else ''))
    first = headings[0] if headings else ''
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


def _concepts(store: Store, lesson: sqlite3.Row) -> list[Check]:
    concepts = store.all('SELECT concept_id, name, flashcard_ids FROM concept WHERE lesson_id = ?',
                         lesson['lesson_id'])
    named = [(c['name'], card) for c in concepts for card in json.loads(c['flashcard_ids'])]
    cards = _existing(store, 'flashcard', [card for _, card in named])
    dangling = [f'{name}→{card}' for name, card in named if card not in cards]
    return [Check('concepts.coverage', 'pass' if concepts else 'warn',
                  '' if concepts else '⚠️ 这节课还没有登记概念'),
            Check('flashcards.references', 'skip' if not concepts else
                  'fail' if dangling else 'pass',
                  f'❌ 概念引用了不存在的闪卡：{"、".join(dangling)}' if dangling else '')]


def _exercises(store: Store, lesson: sqlite3.Row) -> list[Check]:
    exercises = store.all('SELECT exercise_id, expected_concepts FROM exercise WHERE '
                          'lesson_id = ?', lesson['lesson_id'])
    named = [(e['exercise_id'], c) for e in exercises for c in json.loads(e['expected_concepts'])]
    known = _existing(store, 'concept', [concept for _, concept in named])
    dangling = [f'{exercise}→{c}' for exercise, c in named if c not in known]
    return [Check('exercises.references', 'skip' if not exercises else
                  'fail' if dangling else 'pass',
                  f'❌ 习题引用了不存在的概念：{"、".join(dangling)}' if dangling else '')]


def _existing(store: Store, table: str, ids: list[str]) -> set[str]:
    """Which of ``ids`` are rows of ``table`` (flashcard or concept): read by key, never the
    whole table, so a lesson check costs the same in a school as for one learner."""
    if not ids:
        return set()
    key = f'{table}_id'
    return {row[key] for row in store.all(f'SELECT {key} FROM {table} WHERE {key} IN '
                                          '(SELECT value FROM json_each(?))', json.dumps(ids))}


def _mindmaps(store: Store, lesson: sqlite3.Row) -> list[Check]:
    maps = store.all('SELECT mindmap_id, content FROM mindmap WHERE lesson_id = ?',
                     lesson['lesson_id'])
    broken = [f'{m["mindmap_id"]}: {p}' for m in maps
              for p in stored_problems(m['content'], lesson['content_markdown'])]
    return [Check('mindmap.topology', 'skip' if not maps else 'fail' if broken else 'pass',
                  '❌ 脑图不合规：' + '；'.join(broken) if broken else '')]


CHECKS: tuple[Callable[[Store, sqlite3.Row], list[Check]], ...] = (
    _content, _concepts, _exercises, _mindmaps)


def judge(store: Store, lesson: sqlite3.Row) -> list[Check]:
    return [check for family in CHECKS for check in family(store, lesson)]


def status(checks: list[Check]) -> str:
    if any(c.verdict == 'fail' for c in checks):
        return 'FAIL'
    return 'PASS_WITH_WARNINGS' if any(c.verdict == 'warn' for c in checks) else 'PASS'


def report(store: Store, lesson: sqlite3.Row, verbose: bool = False) -> dict:
    checks = judge(store, lesson)
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


def course_report(store: Store, lessons: list[sqlite3.Row], verbose: bool = False) -> dict:
    reports = [report(store, lesson, verbose) for lesson in lessons]
    order = ('PASS', 'PASS_WITH_WARNINGS', 'FAIL')
    worst = max((r['status'] for r in reports), key=order.index)
    return {'lesson_count': len(reports), 'overall_status': worst, 'lessons': reports}
