"""Mind-map seeds (004): the field contract, topology and layout; agent-only updates."""

from __future__ import annotations

import copy
import json

import pytest


def seed(branches: int = 3, details: int = 2) -> dict:
    """A map that follows every rule: the root at the skylight, branches stacked on the left,
    each branch's details stacked in a column of their own (siblings >= 14 apart in y)."""
    nodes = [{'id': 'r', 'title': '牛顿第一定律', 'level': 'root', 'pos_x': 50, 'pos_y': 8,
              'is_expanded': True, 'sort_order': 0}]
    for b in range(branches):
        nodes.append({'id': f'b{b}', 'title': f'主张{b}', 'level': 'branch', 'pos_x': 12,
                      'pos_y': 14 + b * 20, 'is_expanded': True, 'sort_order': b,
                      'parent_id': 'r'})
        for d in range(details):
            nodes.append({'id': f'b{b}d{d}', 'title': f'细节{b}{d}', 'level': 'detail',
                          'pos_x': 30 + b * 16, 'pos_y': 20 + d * 18, 'is_expanded': False,
                          'sort_order': d, 'parent_id': f'b{b}'})
    return {'nodes': nodes, 'links': [{'source': 'b0d0', 'target': 'b1d1'}]}


def broken(change) -> dict:
    content = copy.deepcopy(seed())
    change(content)
    return content


def node(content: dict, ident: str) -> dict:
    return next(n for n in content['nodes'] if n['id'] == ident)


@pytest.fixture
def lesson(desk):
    pair = desk.pair()
    return pair, desk.lesson(pair, desk.course(pair))


def test_a_good_seed_is_stored_with_its_snapshot(desk, lesson):
    pair, lesson_id = lesson
    made = desk.ok('add_mindmap_seed', pair_id=pair, lesson_id=lesson_id, content=seed(4, 4))
    row = desk.store.one('SELECT * FROM mindmap')
    assert made['nodes'] == 21 and row['source'] == 'agent'
    assert row['content'] == row['agent_seed_snapshot']
    report = desk.ok('verify_prep', pair_id=pair, lesson_id=lesson_id, verbose=True)
    assert {c['id']: c['result'] for c in report['checks']}['mindmap.topology'] == 'pass'


@pytest.mark.parametrize('change, problem', [
    (lambda c: c['nodes'].append({**node(c, 'r'), 'id': 'r2'}), 'exactly one root'),
    (lambda c: node(c, 'r').update(pos_x=40), 'skylight'),
    (lambda c: [c['nodes'].remove(node(c, i)) for i in ('b2', 'b2d0', 'b2d1')], '3-4 branches'),
    (lambda c: c['nodes'].remove(node(c, 'b1d1')), "branch 'b1' has 2-4 details"),
    (lambda c: node(c, 'b0d0').update(parent_id='r', level='detail'), 'spoke umbrella'),
    (lambda c: c['nodes'].append({**node(c, 'b0d0'), 'id': 'n1', 'level': 'note',
                                  'title': '一个超过十二个字的很长的笔记标题', 'pos_y': 80,
                                  'parent_id': 'b0d0'}), 'at most 12 characters'),
    (lambda c: node(c, 'b0d1').update(pos_y=97), 'outside'),
    (lambda c: node(c, 'b0d1').update(pos_y=25), 'closer than 14'),
    (lambda c: c['links'].append({'source': 'b0', 'target': 'b0d0'}), 'parent-child edge'),
    (lambda c: c['links'].append({'source': 'b0d0', 'target': 'b0d1'}), 'does not cross'),
    (lambda c: c['links'].append({'source': 'b0d0', 'target': 'zz'}), 'missing node'),
    (lambda c: node(c, 'b1').pop('parent_id'), "needs a parent_id"),
    (lambda c: c['nodes'].extend([
        {**node(c, 'b0d0'), 'id': 'c1', 'parent_id': 'b0d0', 'pos_y': 70, 'level': 'note',
         'title': '链一'},
        {**node(c, 'b0d0'), 'id': 'c2', 'parent_id': 'c1', 'pos_y': 85, 'level': 'note',
         'title': '链二'}]), 'chain of only children'),
])
def test_each_seed_rule(desk, lesson, change, problem):
    pair, lesson_id = lesson
    refused = desk.refused('add_mindmap_seed', 'VALIDATION', pair_id=pair, lesson_id=lesson_id,
                           content=broken(change))
    assert any(problem in p for p in refused.result['shortfall']['problems']), refused


def test_the_field_contract(desk, lesson):
    pair, lesson_id = lesson
    for field in ('title', 'level', 'pos_x', 'pos_y', 'is_expanded', 'sort_order'):
        content = broken(lambda c, field=field: node(c, 'b0').pop(field))
        assert f"field '{field}'" in desk.refused('add_mindmap_seed', 'VALIDATION', pair_id=pair,
                                                  lesson_id=lesson_id, content=content).error
    extra = broken(lambda c: node(c, 'b0').update(colour='red'))
    desk.refused('add_mindmap_seed', 'VALIDATION', pair_id=pair, lesson_id=lesson_id,
                 content=extra)
    wrong_level = broken(lambda c: node(c, 'b0').update(level='leaf'))
    desk.refused('add_mindmap_seed', 'VALIDATION', pair_id=pair, lesson_id=lesson_id,
                 content=wrong_level)


def test_branches_that_copy_the_lesson_s_sections_are_a_spoke_umbrella(desk):
    pair = desk.pair()
    course = desk.course(pair)
    lesson = desk.ok('add_lesson', pair_id=pair, course_id=course, title='t',
                     content_markdown='# t\n## 主张0\n内容\n## 主张1\n内容\n## 主张2\n内容')
    refused = desk.refused('add_mindmap_seed', 'VALIDATION', pair_id=pair,
                           lesson_id=lesson['lesson_id'], content=seed())
    assert any('section list' in p for p in refused.result['shortfall']['problems'])


def test_only_the_agent_s_own_seed_is_updated_content_and_snapshot_together(desk, lesson):
    pair, lesson_id = lesson
    mindmap = desk.ok('add_mindmap_seed', pair_id=pair, lesson_id=lesson_id,
                      content=seed())['mindmap_id']
    better = seed(4, 3)
    desk.ok('update_mindmap_seed', pair_id=pair, mindmap_id=mindmap, content=better)
    row = desk.store.one('SELECT content, agent_seed_snapshot FROM mindmap')
    assert row['content'] == row['agent_seed_snapshot']
    assert len(json.loads(row['content'])['nodes']) == 17
    desk.refused('update_mindmap_seed', 'VALIDATION', pair_id=pair, mindmap_id=mindmap,
                 content=seed(2))
    desk.store.run("INSERT INTO mindmap VALUES ('mm_hers', ?, ?, NULL, 'learner', '{}', NULL, "
                   "'t', 't')", pair, lesson_id)
    refused = desk.refused('update_mindmap_seed', 'PERMISSION', pair_id=pair,
                           mindmap_id='mm_hers', content=better)
    assert 'learner grew herself' in refused.error
    desk.refused('add_mindmap_seed', 'VALIDATION', pair_id=pair, content=seed())
