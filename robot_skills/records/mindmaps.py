"""Mind-map seeds (004: add_mindmap_seed / 修复你自己播种的课程脑图).

The document's field contract and checks, as one validator used by both
tools and by verify_prep: nodes have exactly {id, title, level, pos_x,
pos_y, is_expanded, sort_order} plus ``parent_id`` unless root; one root at
the skylight (50, 8); 3-4 branches under it, each with 2-4 details; no chain
of only children; no spoke umbrella (details hanging from the root, or
branches that merely copy the lesson's section list); every other node
within x 8-92 and y 12-95; siblings at least 14 apart in y; note titles at
most 12 characters; links only across branches, never a parent-child edge.
Only the agent's own seeds may be updated, and an update writes the content
and the seed snapshot together.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Literal

from pydantic import Field, model_validator

from robot_skills.records.errors import permission, validation
from robot_skills.records.tools import Args, Context, PairArgs, ToolResult, tool

SKYLIGHT = (50.0, 8.0)
X_RANGE, Y_RANGE = (8.0, 92.0), (12.0, 95.0)
SIBLING_GAP = 14.0
NOTE_TITLE = 12
H2 = re.compile(r'^## +(.+?)\s*$', re.MULTILINE)


class MapNode(Args):
    id: str = Field(min_length=1)
    title: str = Field(min_length=1, max_length=60)
    level: Literal['root', 'branch', 'detail', 'note']
    pos_x: float
    pos_y: float
    is_expanded: bool
    sort_order: int
    parent_id: str | None = None


class Link(Args):
    source: str
    target: str


class MapContent(Args):
    nodes: list[MapNode] = Field(min_length=1)
    links: list[Link] = []

    @model_validator(mode='after')
    def _ids(self) -> MapContent:
        ids = [node.id for node in self.nodes]
        if len(set(ids)) != len(ids):
            raise ValueError('node ids must be unique')
        return self


def problems(content: MapContent, lesson_markdown: str = '') -> list[str]:
    """Every way the map breaks the document's topology and layout rules."""
    nodes = {node.id: node for node in content.nodes}
    found, children = _tree(content, nodes)
    roots = [n for n in content.nodes if n.level == 'root']
    if len(roots) != 1:
        return [*found, f'a map has exactly one root (found {len(roots)})']
    root = roots[0]
    return [*found, *_shape_problems(root, children, lesson_markdown),
            *_layout_problems(content, root, children),
            *_link_problems(content, nodes, root.id)]


def _tree(content: MapContent,
          nodes: dict[str, MapNode]) -> tuple[list[str], dict[str, list[MapNode]]]:
    """The children of every node, and the nodes whose parent is missing or wrong."""
    found = []
    children: dict[str, list[MapNode]] = {}
    for node in content.nodes:
        if node.level != 'root':
            if node.parent_id is None or node.parent_id not in nodes:
                found.append(f'node {node.id!r} needs a parent_id of an existing node')
                continue
            children.setdefault(node.parent_id, []).append(node)
        elif node.parent_id is not None:
            found.append('the root has no parent')
    return found, children


def _shape_problems(root: MapNode, children: dict[str, list[MapNode]],
                    lesson_markdown: str) -> list[str]:
    """The skylight root, 3-4 branches of 2-4 details, no copy of the lesson's sections."""
    found = []
    if (root.pos_x, root.pos_y) != SKYLIGHT:
        found.append(f'the root sits at the skylight {SKYLIGHT}, not ({root.pos_x}, {root.pos_y})')
    below_root = children.get(root.id, [])
    branches = [n for n in below_root if n.level == 'branch']
    if any(n.level != 'branch' for n in below_root):
        found.append('spoke umbrella: only branches hang from the root')
    if not 3 <= len(branches) <= 4:
        found.append(f'the root has 3-4 branches (found {len(branches)})')
    for branch in branches:
        details = [n for n in children.get(branch.id, []) if n.level == 'detail']
        if not 2 <= len(details) <= 4:
            found.append(f'branch {branch.id!r} has 2-4 details (found {len(details)})')
    sections = H2.findall(lesson_markdown)
    if sections and [b.title for b in sorted(branches, key=lambda b: b.sort_order)] == sections:
        found.append('spoke umbrella: the branches copy the lesson\'s section list')
    return found


