"""Reading a FRAME: what the session does, how long, and when it is done (004: FRAME content
须覆盖三要素: 本场做什么/多久/怎么算完).

A FRAME says them in any natural form: labelled fields (``做什么：… 多久：… 怎么算完：…``,
``Topic: … Time: … Done when: …``) or one running sentence; a duration in minutes or hours
(二十五分钟, 一个半小时, 1.5h, 三刻钟, 90 minutes, an hour and a half) or as clock times
(19:30-20:15, 到 20:30 结束, 八点半之前, until 8pm); "done" as a condition on the work,
often a number of exercises solved (做对三道题, 五道题都做完, 能独立画出受力图为止, done when
you solve 3 problems). Recognised deterministically, by patterns (no model call).

Near misses are not parts: a number that is no duration (三道题, 得 20 分, 讲三点), a
duration told about the past (上次用了 20 分钟), an end that is only the clock (时间到就结束
says no more than how long) or only the word itself (做完就结束), a "what" with no content
(我们开始吧, 学点东西, 练 20 分钟). The what is looked for outside the duration and the
done condition, so "做对三道题就结束" alone does not also say what is done.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CN = {'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7,
      '八': 8, '九': 9}
EN = {'a': 1, 'an': 1, 'one': 1, 'two': 2, 'three': 3, 'four': 4, 'five': 5, 'six': 6,
      'seven': 7, 'eight': 8, 'nine': 9, 'ten': 10, 'twenty': 20, 'thirty': 30, 'forty': 40,
      'forty-five': 45, 'fifty': 50, 'sixty': 60, 'ninety': 90, 'fifteen': 15}
# A number starts where a run of digits or numerals starts: a match is tried once per run, not
# at every character of it (a line of 5,000 digits stays linear).
DIGITS = r'(?<![\d.])\d+(?:\.\d+)?'
NUMERALS = '零〇一二两三四五六七八九十百'
NUM = rf'(?:{DIGITS}|(?<![{NUMERALS}])[{NUMERALS}]+)'
EN_NUM = rf'(?:{DIGITS}|an?|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|' \
         r'twenty|thirty|forty(?:-five)?|fifty|sixty|ninety)'
CUT = r'[，。；！？,;!?\n|｜、]'          # where a clause ends
PAST = re.compile(r'(?:上次|上回|上节课|昨天|前天|上周|之前那次)[^，。；]*?'
                  r'(?:用了|花了|练了|学了|做了|讲了|了)|\b(?:last\s+time|yesterday|last\s+week)\b.*?\b(?:took|spent|lasted|'
                  r'was|we\s+did)\b', re.IGNORECASE)

# ---- how long --------------------------------------------------------------------------------
HOURS = re.compile(
    rf'(?P<h>{NUM})\s*(?:个)?\s*(?P<half>半)?\s*(?:小时|钟头)(?:\s*(?:零)?\s*(?P<m>{NUM})\s*分钟?)?'
    rf'|(?P<h2>(?<![\d.])\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?)(?![A-Za-z])'
    rf'(?:\s*(?P<m2>\d+)\s*(?:m|min|mins|minutes?)?(?![A-Za-z]))?'
    rf'|(?P<hw>{EN_NUM})\s*-?\s*hours?\b(?P<andhalf>\s+and\s+a\s+half)?',
    re.IGNORECASE)
HALF_HOUR = re.compile(r'(?<![个\d零〇一二两三四五六七八九十百])半\s*(?:个)?\s*(?:小时|钟头)|'
                       r'half\s+an?\s+hour', re.IGNORECASE)
QUARTERS = re.compile(rf'(?P<q>{NUM})?\s*刻钟|(?P<qe>a|one|three)\s+quarters?\s+of\s+an\s+hour',
                      re.IGNORECASE)
MINUTES = re.compile(
    rf'(?P<lo>{NUM})\s*(?:[-~～到至]\s*(?P<hi>{NUM})\s*)?(?:分钟|min(?:ute)?s?\b)'
    rf'|(?P<e>{EN_NUM})\s*-?\s*(?:minutes?|mins?)\b', re.IGNORECASE)
CLOCK = (r'(?:(?:早上|上午|中午|下午|傍晚|晚上|今晚|夜里)\s*)?'
         r'(?:\d{1,2}[:：]\d{2}(?:\s*[ap]m)?|\d{1,2}\s*[ap]m|'
         r'(?:\d{1,2}|(?<![快慢早晚多少好差有再])[一二两三四五六七八九十]{1,3})\s*点'
         r'(?:半|一刻|三刻|\s*\d{1,2}\s*分?|'
         r'[一二三四五六七八九十]{1,3}分?)?)')
CLOCK_RANGE = re.compile(rf'(?P<a>{CLOCK})\s*(?:[-~～—–]+|到|至|to)\s*(?P<b>{CLOCK})',
                         re.IGNORECASE)
CLOCK_END = re.compile(
    rf'(?:到|至|直到|截止到?|until|till|by|ends?\s+at|finish(?:es)?\s+at)\s*(?P<a>{CLOCK})'
    rf'|(?P<b>{CLOCK})\s*(?:前|之前|以前|为止|结束|下课|收尾|截止)', re.IGNORECASE)

# ---- when done -------------------------------------------------------------------------------
SOLVED = r'(?:做对|答对|解出|解对|算对|做完|解完|写完|练完|完成|搞定|拿下|做出|连对|全对|通过)'
COUNTED = r'(?:道|个|组|题|张|页|套|次)'
EXERCISES = r'(?:题|练习|习题|例题|问题|判断题|选择题|卡片?|闪卡)'
COUNT_DONE = re.compile(
    rf'{SOLVED}\s*(?:至少|全部|所有|了)?\s*{NUM}\s*{COUNTED}?[^，。；,;\n]{{0,8}}?{EXERCISES}'
    rf'|{NUM}\s*{COUNTED}[^，。；,;\n]{{0,8}}?{EXERCISES}?[^，。；,;\n]{{0,4}}?'
    rf'(?:都|全|全部|全都)?\s*{SOLVED}'
    rf'|(?i:\b(?:solve[sd]?|solving|answer(?:s|ed)?|finish(?:es|ed)?|complete[sd]?|get|gets|'
    rf"got)\s+(?:at\s+least\s+)?(?:{EN_NUM})\s+(?:\w+\s+){{0,2}}?(?:problems?|exercises?|"
    rf'questions?|cards?)\b)')
DONE_MARK = re.compile(
    r'(?:就|即|便|才)(?:算|是|可以|能)?(?:完成|完事|完|结束|过关|达标|下课|收工|收尾|停|OK|ok)'
    r'|(?:就|即|便)(?:行|可以了|好)|即可|为止|算(?:是)?(?:完成|完|过关|达标)')
DONE_EN = re.compile(
    r"\b(?:done|finished|complete|over|we(?:'ll|\s+will)?\s+stop|we(?:'re|\s+are)\s+done|"
    r'stop)\s+(?:when|once|after|as\s+soon\s+as)\s+(?P<c>[^.;\n]+)'
    r'|\buntil\s+(?P<u>(?:you|she|we)\s+(?:can|could|have|has|solve|get|answer|are\s+able)'
    r'[^.;\n]*)', re.IGNORECASE)
LABEL_DONE = re.compile(
    r'(?:完成标准|完成条件|怎么算完|如何算完|何时算完|什么时候算完|算完|结束条件|结束标准|达标标准|'
    r'验收标准|标准|完成|done\s+when|done|finished\s+when|completion|exit\s+criteria|'
    r'success)\s*[:：=]\s*(?P<v>[^\n|｜；;]+)', re.IGNORECASE)
TIME_ONLY = re.compile(r'时间(?:一)?到了?|到点了?|铃(?:声)?响了?|时间用完|时间结束|time\s+is\s+up|'
                       r'the\s+bell|when\s+time\s+runs\s+out', re.IGNORECASE)
STRONG_START = re.compile(r'一直到|直到|等到|到|等|当|只要|一旦')
WEAK_START = re.compile(rf'能够|能|可以|把|{SOLVED}')
VACUOUS = re.compile(r'^(?:都|全|全部)?(?:做|练|讲|学|弄|搞|上|聊|读|看)?(?:完|好)(?:了)?$|'
                     r'^(?:完成|结束|学完|讲完|做完|练完)(?:了)?$')
FILLER = re.compile(r'[\s，。；！？,.;!?、：:|｜（）()]|我们|你|她|咱们|大家|就|即|便|等|当|的时候|'
                    r'以后|之后|后|了|吧|呢|啊|同学|今天|这场|本场|这节|这次|再|怎么|怎样|如何|何时|'
                    r'什么时候|多久|多长时间|几点')

# ---- what --------------------------------------------------------------------------------------
LABEL_WHAT = re.compile(
    r'(?:做什么|学什么|练什么|讲什么|聊什么|主题|内容|任务|目标|课题|重点|议题|本场|今天|这场|本次|'
    r'这次|本节|这节|本课|topic|goal|focus|agenda|what|today|plan|subject)\s*[:：=]\s*'
    r'(?P<v>[^\n|｜；;。/]+)',
    re.IGNORECASE)
IS_WHAT = re.compile(r'(?:主题|内容|任务|目标|课题|重点|议题)(?:是|为)\s*(?P<v>[^，。；,;\n]+)')
VERB_WHAT = re.compile(
    r'(?:练习|复习|学习|讨论|攻克|搞懂|弄懂|梳理|推导|分析|巩固|预习|默写|探究|整理|回顾|研究|'
    r'朗读|精读|训练|演练|拆解|理解|掌握|认识|了解|熟悉|突破|专练|重温|温习|比较|对比|总结|归纳|'
    r'操练|过一遍|刷|做|学|练|讲|读|背|聊|画|看|写|算|解|攻)'
    r'(?:一下|一遍|一会儿?|几道)?(?P<v>[^完对好到了出吧呢啊吗嘛着过起来去，。；！？,.;!?\n|｜][^，。；！？,.;!?\n|｜]*)')
BA_WHAT = re.compile(r'把(?P<v>[^，。；！？,.;!?\n|｜]{2,16}?)(?:练|学|复习|过一遍|讲|弄懂|搞懂|做|'
                     r'读|背|梳理|巩固|吃透)')
VERB_EN = re.compile(
    r'\b(?:work(?:ing)?\s+on|practi[sc]e|review|revise|learn|study|go(?:ing)?\s+over|discuss|'
    r'cover|focus\s+on|tackle|read|drill|explore|look\s+at|spend\b[^.;]*?\bon)\s+'
    r"(?P<v>(?!(?:it|this|that|something|stuff|things|a\s+bit)\b)[A-Za-z][\w'-]+(?:\s+[\w'-]+)*)",
    re.IGNORECASE)
VAGUE = re.compile(r'东西|什么|点儿?|一下|一些|些|事情|内容|吧|呢|啊|看')


@dataclass(frozen=True)
class Frame:
    what: str = ''
    how_long: str = ''
    duration_minutes: int | None = None
    when_done: str = ''

    @property
    def missing(self) -> list[str]:
        return [name for name, value in (('what', self.what), ('how long', self.how_long),
                                         ('when done', self.when_done)) if not value]

    def parts(self) -> dict:
        return {'what': self.what, 'how_long': self.how_long,
                'duration_minutes': self.duration_minutes, 'when_done': self.when_done}


def read_frame(text: str) -> Frame:
    """The three parts a FRAME states ('' for a part it does not state)."""
    done, done_spans = _when_done(text)
    how_long, minutes, time_spans = _how_long(text)
    masked = _mask(text, done_spans + time_spans)
    return Frame(what=_what(text, masked), how_long=how_long, duration_minutes=minutes,
                 when_done=done)


# ---- numbers and clocks ----------------------------------------------------------------------

def number(text: str) -> float | None:
    """An Arabic, Chinese (二十五, 两, 百) or English (an, twenty) number; None if it is none."""
    text = text.strip().lower()
    if not text:
        return None
    if re.fullmatch(r'\d+(?:\.\d+)?', text):
        return float(text)
    if text in EN:
        return float(EN[text])
    if not re.fullmatch(r'[零〇一二两三四五六七八九十百]+', text):
        return None
    total, current = 0, 0
    for char in text:
        if char == '百':
            total, current = total + (current or 1) * 100, 0
        elif char == '十':
            total, current = total + (current or 1) * 10, 0
        else:
            current = current * 10 + CN[char]
    return float(total + current)


def clock_minutes(text: str) -> int | None:
    """Minutes after midnight of a clock time (晚上 and pm add 12 h to an hour before 12)."""
    later = bool(re.search(r'下午|傍晚|晚上|今晚|夜里|pm', text, re.IGNORECASE))
    found = re.search(r'(\d{1,2})[:：](\d{2})', text)
    if found:
        hour, minute = int(found.group(1)), int(found.group(2))
    else:
        found = re.search(r'(\d{1,2}|[一二两三四五六七八九十]{1,3})\s*(?:点|[ap]m)'
                          r'(半|一刻|三刻|\s*(\d{1,2}|[一二三四五六七八九十]{1,3})分?)?', text,
                          re.IGNORECASE)
        if found is None:
            return None
        hour = int(number(found.group(1)) or 0)
        tail = found.group(2) or ''
        named = {'半': 30, '一刻': 15, '三刻': 45}.get(tail.strip())
        minute = named if named is not None else (
            int(number(found.group(3)) or 0) if found.group(3) else 0)
    if later and hour < 12:
        hour += 12
    if hour > 24 or minute > 59:
        return None
    return hour * 60 + minute


# ---- the parts --------------------------------------------------------------------------------

def _clauses(text: str):
    """(start, clause) for each clause of the text."""
    start = 0
    for cut in re.finditer(CUT, text):
        yield start, text[start:cut.start()]
        start = cut.end()
    yield start, text[start:]


def _how_long(text: str) -> tuple[str, int | None, list[tuple[int, int]]]:
    found: list[tuple[int, int, int | None]] = []
    for offset, clause in _clauses(text):
        if PAST.search(clause):
            continue                          # a duration told about another session
        taken: list[tuple[int, int]] = []

        def add(match: re.Match, minutes: float | None, offset: int = offset,
                taken: list = taken) -> None:
            span = (offset + match.start(), offset + match.end())
            if any(a < span[1] and span[0] < b for a, b in taken):
                return
            taken.append(span)
            found.append((*span, None if minutes is None else round(minutes)))

        for match in CLOCK_RANGE.finditer(clause):
            a, b = clock_minutes(match.group('a')), clock_minutes(match.group('b'))
            if a is not None and b is not None and b < a <= b + 12 * 60:
                b += 12 * 60                      # 晚上七点到八点: the end is in the evening too
            add(match, (b - a) if a is not None and b is not None and b > a else None)
        for match in HALF_HOUR.finditer(clause):
            add(match, 30)
        for match in QUARTERS.finditer(clause):
            count = number(match.group('q') or match.group('qe') or '一')
            add(match, None if count is None else count * 15)
        for match in HOURS.finditer(clause):
            if match.group('h') is not None:
                hours = number(match.group('h'))
                extra = (number(match.group('m')) or 0) / 60 if match.group('m') else 0
                value = None if hours is None else (hours + (0.5 if match.group('half') else 0)
                                                    + extra) * 60
            elif match.group('h2') is not None:
                value = float(match.group('h2')) * 60 + float(match.group('m2') or 0)
            else:
                hours = number(match.group('hw'))
                value = None if hours is None else (hours + (0.5 if match.group('andhalf')
                                                             else 0)) * 60
            add(match, value)
        for match in MINUTES.finditer(clause):
            value = number(match.group('hi') or match.group('lo') or match.group('e') or '')
            add(match, value)
        for match in CLOCK_END.finditer(clause):
            add(match, None)
    if not found:
        return '', None, []
    found.sort()
    first = found[0]
    minutes = next((m for *_, m in found if m), None)
    return text[first[0]:first[1]].strip(), minutes, [(a, b) for a, b, _ in found]


CONDITION_CHARS = 120      # the longest condition a done marker reads back over


def _condition(text: str) -> bool:
    """Whether the text before a done marker is a condition on the work (not the clock, not
    the bare word "done")."""
    rest = TIME_ONLY.sub('', text)
    for pattern in (CLOCK_RANGE, CLOCK_END, HOURS, HALF_HOUR, QUARTERS, MINUTES):
        rest = pattern.sub('', rest)
    rest = re.sub(CLOCK, '', rest)
    rest = FILLER.sub('', rest)
    return len(rest) >= 2 and not VACUOUS.match(rest)


def _when_done(text: str) -> tuple[str, list[tuple[int, int]]]:
    spans: list[tuple[int, int]] = []
    for match in LABEL_DONE.finditer(text):
        if _condition(match.group('v')):
            spans.append(match.span())
    for offset, clause in _clauses(text):
        if PAST.search(clause):
            continue
        for match in COUNT_DONE.finditer(clause):
            spans.append((offset + match.start(), offset + match.end()))
        previous = 0
        for match in DONE_MARK.finditer(clause):
            # the condition is what comes since the last marker, and a phrase, not a page:
            # each marker reads a bounded stretch, so a clause of markers stays linear
            floor = max(previous, match.start() - CONDITION_CHARS)
            before = clause[floor:match.start()]
            start = floor + _condition_start(before)
            if _condition(clause[start:match.start()]):
                spans.append((offset + start, offset + match.end()))
            previous = match.end()
    for match in DONE_EN.finditer(text):
        condition = match.group('c') or match.group('u') or ''
        if _condition(condition):
            spans.append(match.span())
    if not spans:
        return '', []
    spans.sort()
    return text[spans[0][0]:spans[0][1]].strip(' ，,。.'), spans


def _condition_start(before: str) -> int:
    """Where the condition before a done marker starts: after the last 直到 / 等 / 当 …,
    else at the first 能 / 把 / a solving verb, else at the clause's start (so a what said in
    the same clause is not taken for the condition)."""
    strong = [m.start() for m in STRONG_START.finditer(before)]
    if strong:
        return strong[-1]
    weak = WEAK_START.search(before)
    return weak.start() if weak else 0


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        for index in range(start, end):
            chars[index] = '，'
    return ''.join(chars)


def _content(value: str) -> bool:
    rest = VAGUE.sub('', FILLER.sub('', value))
    return len(rest) >= 2 and not re.fullmatch(r'[\d.]+', rest)


def _what(text: str, masked: str) -> str:
    """The what, looked for where neither the duration nor the done condition is (masked),
    given back as written."""
    for pattern in (LABEL_WHAT, IS_WHAT, VERB_WHAT, BA_WHAT, VERB_EN):
        for match in pattern.finditer(masked):
            if _content(match.group('v')):
                return text[match.start():len(masked[:match.end()].rstrip(' ，,。.'))]
    return ''
