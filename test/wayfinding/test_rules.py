"""Every rule of the wayfinding document, table-driven over the pure core.

Expected answers are built from the document's own formulas and routes (parsed
from the document where it is available, written out here otherwise), not from
the code under test: "{spoken_name}在{楼层}，请先前往{楼层}。{route}。" for floors
2, 3, 4, 6 (speech only) and "{spoken_name}在{route}。" plus one welcome gesture
towards the direction on the 5th floor.
"""

from __future__ import annotations

import pytest

FLOOR = {2: '二层', 3: '三层', 4: '四层', 5: '五层', 6: '六层'}
FLOOR_FORMS = {3: ['三层', '3层', '三楼', '3楼', '第三层'], 4: ['四层', '4楼'], 5: ['五楼', '第五层']}

# (formal name, name part, number, floor, direction, route) — the document's lists.
ROOMS = [
    ('3-01初心', '初心', '3-01', 3, 'right',
     '您出电梯后，穿过前方茶水区后左转，经过一个电话间，左手边第一个会议室就是初心会议室'),
    ('3-02舟山群岛', '舟山群岛', '3-02', 3, 'left',
     '您出电梯后，穿过前方茶水区，右手边第一个房间就是舟山群岛会议室'),
    ('3-03拼搏进取', '拼搏进取', '3-03', 3, 'left',
     '您出电梯后，穿过前方茶水区后右转，走到尽头右转，即可到达拼搏进取会议室'),
    ('3-04德玛西亚', '德玛西亚', '3-04', 3, 'left',
     '您出电梯后，穿过前方茶水区后右转，走到尽头再右转直行。经过开放协作区后，右手边第一个会议室就是德玛西亚会议室'),
    ('3-05北冥', '北冥', '3-05', 3, 'right',
     '您出电梯后，沿走廊前往A区，穿过左手边第一个茶水区后左转，走到尽头再左转，即可到达北冥会议室'),
    ('3-06亚特兰蒂斯', '亚特兰蒂斯', '3-06', 3, 'left',
     '您出电梯后，穿过前方茶水区，右手边第二个会议室就是亚特兰蒂斯会议室'),
    ('4-01马特洪峰', '马特洪峰', '4-01', 4, 'right',
     '您出电梯后，穿过前方茶水区后左转，经过一个电话间，左手边第一个会议室就是马特洪峰会议室'),
    ('4-02合作共赢', '合作共赢', '4-02', 4, 'left',
     '您出电梯后，穿过前方茶水区，右手边第一个房间就是合作共赢会议室'),
    ('4-03巴拿马运河', '巴拿马运河', '4-03', 4, 'left',
     '您出电梯后，穿过前方茶水区，右手边第二个会议室就是巴拿马运河会议室'),
    ('4-04千岛湖', '千岛湖', '4-04', 4, 'left',
     '您出电梯后，穿过前方茶水区后右转，走到尽头右转，即可到达千岛湖会议室'),
    ('4-05大有壳为', '大有壳为', '4-05', 4, 'left',
     '您出电梯后，穿过前方茶水区后右转，走到尽头再右转直行。经过开放协作区后，右手边第一个会议室就是大有壳为'),
    ('4-06客户至上', '客户至上', '4-06', 4, 'right',
     '您出电梯后，沿走廊前往A区，穿过左手边第一个茶水区后左转，走到尽头再左转，即可到达客户至上会议室'),
    ('5-01贝旺路', '贝旺路', '5-01', 5, 'left', '穿过前方茶水区，右手边第一个会议室就是贝旺路'),
    ('5-02琼州海峡', '琼州海峡', '5-02', 5, 'left',
     '穿过前方茶水区后右转，经过贝旺路会议室，再右转即可到达琼州海峡会议室'),
    ('5-03B1112', 'B1112', '5-03', 5, 'left',
     '穿过前方茶水区后右转，走到尽头再右转直行。经过开放协作区后，右手边第一个会议室就是B1112'),
    ('5-04蓝色海洋', '蓝色海洋', '5-04', 5, 'right',
     '沿走廊前往A区，穿过左手边第一个茶水区后左转，走到尽头再左转，即可到达5-04蓝色海洋会议室'),
    ('5-05摇光', '摇光', '5-05', 5, 'right', '穿过前方茶水区后左转，经过一个电话间，左手边第一个会议室就是摇光会议室'),
]
PLACES = [  # (asked as, spoken name, floor, direction, route)
    ('二楼厕所', '厕所', 2, 'none', '您出电梯后，沿左手边的走廊直走到头左拐，厕所就在您的左手边'),
    ('二楼会议室', '会议室', 2, 'none', '您出电梯后，会议室就在您的右手边'),
    ('母婴室', '母婴室', 3, 'right',
     '您出电梯后，沿左手边的走廊直走到尽头，左拐后继续前行。看到尽头的打印区，母婴室就在您的左手边'),
    ('三层母婴室', '母婴室', 3, 'right',
     '您出电梯后，沿左手边的走廊直走到尽头，左拐后继续前行。看到尽头的打印区，母婴室就在您的左手边'),
    ('四层库房', '库房', 4, 'right',
     '您出电梯后，沿左手边的走廊直走到尽头，左拐后继续前行。看到尽头的打印区，库房就在您的左手边'),
    ('五楼库房', '库房', 5, 'right',
     '沿左手边的走廊直走到尽头，左拐后继续前行。看到尽头的打印区，库房就在您的左手边'),
    ('天枢会议室', '天枢会议室', 6, 'none', '您出电梯之后直走，您左手边第一个房间就是天枢会议室'),
    ('天枢', '天枢会议室', 6, 'none', '您出电梯之后直走，您左手边第一个房间就是天枢会议室'),
    ('六层培训教室', '培训教室', 6, 'none', '您出电梯之后直走，您右手边第一个房间就是培训教室'),
    ('天璇会议室', '天璇会议室', 6, 'none', '您出电梯之后直走，您左手边第二个房间就是天璇会议室'),
    ('天玑', '天玑会议室', 6, 'none', '您出电梯之后直走，接着再往右前方走，天玑会议室就在走廊尽头的左手边'),
    ('餐厅', '餐厅', 6, 'none', '您出电梯之后右转，沿走廊走，穿过左手边第一个门就是餐厅'),
    ('大型接待室', '大型接待室', 6, 'none',
     '您出电梯之后直走左转，大型接待室就在您左手边第一个房间，就在天璇会议室的对面。'),
]
AREAS = [  # (asked as, spoken name, direction, base route) of the 3-5 floor template
    ('厕所', '厕所', 'right', '沿左手边的走廊直走到头左拐，厕所就在您的左手边'),
    ('电话间', '电话间', 'right', '穿过前方茶水区，左手边第一个房间就是电话间'),
    ('洽谈间1', '洽谈间1', 'right', '进入前方茶水区后，左手边第一个房间就是洽谈间1'),
    ('洽谈间2', '洽谈间2', 'left', '沿右手边的走廊直走到达A区，穿过茶水区后，右手边第一个房间就是洽谈间2'),
    ('洽谈间3', '洽谈间3', 'left', '沿右手边的走廊直走到达A区，进入茶水区后，右手边的房间就是洽谈间3'),
    ('S-1打印区', 'S杠1打印区', 'right', '穿过前方茶水区，左手边就是S-1打印区'),
    ('N-2打印区', 'N杠2打印区', 'right', '沿您左手边的走廊走到尽头，左拐后继续直行，即可进入N-2打印区'),
    ('开放协作区', '开放协作区', 'left', '穿过前方茶水区后右转，走到尽头再右转直行就到开放协作区了'),
]
TEA = {
    3: '三层有两个茶水区。您出电梯后，您前方就是第一个茶水区；沿右手边的走廊直走，另一个茶水区就在您的左手边。',
    4: '四层有两个茶水区。您出电梯后，您前方就是第一个茶水区；沿右手边的走廊直走，另一个茶水区就在您的左手边。',
    5: '五层有两个茶水区。您前方就是第一个茶水区；沿右手边的走廊直走，另一个茶水区就在您的左手边。',
}
TEA_WORDS = ['茶水区', '茶水间', '接水', '哪里有水', '哪里可以喝水', '饮水区', '饮水机']
TALK_WORDS = ['洽谈间', '洽谈室', '洽谈区']
PRINT_WORDS = ['打印区', '打印机', '哪里打印']
FORMS_503 = ['503', '5杠03', '5-03', '5 03', '五零三', '五百零三', '5-03B1112']


