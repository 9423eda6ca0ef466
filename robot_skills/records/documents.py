"""Documents the learner reads and highlights (004: 上架一份新文档 / 更新已有文档).

A document belongs to no course or lesson. Its title, when not given, is
derived: the frontmatter's ``title`` → the first H1 (ATX ``# …`` or setext,
a paragraph underlined with ``===``; a heading inside fenced code is code) →
the first line, truncated. When its text changes every highlight is looked for again (its
quote, nearest to where it was); one that cannot be found goes to the
orphan area (``orphaned_at``), never deleted (金缮条款).
"""

from __future__ import annotations

import re

from pydantic import Field

from robot_skills.records.errors import validation
from robot_skills.records.roles import LEARNER
from robot_skills.records.tools import Context, PairArgs, ToolResult, tool

FRONTMATTER = re.compile(r'\A---\s*\n(.*?)\n---\s*\n', re.DOTALL)
TITLE_LENGTH = 40
FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})')
ATX_H1 = re.compile(r'^ {0,3}#(?:[ \t]|$)')          # its text is cut in Python: no backtracking
ATX_CLOSING = re.compile(r'(?:^|[ \t])#+$')
ATX_ANY = re.compile(r'^ {0,3}#{1,6}(?:[ \t]|$)')
SETEXT_H1 = re.compile(r'^ {0,3}=+[ \t]*$')
SETEXT_H2 = re.compile(r'^ {0,3}-+[ \t]*$')
BLOCK_START = re.compile(r'^ {0,3}(?:[>*+-]|\d{1,9}[.)])(?:[ \t]|$)')


def h1_headings(markdown: str) -> list[str]:
    """The text of every level-1 heading in order: ATX (``# Title``) and setext (a paragraph
    underlined with ``===``); lines inside fenced code (``` or ~~~) are code, not headings."""
    found: list[str] = []
    fence = ''                  # the opening fence while inside fenced code
    paragraph: list[str] = []
    for line in markdown.splitlines():
        opening = FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and \
                    len(opening.group(1)) >= len(fence) and not line.strip(' `~'):
                fence = ''
            continue
        if opening and not (opening.group(1)[0] == '`' and '`' in line[opening.end():]):
            fence, paragraph = opening.group(1), []
            continue
        if paragraph and SETEXT_H1.match(line):
            found.append(' '.join(paragraph))
            paragraph = []
            continue
        if ATX_H1.match(line):
            text = _atx_text(line)
            if text:
                found.append(text)
            paragraph = []
        elif not line.strip() or ATX_ANY.match(line) or (paragraph and SETEXT_H2.match(line)) \
                or (not paragraph and (line.startswith(('    ', '\t')) or
                                       BLOCK_START.match(line))):
            paragraph = []
        else:
            paragraph.append(line.strip())
    return found


def _atx_text(line: str) -> str:
    """``# Title ##`` -> ``Title``: the text after the opening ``#``, without a closing run of
    ``#`` (linear, whatever the line holds)."""
    text = line.lstrip(' ')[1:].strip(' \t')
    closing = ATX_CLOSING.search(text)
    return text[:closing.start()].strip(' \t') if closing else text


def derive_title(markdown: str) -> str:
    """Frontmatter title → first H1 (ATX or setext, never one inside fenced code) → first
    non-empty line, truncated to 40 characters."""
    front = FRONTMATTER.match(markdown)
    if front:
        found = re.search(r'^title:\s*["\']?(.+?)["\']?\s*$', front.group(1), re.MULTILINE)
        if found:
            return found.group(1).strip()
        markdown = markdown[front.end():]
    headings = h1_headings(markdown)
    if headings:
        return headings[0]
    first = next((line.strip() for line in markdown.splitlines() if line.strip()), '')
    return first[:TITLE_LENGTH] + ('…' if len(first) > TITLE_LENGTH else '')


class CreateDocument(PairArgs):
    content_markdown: str = Field(min_length=1, max_length=500_000)
    title: str = ''


