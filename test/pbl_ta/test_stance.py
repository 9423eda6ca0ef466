"""A student who rejects a misreading is not misreading (issue 16, pbl_ta 2).

The cases are generated from every misreading cue of every material pack in
config/discussions/: the same cue asserted, negated (right before it or several
words before), doubted, questioned rhetorically, reported and disagreed with.
What each form means is the form's, not the cue's: no answer is written per cue.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pbl_ta_talk import lexicon as load_lexicon

from robot_skills.adapters.config import load
from robot_skills.pbl_ta.detectors import Policy, misreading
from robot_skills.pbl_ta.history import Digest, Turn
from robot_skills.pbl_ta.material import Material
from robot_skills.pbl_ta.stance import stance
from robot_skills.runtime import paths

PACKS = sorted(Path(paths.config('discussions')).glob('*.yaml'))


lexicon = cache(load_lexicon)


@cache
def pack(path: Path) -> Material:
    return load(path, Material)


def _cases():
    """(pack file, misreading id, one raw cue) for every cue of every misreading of every pack.

    The raw cue is the pack's phrase as written (cues are folded on load; a cue of plain
    hanzi folds to itself)."""
    for path in PACKS:
        for reading in pack(path).misreadings:
            for cue in reading.cues:
                yield pytest.param(path, reading.id, cue, id=f'{path.stem}-{reading.id}-{cue}')


def cases() -> list:
    return list(_cases())


# The speaker holds it: asserted, cited as the material's, a rhetorical negated question,
# a tag asking for agreement, reported and endorsed, after a bare "no" to someone else.
AFFIRMS = ['{c}', '我觉得{c}', '其实说到底还是{c}', '材料里就是说{c}', '难道不是{c}吗？',
           '不就是{c}吗', '{c}，对吧？', '有人说{c}，我同意', '不，{c}', '{c}，你们觉得呢？',
           '大家不分类是因为{c}']
# Negated with scope: right before, several words before, across a comma, after it.
NEGATED = ['不是{c}', '我不认为{c}', '我从来不觉得大家真的{c}', '并不是说{c}', '我不觉得，{c}',
           '未必{c}', '怎么可能{c}', '{c}是不对的', '{c}这种说法站不住', '我不相信我们小区{c}',
           '{c}也没有用']
# Doubted: a question, a rhetorical question that denies it, a choice question, doubt.
DOUBTED = ['{c}吗？', '真的{c}吗', '难道{c}？', '是不是{c}？', '我怀疑{c}', '{c}？',
           '{c}吗我看不一定']     # ASR: no punctuation
# Reported speech the speaker disagrees with, or a belief the speaker gave up.
DISAGREED = ['有人说{c}，我不同意', '他们以为{c}', '你刚才说{c}，可是我不这么看',
             '我本来以为{c}，后来发现不是', '据说{c}，我看未必', '有人觉得{c}但是我不这么认为']
# Reported only: someone else's words, neither held nor rejected.
REPORTED = ['有人说{c}', '听说{c}', '很多人觉得{c}']


def held(path: Path, reading_id: str, text: str) -> str:
    reading = next(m for m in pack(path).misreadings if m.id == reading_id)
    return stance(text, reading.cues, lexicon())


@pytest.mark.parametrize('path, reading_id, cue', cases())
def test_every_misreading_cue_in_every_form(path, reading_id, cue):
    expected = {**dict.fromkeys(AFFIRMS, 'affirms'),
                **dict.fromkeys(NEGATED + DOUBTED + DISAGREED, 'rejects'),
                **dict.fromkeys(REPORTED, 'reports')}
    wrong = {form.format(c=cue): held(path, reading_id, form.format(c=cue))
             for form, verdict in expected.items()
             if held(path, reading_id, form.format(c=cue)) != verdict}
    assert wrong == {}


def _digest(path: Path, *turns: str) -> Digest:
    folded = Digest(pack(path), lexicon())
    for n, text in enumerate(turns):
        folded.add(Turn('student', f's{n % 2}', text))
    return folded


@pytest.mark.parametrize('path, reading_id, cue', cases())
def test_the_ta_corrects_only_what_a_student_holds(path, reading_id, cue):
    """Held: the misreading stands (and the TA may correct it); rejected, doubted or reported:
    nothing stands. A peer who rejects a standing misreading corrects it."""
    policy = Policy(misreading_grace=0)
    for form in AFFIRMS:
        found = misreading(pack(path), _digest(path, form.format(c=cue)), policy)
        assert found is not None and found.gap == reading_id, form
    for form in NEGATED + DOUBTED + DISAGREED + REPORTED:
        history = _digest(path, form.format(c=cue))
        assert reading_id not in history.misread, form
    for form in NEGATED + DISAGREED:
        history = _digest(path, AFFIRMS[1].format(c=cue), form.format(c=cue))
        assert history.misread[reading_id].corrected == 1, form
        assert misreading(pack(path), history, policy) is None, form
    for form in REPORTED:
        history = _digest(path, AFFIRMS[1].format(c=cue), form.format(c=cue))
        assert history.misread[reading_id].corrected is None, form


NEGATORS = ['不是', '我不认为', '并不是说', '我不觉得', '未必', '我不相信']
BETWEEN = ['大家', '真的', '一定', '都', '就', '我们小区', '现在', '这样', '总是', '马上']


@pytest.mark.parametrize('path, reading_id, cue', cases())
@settings(max_examples=30)
@given(negator=st.sampled_from(NEGATORS), words=st.lists(st.sampled_from(BETWEEN), max_size=5),
       question=st.booleans(), tail=st.sampled_from(['', '解决问题', '，大家说呢']))
def test_a_negation_several_words_before_the_cue(path, reading_id, cue, negator, words,
                                                 question, tail):
    """Any number of words between negator and cue: a plain negation rejects, a negated
    rhetorical question (难道不是…吗) affirms; the same words without the negator affirm."""
    body = ''.join(words) + cue + tail
    if question:
        assert held(path, reading_id, f'难道{negator}{body}吗？') == 'affirms'
        assert held(path, reading_id, f'难道{body}吗？') == 'rejects'
    else:
        assert held(path, reading_id, negator + body) == 'rejects'
        assert held(path, reading_id, body) == 'affirms'


def test_overlapping_cues_are_read_in_one_scope():
    """不是只要罚款就能解决: two cues overlap (只要罚款, 罚款就能); the negation covers both."""
    path = next(p for p in PACKS if p.stem == 'community_waste')
    assert held(path, 'm_fines', '不是只要罚款就能解决') == 'rejects'
    assert held(path, 'm_fines', '只要罚款就能解决') == 'affirms'


def test_every_pack_has_misreadings_to_test():
    assert PACKS and all(pack(path).misreadings for path in PACKS)


@pytest.mark.parametrize('text', ['谁说只要罚款就能解决的', '光靠多罚款肯定不行', '罚得狠有什么用',
                                  '只要罚款就能解决，我觉得不对', '只要罚款就能解决，这个想法太天真了'])
def test_everyday_rejections_of_the_fines_misreading(text):
    assert stance(text, ['罚款就能', '只要罚款', '多罚款', '罚得狠'], load_lexicon()) == 'rejects'