def expected(spoken: str, floor: int, route: str) -> str:
    if floor == 5:
        return f'{spoken}在{route}。'.replace('。。', '。')
    return f'{spoken}在{FLOOR[floor]}，请先前往{FLOOR[floor]}。{route}。'.replace('。。', '。')


def side(floor: int, direction: str) -> str | None:
    return direction if floor == 5 and direction in ('left', 'right') else None


# ---- single places ------------------------------------------------------------------

@pytest.mark.parametrize('formal, name, number, floor, direction, route', ROOMS)
@pytest.mark.parametrize('question', ['{}怎么走', '小范小范，{}在哪里', '请问{}会议室在哪'])
def test_a_room_by_name_speaks_only_the_name(talk, question, formal, name, number, floor,
                                             direction, route):
    turn = talk.hear(question.format(name))
    assert turn.speech == expected(name, floor, route)
    assert turn.gesture == side(floor, direction)
    assert turn.decision()['target'] == formal


@pytest.mark.parametrize('formal, name, number, floor, direction, route', ROOMS)
def test_a_room_by_number_and_name_speaks_the_number_with_gang(talk, formal, name, number,
                                                               floor, direction, route):
    turn = talk.hear(f'{number}{name}怎么走')
    assert turn.speech == expected(f'{number.replace("-", "杠")}{name}', floor, route)
    assert turn.gesture == side(floor, direction)


