"""The run report of a short scenario: rows per robot and device, marks, poses, self-contained."""

from __future__ import annotations

import re

import pytest

from robot_skills.sim.drawing import slug
from robot_skills.sim.runs import ROWS

pytestmark = pytest.mark.slow


def test_the_run_prints_where_it_wrote(short_run):
    assert f'report: {short_run.report}' in short_run.stdout
    assert f'recording: {short_run.bag}' in short_run.stdout


def test_every_robot_has_every_device_row(short_run):
    page = short_run.report.read_text(encoding='utf-8')
    for robot in ('q5', 'tianyi'):
        assert f'id="robot-{robot}"' in page
        for row in ROWS:
            assert f'id="row-{robot}-{slug(row)}"' in page, (robot, row)


def test_cut_speech_shows_the_part_heard(short_run):
    page = short_run.report.read_text(encoding='utf-8')
    heard = re.search(r'洽谈间2[^<…]*… \(cut after (\d+) of (\d+) characters\)', page)
    assert heard, 'the interrupted answer is marked as cut'
    assert int(heard.group(1)) < int(heard.group(2))


def test_the_number_and_the_gestures_are_drawn_from_the_recorded_joints(short_run):
    page = short_run.report.read_text(encoding='utf-8')
    captions = re.findall(r'<figcaption>[\d.]+ s: ([^<]+)</figcaption>', page)
    assert 'number 1 shown' in captions
    assert {'welcome both (furthest point)', 'welcome right (furthest point)',
            'nod (furthest point)'} <= set(captions)
    assert page.count('src="data:image/png;base64,') == len(captions)


def test_the_page_needs_nothing_outside_itself(short_run):
    page = short_run.report.read_text(encoding='utf-8')
    assert not re.search(r'(src|href)="(?!data:|#)', page)
    assert '<script' not in page
