"""The crisis exception: before anything else, never missed, hyperbole handled on purpose."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from pathlib import Path
from unittest.mock import patch

import pytest
import re2
from coordinator_talk import NOW, ask
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bench.crisis import corpus
from robot_skills.adapters.config import ConfigError, parse
from robot_skills.coordinator import crisis, match_ends, unnamed_runs
from robot_skills.coordinator.core import LearnerView, Request
from robot_skills.coordinator.lexicon import Crisis, has_span
from robot_skills.coordinator.service import CoordinatorService, Windows
from robot_skills.coordinator.store import Store
from robot_skills.runtime import paths

POSITIVES = [
    '我不想活了', '我想死', '活着没意思', '我想自杀', '有时候想轻生', '我割腕了', '我想伤害自己', '我会弄伤自己',
    '我想跳楼', '我写了遗书', '我想结束自己的生命', '没有我他们会更好', '我想消失算了', '活不下去了', '我在攒安眠药',
    '同学一直欺负我', '我被他们打了', '有人威胁我要钱', '他们在勒索我', '我被同学孤立了很久', '爸爸打我', '我妈打我',
    '家里有人打我', '我不敢回家', '我被赶出家门了', '我爸喝醉了就打人', '我已经绝望了', '我每天都想哭', '我撑不下去了',
    '没人在乎我', '我一直都很崩溃', '我好想消失', '我经常打自己', '我被霸凌了', '这道题好难，而且我不想活了',
    '我想死，这次考试又没考好',
]
NEGATIVES = [
    '这道题要杀死我了', '作业烦死了', '数学难死了', '累死了', '今天热死了', '笑死我了', '考试把我逼疯了', '物理题要了我的命',
    '这道方程怎么解', '我做错了不知道为什么', '帮我生成全景月报', '我的学习系统运转得好吗', '提醒我明天复习', '丝绸之路',
    '死记硬背有用吗', '死海为什么浮力大', '这个函数的死区是什么', '杀菌的原理', '自由落体的速度', '游戏里我被打败了',
    '我把这道题打错了', '文言文里的死字怎么讲', '英语单词背不下来', '我总是拖延', '计划完不成', '这题是几何吗',
    '老师说这道题很要命', '背书累死人了', '我以为我懂了', '这个电路图看不懂',
]


@pytest.mark.parametrize('text', POSITIVES)
def test_every_crisis_signal_is_a_referral(coordinator, text):
    decision = coordinator.decide(Request('r', 'l', text), LearnerView(), NOW)
    assert decision.action == 'crisis_referral'
    assert decision.target_skill == '' and 'RecordReferral' in [
        write.__class__.__name__ for write in decision.writes]


@pytest.mark.parametrize('text', NEGATIVES)
def test_ordinary_and_hyperbolic_requests_are_not_referrals(coordinator, text):
    assert coordinator.decide(Request('r', 'l', text), LearnerView(), NOW).action != \
        'crisis_referral'


def test_at_least_thirty_of_each():
    assert len(POSITIVES) >= 30 and len(NEGATIVES) >= 30


def test_homework_hyperbole_gets_the_request_answered_and_a_check_in(coordinator):
    decision = coordinator.decide(Request('r', 'l', '这道题要杀死我了，这个方程怎么解'), LearnerView(), NOW)
    assert decision.action == 'route' and decision.subject == 'math'
    assert decision.reply_text.endswith('随时可以跟我说。') and decision.detail['hyperbole_check_in']


def test_hyperbole_never_hides_a_real_signal(coordinator):
    decision = coordinator.decide(Request('r', 'l', '作业烦死了，我真的不想活了'), LearnerView(), NOW)
    assert decision.action == 'crisis_referral'


def test_the_reply_is_steady_then_limits_then_an_adult_then_help(coordinator):
    reply = coordinator.decide(Request('r', 'l', '我不想活了'), LearnerView(), NOW).reply_text
    order = [reply.index(part) for part in ('不会评判你', '我是AI', '信任的大人', '哪个国家或地区', '110或120')]
    assert order == sorted(order)


@pytest.mark.parametrize('text, line', [('我在北京，我不想活了', '110或120'), ('我在香港，我想死', '999'),
                                        ('我在台北，我想自杀', '110或119')])
def test_a_known_region_gets_its_help_line_without_asking(coordinator, text, line):
    reply = coordinator.decide(Request('r', 'l', text), LearnerView(), NOW).reply_text
    assert line in reply and '哪个国家或地区' not in reply


@pytest.mark.parametrize('text', ['我想死，帮我生成全景月报', '查看我的联动记录，我不想活了', '提醒我复习，我想自杀'])
def test_the_crisis_comes_before_reports_privacy_and_reminders(coordinator, text):
    assert coordinator.decide(Request('r', 'l', text), LearnerView(), NOW).action == \
        'crisis_referral'


def test_only_the_fact_is_stored(service):
    ask(service, '我不想活了，我每天都在哭')
    assert service.store.referrals('l1') == [(NOW.timestamp(), '已转介')]
    assert service.store.records('l1') == []


def test_a_crisis_in_a_huge_request_is_still_found(coordinator):
    text = '这道题怎么做。' * 2000 + '我不想活了'
    assert coordinator.decide(Request('r', 'l', text), LearnerView(), NOW).action == \
        'crisis_referral'


# ---- the referral is a conversation -------------------------------------------------------

@pytest.mark.parametrize('answer, line', [('香港', '999'), ('我在台湾', '110或119'), ('臺灣', '110或119'),
                                          ('我在美国', '911'), ('Singapore', '995'),
                                          ('我在上海', '110或120'), ('在日本', '110或119'),
                                          ("I'm in the US", '911'), ('Hong Kong', '999'),
                                          ('英国伦敦', '999'), ('我在马来西亚', '999')])
def test_the_region_answer_gets_the_region_s_help_line(service, answer, line):
    first = ask(service, '我不想活了')
    assert '哪个国家或地区' in first.reply_text
    followed = ask(service, answer)
    assert followed.action == 'crisis_referral' and line in followed.reply_text
    assert followed.detail['followup'] == 'region'


def test_the_learner_stays_in_the_crisis_flow_until_clearly_back_to_learning(service):
    ask(service, '我不想活了')
    ask(service, '香港')
    for text in ('谢谢你', '嗯', '我也不知道', '算了吧'):
        staying = ask(service, text)
        assert staying.action == 'crisis_referral' and staying.detail['followup'] == 'stay'
        assert '999' in staying.reply_text and staying.target_skill == ''
    back = ask(service, '好多了，我们继续做这道数学题吧，方程怎么解')
    assert back.action in ('route', 'clarify') and back.subject == 'math'
    assert ask(service, '谢谢').action != 'crisis_referral'          # the flow is over


def test_a_new_signal_in_the_flow_is_a_new_referral_with_the_known_region(service):
    ask(service, '我想死')
    ask(service, '我在台北')
    again = ask(service, '我还是想死')
    assert again.detail.get('signals') and '110或119' in again.reply_text
    assert len(service.store.referrals('l1')) == 2


def test_the_flow_ends_after_its_window_of_silence_on_the_nodes_clock(service):
    """The flow lives in memory: its window runs on the node's clock (ROS time), not on the
    wall clock the store uses."""
    ask(service, '我想死')
    wall_only = ask(service, '谢谢', now=NOW + timedelta(hours=3))
    assert wall_only.action == 'crisis_referral'
    service.clock.seconds += 3 * 3600
    later = ask(service, '谢谢', now=NOW + timedelta(hours=3))
    assert later.action != 'crisis_referral'


def test_nothing_of_the_flow_reaches_the_store(tmp_path, coordinator):
    store = Store(tmp_path / 'c.sqlite3')
    service = CoordinatorService(coordinator, store, Windows())
    for text in ('我不想活了，我叫林晓雨', '我在香港九龙', '林晓雨今天很难过'):
        ask(service, text)
    store.close()
    raw = b''.join(p.read_bytes() for p in tmp_path.iterdir())
    assert '林晓雨'.encode() not in raw and '九龙'.encode() not in raw and '已转介'.encode() in raw


# ---- what the check reads -------------------------------------------------------------------

@pytest.mark.parametrize('text', ['我想自殺', '想\u200b死', '想\u200d\u200b死', '想　死', '想，死', '想了死',
                                  '我想过死', 'ＷＯ想死', '我想杀了自己', '我想結束這一切', '自我了斷',
                                  'I want to kill myself', "I DON'T want to live anymore",
                                  'i wanna die', '我真的 want to die', '想\ufeff死'])
def test_normalisation_before_matching(coordinator, text):
    assert coordinator.crisis.read(text).referral, text


def test_a_crisis_inside_a_homework_complaint_is_found(coordinator):
    text = '这道物理题我做了一个小时还是错，老师还骂我，我想杀了自己，浮力到底怎么算'
    assert coordinator.decide(Request('r', 'l', text), LearnerView(), NOW).action == \
        'crisis_referral'


def test_an_input_built_to_exhaust_the_check_is_referred(coordinator):
    """Past MAX_CHECKED matches set aside, the next one counts: never a miss by exhaustion."""
    text = '小说里主人公为什么想死。' * 100
    assert coordinator.crisis.read(text).referral
    assert not coordinator.crisis.read('小说里主人公为什么想死。' * 3).referral


def test_every_pattern_is_re2_and_a_bad_one_is_refused_by_entry():
    text = Path(paths.config('coordinator/crisis.yaml')).read_text(encoding='utf-8')
    broken = text.replace("self_harm:\n    zh: ['自残',", "self_harm:\n    zh: ['自(?!残)',", 1)
    with pytest.raises(ConfigError, match='categories.self_harm.zh') as refused:
        parse(broken, Crisis, 'crisis.yaml')
    assert 'RE2' in str(refused.value)


# ---- read in chunks: no match is lost at a cut ----------------------------------------------

@pytest.mark.parametrize('shift', range(-12, 12))
@pytest.mark.parametrize('filler', ['x', '这道题怎么做。', '好'])
def test_a_signal_across_a_chunk_boundary_is_found(coordinator, shift, filler):
    """The text is cut only at a sentence end past each CHUNK bytes: a signal that
    straddles the CHUNK offset, with or without sentence ends before it, stays whole."""
    before = (filler * (crisis.CHUNK // len(filler.encode()) + 1)).encode()[:crisis.CHUNK + shift]
    text = before.decode(errors='ignore') + '我想死。' + '这道题怎么做。' * 10
    assert coordinator.crisis.read(text).referral


SNIPPETS = [text for part in ('tuning', 'heldout') for kind in ('positives', 'negatives')
            for _, _, text in corpus(part)[kind]]
POSITIVES_OF_THE_CORPUS = [text for part in ('tuning', 'heldout')
                           for _, _, text in corpus(part)['positives']]


@pytest.mark.parametrize('text', [
    '今天又是很普通的一天' * 300 + '我真的好想\n死', '今天又是很普通的一天' * 300 + '我不想\n活了',
    'I had a long day at school and ' * 300 + 'I want to kill\nmyself', 'x' * 8191 + ' I wanna\ndie',
    '今天作业写完了但是心情很差\n老师说明天要考数学\n我一个人在房间里\n' * 88 + '我一个人在房间里真的好想\n死掉算了',
    'a' * crisis.CHUNK + ' I want to kill。myself', 'a' * crisis.CHUNK + ' kill! myself',
])
def test_a_phrase_across_a_line_break_or_punctuation_is_found_in_a_long_text(coordinator, text):
    assert coordinator.crisis.read(text).referral


MARKS = 4


@pytest.mark.parametrize('mark', ['\n', '。'])
def test_a_mark_anywhere_in_any_positive_decides_as_the_whole_text_does(coordinator, mark):
    """Every positive of the corpus, a mark put at ``MARKS`` of its positions (chosen by a
    generator seeded with the text: each run the same, every position over the corpus) and
    at its first and last: read in chunks cut at every hard end past the first character (a
    CHUNK of one byte: the cut falls on the mark, or on an earlier end of the text) and read
    whole agree. (Every position of all 1,651 positives took 75 s a mark on a 2-core VM.)"""
    detector, differ = coordinator.crisis, []
    for text in POSITIVES_OF_THE_CORPUS:
        inner = range(2, len(text) - 1)
        chosen = random.Random(text).sample(inner, min(MARKS, len(inner)))
        for i in sorted({1, len(text) - 1, *chosen}):
            marked = 'a' + text[:i] + mark + text[i:]
            with patch.object(crisis, 'CHUNK', 10**9):
                whole = detector.read(marked).referral
            with patch.object(crisis, 'CHUNK', 1):
                if detector.read(marked).referral != whole:
                    differ.append(marked)
    assert not differ, differ[:10]


def test_no_chinese_pattern_can_cross_a_hard_sentence_end(coordinator):
    r"""What makes the cuts safe (``_chunks``), held for every Chinese pattern of the file:
    its own syntax is literal characters, groups, alternatives, quantifiers, the gap (``~``),
    the span (``…``), the word boundary (``\b``, which reads no character) and classes of
    characters that are none of them punctuation (no
    escape such as \W or \p{P}, no ., no range, no negated class); the gap and the span
    leave every hard end out, and no hard end is written in a pattern."""
    detector = coordinator.crisis
    ends = crisis.hard_ends(detector.lexicon)
    span = re2.compile(detector._expand('…'))
    for end in ends:
        assert re2.compile(detector.lexicon.gap).fullmatch(end) is None, end
        assert span.fullmatch(end) is None, end
    for pattern in detector._patterns:
        if pattern.script != 'zh':
            continue
        source = pattern.source
        assert '\\' not in source.replace('\\b', '') and '.' not in source, source   # \b: no width
        for members in re2.findall(r'\[([^\]]*)\]', source):
            assert members and members[0] != '^' and '-' not in members, source
            assert all(c.isalnum() for c in members), source
        literal = set(source.replace('(?:', '').replace('?', ''))
        assert not set(ends) & literal, source


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(SNIPPETS), st.sampled_from(['。', '！', '；', '\n', '', ' ', '，'])),
                min_size=1, max_size=30))
def test_small_chunks_decide_as_the_whole_text_does(coordinator, parts):
    """Cut every 64 bytes (at the next hard end) or never: the same decision."""
    text = ''.join(snippet + end for snippet, end in parts)
    with patch.object(crisis, 'CHUNK', 10**9):
        whole = coordinator.crisis.read(text).referral
    with patch.object(crisis, 'CHUNK', 64):
        assert coordinator.crisis.read(text).referral == whole


# ---- a span pattern is read only where its tail is ------------------------------------------

@pytest.mark.parametrize('source, tail', [
    ('存了…{0,4}药', '药'), ('(?:想|要)~(?:从…{0,8})?跳(?:下去|下来)', '跳(?:下去|下来)'),
    ('约我…{0,10}见面…{0,12}(?:别告诉|不要告诉)', '(?:别告诉|不要告诉)'), ('想死', ''), ('再见…', ''),
    ('(?:告别|再见)…{0,2}(?:这个)?世界', '(?:这个)?世界'), ('(?:a|b…c)d', 'd'),
    ('遗言|写了…{0,6}告别信', ''), ('写了…\\(信\\)', ''), ('[(]写了…信', ''),
    ('\\bcuts?\\W+on\\W+(?:\\w+\\W+){0,6}(?:very|so)\\W+deep\\b', '(?:very|so)\\W+deep\\b'),
    ('\\bpills\\W+(?:\\w+\\W+){0,2}lined\\W+up\\b', 'lined\\W+up\\b'),
    ('(?:a(?:\\w+\\W+){0,3}b|c)d', 'd'), ('a(?:\\w+\\W+){0,3}', ''),
])
def test_the_tail_is_what_follows_the_last_span_out_of_its_group(source, tail):
    """A span is ``…`` or a repeat up to a bound (English counts words)."""
    assert crisis._tail(source) == tail


def test_every_match_of_a_span_pattern_holds_its_tail(coordinator):
    """What makes skipping safe: wherever a span pattern matches (every text of the corpus,
    and each with a line break put in), its tail matches inside that match."""
    detector = coordinator.crisis
    tailed = {index: re2.compile(detector._expand(crisis._tail(p.source)))
              for index, p in enumerate(detector._patterns) if crisis._tail(p.source)}
    texts = [detector.fold(t).encode() for t in SNIPPETS]
    found = 0
    for index, tail in tailed.items():
        for text in texts:
            for match in detector._patterns[index].regex.finditer(text):
                found += 1
                assert tail.search(match.group()) is not None, detector._patterns[index].source
    assert found >= 50     # the corpus exercises them


def test_a_span_pattern_is_skipped_only_when_its_tail_is_not_there(lexicon_reader):
    """A text that opens every span (their heads, densely) and holds one tail far away: the
    pattern of that tail is still read, and finds the phrase written in full."""
    detector = lexicon_reader
    heads = '网友亲戚陌生人东西物品喝醉每天一直'
    assert not detector.read(heads * 500 + '\n打').referral
    for phrase in ('我爸喝多了就砸东西', '网友说不要告诉爸妈', '约我周末见面还说别告诉别人'):
        assert detector.read(heads * 500 + '\n' + phrase).referral, phrase


# ---- the Chinese sets read runs of characters they never name cut to one (unnamed_runs) ------

def _unnamed(detector: crisis.CrisisDetector) -> list[str]:
    table = detector._named.table
    assert table is not None
    return [chr(c) for c in range(0x4E00, 0x4F00) if not table[c]][:20]


@given(st.data())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_chinese_set_and_tail_reports_on_the_cut_text_what_it_does_on_the_text(
        coordinator, data):
    """A few Chinese patterns' words in order, between them runs of characters no pattern
    names, gap characters, word characters, sentence ends, an emoji, a rare ideograph: each
    Chinese set (every chunk) and tail set reports the same patterns on the cut text."""
    detector = coordinator.crisis
    sources = [p.source for p in detector._patterns if p.script == 'zh']
    between = st.lists(st.sampled_from([*_unnamed(detector), 'a', 'z', '7', '_', '了', '，',
                                        ' ', '\u200b', '。', '\n', '😭', '𠀀']), max_size=4)
    parts = []
    for source in data.draw(st.lists(st.sampled_from(sources), min_size=1, max_size=6)):
        for word in re.findall('[\u4e00-\u9fff]+', source):
            parts += [word, *data.draw(between)]
    folded = detector.fold(''.join(parts))
    text = folded.encode()
    cut = detector._named.cut(match_ends.Text(folded, detector._alphabet), text, worth=1)
    assert cut.kept is not None
    stretches = [*detector._chunks(text), (0, len(text))]
    for (start, end), sets in zip(stretches, [*[detector._zh_sets] * (len(stretches) - 1),
                                              detector._tails['zh']], strict=True):
        for group in sets:
            assert sorted(group.compiled.Match(text[start:end]) or []) == \
                sorted(group.compiled.Match(cut.stretch(start, end)) or [])


def test_a_pattern_that_may_read_any_character_cuts_no_text():
    named = unnamed_runs.Named.of([match_ends.parse('想[^。]死', {}, {})])
    text = '题目很多想，死'
    assert named.cut(match_ends.Text(text, match_ends.Alphabet(set())), text.encode(),
                     worth=1).kept is None


# ---- span patterns: read for every offset at once (match_ends) ----------------------------------

def test_a_span_pattern_match_among_its_own_words_is_found(lexicon_reader):
    """Each span pattern's words at random (what made an automaton's states multiply), with a
    phrase of the corpus that only this pattern finds put in the middle: a referral; the
    same words without it decide as RE2 reading the whole text does."""
    detector = lexicon_reader
    found = 0
    for span in detector._spans:
        pattern = detector._patterns[span.index]
        phrases = [t for t in POSITIVES_OF_THE_CORPUS
                   if pattern.regex.search(detector.fold(t).encode())]
        words = re.findall(r'[\u4e00-\u9fff]+|[a-z]+', pattern.source) + ['的', '说']
        rng = random.Random(pattern.source)
        noise = ' '.join(rng.choices(words, k=1500))
        folded = detector.fold(noise).encode()
        if not any(other.regex.search(folded) for other in detector._patterns):
            assert not detector.read(noise).referral, pattern.source
        for phrase in phrases[:1]:
            found += 1
            half = len(noise) // 2
            assert detector.read(noise[:half] + '。' + phrase + '。' + noise[half:]).referral
    assert found >= 20


@pytest.mark.parametrize('text', [
    'a stranger' + ' ' * 3000 + 'keeps messaging me',
    'a stranger keeps' + ' ' * 3000 + 'messaging me',
    # \\W+ crosses Chinese text too: the longest match starts at the first "stranger", whose
    # sentence says 我; a shorter one near the end asks about a word, and is set aside
    '有个stranger一直' + '在网上和我聊天说了很多' * 200 + '\nwhat does the word stranger ask mean?',
])
def test_a_match_of_a_pattern_without_a_bound_is_read_from_its_real_start(coordinator, text):
    r"""An English span pattern has no bound on its width (\W+): each end's longest match
    is found from the reversed text, however far back it starts."""
    assert coordinator.crisis.read(text).referral


@pytest.mark.parametrize('text', [
    '我想過跳下去', '我想還跳下去', '只要我聽話就會給我錢', '他給我點錢叫我去',
    '我想\U00013439跳下去',
])
def test_a_gap_of_traditional_or_rarer_format_characters_is_read_in_a_span(coordinator, text):
    """The gap's characters in a span pattern, as RE2 reads them: their traditional forms
    (過 還 會 點), and format characters of RE2's Unicode tables."""
    assert coordinator.crisis.read(text).referral


