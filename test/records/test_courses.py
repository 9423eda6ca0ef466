"""Courses and lessons (004): drafts, the publish gate, revisions, the three laws, progress."""

from __future__ import annotations

import json
import sqlite3

import pytest
from records_desk import LESSON


@pytest.fixture
def course(desk):
    pair = desk.pair()
    return pair, desk.course(pair)


def test_a_lesson_is_a_draft_until_published(desk, course):
    pair, course_id = course
    lesson = desk.lesson(pair, course_id, publish=False)
    row = desk.store.one('SELECT * FROM lesson WHERE lesson_id = ?', lesson)
    assert (row['published_at'], row['revision'], row['position']) == (None, 1, 1)
    assert desk.lesson(pair, course_id, publish=False) != lesson
    assert desk.store.one('SELECT max(position) AS p FROM lesson')['p'] == 2
    desk.refused('declare_lesson_progress', 'CONFLICT', pair_id=pair, lesson_id=lesson,
                 progress='in_progress')                        # not on the shelf yet


@pytest.mark.parametrize('content, error', [
    ('', '❌ 课文为空'),
    ('没有标题的课文' * 40, '❌ 课文没有一级标题'),
    ('# 牛顿第一定律\n' + '内容' * 150 + '\n[见此处]()', '❌ 课文有空链接'),
    ('# 牛顿第一定律\n' + '内容' * 150 + '\nTODO: 补例题', '❌ 课文留有占位「TODO」'),
])
def test_the_publish_gate_refuses_a_failing_lesson_with_the_red_list(desk, course, content,
                                                                       error):
    pair, course_id = course
    lesson = desk.ok('add_lesson', pair_id=pair, course_id=course_id, title='牛顿第一定律',
                     content_markdown=content)['lesson_id']
    refused = desk.refused('publish_lesson', 'CONFLICT', pair_id=pair, lesson_id=lesson)
    assert any(e.startswith(error) for e in refused.result['shortfall']['errors'])
    assert desk.store.one('SELECT published_at FROM lesson')['published_at'] is None


def test_warnings_do_not_block_publishing(desk, course):
    pair, course_id = course
    lesson = desk.ok('add_lesson', pair_id=pair, course_id=course_id, title='惯性',
                     content_markdown='# 牛顿第一定律\n短')['lesson_id']
    published = desk.ok('publish_lesson', pair_id=pair, lesson_id=lesson)
    assert published['status'] == 'PASS_WITH_WARNINGS'
    assert [w[:6] for w in published['warnings']] == ['⚠️ 一级标', '⚠️ 课文 ', '⚠️ 这节课']
    again = desk.ok('publish_lesson', pair_id=pair, lesson_id=lesson)
    assert again['published_at'] == published['published_at']


def test_update_lesson_needs_a_reason_snapshots_and_bumps(desk, course):
    pair, course_id = course
    lesson = desk.lesson(pair, course_id)
    desk.refused('update_lesson', 'VALIDATION', pair_id=pair, lesson_id=lesson,
                 content_markdown='# 新')
    desk.refused('update_lesson', 'VALIDATION', pair_id=pair, lesson_id=lesson,
                 revision_reason='没有改动')
    first = desk.ok('update_lesson', pair_id=pair, lesson_id=lesson, title='惯性定律',
                    revision_reason='她问到惯性')
    second = desk.ok('update_lesson', pair_id=pair, lesson_id=lesson, content_markdown='# 惯性定律',
                     revision_reason='修正格式', revision_kind='technical')
    assert (first['revision'], first['shown_to_learner']) == (2, True)
    assert (second['revision'], second['shown_to_learner']) == (3, False)
    snapshots = desk.store.all('SELECT * FROM lesson_revision ORDER BY revision')
    assert [(s['revision'], s['kind']) for s in snapshots] == [(1, 'teaching'), (2, 'technical')]
    assert json.loads(snapshots[0]['snapshot'])['content_markdown'] == LESSON
    assert json.loads(snapshots[1]['snapshot'])['title'] == '惯性定律'
    row = desk.store.one('SELECT title, content_markdown FROM lesson')
    assert tuple(row) == ('惯性定律', '# 惯性定律')


@pytest.mark.parametrize('progress, kind, allowed', [
    ('', 'teacher_note', False), ('', 'erratum', False),
    ('in_progress', 'teacher_note', True), ('in_progress', 'erratum', False),
    ('completed_declared', 'erratum', True), ('completed_declared', 'teacher_note', False),
])
def test_the_three_laws_of_patching(desk, course, progress, kind, allowed):
    pair, course_id = course
    lesson = desk.lesson(pair, course_id, progress=progress)
    result = desk.call('patch_lesson', pair_id=pair, lesson_id=lesson, kind=kind,
                       body='此处补一句：惯性不是力。', source='基于你第1课的作业')
    assert result.ok is allowed, result
    if not allowed:
        assert result.code == 'CONFLICT'
        assert ('update_lesson' in result.error) is (progress == '')
    assert desk.store.one('SELECT content_markdown FROM lesson')['content_markdown'] == LESSON


def test_progress_is_declared_forward_only(desk, course):
    pair, course_id = course
    lesson = desk.lesson(pair, course_id, progress='completed_declared')
    desk.refused('declare_lesson_progress', 'CONFLICT', pair_id=pair, lesson_id=lesson,
                 progress='in_progress')
    assert desk.ok('declare_lesson_progress', pair_id=pair, lesson_id=lesson,
                   progress='completed_declared')['progress'] == 'completed_declared'


