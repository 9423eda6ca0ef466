"""Documents (004): the derived title, highlights re-anchored, orphans kept."""

from __future__ import annotations

import pytest

from robot_skills.records.documents import derive_title

TEXT = '# 力学笔记\n\n惯性是物体保持原有运动状态的性质。\n\n牛顿第一定律又叫惯性定律。'


@pytest.mark.parametrize('markdown, title', [
    ('---\ntitle: "我的书"\nauthor: x\n---\n# 第一章\n正文', '我的书'),
    ('---\nauthor: x\n---\n# 第一章\n正文', '第一章'),
    ('前言\n# 第一章\n正文', '第一章'),
    ('\n\n没有标题的第一行\n第二行', '没有标题的第一行'),
    ('很' * 60, '很' * 40 + '…'),
    ('## 二级标题不算\n正文', '## 二级标题不算'),
])
def test_the_title_is_derived_in_the_document_s_order(markdown, title):
    assert derive_title(markdown) == title


FENCES = [('```', '```'), ('````', '````'), ('~~~', '~~~'), ('```python', '```'),
          ('~~~ markdown', '~~~~'), ('   ```', '```')]


@pytest.mark.parametrize('fence, closing', FENCES)
def test_a_heading_inside_fenced_code_is_code(fence, closing):
    code = f'{fence}\n# 这是注释，不是标题\n{closing}\n'
    assert derive_title(f'前言一句\n{code}\n# 真正的标题\n正文') == '真正的标题'
    assert derive_title(f'{code}正文第一行') == fence.strip()       # no H1: the first line
    assert derive_title(f'说明\n{code}\n真正的标题\n=====\n正文') == '真正的标题'
    unclosed = f'导语\n{fence}\n# 注释\n代码一直没有闭合'
    assert derive_title(unclosed) == '导语'


@pytest.mark.parametrize('markdown, title', [
    ('力学笔记\n====\n\n正文', '力学笔记'),
    ('前言段落。\n\n力学笔记\n=\n正文', '力学笔记'),
    ('力学笔记\n   ===   \n正文', '力学笔记'),
    ('第一行\n第二行\n===\n正文', '第一行 第二行'),              # a paragraph underlined
    ('二级标题\n----\n\n# 一级\n', '一级'),                     # --- underlines an H2
    ('导语\n\n===\n正文', '导语'),                               # === after a blank line
    ('    缩进代码\n    ===\n# 标题', '标题'),
    ('## 二级\n===\n# 一级', '一级'),
    ('# C# 入门 #\n正文', 'C# 入门'),
    ('#不是标题\n# 是标题', '是标题'),
    ('#\n# 空标题之后\n', '空标题之后'),
    ('---\nauthor: x\n---\n```\n# 注释\n```\n笔记\n==\n', '笔记'),
    ('- 列表项\n===\n# 标题', '标题'),
])
def test_setext_h1_counts_and_other_look_alikes_do_not(markdown, title):
    assert derive_title(markdown) == title


def test_verify_prep_reads_headings_the_same_way(desk):
    pair = desk.pair()
    course = desk.course(pair)
    body = '内容' * 150
    fenced = desk.ok('add_lesson', pair_id=pair, course_id=course, title='惯性',
                     content_markdown=f'惯性\n===\n{body}\n```\n# 注释\n```\n')['lesson_id']
    report = desk.ok('verify_prep', pair_id=pair, lesson_id=fenced)
    assert report['status'] == 'PASS_WITH_WARNINGS', report         # no concept yet
    assert not any('一级标题' in w for w in report['warnings']), report
    code_only = desk.ok('add_lesson', pair_id=pair, course_id=course, title='惯性',
                        content_markdown=f'```\n# 注释\n```\n{body}')['lesson_id']
    assert '❌ 课文没有一级标题 (# …)' in desk.ok('verify_prep', pair_id=pair,
                                                lesson_id=code_only)['errors']


def test_a_document_gets_its_derived_title_and_source(desk):
    pair = desk.pair()
    made = desk.ok('create_document', pair_id=pair, content_markdown=TEXT)
    assert (made['title'], made['source']) == ('力学笔记', 'mcp')
    assert desk.ok('create_document', pair_id=pair, content_markdown=TEXT,
                   title='自定')['title'] == '自定'
    desk.refused('create_document', 'VALIDATION', pair_id=pair, content_markdown='')


def test_highlights_move_with_the_text_and_orphans_are_never_deleted(desk):
    pair = desk.pair()
    document = desk.ok('create_document', pair_id=pair, content_markdown=TEXT)['document_id']
    kept = desk.ok('add_highlight', pair_id=pair, document_id=document, quote='惯性定律',
                   note='记住')
    lost = desk.ok('add_highlight', pair_id=pair, document_id=document,
                   quote='保持原有运动状态')
    desk.refused('add_highlight', 'VALIDATION', pair_id=pair, document_id=document,
                 quote='不在文中')
    new_text = '# 力学笔记（修订）\n\n新增一段引言。\n\n牛顿第一定律又叫惯性定律。'
    revised = desk.ok('update_document', pair_id=pair, document_id=document,
                      content_markdown=new_text)
    assert revised == {'document_id': document, 'highlights_moved': 1,
                       'highlights_orphaned': 1, 'highlights_deleted': 0}
    rows = {r['highlight_id']: r for r in desk.store.all('SELECT * FROM highlight')}
    assert rows[kept['highlight_id']]['orphaned_at'] is None
    assert rows[kept['highlight_id']]['start'] == new_text.find('惯性定律') != kept['start']
    assert rows[lost['highlight_id']]['orphaned_at'] is not None       # in the orphan area
    title_only = desk.ok('update_document', pair_id=pair, document_id=document, title='新题')
    assert title_only['highlights_moved'] == 0
    desk.refused('update_document', 'VALIDATION', pair_id=pair, document_id=document)
    other = desk.pair('l2', '王芳')
    desk.refused('update_document', 'NOT_FOUND', pair_id=other, document_id=document,
                 title='x')


def test_a_re_anchored_quote_takes_the_occurrence_nearest_its_old_place(desk):
    pair = desk.pair()
    text = '甲。惯性。乙。' + '丙' * 50 + '惯性。'
    document = desk.ok('create_document', pair_id=pair, content_markdown=text)['document_id']
    late = text.rfind('惯性')
    desk.store.run("INSERT INTO highlight VALUES ('hl_late', ?, '惯性', ?, '', NULL, 'now')",
                   document, late)
    desk.ok('update_document', pair_id=pair, document_id=document, content_markdown='前言' + text)
    assert desk.store.one("SELECT start FROM highlight WHERE highlight_id = 'hl_late'")[
        'start'] == late + 2


@pytest.mark.parametrize('line, title', [
    ('# a' + ' ' * 100_000 + 'x', 'a' + ' ' * 100_000 + 'x'),   # linear: it once took minutes
    ('#' + ' ' * 100_000, ''), ('# T ##', 'T'), ('#  Title  #  ', 'Title'), ('# C#', 'C#'),
])
def test_an_atx_heading_is_read_in_one_pass(line, title):
    assert derive_title(line + '\n\nbody') == (title or line.strip()[:40] or 'body')