@pytest.mark.parametrize('text', ['\ud800', '我想死\udfff', 'ok\udc80ok'])
def test_a_lone_surrogate_is_read_not_raised(coordinator, text):
    coordinator.crisis.read(text)
    assert coordinator.crisis.read(text).referral == ('死' in text)


def test_letters_beyond_the_first_plane_are_folded_in_a_long_text(coordinator):
    """The fold's table covers the first three planes: 𝐬𝐮𝐢𝐜𝐢𝐝𝐞 among many other runs."""
    assert coordinator.crisis.read('ｈｉ ' * 300 + 'i am thinking about 𝐬𝐮𝐢𝐜𝐢𝐝𝐞').referral


def test_a_character_nfkc_makes_long_reads_as_a_space(coordinator):
    """U+FDFA is 18 characters under NFKC: a text of them is at most its own length (a run
    of the spaces they become is one)."""
    detector = coordinator.crisis
    assert detector.fold('\ufdfa' * 1000) == ' '
    assert len(detector.fold('想\ufdfa' * 300)) <= 600
    assert detector.fold('x' * 300 + ' \ufdfa' * 300) == 'x' * 300 + ' '   # the table's path too
    assert detector.read('kill\ufdfamyself').referral


def test_a_span_pattern_the_reader_cannot_read_exactly_stops_the_load():
    text = Path(paths.config('coordinator/crisis.yaml')).read_text(encoding='utf-8')
    broken = text.replace("'存了…{0,4}药'", "'存了…{0,4}(药)'", 1)
    assert broken != text
    with pytest.raises(ConfigError, match='categories.suicidal.zh') as refused:
        parse(broken, Crisis, 'crisis.yaml')
    assert 'group other than' in str(refused.value)


