"""match_ends reads a pattern exactly as RE2 does: the offsets where a match can end.

Held three ways: regular expressions drawn from the whole syntax it reads, over a small
alphabet; every span pattern of crisis.yaml over text of its own words; and the syntax it
does not read, refused by name.
"""

from __future__ import annotations

import re

import pytest
import re2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robot_skills.coordinator import match_ends
from robot_skills.coordinator.lexicon import has_span


def re2_ends(pattern: str, text: str) -> set[int]:
    r"""Every character offset where some match of ``pattern`` ends (RE2, anchored both
    sides at each pair of offsets, the whole text as context for ``\b``)."""
    regex = re2.compile(pattern.encode())
    data = text.encode()
    at = [len(text[:i].encode()) for i in range(len(text) + 1)]
    return {end for end in range(len(text) + 1)
            if any(regex.fullmatch(data, at[start], at[end]) is not None
                   for start in range(end + 1))}


def engine_ends(tree: match_ends.Node, text: str) -> set[int]:
    alphabet = match_ends.Alphabet(match_ends.classes(tree))
    return set(match_ends.offsets(match_ends.ends(tree, match_ends.Text(text, alphabet))).tolist())


# ---- any pattern of the syntax, over a small alphabet ----------------------------------------

CLASSES = ['a', 'b', '好', '[ab]', '[^a。]', '[a-c]', '\\w', '\\W', '\\s', '[\\s，]', '。']
BOUNDED = ['', '?', '{2}', '{0,3}', '{2,4}', '{3}', '{0,6}', '{1,13}', '{5,11}']


def _quantified(inner: st.SearchStrategy[str], suffixes: list[str]) -> st.SearchStrategy[str]:
    return st.tuples(inner, st.sampled_from(suffixes)).map(
        lambda p: f'(?:{p[0]}){p[1]}' if p[1] else p[0])


# a class may repeat without a bound (a run); a group only up to one (see test_..._refused)
ATOMS = st.one_of(_quantified(st.sampled_from(CLASSES), [*BOUNDED, '*', '+', '{1,}']),
                  st.just('\\b'))
PATTERNS = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        _quantified(inner, BOUNDED),
        st.lists(inner, min_size=2, max_size=3).map(''.join),
        st.lists(inner, min_size=2, max_size=3).map(lambda o: '(?:' + '|'.join(o) + ')')),
    max_leaves=7)
TEXTS = st.text(alphabet='ab好 c。，\n', max_size=14)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PATTERNS, TEXTS)
def test_any_pattern_ends_where_re2_says(pattern, text):
    assert engine_ends(match_ends.parse(pattern, {}, {}), text) == re2_ends(pattern, text)


@pytest.mark.parametrize('pattern, text, ends', [
    ('a+', 'xaaay', {2, 3, 4}), ('a*', 'ab', {0, 1, 2}), ('(?:ab){1,3}', 'ababa', {2, 4}),
    ('a{2,3}', 'aaaa', {2, 3, 4}), ('\\bab\\b', 'ab ab', {2, 5}), ('\\bab\\b', 'xab', set()),
    ('[^。]{0,2}b', 'a。ab', {4}), ('(?:a|b)?c', 'c', {1}),
])
def test_some_patterns_end_where_they_should(pattern, text, ends):
    r"""A few hand-read cases: runs (the carry through a run), repeats, bounds, \b."""
    assert engine_ends(match_ends.parse(pattern, {}, {}), text) == ends == re2_ends(pattern, text)


# ---- the crisis lexicon's span patterns, over text of their own words ---------------------------

@pytest.fixture(scope='module')
def spans(coordinator):
    detector = coordinator.crisis
    return [(detector._patterns[s.index], s.tree) for s in detector._spans]


def test_every_span_pattern_of_the_lexicon_is_read_here(coordinator, spans):
    sources = [p.source for p in coordinator.crisis._patterns if has_span(p.source)]
    assert len(spans) == len(sources) >= 40
    assert any(p.script == 'en' for p, _ in spans)


# the gap's characters and their traditional forms (過 還 會 ...): in a phrase, and alone
GAP_CHARACTERS = sorted('了过着的地得很太真就都也还再又要会能挺蛮超好是在去啊呀吧呢嘛哦一点有已经'
                        '過著還會點經眞蠻')


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_span_pattern_ends_where_re2_says_on_text_of_its_words(coordinator, spans, data):
    """Its words (simplified and traditional), the gap's characters, sentence ends, a
    zero-width space and other characters, at random: the same ends as RE2's."""
    detector = coordinator.crisis
    pattern, tree = data.draw(st.sampled_from(spans))
    words = re.findall(r'[\u4e00-\u9fff]+|[a-z]+', pattern.source)
    extras = ['的', '了', ' ', '，', '。', '\n', '\u200b', '殺', '們', 'x', '!',
              *data.draw(st.lists(st.sampled_from(GAP_CHARACTERS), max_size=4))]
    parts = data.draw(st.lists(st.sampled_from(words + extras), max_size=16))
    text = detector.fold(''.join(parts))
    expanded = detector._expand(pattern.source)
    assert engine_ends(tree, text) == re2_ends(expanded, text), (pattern.source, text)


# ---- what it does not read ----------------------------------------------------------------------

@pytest.mark.parametrize('pattern, named', [
    ('a.b', "'.'"), ('(?=a)b', 'group other than'), ('(a)', 'group other than'),
    ('a*?', 'lazy'), ('\\d', 'escape \\d'), ('^a', "'^'"), ('a{x}', 'repeat other'),
    ('(?:a', 'unclosed'), ('a)', 'unmatched'), ('\\p{L}', 'Unicode class'), ('[ab', 'unfinished'),
])
def test_syntax_it_cannot_read_exactly_is_refused_by_name(pattern, named):
    with pytest.raises(match_ends.PatternError, match=re.escape(named)):
        match_ends.parse(pattern, {}, {})


@pytest.mark.parametrize('pattern, width', [
    ('ab', 2), ('a{0,16}b', 17), ('(?:ab|c)?d', 3), ('a\\W+b', None), ('\\ba\\b', 1),
])
def test_the_width_is_the_longest_match(pattern, width):
    assert match_ends.width(match_ends.parse(pattern, {}, {})) == width


def test_a_simplified_character_reads_its_traditional_forms():
    tree = match_ends.parse('杀[断结]', {}, {'杀': '殺', '断': '斷'})
    assert engine_ends(tree, '殺斷 杀结 杀绝') == {2, 5}


@pytest.mark.parametrize('pattern, named', [
    ('[[:digit:]]', 'POSIX'), ('x{٣}', 'repeat other'), ('药{,1}', 'repeat other'),
    ('(?:ab)+', 'without a bound'), ('(?:a|b)*', 'without a bound'),
])
def test_what_re2_reads_otherwise_or_in_unbounded_time_is_refused(pattern, named):
    """A POSIX class, a non-ASCII digit, {,n} (literal text to RE2) and a repeat without a
    bound of a group (step by step, it would cost time in the text's length squared)."""
    with pytest.raises(match_ends.PatternError, match=re.escape(named)):
        match_ends.parse(pattern, {}, {})


def test_format_characters_are_re2s_own():
    r"""\p{Cf} as RE2's Unicode tables have it (Python's may be older: U+13439 ...)."""
    tree = match_ends.parse('a\\p{Cf}b', {}, {})
    for char in ('\u200b', '\U00013439', '\U000E0001'):
        text = f'a{char}b'
        assert engine_ends(tree, text) == re2_ends('a\\p{Cf}b', text), hex(ord(char))
