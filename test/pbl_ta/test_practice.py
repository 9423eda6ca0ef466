"""Retelling the material or slogans are not concrete actions (issue 16, pbl_ta 3).

One concrete, executable practice proposed by the students closes the 怎么做 gap;
can_end_discussion needs concrete practices compared. Retellings are generated
from every item of every pack, material comparisons from every pack's sources.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pbl_ta_talk import lexicon as load_lexicon
from pbl_ta_talk import material

from robot_skills.adapters.config import load
from robot_skills.pbl_ta.core import TaCore
from robot_skills.pbl_ta.history import HOW_TO, Turn
from robot_skills.pbl_ta.material import Material
from robot_skills.pbl_ta.practice import proposes
from robot_skills.runtime import paths

PACKS = sorted(Path(paths.config('discussions')).glob('*.yaml'))
lexicon = cache(load_lexicon)


@cache
def pack(path: Path) -> Material:
    return load(path, Material)


# Concrete practices as students say them: who, what, when / how often / in which order.
CONCRETE = ['我们可以先让楼长排班值守，每天晚上两小时', '我建议物业每周公示一次清运记录',
            '第一步请居委会招募志愿者，两人一组轮流值守', '让保洁员每天早上检查投放点',
            '我来做个表，每栋楼每周换一个人值守', '居民代表跟车，每个月拍照公示']
# Empty slogans: the words of a report instead of a plan.
SLOGANS = ['我们要加强宣传，提高意识', '应该加大力度，落实到位', '关键是建立长效机制，齐抓共管',
           '大家要高度重视，积极参与，形成合力', '加强监督管理，完善制度',
           '物业要加强监督管理', '居委会每天都要加强监督，落实到位']
# Not a proposal: questions, judgements.
NOT_PROPOSED = ['那谁来排班？', '楼长每天值守吗？', '值守很重要', '我觉得要有人管']


def _core_session(path: Path):
    core = TaCore(lexicon())
    return core, core.open('s', pack(path))


def retellings(material: Material) -> list[str]:
    """The material's own words: every item verbatim, cited, and quoted after its source."""
    found = []
    for item in material.items:
        found += [item.text, f'材料里说{item.text}', f'{item.source or "材料"}里{item.text}']
    return found


@pytest.mark.parametrize('path', PACKS, ids=lambda p: p.stem)
def test_retelling_the_material_is_not_a_practice(path):
    material = pack(path)
    told = [text for text in retellings(material) if proposes(text, material, lexicon())]
    assert told == []


@pytest.mark.parametrize('path', PACKS, ids=lambda p: p.stem)
def test_slogans_and_questions_are_not_practices_and_proposals_are(path):
    material = pack(path)
    assert [t for t in SLOGANS + NOT_PROPOSED if proposes(t, material, lexicon())] == []
    assert [t for t in CONCRETE if not proposes(t, material, lexicon())] == []


@settings(max_examples=60)
@given(marker=st.sampled_from(['我们可以', '我建议', '不如', '先让', '']),
       slogans=st.lists(st.sampled_from(SLOGANS), min_size=1, max_size=3),
       concrete=st.booleans())
def test_slogans_never_make_a_turn_concrete_and_never_hide_a_practice(marker, slogans, concrete):
    """Any mix of slogans is no practice; a concrete practice among them still is one."""
    material = pack(PACKS[0])
    text = marker + '，'.join(slogans) + ('，' + CONCRETE[1] if concrete else '')
    assert proposes(text, material, lexicon()) is concrete


@pytest.mark.parametrize('path', PACKS, ids=lambda p: p.stem)
def test_one_concrete_practice_closes_the_how_to_gap_retellings_and_slogans_do_not(path):
    core, session = _core_session(path)
    for n, text in enumerate(retellings(pack(path)) + SLOGANS + NOT_PROPOSED):
        core.hear(session, Turn('student', f's{n % 3}', text))
    assert HOW_TO in dict(core.pending(session))
    core.hear(session, Turn('peer', 'p1', CONCRETE[0]))
    assert HOW_TO not in dict(core.pending(session))


def _cover_everything(core, session, material):
    """Every must-discuss point covered by a student naming its cues (no practice in it)."""
    for point in material.must_discuss:
        core.hear(session, Turn('student', 'cover', f'{point.cues[0]}这一点要想清楚吗？'))
        core.hear(session, Turn('student', 'cover', f'说到{point.cues[0]}，这一点要想清楚'))


@pytest.mark.parametrize('path', PACKS, ids=lambda p: p.stem)
def test_can_end_needs_concrete_practices_compared_not_materials(path):
    material = pack(path)
    sources = sorted({item.source for item in material.items if item.source})
    comparisons = [f'{a}比{b}更有效' for a, b in combinations(sources, 2)]
    comparisons += [f'相比{text}，{other}更好' for text, other in
                    zip(retellings(material), retellings(material)[1:], strict=False)]
    # Retellings and slogans "compared": never enough to end.
    core, session = _core_session(path)
    _cover_everything(core, session, material)
    for n, text in enumerate(retellings(material) + SLOGANS + comparisons):
        core.hear(session, Turn('student', f's{n % 3}', text))
    assert not session.digest.compared
    # Two concrete practices by two students, then a comparison of the materials: still no.
    core.hear(session, Turn('student', 'a', CONCRETE[0]))
    core.hear(session, Turn('peer', 'b', CONCRETE[1]))
    for text in comparisons:
        core.hear(session, Turn('student', 'c', text))
    assert not session.digest.compared
    # A comparison of the practices proposed: now the discussion may end.
    core.hear(session, Turn('student', 'c', '相比楼长排班，公示清运记录更省事'))
    assert session.digest.compared
    card = core.refresh(session).answer['state_card']
    assert card['can_end_discussion'] is True, card


@pytest.mark.parametrize('text', ['楼长不可能每天值守吧', '我不觉得应该让物业每周公示一次清运记录',
                                  '让物业每周公示一次清运记录没有用'])
def test_rejecting_a_practice_is_not_proposing_it(text):
    assert not proposes(text, material(), load_lexicon())