@pytest.mark.parametrize('text', [
    'What does the word van mean? A man in a van told me to get in.',
    'Is that a story about a stranger? A stranger keeps messaging me and asked for photos.',
    'ｋｉｌｌ\u0341 myself', 'i ｈａｔｅ\u0341 myself',
])
def test_a_match_from_a_question_into_a_statement_about_me_is_a_signal(coordinator, text):
    """An English match may start in a question about a word and end in "... told me": set
    aside only when the sentences of its start and of its end both ask about a topic. A
    mark after a full-width letter stays a separator (it never joins the letter)."""
    assert coordinator.crisis.read(text).referral


def test_a_match_longer_than_any_idiom_is_never_an_idiom(coordinator):
    """An exclusion idiom holds a match of a few words; an English match across 100 kB of
    separators is not looked for in one (the look cost 100 ms)."""
    detector = coordinator.crisis
    assert not detector._excluded(b'x' * 1000, 0, crisis.WINDOW + 1)
    assert detector._excluded('想死你了'.encode(), 0, len('想死'.encode()))     # a short one is


@pytest.mark.parametrize('entry', ["'存了\\\\…{0,4}药'", "'想\\\\~死'"])
def test_an_escaped_gap_or_span_stops_the_load(entry):
    text = Path(paths.config('coordinator/crisis.yaml')).read_text(encoding='utf-8')
    broken = text.replace("'存了…{0,4}药'", entry, 1)
    assert broken != text
    with pytest.raises(ConfigError, match='escapes ~ or …'):
        parse(broken, Crisis, 'crisis.yaml')