class Shelved(ToolResult):
    document_id: str
    title: str
    source: str


@tool('create_document', CreateDocument, Shelved)
def create_document(context: Context, args: CreateDocument) -> dict:
    """Shelve a new Markdown document for the learner (source: mcp)."""
    pair_id = context.pair(args.pair_id)
    title = args.title or derive_title(args.content_markdown)
    if not title:
        raise validation('the document has no text to take a title from')
    document_id, now = context.new_id('doc'), context.now()
    context.store.run("INSERT INTO document VALUES (?, ?, ?, ?, 'mcp', ?, ?)", document_id,
                      pair_id, title, args.content_markdown, now, now)
    return {'document_id': document_id, 'title': title, 'source': 'mcp'}


class AddHighlight(PairArgs):
    document_id: str = Field(min_length=1)
    quote: str = Field(min_length=1, max_length=2000)
    note: str = ''


class Highlighted(ToolResult):
    highlight_id: str
    start: int


@tool('add_highlight', AddHighlight, Highlighted, who=LEARNER)
def add_highlight(context: Context, args: AddHighlight) -> dict:
    """The learner highlights a passage (learner side): the quote must be in the text."""
    pair_id = context.pair(args.pair_id)
    document = context.owned('document', args.document_id, pair_id)
    start = document['content_markdown'].find(args.quote)
    if start < 0:
        raise validation('the quote is not in the document')
    highlight_id = context.new_id('hl')
    context.store.run('INSERT INTO highlight VALUES (?, ?, ?, ?, ?, NULL, ?)', highlight_id,
                      args.document_id, args.quote, start, args.note, context.now())
    return {'highlight_id': highlight_id, 'start': start}


class UpdateDocument(PairArgs):
    document_id: str = Field(min_length=1)
    title: str | None = Field(None, min_length=1)
    content_markdown: str | None = Field(None, min_length=1, max_length=500_000)


class Reanchored(ToolResult):
    document_id: str
    highlights_moved: int
    highlights_orphaned: int
    highlights_deleted: int


@tool('update_document', UpdateDocument, Reanchored)
def update_document(context: Context, args: UpdateDocument) -> dict:
    """Revise a document; a new text re-anchors every highlight, orphans kept, none deleted."""
    if args.title is None and args.content_markdown is None:
        raise validation('give title or content_markdown')
    pair_id = context.pair(args.pair_id)
    document = context.owned('document', args.document_id, pair_id)
    now = context.now()
    text = args.content_markdown or document['content_markdown']
    context.store.run('UPDATE document SET title = ?, content_markdown = ?, updated_at = ? '
                      'WHERE document_id = ?', args.title or document['title'], text, now,
                      args.document_id)
    moved = orphaned = 0
    if args.content_markdown is not None:
        for highlight in context.store.all('SELECT * FROM highlight WHERE document_id = ? AND '
                                           'orphaned_at IS NULL', args.document_id):
            start = nearest(text, highlight['quote'], highlight['start'])
            if start is None:
                orphaned += 1
                context.store.run('UPDATE highlight SET orphaned_at = ? WHERE highlight_id = ?',
                                  now, highlight['highlight_id'])
            elif start != highlight['start']:
                moved += 1
                context.store.run('UPDATE highlight SET start = ? WHERE highlight_id = ?', start,
                                  highlight['highlight_id'])
    return {'document_id': args.document_id, 'highlights_moved': moved,
            'highlights_orphaned': orphaned, 'highlights_deleted': 0}


def nearest(text: str, quote: str, was: int) -> int | None:
    """Where ``quote`` is in ``text``, the occurrence nearest its old place; None if gone."""
    found, start = [], text.find(quote)
    while start >= 0:
        found.append(start)
        start = text.find(quote, start + 1)
    return min(found, key=lambda at: abs(at - was)) if found else None


TOOLS = (
    create_document,
    add_highlight,
    update_document,
)
