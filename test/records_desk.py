"""Test helpers for learning_records: a store with a steady clock and readable ids."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path

from robot_skills.records.api import Records, Result, Store

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
LESSON = '# 牛顿第一定律\n\n' + '一切物体在没有受到力的作用时，总保持静止或匀速直线运动状态。' * 8
CADENCE = {'mode': 'scheduled', 'reminders': 'native',
           'slots': [{'weekday': 1, 'time': '19:30', 'tz': 'Asia/Shanghai'}]}


class Desk:
    """The records API as a teacher (agent) and a learner use it, one call per line."""

    def __init__(self, path: Path | str = ':memory:') -> None:
        ticks, ids = itertools.count(), itertools.count(1)
        self.skipped = timedelta()
        self.store = Store(path)
        self.records = Records(self.store, clock=lambda: T0 + self.skipped +
                               timedelta(seconds=next(ticks)),
                               new_id=lambda prefix: f'{prefix}_{next(ids)}')

    def skip(self, seconds: float) -> None:
        """Let time pass (every call already takes one second of the desk's clock)."""
        self.skipped += timedelta(seconds=seconds)

    def call(self, tool: str, **args) -> Result:
        return self.records.call(tool, args)

    def ok(self, tool: str, **args) -> dict:
        result = self.call(tool, **args)
        assert result.ok, result
        return result.result

    def refused(self, tool: str, code: str, **args) -> Result:
        result = self.call(tool, **args)
        assert not result.ok and result.code == code, result
        return result

    # ---- a typical pair, contract, course and lessons -------------------------------------

    def pair(self, learner: str = 'l1', name: str = '林小雨') -> str:
        self.ok('register_learner', learner_id=learner, display_name=name)
        return self.ok('create_pair', learner_id=learner, learner_display_name=name,
                       provider='anthropic', model='claude', display_name='小智')['pair_id']

    def contract(self, pair: str, establish: bool = True) -> str:
        contract = self.ok('propose_contract', pair_id=pair, goal='三个月读完高一力学',
                           cadence=CADENCE)['contract_id']
        if establish:
            self.ok('establish_contract', pair_id=pair, contract_id=contract)
        return contract

    def course(self, pair: str, contract: str = '', planned: int | None = 2) -> str:
        return self.ok('create_course', pair_id=pair, title='力学', contract_id=contract,
                       planned_lesson_count=planned)['course_id']

    def lesson(self, pair: str, course: str, publish: bool = True, progress: str = '') -> str:
        lesson = self.ok('add_lesson', pair_id=pair, course_id=course, title='牛顿第一定律',
                         content_markdown=LESSON)['lesson_id']
        if publish:
            self.ok('publish_lesson', pair_id=pair, lesson_id=lesson)
        if progress:
            self.ok('declare_lesson_progress', pair_id=pair, lesson_id=lesson, progress=progress)
        return lesson


def taught_pair(desk: Desk, lessons: int = 3) -> tuple[str, list[str]]:
    """A pair with ``lessons`` published lessons the learner declared learned."""
    pair = desk.pair()
    course = desk.course(pair, planned=lessons)
    return pair, [desk.lesson(pair, course, progress='completed_declared')
                  for _ in range(lessons)]


FRAME = '今天我们练受力分析，大约20分钟，做完三道题就算完成。'