@pytest.mark.parametrize('old, new, field', [
    ('clause_end: "，', 'clause_end: "😭，', 'clause_end'),            # the ends' table is the BMP's
    ("gap: '[", "gap: '(?:x)|[", 'gap'),                               # one class, up to a bound
    ('symbols: {🔪: 割,', 'symbols: {🔪: 割割割割,', 'symbols'),
    ('(?:发|传|p)', '(?:发|传|P)', 'upper-case')])                     # the text is lower-cased
def test_a_field_the_readers_cannot_take_stops_the_load(old, new, field):
    text = Path(paths.config('coordinator/crisis.yaml')).read_text(encoding='utf-8')
    broken = text.replace(old, new, 1)
    assert broken != text
    with pytest.raises(ConfigError, match=field):
        parse(broken, Crisis, 'crisis.yaml')


@pytest.mark.parametrize('text', [
    # a final review of the folding and the exclusions found these lost, each referred before
    'i want to kill\u200bmyself', 'i\u200bwant\u200bto\u200bdie', 'i want to die!nobody cares',
    'kill myself!help', '刚打完王者...\n我爸喝醉了说要把我打死', '我不吃饭，饿死了就解脱了',
    '每天都好累死了就轻松了', '继父说要杀了我哈哈 我好怕',
    "im leaving for good, i cant move on from this pain", 'i wont be here tomorrow. im sick of everything',
    '他们P了我的遗照', '不想活了求分析'])
