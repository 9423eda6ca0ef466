"""Section 五's linkage judgements, one explicit function each (pure).

5.1 when to suggest a Feynman test, 5.2 when to bring in the study plan or the
time and focus coach, 5.3 when not to suggest a Feynman test. Each function
returns the reasons that hold, so traces say why. ``from_words`` reads an
error's context from the learner's own words (the words are data:
``routing.yaml`` triggers).
"""

from __future__ import annotations

from dataclasses import dataclass

from robot_skills.coordinator.lexicon import Triggers
from robot_skills.language.text import number

CONCEPT_UNCLEAR = '概念模糊'
WRONG_METHOD = '方法用错'
CALCULATION_SLIP = '计算失误'
READING_SLIP = '读题失误'
STUBBORN_THRESHOLD = 3          # vocab §5: "3 次口径"


@dataclass(frozen=True)
class ErrorContext:
    """What is known about one error (from a handover or the learner's words)."""

    error_type: str = ''
    method_boundary_unclear: bool = False
    occurrences: int = 0
    says_thought_understood: bool = False       # "我以为我懂了"
    says_understood_after_answer: bool = False  # 看过AI或答案后说"我明白了"
    concept_ok: bool = True
    record_only: bool = False                   # "今天只记录，不做深挖"


@dataclass(frozen=True)
class ExecutionContext:
    """How a task has been going (from the plan and reminder summaries)."""

    weeks_postponed: int = 0
    reminder_completion_low: bool = False       # 复习提醒收到但完成率持续偏低
    fails_at_start: bool = False                # 明知道要做，却总在开始环节失败
    plan_exists: bool = False
    interrupted_by_distraction: bool = False    # 执行总被分心打断
    knows_method: bool = False
    misses_deadlines: bool = False              # 计划写了，但总是无法按时完成
    reviews_neglected: bool = False             # 错题长期不回看，费曼测试总约不上


def from_words(text: str, words: Triggers) -> ErrorContext:
    """What the learner says about an error: its type, how often ("错了三次", "第四遍了",
    "每次都错"), "我以为我懂了", understood only after the answer, "只记录"."""
    error_type = next((kind for kind, phrases in words.error_types.items()
                       if any(p in text for p in phrases)), '')
    counts = [n for n in map(number, words.counts(text)) if n is not None]
    occurrences = int(max(counts, default=0))
    if any(p in text for p in words.many_times):
        occurrences = max(occurrences, STUBBORN_THRESHOLD)
    return ErrorContext(
        error_type=error_type, occurrences=occurrences,
        says_thought_understood=any(p in text for p in words.thought_understood),
        says_understood_after_answer=words.after_answer(text),
        concept_ok=not any(p in text for p in words.error_types.get(CONCEPT_UNCLEAR, ())),
        record_only=any(p in text for p in words.record_only))


def feynman_reasons(error: ErrorContext) -> list[str]:
    """5.1: the reasons to suggest a Feynman test."""
    reasons = []
    if error.error_type == CONCEPT_UNCLEAR:
        reasons.append('错误类型 = 概念模糊')
    if error.error_type == WRONG_METHOD and error.method_boundary_unclear:
        reasons.append('错误类型 = 方法用错，且边界感不清')
    if error.occurrences >= STUBBORN_THRESHOLD:
        reasons.append(f'同一知识点错误次数 >= {STUBBORN_THRESHOLD}')
    if error.says_thought_understood:
        reasons.append('学生说"我以为我懂了"')
    if error.says_understood_after_answer:
        reasons.append('看过AI或答案后说"我明白了"')
    return reasons


def feynman_exemptions(error: ErrorContext) -> list[str]:
    """5.3: the reasons not to link a Feynman test."""
    reasons = []
    if error.error_type == CALCULATION_SLIP:
        reasons.append('明显的计算失误')
    if error.error_type == READING_SLIP and error.concept_ok:
        reasons.append('明显的读题失误，且概念本身没问题')
    if error.record_only:
        reasons.append('学生明确要求"今天只记录，不做深挖"')
    return reasons


def suggest_feynman(error: ErrorContext) -> bool:
    return bool(feynman_reasons(error)) and not feynman_exemptions(error)


def plan_reasons(execution: ExecutionContext) -> list[str]:
    """5.2 (1, 3) and 4.2 case one: bring in the study planner."""
    reasons = []
    if execution.weeks_postponed >= 2:
        reasons.append('同一任务连续两周拖延')
    if execution.fails_at_start:
        reasons.append('明知道要做，却总在开始环节失败')
    if execution.knows_method and execution.weeks_postponed >= 1:
        reasons.append('学生知道方法，但连续拖延没执行')
    if execution.reviews_neglected:
        reasons.append('错题长期不回看，费曼测试总约不上：检查计划安排')
    return reasons


def focus_reasons(execution: ExecutionContext) -> list[str]:
    """5.2 (2, 4) and 4.2 case two: bring in the time and focus coach."""
    reasons = []
    if execution.reminder_completion_low:
        reasons.append('复习提醒收到但完成率持续偏低')
    if execution.plan_exists and execution.interrupted_by_distraction:
        reasons.append('计划存在，但执行总被分心打断')
    if execution.plan_exists and execution.misses_deadlines:
        reasons.append('计划写了，但总是无法按时完成')
    if execution.reviews_neglected:
        reasons.append('错题长期不回看，费曼测试总约不上：检查专注阻力')
    return reasons