def _layout_problems(content: MapContent, root: MapNode,
                     children: dict[str, list[MapNode]]) -> list[str]:
    """No chains of only children, short notes, the canvas's ranges, room between siblings."""
    found = []
    for node in content.nodes:
        only = children.get(node.id, [])
        if len(only) == 1 and len(children.get(only[0].id, [])) == 1:
            found.append(f'a chain of only children from {node.id!r}')
        if node.level == 'note' and len(node.title) > NOTE_TITLE:
            found.append(f'note {node.id!r}: a title of at most {NOTE_TITLE} characters')
        if node is not root and not (X_RANGE[0] <= node.pos_x <= X_RANGE[1] and
                                     Y_RANGE[0] <= node.pos_y <= Y_RANGE[1]):
            found.append(f'node {node.id!r} is outside x {X_RANGE} / y {Y_RANGE}')
    for siblings in children.values():
        ys = sorted(n.pos_y for n in siblings)
        if any(b - a < SIBLING_GAP for a, b in zip(ys, ys[1:], strict=False)):
            found.append(f'siblings under {siblings[0].parent_id!r} are closer than '
                         f'{SIBLING_GAP:g} in y')
    return found


def _link_problems(content: MapContent, nodes: dict[str, MapNode], root: str) -> list[str]:
    def branch_of(node_id: str) -> str:
        while nodes[node_id].parent_id not in (None, root):
            node_id = nodes[node_id].parent_id or root
        return node_id

    found = []
    for link in content.links:
        if link.source not in nodes or link.target not in nodes:
            found.append(f'link {link.source}->{link.target} names a missing node')
        elif link.source in (nodes[link.target].parent_id, ) or \
                link.target == nodes[link.source].parent_id:
            found.append(f'link {link.source}->{link.target} copies a parent-child edge')
        elif root in (link.source, link.target) or \
                branch_of(link.source) == branch_of(link.target):
            found.append(f'link {link.source}->{link.target} does not cross branches')
    duplicates = [k for k, v in Counter((link.source, link.target)
                                        for link in content.links).items() if v > 1]
    return found + [f'link {a}->{b} is drawn twice' for a, b in duplicates]


class AddSeed(PairArgs):
    lesson_id: str = ''
    course_id: str = ''
    content: MapContent

    @model_validator(mode='after')
    def _one(self) -> AddSeed:
        if bool(self.lesson_id) == bool(self.course_id):
            raise ValueError('give exactly one of lesson_id and course_id')
        return self


class Seeded(ToolResult):
    mindmap_id: str
    nodes: int


@tool('add_mindmap_seed', AddSeed, Seeded)
def add_mindmap_seed(context: Context, args: AddSeed) -> dict:
    """Seed an agent mind map on a lesson or a course (map and association in one step)."""
    pair_id = context.pair(args.pair_id)
    text = ''
    if args.lesson_id:
        text = context.owned('lesson', args.lesson_id, pair_id)['content_markdown']
    else:
        context.owned('course', args.course_id, pair_id)
    refused = problems(args.content, text)
    if refused:
        raise validation('the mind map breaks the seed rules', problems=refused)
    mindmap_id, now = context.new_id('mm'), context.now()
    content = args.content.model_dump_json(exclude_none=True)
    context.store.run("INSERT INTO mindmap VALUES (?, ?, ?, ?, 'agent', ?, ?, ?, ?)", mindmap_id,
                      pair_id, args.lesson_id or None, args.course_id or None, content, content,
                      now, now)
    return {'mindmap_id': mindmap_id, 'nodes': len(args.content.nodes)}


class UpdateSeed(PairArgs):
    mindmap_id: str = Field(min_length=1)
    content: MapContent


class Reseeded(ToolResult):
    mindmap_id: str
    snapshot_synced: Literal[True]


@tool('update_mindmap_seed', UpdateSeed, Reseeded)
def update_mindmap_seed(context: Context, args: UpdateSeed) -> dict:
    """Rework your own seed: the same checks; content and agent_seed_snapshot written together."""
    pair_id = context.pair(args.pair_id)
    row = context.owned('mindmap', args.mindmap_id, pair_id)
    if row['source'] != 'agent':
        raise permission('a map the learner grew herself is hers: the agent may not change it')
    text = context.store.row('SELECT content_markdown FROM lesson WHERE lesson_id = ?',
                             row['lesson_id'])['content_markdown'] if row['lesson_id'] else ''
    refused = problems(args.content, text)
    if refused:
        raise validation('the mind map breaks the seed rules', problems=refused)
    content = args.content.model_dump_json(exclude_none=True)
    context.store.run('UPDATE mindmap SET content = ?, agent_seed_snapshot = ?, updated_at = ? '
                      'WHERE mindmap_id = ?', content, content, context.now(), args.mindmap_id)
    return {'mindmap_id': args.mindmap_id, 'snapshot_synced': True}


def stored_problems(content_json: str, lesson_markdown: str) -> list[str]:
    """verify_prep's view of a stored map."""
    return problems(MapContent.model_validate(json.loads(content_json)), lesson_markdown)


TOOLS = (
    add_mindmap_seed,
    update_mindmap_seed,
)