def test_folding_and_idioms_lose_no_signal(coordinator, text):
    assert coordinator.crisis.read(text).referral


# ---- the topic rule ----------------------------------------------------------------------------

@given(st.lists(st.sampled_from(['。', '！', '？', '!', '?', '；', ';', '\n', '.', '我', 'a', '的'
                                 * 40, 'x' * 700]), max_size=60),
       st.integers(min_value=0, max_value=40_000))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_sentence_runs_from_end_to_end_and_at_least_its_reach(coordinator, parts, at):
    """A sentence is cut at the sentence ends around a position, those lying wholly in the
    reach of ``SENTENCE`` bytes either side (the ends found at once for the whole text, as
    a search from the position finds them); where none is, at least that far."""
    words = coordinator.crisis._topic
    written = ''.join(parts)
    text = written.encode()
    position = min(at, len(text))
    floor, ceiling = max(0, position - crisis.SENTENCE), position + crisis.SENTENCE
    lexicon = coordinator.crisis.lexicon
    ends = [c.encode() for c in lexicon.sentence_end + lexicon.topic_sentence_end]
    before = [found + len(end) for end in ends
              if (found := text.rfind(end, floor, position)) >= 0]
    after = [found for end in ends if (found := text.find(end, position, ceiling)) >= 0]
    rule = crisis._TopicRule(text, match_ends.Text(written, coordinator.crisis._alphabet), words)
    start, stop = rule._around(position, 'sentence', crisis.SENTENCE, crisis.BLOCK)
    assert start == max(before) if before else start <= floor
    assert stop == min(after) if after else stop >= ceiling
    assert stop - start <= 2 * (crisis.SENTENCE + crisis.BLOCK)


