"""What the coordinator keeps about a learner (pure values; stored by ``store.py``).

A linkage record is section 八's structure, one per linkage: a NamedTuple,
immutable and built from SQLite rows several times faster than a frozen
dataclass (the monthly report reads 10,000 of them). Consent bits are the
learner's settings (section 10, vocab §8); privacy holds the learner's choices
from 隐私与数据控制入口.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict


class LinkageRecord(NamedTuple):
    """日期 / 触发来源 / 涉及知识点 / 参与SKILL / 五个环节 / 结果与判断 (section 八)."""

    learner_id: str
    date: str
    trigger_source: str                 # 错题 | 复盘 | 计划 | 提醒
    concept: str
    skills: tuple[str, ...]
    correction: bool = False
    feynman: bool = False
    notes: bool = False
    plan: bool = False
    focus: bool = False
    result: str = ''
    root_cause: str = ''
    mastered: bool | None = None
    needs_retest: bool = False
    needs_plan: bool = False
    needs_focus: bool = False
    record_id: int = 0

    def as_text(self) -> str:
        """The record as the document lays it out, for viewing and export."""
        yes = {True: '是', False: '否', None: '未知'}
        return '\n'.join([
            f'日期：{self.date}', f'触发来源：{self.trigger_source}', f'涉及知识点：{self.concept}',
            f'参与SKILL：{"、".join(self.skills)}', f'错题本：{yes[self.correction]}',
            f'费曼测试：{yes[self.feynman]}', f'康奈尔笔记：{yes[self.notes]}',
            f'学习计划：{yes[self.plan]}', f'时间专注：{yes[self.focus]}',
            f'联动结果：{self.result}', f'根因判断：{self.root_cause}',
            f'是否真正掌握：{yes[self.mastered]}', f'是否需要复测：{yes[self.needs_retest]}',
            f'是否需要补计划：{yes[self.needs_plan]}',
            f'是否需要专注调整：{yes[self.needs_focus]}'])

    @classmethod
    def editable(cls) -> set[str]:
        """Fields a learner may correct (not who it belongs to or its number)."""
        return set(cls._fields) - {'learner_id', 'record_id'}


class ConsentBits(BaseModel):
    """A learner's consent settings; everything is off until the learner turns it on."""

    model_config = ConfigDict(extra='forbid')

    crossSkillSharing: bool = False          # noqa: N815 - the protocol's names
    emotionTrackingConsent: bool = False     # noqa: N815
    reminderConsent: bool = False            # noqa: N815
    teacherWritebackConsent: bool = False    # noqa: N815
    parentSharingConsent: bool = False       # noqa: N815
    emotionSharingWithParent: bool = False   # noqa: N815


@dataclass(frozen=True)
class Privacy:
    """The learner's privacy choices; pauses end at a time (``paused_until``, epoch s).

    ``delete_asked_at``: when "确定要删除吗" was asked (0: no deletion waits for an answer).
    """

    no_memory_until: float = 0.0
    no_sharing: bool = False
    paused_skills: dict[str, float] = field(default_factory=dict)   # SKILL -> until
    delete_asked_at: float = 0.0
    no_writeback_until: float = 0.0      # "不要写回档案/提醒": no record, no reminder

    @classmethod
    def from_json(cls, text: str) -> Privacy:
        """A stored row; one that cannot be read is ``DAMAGED``, the choice that keeps most."""
        try:
            data = json.loads(text)
            return cls(float(data.get('no_memory_until', 0.0)), bool(data.get('no_sharing')),
                       {str(k): float(v) for k, v in data.get('paused_skills', {}).items()},
                       float(data.get('delete_asked_at', 0.0)),
                       float(data.get('no_writeback_until', 0.0)))
        except (ValueError, TypeError, AttributeError):
            return DAMAGED

    def asking(self, now: float, window: float) -> bool:
        """Whether a deletion waits for its confirmation now (the question expires)."""
        return 0 < self.delete_asked_at <= now < self.delete_asked_at + window

    def remembers(self, now: float) -> bool:
        return now >= self.no_memory_until

    def writes_back(self, now: float) -> bool:
        return now >= self.no_writeback_until

    def paused(self, skill: str, now: float) -> bool:
        return self.paused_skills.get(skill, 0.0) > now


# A damaged privacy row reads as the most private choice: remember, share, write back nothing.
DAMAGED = Privacy(no_memory_until=float('inf'), no_sharing=True,
                  no_writeback_until=float('inf'))
