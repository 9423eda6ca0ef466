"""The run report of a short scenario: rows per robot and device, marks, poses, self-contained."""

from __future__ import annotations

import re

import pytest

from robot_skills.sim import report
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
    cut = [item for item in re.findall(r'<li class="cut">([^<]*)</li>', page)
           if '洽谈间2' in item]
    assert len(cut) == 1, 'the interrupted answer is listed as cut'
    heard, said, total = re.fullmatch(
        r'[\d.]+ s speech: (.*) ✂ .* \(cut after (\d+) of (\d+) characters\)', cut[0]).groups()
    assert len(heard) == int(said) < int(total)


def test_the_number_and_the_gestures_are_drawn_from_the_recorded_joints(short_run):
    page = short_run.report.read_text(encoding='utf-8')
    captions = re.findall(r'<figcaption>[\d.]+ s: ([^<]+)</figcaption>', page)
    # The nod and the scan last 0.1 and 0.3 s at this time scale: a few joint states each,
    # which a loaded machine may miss; the number is held 0.5 s, a welcome lasts 0.2 s.
    assert {'number 1 shown', 'welcome both (furthest point)',
            'welcome right (furthest point)'} <= set(captions)
    assert set(captions) <= {'number 1 shown', 'welcome both (furthest point)',
                             'welcome right (furthest point)', 'nod (furthest point)',
                             'scan (furthest point)'}
    assert page.count('src="data:image/png;base64,') == len(captions)


def test_the_page_needs_nothing_outside_itself(short_run):
    page = short_run.report.read_text(encoding='utf-8')
    assert not re.search(r'(src|href)="(?!data:|#)', page)
    assert '<script' not in page


def test_a_failed_run_lists_its_problems_at_the_top(tmp_path):
    lines = ['   3.100s  sim       PROBLEM  step 2: said [] but expected [好的]',
             '   3.200s  sim       END      2 steps, 1 checked, 1 problem(s)']
    page = report.write(tmp_path, 'broken', 'a run that fails', 1, lines, [], ['q5'], 0
                        ).read_text(encoding='utf-8')
    top = page[:page.index('<p class="key">')]
    assert 'did not go as the scenario expects' in top
    assert '<li>step 2: said [] but expected [好的]</li>' in top
    assert '<tr class="PROBLEM">' in page