@pytest.mark.parametrize('formal, name, number, floor, direction, route', ROOMS)
@pytest.mark.parametrize('form', ['{f}-{r}', '{f}－{r}', '{f}—{r}', '{f} {r}', '{f}杠{r}',
                                  '{cf}零{cr}'])
def test_a_room_by_number_alone_in_every_written_form(talk, form, formal, name, number, floor,
                                                      direction, route):
    f, r = number.split('-')
    digits = '零一二三四五六七八九'
    said = form.format(f=f, r=r, cf=digits[int(f)], cr=digits[int(r[1])])
    turn = talk.hear(f'{said}在哪')
    assert turn.speech == expected(f'{number.replace("-", "杠")}{name}', floor, route)
    assert turn.gesture == side(floor, direction)


@pytest.mark.parametrize('asked, spoken, floor, direction, route', PLACES)
def test_places_with_one_floor(talk, asked, spoken, floor, direction, route):
    turn = talk.hear(f'{asked}怎么走')
    assert turn.speech == expected(spoken, floor, route)
    assert turn.gesture == side(floor, direction)


@pytest.mark.parametrize('asked, spoken, direction, route', AREAS)
@pytest.mark.parametrize('floor', [3, 4, 5, None])
def test_public_areas_on_each_floor_and_without_floor(talk, floor, asked, spoken, direction,
                                                      route):
    question = f'{FLOOR[floor]}{asked}在哪里' if floor else f'{asked}在哪里'
    turn = talk.hear(question)
    on = floor or 5
    full_route = route if on == 5 else f'您出电梯后，{route}'
    assert turn.speech == expected(spoken, on, full_route)
    assert turn.gesture == side(on, direction)
    assert '您出电梯' not in turn.speech or on != 5


@pytest.mark.parametrize('floor', [3, 4, 5])
@pytest.mark.parametrize('form_index', [0, 1, 2])
def test_floors_in_every_form(talk, floor, form_index):
    forms = [f'{FLOOR[floor]}', f'{floor}楼', f'第{FLOOR[floor][0]}层']
    turn = talk.hear(f'{forms[form_index]}电话间')
    route = '穿过前方茶水区，左手边第一个房间就是电话间'
    assert turn.speech == expected('电话间', floor, route if floor == 5 else f'您出电梯后，{route}')


@pytest.mark.parametrize('form', FORMS_503)
def test_503_is_always_5_03_b1112(talk, form):
    turn = talk.hear(f'小范小范，{form}怎么走')
    assert turn.speech == ('5杠03B1112在穿过前方茶水区后右转，走到尽头再右转直行。'
                           '经过开放协作区后，右手边第一个会议室就是B1112。')
    assert turn.gesture == 'left' and '品尚居' not in turn.speech


def test_pinshangju_is_never_said(talk):
    turn = talk.hear('品尚居怎么走')
    assert turn.speech == '抱歉，我暂时没有这个地点的路线信息，请咨询前台工作人员。'
    assert turn.gesture is None


@pytest.mark.parametrize('asked, spoken', [('5-04蓝色海洋', '5杠04蓝色海洋'), ('蓝色海洋', '蓝色海洋'),
                                           ('4-04千岛湖', '4杠04千岛湖'), ('千岛湖', '千岛湖'),
                                           ('5-01贝旺路', '5杠01贝旺路'), ('贝旺路', '贝旺路')])
def test_the_documents_spoken_name_examples(talk, asked, spoken):
    assert talk.hear(asked).decision()['spoken_name'] == spoken


# ---- groups -------------------------------------------------------------------------------

