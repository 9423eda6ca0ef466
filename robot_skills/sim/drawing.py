"""The report's pictures, drawn with matplotlib: a timeline per robot and the robot in a pose.

The timeline is SVG with its text kept as text (the browser draws the
Chinese with its own fonts; each row's label carries the id
``row-<robot>-<row>`` so a test can find it); poses are PNG stick figures of
the URDF from the audience's side, with a close-up of the hand for numbers.
Only ``matplotlib.figure.Figure`` is used, never pyplot: no global state, so
drawing is safe in any thread and needs no display.
"""

from __future__ import annotations

import io
import warnings
from typing import Any

import numpy as np
from matplotlib import font_manager, rc_context
from matplotlib.figure import Figure

from robot_skills.description.kinematics import Model, Segment
from robot_skills.sim.runs import ROWS, RobotRun

FAMILIES = ('DejaVu Sans', 'WenQuanYi Micro Hei', 'Noto Sans CJK SC')
STATE_COLOURS = {'done': '#4c78a8', 'cancelled': '#b0b0b0', 'failed': '#e45756',
                 'cut': '#f58518', 'open': '#e45756', 'batch': '#d5dbe5'}
MARK_STYLES = {'heard': ('v', '#222222'), 'call': ('|', '#555555'), 'failure': ('X', '#d62728'),
               'hold': ('*', '#2ca02c'), 'barrier': ('>', '#9467bd'),
               'decision': ('o', '#17becf')}
PART_COLOURS = {'body': '#8a94a6', 'limb': '#2f5597', 'hand': '#e07b39', 'head': '#6b6b6b'}
PX_PER_CHAR = 9.0          # a CJK character at font size 8, with some room


def _fonts() -> dict[Any, object]:
    """Text kept as text in SVG, measured with the installed fonts that have the glyphs."""
    installed = {font.name for font in font_manager.fontManager.ttflist}
    return {'font.family': [f for f in FAMILIES if f in installed] or ['sans-serif'],
            'svg.fonttype': 'none', 'font.size': 8}


def slug(row: str) -> str:
    return row.replace(' ', '-')


def timeline_svg(run: RobotRun) -> str:
    """The robot's rows (``ROWS``, top to bottom) over the run, as an inline SVG element."""
    start, end = run.span
    span = max(end - start, 1.0)
    width_in = min(max(10.0, span * 0.9), 40.0)
    with rc_context(_fonts()), warnings.catch_warnings():
        warnings.simplefilter('ignore', UserWarning)      # glyphs the layout font lacks
        fig = Figure(figsize=(width_in, 0.42 * len(ROWS) + 0.8))
        ax = fig.add_subplot()
        y = {row: len(ROWS) - 1 - i for i, row in enumerate(ROWS)}
        px_per_s = width_in * 72 * 0.85 / span
        for bar in run.bars:
            finish = bar.end if bar.end is not None else end
            colour = STATE_COLOURS[bar.state]
            ax.broken_barh([(bar.start, max(finish - bar.start, span / 2000))],
                           (y[bar.row] - 0.35, 0.7), facecolors=colour,
                           edgecolors='#7f8ea8' if bar.state == 'batch' else colour,
                           hatch='//' if bar.state == 'open' else None, linewidth=0.6)
            fits = int((finish - bar.start) * px_per_s / PX_PER_CHAR)
            if fits >= 2:
                text = bar.label if len(bar.label) <= fits else bar.label[:fits - 1] + '…'
                ax.text(bar.start + span / 1000, y[bar.row], text, va='center', fontsize=7,
                        color='#1b1b1b' if bar.state in ('batch', 'cancelled') else 'white',
                        clip_on=True)
        for kind, (marker, colour) in MARK_STYLES.items():
            marks = [m for m in run.marks if m.kind == kind]
            if marks:
                ax.scatter([m.at for m in marks], [y[m.row] + 0.38 for m in marks],
                           marker=marker, color=colour, s=28, zorder=3)
        ax.set_yticks([y[row] for row in ROWS], ROWS)
        for label, row in zip(ax.get_yticklabels(), ROWS, strict=True):
            label.set_gid(f'row-{run.name}-{slug(row)}')
        ax.set_ylim(-0.7, len(ROWS) - 0.3)
        ax.set_xlim(start - span * 0.01, end + span * 0.01)
        ax.set_xlabel('seconds since the simulation started')
        ax.grid(axis='x', color='#e6e6e6', linewidth=0.5)
        ax.set_axisbelow(True)
        fig.tight_layout()
        out = io.StringIO()
        fig.savefig(out, format='svg')
    svg = out.getvalue()
    return svg[svg.index('<svg'):]


def pose_png(model: Model, positions: dict[str, float], title: str, close_up: bool) -> bytes:
    """The robot in ``positions`` seen from the audience; ``close_up`` adds the right hand."""
    model.pose(positions)
    segments = model.segments()
    fig = Figure(figsize=(5.2 if close_up else 2.8, 3.2), dpi=90)
    views: list[tuple[list[Segment], Any]] = [(segments, None)]
    if close_up:
        views.append((segments, model.position('right_palm')))
    for index, (parts, centre) in enumerate(views):
        ax = fig.add_subplot(1, len(views), index + 1, projection='3d')
        if centre is not None:                  # 3D axes do not clip: keep the hand only
            parts = [p for p in parts if p.kind == 'hand']
        for part in parts:
            colour = PART_COLOURS.get(part.kind, 'k')
            if part.kind == 'head':             # a sphere: its centre, drawn round
                middle = (part.start + part.end) / 2
                ax.scatter(*middle, s=180, color=colour)
                continue
            line = np.vstack([part.start, part.end])
            ax.plot(line[:, 0], line[:, 1], line[:, 2], color=colour,
                    linewidth=2 if centre is None else 3, solid_capstyle='round')
        points = np.vstack([p.start for p in parts] + [p.end for p in parts])
        low, high = (points.min(axis=0), points.max(axis=0)) if centre is None else (
            centre - 0.12, centre + 0.12)
        middle, half = (low + high) / 2, max(high - low) / 2
        ax.set_xlim(middle[0] - half, middle[0] + half)
        ax.set_ylim(middle[1] - half, middle[1] + half)
        ax.set_zlim(middle[2] - half, middle[2] + half)
        ax.set_box_aspect((1, 1, 1))
        ax.view_init(elev=12, azim=25)
        ax.set_axis_off()
        ax.set_title('right hand' if centre is not None else title, fontsize=9)
    fig.subplots_adjust(left=0, right=1, bottom=0, top=0.92, wspace=0)
    out = io.BytesIO()
    fig.savefig(out, format='png')
    return out.getvalue()
