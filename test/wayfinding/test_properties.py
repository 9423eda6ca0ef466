"""Properties that hold for any input (hypothesis): the document's absolute prohibitions."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from wayfinding_talk import Conversation

from robot_skills.wayfinding.text import normalise

VOCAB = ['初心', '贝旺路', '5-01', '3－01', '五零三', '五百零三', '503', 'B1112', '5杠03', '品尚居',
         '厕所', '洗手间', '茶水间', '洽谈室', '洽谈间2', '打印机', 'S-1打印区', 'N杠2', '会议室',
         '库房', '母婴室', '天枢', '餐厅', '二楼', '3层', '第四层', '五楼', '六层', '七楼', '十层',
         '怎么走', '在哪里', '请问', '小范小范', '，', '？', ' ', '停止', '不用了', '健身房', '出新',
         '北望路', '😀', 'hello', '4-07', '9-01', '二层茶水区', '三层库房', '大型接待室', 'A区']
pieces = st.lists(st.sampled_from(VOCAB), min_size=0, max_size=6).map(''.join)
anything = st.one_of(pieces, st.text(max_size=60),
                     st.text(alphabet='初心贝旺路三四五六层楼0123456789-－—杠 厕所会议室', max_size=20))
ROOM_PREFIX = re.compile(r'^(\d)杠(\d{2})')


def _turns(core, texts: list[str], remote: bool):
    talk = Conversation(core)
    for text in texts:
        yield text, talk.hear(text, remote=remote)


@settings(max_examples=400)
@given(texts=st.lists(anything, min_size=1, max_size=4), remote=st.booleans())
def test_prohibitions_hold_for_any_conversation(core, texts, remote):
    index = {p.formal_name: p for p in core.resolver.index.places}
    for text, turn in _turns(core, texts, remote):
        outputs = turn.said + [r.text for r in turn.replies]
        assert all('品尚居' not in o for o in outputs)
        assert len(turn.gestures) <= 1 and len(turn.said) == 1
        decisions = [t.detail for t in turn.traces if t.kind == 'decision']
        if not decisions:
            continue
        decision = decisions[0]
        place = index.get(decision['target'])
        prefix = ROOM_PREFIX.match(decision['spoken_name'] or '')
        if prefix:   # a number is spoken only when the visitor said it
            assert f'{prefix.group(1)}-{prefix.group(2)}' in normalise(text).replace(' ', '-') \
                or f'{prefix.group(1)}{prefix.group(2)}' in normalise(text)
        if place is None:
            assert turn.gestures == []
            continue
        assert place.route in turn.speech                      # routes verbatim
        if place.floor == 5:
            assert '您出电梯' not in turn.speech
            assert [g.side for g in turn.gestures] == (
                [place.direction] if place.direction in ('left', 'right') else [])
        else:
            assert turn.gestures == []
            assert '您出电梯' in place.route


@settings(max_examples=300)
@given(text=st.text(max_size=80))
def test_any_text_gets_exactly_one_spoken_answer(core, text):
    turn = Conversation(core).hear(text)
    assert len(turn.said) == 1 and turn.said[0]
    assert '{' not in turn.said[0] and '}' not in turn.said[0]   # no unfilled template
