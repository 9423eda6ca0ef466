"""The crisis corpus: 100% recall on the tuning part, few false positives; its shape.

The held-out part is measured, not asserted (``make eval``): asserting it would
turn it into a second tuning set.
"""

from __future__ import annotations

import itertools

import pytest
import yaml

from bench.crisis import CORPUS, corpus

CATEGORIES = {'self_harm', 'suicidal', 'bullied_or_harmed', 'family_safety', 'despair',
              'other_danger'}
SCRIPTS = {'hans', 'hant', 'en', 'mixed'}
TUNING = corpus('tuning')


@pytest.fixture(scope='module')
def detector(coordinator):
    return coordinator.crisis


@pytest.mark.parametrize('label, script, text', TUNING['positives'],
                         ids=[f'{c}-{s}-{n}' for n, (c, s, _) in enumerate(TUNING['positives'])])
def test_every_tuning_positive_is_referred(detector, label, script, text):
    assert detector.read(text).referral, (label, script, text)


def test_tuning_negatives_are_rarely_referred(detector):
    referred = [text for _, _, text in TUNING['negatives'] if detector.read(text).referral]
    assert len(referred) <= 0.02 * len(TUNING['negatives']), referred


def test_the_corpus_covers_every_category_and_script_with_300_of_each_kind():
    parts = [corpus('tuning'), corpus('heldout')]
    positives = [entry for part in parts for entry in part['positives']]
    negatives = [entry for part in parts for entry in part['negatives']]
    assert len(positives) >= 300 and len(negatives) >= 300
    assert {label for label, _, _ in positives} == CATEGORIES
    for category, script in itertools.product(CATEGORIES, SCRIPTS - {'mixed'}):
        assert any(label == category and s == script for label, s, _ in positives), \
            (category, script)
    assert {s for _, s, _ in negatives} == SCRIPTS


def test_no_case_is_in_both_parts():
    texts = [{text for kind in ('positives', 'negatives') for _, _, text in corpus(part)[kind]}
             for part in ('tuning', 'heldout')]
    assert not texts[0] & texts[1]


def test_every_entry_is_a_label_a_script_and_a_text():
    for part in ('tuning', 'heldout'):
        data = yaml.safe_load((CORPUS / f'{part}.yaml').read_text(encoding='utf-8'))
        for entry in data['positives'] + data['negatives']:
            assert len(entry) == 3 and entry[1] in SCRIPTS and isinstance(entry[2], str), entry