@given(st.lists(st.sampled_from(['。', '？', '!', '\n', '.', '，', ',', '、', '…', '—', '～', '/',
                                 '\u3000', ' ', '想', '死', '我', 'a', '😭', '𠀀', '\u4000', '\u3fff']),
                max_size=80))
@example(['\u4000', ' ', '想', ' ', '\u3fff', '，', '😭', '。'])
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_ends_of_sentences_and_clauses_are_found_character_by_character(coordinator, chars):
    """Every end is found where a reading of the characters one by one finds it, in bytes: a
    sentence end, a clause end, a space between two characters of U+4000-U+9FFF, an emoji."""
    lexicon = coordinator.crisis.lexicon
    sentence_ends = lexicon.sentence_end + lexicon.topic_sentence_end
    written = ''.join(chars)
    sentence, clause, offset = [], [], 0
    for at, char in enumerate(written):
        stretch = (offset, offset + len(char.encode()))
        between = 0 < at < len(written) - 1 and all(
            '\u4000' <= written[at + side] <= '\u9fff' for side in (-1, 1))
        sentence += [stretch] if char in sentence_ends else []
        clause += [stretch] if (char in sentence_ends + lexicon.clause_end or ord(char) >= 0x10000
                                or (char == ' ' and between)) else []
        offset = stretch[1]
    found = coordinator.crisis._topic.ends.of(match_ends.Text(written,
                                                              coordinator.crisis._alphabet))
    for kind, expected in (('sentence', sentence), ('clause', clause)):
        first, past = found[kind]
        assert list(zip(first.tolist(), past.tolist(), strict=True)) == expected


def test_matches_close_together_share_one_reading_of_their_sentence(coordinator):
    """A text of matches that are all set aside (topic questions without a sentence end) reads
    its first-person words once per block of the cut, not once per match."""
    written = '小说里活着没意思是什么意思' * 5000
    text = written.encode()
    rule = crisis._TopicRule(text, match_ends.Text(written, coordinator.crisis._alphabet),
                             coordinator.crisis._topic)
    match = len('活着没意思'.encode())
    starts = [text.index('活着'.encode(), p) for p in range(30_000, 31_000, 40)]
    assert all(rule.sets_aside(start, start + match, 'zh') for start in starts)
    assert len(rule._first_person) <= 2


@pytest.mark.parametrize('gap', [100, 5000, crisis.SENTENCE - 10])
def test_a_first_person_word_within_the_reach_keeps_a_match_a_signal(coordinator, gap):
    """However long a sentence, 我 within ``SENTENCE`` bytes of a match is seen."""
    question = '小说里主人公为什么想死'
    assert not coordinator.crisis.read(question).referral
    assert coordinator.crisis.read('我' + 'x' * gap + question).referral
    assert coordinator.crisis.read(question + 'x' * gap + '我').referral


@pytest.mark.parametrize(('text', 'referral'), [
    ('帮我分析一下《雷雨》里周萍为什么自杀', False), ('帮我讲讲屈原为什么投江自尽', False),
    ('can you help me with my essay: why did Romeo kill himself?', False),
    ('what does "overdose" mean in my reading passage?', False),
    ('帮我分析一下《雷雨》，我想自杀', True), ('帮帮我，小说里主人公为什么想死，我也想', True),
    ('help me with my essay, why does the character kill himself, i want to too', True),
    ('tell me why the poem is about suicide, my life feels the same', True),
])
def test_a_request_for_help_is_not_i_but_any_other_i_still_is(coordinator, text, referral):
    """帮我, "help me" and "my essay" ask the robot for help (``requests``): a question about a
    topic with only these is set aside; one other "I" (我想, "i want", "my life") keeps the
    match a signal."""
    assert coordinator.crisis.read(text).referral is referral