@pytest.mark.parametrize('word', TEA_WORDS)
@pytest.mark.parametrize('floor', [3, 4, 5, None])
def test_every_tea_expression_gets_both_tea_areas(talk, word, floor):
    turn = talk.hear(f'{FLOOR[floor]}{word}' if floor else f'请问{word}在哪')
    assert turn.speech == TEA[floor or 5]
    assert turn.gestures == [] and len(turn.said) == 1


def test_asking_for_one_tea_area_still_gets_both(talk):
    assert talk.hear('前方茶水区怎么走').speech == TEA[5]
    assert talk.hear('四层另一处茶水区').speech == TEA[4]


@pytest.mark.parametrize('word', TALK_WORDS)
@pytest.mark.parametrize('floor', [3, 5, None])
def test_a_generic_talk_room_gets_all_three_in_order(talk, word, floor):
    turn = talk.hear(f'{FLOOR[floor]}{word}怎么走' if floor else f'{word}怎么走')
    speech = turn.speech
    positions = [speech.index(f'洽谈间{i}：') for i in (1, 2, 3)]
    assert positions == sorted(positions)
    for _, spoken, _, route in AREAS[2:5]:
        full = route if (floor or 5) == 5 else f'您出电梯后，{route}'
        assert f'{spoken}：{full}' in speech
    assert '洽谈室' not in speech and '洽谈区' not in speech
    assert turn.gestures == []
    assert speech.startswith(f'{FLOOR[floor or 5]}有三个洽谈间')


@pytest.mark.parametrize('word', PRINT_WORDS)
@pytest.mark.parametrize('floor', [4, 5, None])
def test_a_generic_print_area_gets_s1_then_n2(talk, word, floor):
    turn = talk.hear(f'{FLOOR[floor]}{word}' if floor else word)
    speech = turn.speech
    assert speech.index('S杠1打印区：') < speech.index('N杠2打印区：')
    for name in ('3S', '4S', '5S', '3N', '4N', '5N'):
        assert name not in speech.replace('S-1打印区', '').replace('N-2打印区', '')
    assert turn.gestures == []


@pytest.mark.parametrize('question', ['二层茶水区', '六楼洽谈室', '二楼打印机', '六层电话间', '六楼厕所',
                                      '二层开放协作区'])
def test_public_areas_do_not_exist_on_floors_2_and_6(talk, question):
    turn = talk.hear(question)
    assert turn.speech.startswith('抱歉，我暂时没有') and turn.speech.endswith('请咨询前台工作人员。')
    assert turn.gestures == []


# ---- fixed answers, questions, unknown places -------------------------------------------------

@pytest.mark.parametrize('question, answer', [
    ('三层库房', '三层没有库房，抱歉。'), ('三楼的库房在哪', '三层没有库房，抱歉。'),
    ('四层母婴室', '四层没有配置母婴室，只有三层有。'), ('4楼母婴室怎么走', '四层没有配置母婴室，只有三层有。'),
    ('五层母婴室', '五层没有配置母婴室，只有三层有。'), ('第五层母婴室', '五层没有配置母婴室，只有三层有。'),
])
def test_fixed_answers(talk, question, answer):
    turn = talk.hear(question)
    assert turn.speech == answer and turn.gestures == []


@pytest.mark.parametrize('question', ['会议室怎么走', '会议室在哪里', '小范小范，我要去会议室', '会议室'])
def test_a_generic_meeting_room_gets_the_one_short_question(talk, question):
    turn = talk.hear(question)
    assert turn.speech == '请问您要去几层，或者哪个会议室？'
    assert turn.gestures == [] and turn.timers == ['clarification']


@pytest.mark.parametrize('floor', [3, 4, 5, 6])
def test_a_floor_with_several_meeting_rooms_gets_the_floor_question(talk, floor):
    turn = talk.hear(f'{FLOOR[floor]}会议室怎么走')
    assert turn.speech == f'请问您要去{FLOOR[floor]}的哪个会议室？'


@pytest.mark.parametrize('name', ['库房'])
def test_a_name_on_several_floors_gets_the_floor_asked(talk, name):
    assert talk.hear(f'{name}在哪').speech == f'请问您要去几层的{name}？'


def test_questions_are_never_confirmations(talk):
    for question in ('会议室', '三楼会议室', '库房', '', '？？'):
        speech = talk.hear(question).speech
        assert '确认' not in speech and '是不是' not in speech and '对吗' not in speech


