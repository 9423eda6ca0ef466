"""The five-dimension monthly report and the system health check (pure).

The report is made only when the learner asks or agrees; otherwise the only
thing said is the offer "这个月要不要做一次全景月报？". It reads only the
records the learner authorised (cross-SKILL sharing on, sharing not turned
off) of the current month. Without such data it is a session-only report that
says "本报告只覆盖你刚才告诉我的部分" and contains no number at all. With data,
each of the five dimensions gets figures and a conclusion, then the synthesis
(strongest and weakest link) and exactly one next action.

The health check reads the same records: six indicators, each healthy only on
evidence (no record is not healthy), and the reading 5-6 / 3-4 / 0-2.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from robot_skills.coordinator.lexicon import HealthPhrases, ReportPhrases
from robot_skills.coordinator.records import LinkageRecord

STUBBORN = 3
CONCEPT_UNCLEAR = '概念模糊'


@dataclass(frozen=True)
class Report:
    generated: bool
    session_only: bool
    text: str
    data: dict


@dataclass(frozen=True)
class Dimension:
    name: str
    figures: dict
    score: float | None       # 0-1, how healthy; None without data
    conclusion: str


def monthly_report(records: Sequence[LinkageRecord], month: str, agreed: bool,
                   authorised: bool, session_notes: str, offer: str, session_note: str,
                   phrases: ReportPhrases) -> Report:
    if not agreed:
        return Report(False, False, offer, {})
    mine = [r for r in records if r.date.startswith(month)] if authorised else []
    if not mine:
        return _session_only(session_notes, session_note, phrases)
    dimensions = _dimensions(mine, phrases.dimensions)
    lines = [phrases.title]
    for number, dimension in zip('①②③④⑤', dimensions, strict=True):
        figures = '，'.join(f'{k}：{v}' for k, v in dimension.figures.items())
        lines += [f'{number} {dimension.name}', f'{figures}。{dimension.conclusion}']
    scored = [d for d in dimensions if d.score is not None]
    lines.append(phrases.synthesis)
    if scored:
        strongest = max(scored, key=lambda d: d.score or 0.0)
        weakest = min(scored, key=lambda d: d.score or 0.0)
        lines += [phrases.strongest.format(name=strongest.name),
                  phrases.weakest.format(name=weakest.name), phrases.next,
                  phrases.actions[weakest.name]]
    else:
        lines += [phrases.not_enough, phrases.next, phrases.session_action]
    return Report(True, False, '\n'.join(lines), {
        'month': month, 'records': len(mine),
        'dimensions': {d.name: {'figures': d.figures, 'score': d.score} for d in dimensions}})


def _session_only(notes: str, note: str, phrases: ReportPhrases) -> Report:
    said = phrases.session_said.format(notes=notes) if notes.strip() else phrases.no_data
    lines = [phrases.title, note]
    for number, name in zip('①②③④⑤', phrases.dimensions, strict=True):
        lines += [f'{number} {name}', said if _mentions(notes, name) else phrases.no_data]
    lines += [phrases.synthesis, phrases.not_enough, phrases.next, phrases.session_action]
    return Report(True, True, '\n'.join(lines), {'session_only': True})


def _mentions(notes: str, dimension: str) -> bool:
    words = {'错题维度': ('错', '题'), '理解维度': ('懂', '理解', '费曼'),
             '知识沉淀维度': ('笔记', '记'), '计划执行维度': ('计划', '拖'),
             '时间专注维度': ('专注', '分心', '时间')}[dimension]
    return any(w in notes for w in words)


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _dimensions(records: Sequence[LinkageRecord], names: list[str]) -> list[Dimension]:
    concepts = {r.concept for r in records}
    errors = [r for r in records if r.correction]
    error_counts = Counter(r.concept for r in errors)
    stubborn = sorted(c for c, n in error_counts.items() if n >= STUBBORN)
    conquered = sorted({r.concept for r in errors if r.mastered})
    feynman = [r for r in records if r.feynman]
    mastered = [r for r in feynman if r.mastered]
    blind = sorted({r.concept for r in feynman if r.mastered is False})
    with_notes = {r.concept for r in records if r.notes}
    plans = [r for r in records if r.plan]
    focus = [r for r in records if r.focus]
    causes = Counter(r.root_cause for r in errors if r.root_cause)
    return [
        Dimension(names[0], {'错题联动': len(errors), '错误类型分布': dict(causes) or '无',
                             '顽固弱项': '、'.join(stubborn) or '无',
                             '已攻克': '、'.join(conquered) or '无'},
                  _ratio(len(error_counts) - len(stubborn), len(error_counts)),
                  '有反复出错的知识点。' if stubborn else '没有反复三次以上的错误。'),
        Dimension(names[1], {'费曼测试': len(feynman), '真正掌握': len(mastered),
                             '主要盲区': '、'.join(blind) or '无'},
                  _ratio(len(mastered), len(feynman)),
                  '理解还有盲区。' if blind else '测过的知识点都掌握了。'),
        Dimension(names[2], {'有笔记的知识点': len(with_notes), '涉及知识点': len(concepts),
                             '沉默的知识点': len(concepts - with_notes)},
                  _ratio(len(with_notes), len(concepts)),
                  '多数知识点还没有沉淀。' if len(with_notes) * 2 < len(concepts)
                  else '多数知识点有笔记。'),
        Dimension(names[3], {'计划联动': len(plans),
                             '需要补计划': sum(1 for r in plans if r.needs_plan)},
                  _ratio(sum(1 for r in plans if not r.needs_plan), len(plans)),
                  '计划执行要补。' if any(r.needs_plan for r in plans) else '计划执行正常。'),
        Dimension(names[4], {'专注联动': len(focus),
                             '需要专注调整': sum(1 for r in focus if r.needs_focus)},
                  _ratio(sum(1 for r in focus if not r.needs_focus), len(focus)),
                  '专注需要调整。' if any(r.needs_focus for r in focus) else '专注状态稳定。'),
    ]


@dataclass(frozen=True)
class Health:
    healthy_count: int
    reading: str
    text: str
    indicators: dict[str, str]


def health_check(records: Sequence[LinkageRecord], reminders_sent: int,
                 reminders_answered: int, phrases: HealthPhrases) -> Health:
    unclear = [r for r in records if r.root_cause == CONCEPT_UNCLEAR]
    concepts = {r.concept for r in records}
    plans = [r for r in records if r.plan]
    focus = [r for r in records if r.focus]
    evidence: list[bool | None] = [
        (any(r.correction for r in records)
         and all(r.correction for r in records if r.trigger_source == '错题')) if records else None,
        _majority(sum(1 for r in unclear if r.feynman), len(unclear)),
        _majority(len({r.concept for r in records if r.notes}), len(concepts)),
        _majority(sum(1 for r in plans if not r.needs_plan), len(plans)),
        _majority(sum(1 for r in focus if not r.needs_focus), len(focus)),
        _majority(reminders_answered, reminders_sent),
    ]
    words = {True: phrases.healthy, False: phrases.unhealthy, None: phrases.no_record}
    indicators = {name: words[value] for name, value in zip(phrases.indicators, evidence,
                                                              strict=True)}
    count = sum(1 for value in evidence if value)
    reading = phrases.readings['good' if count >= 5 else 'partial' if count >= 3 else 'broken']
    lines = [phrases.title, *(f'指标{n} {name}：{state}' for n, (name, state) in
                              zip('①②③④⑤⑥', indicators.items(), strict=True)),
             f'{count}项健康：{reading}']
    return Health(count, reading, '\n'.join(lines), indicators)


def _majority(part: int, whole: int) -> bool | None:
    return None if not whole else part * 2 >= whole