@pytest.mark.parametrize('text', [
    'In history class Tom is being bullied every day', 'The story club kid is being bullied',
    '像书中人物一样天天想死，有什么办法', '像小说主人公一样天天想死是不是病了',
    '考试期间真的不想活了，怎么办', '看完体检报告就不想活了', '帮我用英语写一封遗书好吗',
    '没带钥匙，爸就把我锁在门外', '数学考砸了，难过得想死', '想紫砂，没开玩笑',
    '成绩出来了我爸要杀了我的哈哈 我是认真的', 'They call Max hitler and bully him daily',
    '帮我解释一下为什么读完《活着》就不想活了', '想学屈原跳江，疼吗', '上完心理健康课还是想自杀，正常吗',
    'use suicidal in a sentence: literally every day lately', '帮我用“家暴”造句：爸爸天天喝醉打妈妈',
    'help me analyze why hamlet wants to die, been feeling the same for months',
])
def test_subjects_nicknames_requests_and_jokes_set_no_real_signal_aside(coordinator, text):
    """A review's lost signals, one per rule: an English frame before a match needs an ask
    too; comparing oneself with a character (像…一样) or asking what to do (怎么办) says "I";
    everyday words (期间, 报告) and nicknames are no frames; 帮我 before a request for a
    letter still says "I"; exclusions hold no gap a cause can hide in (没带钥匙，爸就把我);
    "我是认真的" after a joke is a signal of its own; the words of an ongoing state (就不想,
    还是想, "every day lately", "been feeling") and a question of pain (疼吗) say "I" even
    after a request for help with a text."""
    assert coordinator.crisis.read(text).referral


@pytest.mark.parametrize('text', [
    # the ask is the match's own word, or 什么都 / 怎么都 (no question)
    '活着真没意思，课本都看不进去', '真的撑不下去了 课本上的东西什么都记不住',
    # the clause of the match neither names a topic nor asks
    '不想活了，那篇课文讲的是什么', '想自杀，这个成语怎么写', '被霸凌了好久，法律上怎么说',
    # an English full stop ends the sentence
    'life is pointless. no words can fix it.', 'nothing matters anymore. this book is stupid.',
    'honestly suicide seems like the only way out. what is the homework for history',
    'want to die. what is chapter 3 about',
])
def test_a_topic_word_elsewhere_sets_no_signal_aside(coordinator, text):
    assert coordinator.crisis.read(text).referral


def test_a_topic_word_far_away_in_a_sentence_that_runs_on_sets_no_signal_aside(coordinator):
    """A 《 and a 吗 some 4.5 kB either side, with no sentence end between, name and ask
    nothing about the match: only ``NEAR`` bytes are read for them."""
    rng = random.Random(1)
    cjk = [chr(c) for c in range(0x4E00, 0x4E00 + 2000) if chr(c) not in '我咱俺吗哪']
    filler = lambda n: ''.join(rng.choices(cjk, k=n))     # noqa: E731
    for phrase in ('活着没意思', '不想活了', '一了百了', '被霸凌了'):
        text = filler(3000) + '《' + filler(1500) + phrase + filler(1500) + '吗' + filler(3000)
        assert coordinator.crisis.read(text).referral, phrase


@pytest.mark.parametrize('text', [
    '小说结尾主角自杀了，这个结局有什么作用', 'hopeless 和 helpless 的区别', 'What does the word suicide mean?',
    '这篇 reading 里的 character 为什么 feel hopeless', '“家暴”的英文是 domestic violence 吗',
    '道德与法治：遇到家庭暴力可以向哪些部门求助',
])
def test_a_question_about_a_topic_across_clauses_is_still_set_aside(coordinator, text):
    """A Chinese match's clause names the topic and its sentence asks, in the next clause
    too; an English match is asked about before it, or in Chinese anywhere in its clause;
    a frame that holds the match (hopeless 和 helpless) still names it; a colon ends no
    clause."""
    assert not coordinator.crisis.read(text).referral


# ---- phrasings a hostile review found missed --------------------------------------------------------