@pytest.mark.parametrize('first, second, answer', [
    ('会议室怎么走', '北冥', expected('北冥', 3, ROOMS[4][5])),
    ('会议室怎么走', '二楼', expected('会议室', 2, PLACES[1][4])),
    ('三楼会议室', '德玛西亚', expected('德玛西亚', 3, ROOMS[3][5])),
    ('三楼会议室', '3-06', expected('3杠06亚特兰蒂斯', 3, ROOMS[5][5])),
    ('库房', '四楼', expected('库房', 4, PLACES[4][4])),
    ('库房', '五层', expected('库房', 5, PLACES[5][4])),
    ('库房', '三楼', '三层没有库房，抱歉。'),
    ('六楼会议室', '天玑', expected('天玑会议室', 6, PLACES[10][4])),
    ('四楼会议室', '千岛湖', expected('千岛湖', 4, ROOMS[9][5])),
])
def test_the_answer_to_a_question_is_merged_and_resolved_without_asking_again(
        talk, first, second, answer):
    assert talk.hear(first).speech.startswith('请问')
    turn = talk.hear(second)
    assert turn.speech == answer
    assert talk.state.pending is None


def test_a_floor_answer_to_the_generic_question_narrows_it(talk):
    talk.hear('会议室')
    assert talk.hear('三楼').speech == '请问您要去三层的哪个会议室？'
    assert talk.hear('初心').speech == expected('初心', 3, ROOMS[0][5])


def test_a_pending_question_expires(talk):
    talk.hear('库房')
    assert talk.state.pending is not None
    expired = talk.expire()
    assert [t.kind for t in expired.traces] == ['clarification_expired']
    assert talk.state.pending is None
    assert talk.hear('四楼').speech == '请问您要去四层的哪个会议室？'


def test_a_new_request_replaces_a_pending_question(talk):
    talk.hear('会议室')
    assert talk.hear('厕所在哪').speech == expected('厕所', 5, AREAS[0][3])
    assert talk.state.pending is None


@pytest.mark.parametrize('question, spoken', [
    ('七楼健身房怎么走', '七楼健身房'), ('1楼大厅在哪里', '1楼大厅'), ('健身房', '健身房'),
    ('请问咖啡厅在哪', '咖啡厅'), ('3-07', '3杠07'), ('第七层会议室', '第七层会议室'),
    ('停车场怎么去', '停车场'), ('总经理办公室在哪儿', '总经理办公室'), ('二层库房', '二层库房'),
    ('十楼', '十楼'), ('六层母婴室的路线', '母婴室'),
])
def test_unknown_places_are_never_guessed(talk, question, spoken):
    turn = talk.hear(question)
    if spoken == '母婴室':   # a unique name wins over a wrong floor
        assert turn.decision()['target'] == '三层母婴室'
        return
    assert turn.speech == f'抱歉，我暂时没有{spoken}的路线信息，请咨询前台工作人员。'
    assert turn.gestures == [] and turn.decision()['target'] == ''


# ---- who is listened to ---------------------------------------------------------------------

@pytest.mark.parametrize('text', ['贝旺路怎么走', '停止', '会议室', '503', ''])
def test_voice_without_the_wake_word_gets_no_output_at_all(talk, text):
    turn = talk.hear(text, awake=False)
    assert turn.said == [] and turn.gestures == [] and turn.replies == []
    assert [t.kind for t in turn.traces] == ['ignored']


@pytest.mark.parametrize('text', ['小范小范，贝旺路怎么走', '小范小范贝旺路怎么走', '贝旺路怎么走',
                                  '小范小范 贝旺路怎么走？', '小帆小帆，贝旺路怎么走'])
def test_the_wake_word_is_stripped(talk, text):
    assert talk.hear(text).speech == expected('贝旺路', 5, ROOMS[12][5])


@pytest.mark.parametrize('text', ['小范小范', '小范小范。'])
def test_only_the_wake_word_gets_the_generic_question(talk, text):
    assert talk.hear(text).speech == '请问您要去几层，或者哪个会议室？'


@pytest.mark.parametrize('heard, meant', [
    ('出新', '初心'), ('北望路', '贝旺路'), ('周山群岛', '舟山群岛'), ('天书', '天枢会议室'),
    ('瑶光', '摇光'), ('亚特兰提斯', '亚特兰蒂斯'), ('马特红峰', '马特洪峰'), ('北明', '北冥'),
    ('千岛胡', '千岛湖'), ('穷州海峡', '琼州海峡'), ('拼博进取', '拼搏进取'), ('德马西亚', '德玛西亚'),
])
def test_names_misheard_by_asr_still_find_their_room(talk, heard, meant):
    decision = talk.hear(f'{heard}怎么走').decision()
    assert decision['spoken_name'] == meant and decision['kind'] == 'route'
