"""The run report: one self-contained HTML page a person can read in a minute.

    robot_skills_sim --scenario config/scenarios/demo.yaml --report report/

For each robot a timeline (what it heard, its batches, and each device:
speech, arm gesture, arm, each hand, head; failures, cut speech and barrier
releases marked) and the robot model drawn in its key poses from the joint
states the mock recorded; then the full text timeline. Pictures are embedded
(inline SVG, base64 PNG), so the file can be mailed or attached to a CI run.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from pathlib import Path

from robot_skills.description.kinematics import Model
from robot_skills.description.urdf import urdf_path
from robot_skills.sim.drawing import MARK_STYLES, STATE_COLOURS, pose_png, timeline_svg
from robot_skills.sim.recorder import Message
from robot_skills.sim.runs import RobotRun, read

STYLE = """
body { font-family: 'DejaVu Sans', 'WenQuanYi Micro Hei', 'Noto Sans CJK SC', sans-serif;
       margin: 1.5em; color: #1b1b1b; }
h1 { margin-bottom: 0.2em; } .ok { color: #2a7d2a; } .bad { color: #c0392b; }
.timeline { overflow-x: auto; border: 1px solid #ddd; padding: 4px; }
.timeline svg { height: auto; }
.poses { display: flex; flex-wrap: wrap; gap: 10px; }
figure { margin: 0; border: 1px solid #ddd; padding: 4px; }
figcaption { font-size: 0.85em; text-align: center; }
.key span { display: inline-block; margin-right: 1.2em; font-size: 0.9em; }
.key i { display: inline-block; width: 1.2em; height: 0.8em; margin-right: 0.3em; }
table.events { border-collapse: collapse; font-size: 0.85em; }
table.events td { padding: 1px 8px; vertical-align: top; white-space: pre-wrap; }
.alerts .cut { color: #b35c00; } .alerts .failed, .alerts .open { color: #c0392b; }
tr.FAILED, tr.CUT, tr.PROBLEM, tr.ERROR, tr.DEGRADED { background: #fde2e1; }
"""
KEY = {'done': 'finished', 'cut': 'speech cut (the part heard)', 'failed': 'failed',
       'cancelled': 'cancelled or replaced', 'open': 'never finished', 'batch': 'a batch'}
MARK_KEY = {'heard': '▼ heard', 'barrier': '▶ released by a barrier or timer',
            'hold': '★ number held', 'failure': '✖ failure', 'call': '| pause, cancel…',
            'decision': '● reply or decision'}


def write(directory: Path | str, name: str, description: str, status: int,
          lines: Sequence[str], messages: list[Message], robots: list[str],
          started_ns: int) -> Path:
    """Write ``<directory>/<name>.html`` and return its path."""
    runs = read(messages, robots, started_ns)
    problems = [line.split(' PROBLEM ', 1)[1].strip() for line in lines if ' PROBLEM ' in line]
    verdict = ('<p class="ok">every expectation met</p>' if status == 0 else
               '<p class="bad">the run did not go as the scenario expects:</p><ul class="bad">'
               + ''.join(f'<li>{html.escape(p)}</li>' for p in problems) + '</ul>')
    body = [f'<h1>{html.escape(name)}</h1>', f'<p>{html.escape(description)}</p>', verdict,
            _key()]
    body += [_robot(run) for run in runs.values() if run.bars or run.marks]
    body.append(_events(lines))
    page = ('<!DOCTYPE html>\n<html lang="zh"><head><meta charset="utf-8">'
            f'<title>{html.escape(name)}: run report</title><style>{STYLE}</style></head>'
            '<body>\n' + '\n'.join(body) + '\n</body></html>\n')
    path = Path(directory) / f'{name}.html'
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding='utf-8')
    return path


def _key() -> str:
    bars = ''.join(f'<span><i style="background:{STATE_COLOURS[state]}"></i>{text}</span>'
                   for state, text in KEY.items())
    marks = ''.join(f'<span style="color:{MARK_STYLES[kind][1]}">{text}</span>'
                    for kind, text in MARK_KEY.items())
    return f'<p class="key">{bars}<br>{marks}</p>'


def _robot(run: RobotRun) -> str:
    parts = [f'<section id="robot-{run.name}"><h2>{html.escape(run.name)}</h2>',
             f'<div class="timeline">{timeline_svg(run)}</div>', _alerts(run)]
    if run.poses and urdf_path(run.name).is_file():
        model = Model.of(run.name)
        figures = []
        for pose in run.poses:
            png = pose_png(model, pose.positions, pose.label, pose.label.startswith('number'))
            figures.append(
                f'<figure><img alt="{html.escape(pose.label)}" '
                f'src="data:image/png;base64,{base64.b64encode(png).decode()}">'
                f'<figcaption>{pose.at:.2f} s: {html.escape(pose.label)}</figcaption></figure>')
        parts.append(f'<h3>Key poses</h3><div class="poses">{"".join(figures)}</div>')
    parts.append('</section>')
    return '\n'.join(parts)


def _alerts(run: RobotRun) -> str:
    """Cut speech and failures in full: the timeline has room for their first words only."""
    items = [(bar.start, f'{bar.row}: {bar.label}', bar.state) for bar in run.bars
             if bar.state in ('cut', 'failed', 'open')]
    items += [(mark.at, f'{mark.row}: {mark.label}', 'failed') for mark in run.marks
              if mark.kind == 'failure']
    if not items:
        return '<p class="ok">nothing failed, no speech was cut</p>'
    rows = ''.join(f'<li class="{state}">{at:.2f} s {html.escape(text)}</li>'
                   for at, text, state in sorted(items))
    return f'<ul class="alerts">{rows}</ul>'


def _events(lines: Sequence[str]) -> str:
    rows = []
    for line in lines:
        fields = line.split(None, 3)
        tag = fields[2] if len(fields) > 2 else ''
        cells = ''.join(f'<td>{html.escape(f)}</td>' for f in (fields + [''] * 4)[:4])
        rows.append(f'<tr class="{html.escape(tag)}">{cells}</tr>')
    return ('<details><summary>The full text timeline</summary><table class="events">'
            + '\n'.join(rows) + '</table></details>')
