"""Is a text a judgement of the learner's confidence or its calibration? (004: Confidence 主权立法)

"关于学习者 confidence 水平/校准好坏的推断——'她的把握度偏低' '她高估/低估自己' 这类判词——
不得作为 hypothesis 记录": such a judgement belongs to a reflection, never to the learner
model. The class is wider than its two examples, so it is recognised by what a sentence is
about, deterministically (no model call), in three families:

- ``confidence_level``: how sure she is (把握度, 有/没把握, 信心, 自信, 底气, 心里没底,
  拿不准; confident, self-doubt, sure of herself);
- ``over_under_confidence``: she rates herself too high or too low (高估/低估自己, 过度自信,
  自视过高, 妄自菲薄; overconfident, underestimates herself, sells herself short);
- ``self_assessment_vs_accuracy``: her own estimate against how she does (自评, 自我评估,
  以为自己会了, 对自己水平的估计偏高, 把握度与正确率不符, 校准; self-assessment,
  thinks she knows, calibrated).

Near misses are written: a statement about her skills that only shares a word
(她高估了摩擦力的作用 is a misconception about friction, 把握住要点 is grasping, 校准测力计
is a lab skill, 自信息 is information theory, a confidence interval is statistics,
她以为惯性是一种力 is a misconception, 她喜欢自己先推导 is a habit).
"""

from __future__ import annotations

import re

SELF = r'(?:自己|自身|自我|本人)'
OWN = r'(?<![独各亲擅来])自'      # 自 of oneself, not of 独自 / 各自 / 亲自 / 来自
ESTIMATE = r'(?:高估|低估|过高估计|过低估计|估高|估低|高看|低看|小看|看低|看轻|看扁|看高)'
ACCURACY = r'(?:正确率|准确率|对错|得分|分数|成绩|实际(?:水平|表现|掌握|情况)?|真实水平|表现)'
SURENESS = (r'(?:把握度?|信心|自信|自评|自我评估|自我评价|预估|预期|预计|确定(?:程度|度)|确信度|'
            r'笃定程度)')
MASTERY = (r'(?:已经|都|全|完全|早就|肯定)?(?:会了|会|懂了|懂|掌握了|掌握|学会了|学会|理解了|理解|'
           r'弄懂了|搞懂了|做对了|做对|答对了|答对|没问题|不会|不懂|没掌握|学不会|很差|不行|很强|'
           r'很弱|还行|不错|很好|不好)')