def test_another_pair_s_lessons_and_courses_are_not_found(desk, course):
    pair, course_id = course
    lesson = desk.lesson(pair, course_id)
    other = desk.pair('l2', '王芳')
    desk.refused('add_lesson', 'NOT_FOUND', pair_id=other, course_id=course_id, title='t',
                 content_markdown='# t')
    for tool, extra in (('update_lesson', {'title': 'x', 'revision_reason': 'r'}),
                        ('publish_lesson', {}), ('verify_prep', {}),
                        ('patch_lesson', {'kind': 'erratum', 'body': 'b'}),
                        ('declare_lesson_progress', {'progress': 'in_progress'})):
        desk.refused(tool, 'NOT_FOUND', pair_id=other, lesson_id=lesson, **extra)


def test_verify_prep_compact_verbose_and_course(desk, course):
    pair, course_id = course
    good = desk.lesson(pair, course_id, publish=False)
    desk.ok('add_concept', pair_id=pair, lesson_id=good, name='惯性',
            short_definition='物体保持原有运动状态的性质')
    bad = desk.ok('add_lesson', pair_id=pair, course_id=course_id, title='空',
                  content_markdown='')['lesson_id']
    compact = desk.ok('verify_prep', pair_id=pair, lesson_id=good)
    assert compact['status'] == 'PASS' and 'checks' not in compact
    assert compact['check_counts'] == {'pass': 8, 'skip': 2}
    verbose = desk.ok('verify_prep', pair_id=pair, lesson_id=good, verbose=True)
    assert len(verbose['checks']) == 10
    assert {c['id']: c['result'] for c in verbose['checks']}['exercises.references'] == 'skip'
    whole = desk.ok('verify_prep', pair_id=pair, course_id=course_id)
    assert (whole['lesson_count'], whole['overall_status']) == (2, 'FAIL')
    assert [r['lesson_id'] for r in whole['lessons']] == [good, bad]
    desk.refused('verify_prep', 'VALIDATION', pair_id=pair)
    desk.refused('verify_prep', 'VALIDATION', pair_id=pair, lesson_id=good, course_id=course_id)
    empty = desk.course(pair)
    desk.refused('verify_prep', 'NOT_FOUND', pair_id=pair, course_id=empty)
    rows = desk.store.one('SELECT count(*) AS n FROM lesson_revision')['n']
    assert rows == 0                                             # read-only


@pytest.mark.parametrize('progress, patch', [('in_progress', 'teacher_note'),
                                             ('completed_declared', 'erratum')])
def test_a_lesson_she_has_reached_is_never_rewritten(desk, course, progress, patch):
    pair, course_id = course
    lesson = desk.lesson(pair, course_id)
    desk.ok('update_lesson', pair_id=pair, lesson_id=lesson, content_markdown=LESSON + '\n补充',
            revision_reason='备课时补一句')                       # not reached yet: revised
    desk.ok('declare_lesson_progress', pair_id=pair, lesson_id=lesson, progress=progress)
    before = dict(desk.store.one('SELECT * FROM lesson WHERE lesson_id = ?', lesson))
    for change in ({'content_markdown': '# 重写'}, {'title': '新标题'},
                   {'modality_declarations': {'mindmap': '不配图'}},
                   {'content_markdown': before['content_markdown'], 'title': '同文异题'}):
        for kind in ('teaching', 'technical'):
            refused = desk.refused('update_lesson', 'CONFLICT', pair_id=pair, lesson_id=lesson,
                                   revision_reason='她问到了', revision_kind=kind, **change)
            assert refused.result['shortfall'] == {'progress': progress, 'allowed': [patch]}
            assert 'patch_lesson' in refused.error
    assert dict(desk.store.one('SELECT * FROM lesson WHERE lesson_id = ?', lesson)) == before
    history = desk.store.all('SELECT revision, reason FROM lesson_revision WHERE lesson_id = ?',
                             lesson)
    assert [tuple(r) for r in history] == [(1, '备课时补一句')]      # the history is kept
    desk.ok('patch_lesson', pair_id=pair, lesson_id=lesson, kind=patch, body='此处补一句。')
    other = desk.lesson(pair, course_id)                              # one she has not reached
    assert desk.ok('update_lesson', pair_id=pair, lesson_id=other, title='下一课',
                   revision_reason='前方课修订')['revision'] == 2


@pytest.mark.parametrize('progress', ['in_progress', 'completed_declared'])
def test_the_schema_keeps_a_reached_lesson_s_text_too(desk, course, progress):
    pair, course_id = course
    lesson = desk.lesson(pair, course_id, progress=progress)
    for column in ('title', 'content_markdown'):
        with pytest.raises(sqlite3.IntegrityError, match='never rewritten'):
            desk.store.run(f'UPDATE lesson SET {column} = ? WHERE lesson_id = ?', 'x', lesson)
    desk.store.run('UPDATE lesson SET updated_at = ? WHERE lesson_id = ?', 'now', lesson)
    fresh = desk.lesson(pair, course_id)
    desk.store.run('UPDATE lesson SET title = ? WHERE lesson_id = ?', 'x', fresh)
