"""What the TA says: templates from the material, and the rules every utterance must pass."""

from __future__ import annotations

import pytest
from config_files import refusal, shipped
from pbl_ta_talk import PACK, lexicon, material

from robot_skills.language.text import hanzi
from robot_skills.pbl_ta.detectors import Finding
from robot_skills.pbl_ta.history import HOW_TO
from robot_skills.pbl_ta.material import Material
from robot_skills.pbl_ta.utterance import compose, material_problems, problems

GOOD = '材料三里，清运车把分好的垃圾混着拉走了。那后端这一环，谁来盯、具体怎么查？'


def test_the_shipped_pack_obeys_every_rule():
    assert material_problems(material(), lexicon()) == []


@pytest.mark.parametrize('finding, starts', [
    (Finding('misreading', 'm_fines'), '材料一里罚款条款一直都有'),
    (Finding('misreading', 'm_fines', blocking=True), '先停一下罚款这个思路。'),
    (Finding('stall', 'x_front_back'), '材料一和材料二看重前端'),
    (Finding('uncovered_point', 'p_backend'), '材料三提醒，前端分得再好'),
    (Finding('abstract', HOW_TO), '材料三提醒'),     # no context yet: the first condition
])
def test_templates_state_material_content_then_hand_the_question_back(finding, starts):
    text = compose(material(), lexicon(), finding)
    assert text.startswith(starts)
    assert text.endswith('？')
    assert problems(text, material(), lexicon(), finding.blocking) == []
    sentences = text.count('。') + text.count('？')
    assert sentences == (3 if finding.blocking else 2)


def test_how_to_is_about_what_the_students_discussed():
    pack = material()
    text = compose(pack, lexicon(), Finding('abstract', HOW_TO), pack.item('e_volunteer'))
    assert text == f'{pack.item("e_volunteer").text}。{pack.how_to}'


@pytest.mark.parametrize('text, problem', [
    ('', 'empty'),
    ('。？', 'empty'),
    ('The backend trucks mix everything again, who checks?', 'not Chinese'),
    (f'{GOOD[:-1]}。还有呢。真的吗？', '4 sentences (at most 2)'),
    ('材料三里清运车混着拉走了' * 8 + '，谁来做？', 'characters (at most 80)'),
    ('材料三里，清运车把分好的垃圾混着拉走了。', 'does not end on a question'),
    ('材料三里，清运车把分好的垃圾混着拉走了。你们同意吗？', 'does not ask what to do'),
    ('请大家看材料三。那谁来说说怎么做？', 'states no material content'),
    ('答案是公开清运记录并让居民代表跟车监督分类运输。谁来做？', "answer of must-discuss point 'p_backend'"),
    ('学生A：清运车混运了。那谁来做？', 'speaks for someone else'),
])
def test_each_rule(text, problem):
    assert any(problem in found for found in problems(text, material(), lexicon())), \
        problems(text, material(), lexicon())


def test_three_sentences_only_when_a_misreading_blocks():
    text = '先停一下。材料一里罚款条款两年没执行过。那值守由谁来做？'
    assert problems(text, material(), lexicon(), blocking=True) == []
    assert problems(text, material(), lexicon()) == ['3 sentences (at most 2)']


def test_a_good_utterance_passes():
    assert problems(GOOD, material(), lexicon()) == []
    assert hanzi(GOOD) <= lexicon().max_hanzi


# ---- a pack whose utterances would break a rule is refused, naming the entry and field ------

def _pack(change) -> dict:
    data = shipped(PACK)
    change(data)
    return data


@pytest.mark.parametrize('change, named', [
    (lambda d: d['must_discuss'][1].update(ask='你们怎么看？'.replace('怎么', '如何')),
     "must_discuss[1] (id 'p_backend'), field 'ask'"),
    (lambda d: d['conditions'][0].update(text='清运车' * 30),
     "must_discuss[1] (id 'p_backend')"),
    (lambda d: d['misreadings'][0].update(correction='答案是靠定时定点投放加上有人在投放点值守督导'),
     "misreadings[0] (id 'm_fines')"),
    (lambda d: d['misreadings'][1].update(clarify='先说清楚。再说一遍。'),
     "misreadings[1] (id 'm_awareness'), fields 'correction'/'ask'/'clarify'"),
    (lambda d: d.update(how_to='那你们觉得呢？'),
     "field 'text' with the 怎么做 question ('how_to')"),
])
def test_a_pack_that_would_break_a_rule_is_refused(change, named):
    pack = Material.model_validate(_pack(change))
    found = material_problems(pack, lexicon())
    assert any(named in problem for problem in found), found


@pytest.mark.parametrize('change, named', [
    (lambda d: d['must_discuss'][0].update(support='nowhere'), "support 'nowhere' is not"),
    (lambda d: d['claims'][1].update(id='c_accuracy'), 'ids must be unique'),
    (lambda d: d.update(must_discuss=[]), "field 'must_discuss'"),
    (lambda d: d['misreadings'][0].update(cues=['，。']), "entry misreadings[0] (id 'm_fines'), "
                                                        "field 'cues'"),
    (lambda d: d['conflicts'][0].update(sides=d['conflicts'][0]['sides'][:1]),
     "field 'sides'"),
    (lambda d: d['examples'][0].update(colour='red'), "entry examples[0] (id 'e_volunteer')"),
])
def test_a_malformed_pack_is_refused_with_the_entry_and_field(change, named):
    assert named in refusal(_pack(change), Material, 'community_waste.yaml')
