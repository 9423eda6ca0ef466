"""Finding configured names by sound: homophones yes, anything unconfigured never."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypinyin import lazy_pinyin

from robot_skills.language.pinyin import PhoneticIndex

NAMES = ['初心', '舟山群岛', '拼搏进取', '德玛西亚', '北冥', '亚特兰蒂斯', '马特洪峰', '合作共赢', '巴拿马运河',
         '千岛湖', '大有壳为', '客户至上', '贝旺路', '琼州海峡', '蓝色海洋', '摇光', '天枢', '天璇', '天玑',
         '母婴室', '库房', '厕所', '餐厅', '培训教室', '大型接待室', '电话间', '开放协作区']
UNCONFIGURED = ['健身房', '咖啡厅', '前台', '电梯', '停车场', '会客厅', '财务室', '总经理办公室', '出行',
                '出口', '合作公司', '客户服务', '北京', '天气', '千万', '摇滚', '蓝色大海',
                '贝壳', '初始', '出现', '天使', '餐具', '厕纸', '库存', '母亲', '电话', '协作', '德国',
                '亚洲', '马特', '琼斯', '拼音', '舟车', '大型', '洽谈', '海峡两岸', '一路顺风']


@pytest.fixture(scope='module')
def sounds() -> PhoneticIndex:
    return PhoneticIndex(NAMES)


@pytest.mark.parametrize('word', UNCONFIGURED)
def test_nothing_unconfigured_is_ever_matched_by_sound(sounds, word):
    assert sounds.find(f'请问{word}在哪里') == []


@pytest.mark.parametrize('heard, name', [('出新', '初心'), ('北望路', '贝旺路'), ('天书', '天枢'),
                                         ('亚特兰提斯', '亚特兰蒂斯'), ('马特红风', '马特洪峰'),
                                         ('蓝色海阳', '蓝色海洋'), ('客户只上', '客户至上'),
                                         ('大有可为', '大有壳为')])   # the idiom ASR will write
def test_homophones_and_near_sounds_find_the_name(sounds, heard, name):
    (found,) = sounds.find(f'请问{heard}怎么走')
    assert (found.name, found.start) == (name, 2)


def test_short_names_need_every_syllable_exact(sounds):
    assert sounds.find('出行') == [] and sounds.find('北民') == []


@given(st.text(alphabet='的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年'
                       '动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高'
                       '自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天初心',
               max_size=12))
def test_short_names_are_found_in_random_text_only_as_exact_homophones(sounds, text):
    for heard in sounds.find(text):
        window = text[heard.start:heard.end]
        if len(window) <= 3:
            assert [lazy_pinyin(c)[0] for c in window] == [lazy_pinyin(c)[0] for c in heard.name]