@pytest.mark.parametrize('text', [
    # an exclusion idiom must not swallow a longer signal
    '我不想活在这个世界上了', '我被他们打断了腿', '我好想死他们都说我没用', '真想死你们别管我',
    # marks written over letters, dots and ellipses between the parts
    '我想\u0336死', '我不\u0336想\u0336活\u0336了', 'i want to k\u0336i\u0336l\u0336l\u0336 myself',
    '我想\u0301死', '我想……死', '我想...死', '我不想…活了',
    # wording
    'i want to kill my self', 'im going to kill my self tonight', 'i dont wanna live anymore',
    'i dont want to be here anymore',
    # the second review: the topic rule read across a space, a dash, an emoji; 有什么意思
    # asks nothing; 我们家 and 人家 say "I"; English asks before what it asks about
    '不想活了 活着有什么意思', '不想活了活着有什么意思', '不想活了——活着有什么意思', '不想活了😭活着有什么意思',
    '不想活了\u3000活着有什么意思', '我们家天天家暴 法律能管吗', '人家真的好想死 活着有什么意思',
    '被同学欺负了 法律能管吗', '政治课上又被欺负了 为什么没人管', '课文没背完又被打了 为什么',
    'want to die what does life even mean', 'got bullied again in history class why does nobody do anything',
    'ill end it all tonight what does it even matter', '班上的男生天天欺负人家', 'he hurt me when i said no',
    '我的腿被他们打折了', '真的不想活了 活动课都不想上了', '我不想活在这世上了', '我想*死', '我想自 杀',
    'ɪ ᴡᴀɴᴛ ᴛᴏ ᴅɪᴇ', '我想紫砂', '我想😭😭死', '不想活了👍🏻', '读完了。我读这本小说后为什么总想自杀', '这本小说的主人公为什么自杀，就像我！', 'i want to kіll myself', 'i want to d1e', 'su1cide', 'kms',
    # everyday wording of every category
    '我想上吊', '我想割脉', '想喝农药', '活着有什么意义', '我活够了', '活腻了', '我就不该出生', '我不配活着',
    '我想去陪爷爷了', '好想从这个世界上消失', '我现在在天台上', '吃多少片药会死', '从几楼跳下去会死',
    '怎样死最不痛苦', '我的东西都送人了', '如果我不在了，帮我照顾好我妈', '活着好痛苦', '我抑郁了', '没人爱我',
    '他们扒我裤子', '他让我脱衣服', '他强行亲我', '他们拿烟头烫我', '我爸把我妈打进医院了', '爸爸又打妈妈了',
    '我两天没吃饭了', '我继父晚上会进我房间', '爸妈不要我了', '有个叔叔让我发照片给他', '他说这是我们之间的秘密',
    'i want to just die', 'i should just die', 'i wish i didnt exist', 'everyone would be happier without me',
    'i want to hang myself', 'i took a bunch of pills', 'whats the point of living', 'life isnt worth living',
    'he kicked me', 'my dad punched me', 'he touched me', 'my dad hits my mom', 'i dont feel safe at home',
    'he asked me to send pics', '我 不 想 活 了', '我唔想活', '冇人會在乎我',
])
def test_a_hostile_review_s_missed_phrasings_are_referrals(coordinator, text):
    assert coordinator.crisis.read(text).referral


@pytest.mark.parametrize('text', ['想死你了', '我好想死你们啦', '终于放假了，想死你们了'])
def test_missing_someone_is_still_an_idiom(coordinator, text):
    assert not coordinator.crisis.read(text).referral


@pytest.mark.parametrize('text', [
    # a final review's ordinary requests that the new patterns had referred
    '以后我不会再出现这种错误了', '介绍一下紫砂壶的制作工艺', '帮我解释伐薪烧炭南山中', '蛙泳的划手动作怎么做',
    '用圆规画圆的时候针扎到手了', '用美工刀划纸板做手工', '周末我要去陪奶奶，作文怎么开头', '写作文：我要去很远的地方',
    '我们在顶楼上做实验', '每个学生有单独的房间吗', '老师问我家住哪，英语怎么回答', '老师让我保密考试成绩',
    '什么是抑郁症', '放弃一切去追梦，辩论赛论点', 'A train travels 120 kms in 2 hours',
    '体育课跑800米累死了，怎么跑更轻松',     # one idiom ends inside another that covers the match
    "I don't know how to use the present perfect tense", 'My parents pushed me to learn piano',
    'My grandma touched me with her kindness', 'The form asks for my address, how do I fill it?',
    'Why are the cells gonna die in salt water?', 'what is an overdose in pharmacology',
    'I gave away my games to my cousin, how to write a letter about it',
    'Why did the character who was ill commit suicide in the novel?',
    'nothing gets better than a good book - explain the grammar',
    '小说里主人公自杀是什么？',
])
def test_ordinary_requests_with_these_words_are_not_referrals(coordinator, text):
    assert not coordinator.crisis.read(text).referral


def test_placing_matches_past_the_read_budget_is_a_referral(lexicon_reader):
    """Topic questions, each of its own pattern, are set aside one by one; after 90,000
    characters of filler, placing each costs RE2 a read of the whole text, and past
    ``SCAN_BUDGET`` bytes of such reads the text is a referral (not a long check)."""
    detector = lexicon_reader
    words = {}
    for index, pattern in enumerate(detector._patterns):
        if pattern.script != 'zh' or has_span(pattern.source):
            continue
        for text in POSITIVES_OF_THE_CORPUS:
            found = pattern.regex.search(detector.fold(text).encode())
            question = found and f'《{found.group().decode()}》是什么意思\n'
            if question and not detector.read(question).referral:
                words[index] = question
                break
    questions = ''.join(list(words.values())[:crisis.MAX_CHECKED // 2])
    assert len(words) >= crisis.MAX_CHECKED // 2 and not detector.read(questions).referral
    rng = random.Random(0)
    filler = ''.join(rng.choices([chr(c) for c in range(0x4E00, 0x4F00)
                                  if chr(c) not in '我咱俺吗哪'], k=90_000))
    assert not detector.read(filler).referral
    assert detector.read(filler + questions).referral


@pytest.mark.parametrize('text', ['这道数学题怎么做\ud800', '\ud800我想死', '物理错了三次\udfff'])
def test_a_lone_surrogate_is_routed_not_raised(coordinator, text):
    """A Python string may hold a lone surrogate: it is read as U+FFFD, never raised."""
    decision = coordinator.decide(Request('r', 'l', text), LearnerView(), NOW)
    assert decision.action == ('crisis_referral' if '死' in text else decision.action)