FAMILIES: dict[str, tuple[str, ...]] = {
    'confidence_level': (
        r'把握(?:度|感|程度|水平|等级|评分)',
        r'(?:有|没有?|缺乏|缺少|欠缺|毫无|几分|十足的?|很大的?|不大的?|足够的?|更有|多大的?|'
        r'没多大|没什么|不太有|很有|非常有|比较有|[高低中])把握(?![住好到])',
        r'把握(?:不大|很大|十足|不足|偏[高低]|较[高低]|很[高低]|太[高低]|过[高低]|[高低]|很足)',
        r'信心', OWN + r'信(?!息)', r'底气', r'自我效能', r'确信(?:度|程度|感)', r'笃定感',
        r'心里(?:没|有|发)?(?:底|虚)', r'心虚', r'发怵', r'拿不准', r'吃不准',
        r'不(?:确定|敢确定|敢肯定)' + SELF,
        r'(?i:\bconfiden(?:t|ce|tly)\b(?!\s+(?:intervals?|bands?|coefficients?)\b))',
        r'(?i:\bself-?(?:doubt|assur|belie|efficacy|trust)\w*)',
        r'(?i:\b(?:sure|unsure|certain|uncertain)\s+of\s+herself\b)',
        r'(?i:\b(?:doubts?|doubting|trusts?|trusting|believes?\s+in|second-guess\w*)\s+herself\b)',
        r'(?i:\bfeels?\s+(?:very\s+|quite\s+|not\s+|un)?(?:sure|certain|uncertain|insecure)\b)',
        r'(?i:\b(?:how|very|quite|not|never|always|too)\s+(?:sure|certain)\s+she\b)',
        r'(?i:\b(?:too|overly|very|quite|not|never|always)\s+(?:sure|certain)\s+(?:of|about)\s+'
        r'her\b)',
        r'(?i:\bdoubts?\s+her\s+own\b)',
        OWN + r'我怀疑', r'怀疑' + SELF,
        r'过(?:分|于|度)(?:确定|肯定|笃定)',
    ),
    'over_under_confidence': (
        ESTIMATE + r'了?(?:她|他)?' + SELF,
        r'(?:评估|评价|估计|估量|判断|看待|打分)' + SELF + r'[^，。；！？,.;!?]{0,10}?'
        r'(?:偏高|偏低|过高|过低|太高|太低|高了|低了|过于乐观|过于悲观)',
        OWN + r'视(?:过高|甚高|太高|过低|太低)', r'妄自菲薄', r'自我膨胀', r'眼高手低', r'自以为是',
        r'(?i:\b(?:over|under)[- ]?confiden\w*)',
        r'(?i:\b(?:over|under)[- ]?(?:estimat|rat|valu|sell)\w*\s+(?:herself|themselves|'
        r'her\s+own)\b)',
        r'(?i:\bthinks?\s+(?:too\s+)?(?:highly|little|poorly|much|less)\s+of\s+herself\b)',
        r'(?i:\bsells?\s+herself\s+short\b)',
        r'(?i:\b(?:over|under)[- ]?estimates?\s+(?:what|how\s+much)\s+she\s+(?:can|knows))',
    ),
    'self_assessment_vs_accuracy': (
        OWN + r'评', OWN + r'我(?:评估|评价|判断|认知|感觉|打分|预估|估计|评定)', OWN + r'估',
        OWN + r'认(?!真)', OWN + r'以为',
        r'(?:以为|认为|觉得|感觉|相信|断定|确信)' + SELF + r'[^，。；！？,.;!?]{0,8}?' + MASTERY,
        r'(?:对|把)' + SELF + r'的?.{0,10}?(?:估计|估得|评估|评价|判断|预估|预判|打分|评分|认识|'
        r'认知|感觉)(?:得|的)?(?:总是|一向|往往|常常|经常|一直|总|都)?'
        r'(?:过于|太过|过|偏|太|很|较|比较|明显|有点|有些|略|十分|非常)?(?:高|低|乐观|悲观|准|不准|'
        r'离谱|失真|保守)',
        r'(?:估计|预计|预期|以为|觉得)' + SELF + r'(?:能|会|可以)(?:考|得|拿|做对|答对)'
        r'[^。；;]{0,12}?(?:但|却|可|结果|实际|只)',
        r'(?:笃定|很确定|很肯定|有把握)[^。；;]{0,8}?(?:但|却|可|然而)[^。；;]{0,6}?'
        r'(?:错|不对|做错|答错)',
        SURENESS + r'.{0,12}?(?:和|与|跟|同|对比|相比|比|高于|低于|超过|不及|vs\.?)\S{0,6}?' +
        ACCURACY,
        ACCURACY + r'.{0,12}?(?:和|与|跟|同|对比|相比|比|不符|不匹配|脱节|背离|对不上)\S{0,8}?' +
        SURENESS,
        r'(?:自我|把握度?的?|信心的?|自评的?|自信的?)校准',
        r'她的校准(?:很|较|偏|不|太)?(?:差|好|准|失准|良好|不错)',
        r'(?i:\bself-?(?:assess|evaluat|rat|report|estimat|grad|percept|judg|monitor)\w*)',
        r'(?i:\bshe\s+(?:\w+\s+)?(?:thinks|believes|feels|assumes|is\s+convinced)\s+(?:that\s+)?she\s+'
        r"(?:knows|understands|has\s+(?:mastered|got|understood)|got|is\s+right|can(?:not|'t)?|"
        r"does(?:n't)?\s+(?:know|understand))\b)",
        r"(?i:\b(?:she|her\s+confidence|her\s+self-\w+)(?:'s|\s+(?:is|was|seems|appears|looks|"
        r'remains|stays))\s+(?:\w+\s+)?(?:mis|poorly|badly|well|under|over|not\s+well)[- ]?'
        r'calibrated\b)',
        r'(?i:\b(?:her|self|confidence|metacognitive)[- ]calibration\b(?!\s+of\s+(?:the|a|an)\s))',
        r'(?i:\bcalibration\s+(?:of|between)\s+(?:her|confidence|self))',
        r'(?i:\bpredicts?\s+her\s+own\b)',
        r'(?i:\bher\s+(?:certainty|confidence|sureness)\b[^.;]{0,30}?\b(?:exceed|outstrip|'
        r'outrun|outpace|match|lag|fall)\w*)',
        r'(?i:\b(?:rates?|judges?|estimates?|expects?)\s+her(?:self|\s+own)?\b[^.;]{0,30}?'
        r'\b(?:higher|lower|better|worse)\s+than\b)',
    ),
}
PATTERNS = {family: re.compile('|'.join(f'(?:{p})' for p in patterns))
            for family, patterns in FAMILIES.items()}


def confidence_judgement(text: str) -> str | None:
    """The family of confidence judgement ``text`` makes about her, or None when it makes
    none (an ordinary statement about her skills, habits or misconceptions)."""
    for family, pattern in PATTERNS.items():
        if pattern.search(text):
            return family
    return None
