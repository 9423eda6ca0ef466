"""The crisis check's learnt reader: its file, its reading of text, and its training."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import crisis_training
from robot_skills.adapters.config import ConfigError, parse
from robot_skills.coordinator.crisis_model import CrisisModel, Scorer
from robot_skills.runtime import paths

FILE = Path(paths.config('coordinator/crisis_model.json'))


@pytest.fixture(scope='module')
def detector(coordinator):
    return coordinator.crisis


def _naive(scorer: Scorer, folded: str) -> float:
    """The score as its docstring says it, one window and one n-gram at a time."""
    model, codes = scorer.model, scorer.features.codes(folded)
    grams = [(start, ids[start]) for ids in scorer.features.buckets(codes)
             for start in range(len(ids))]
    weights = dict(zip(model.indices, model.weights, strict=True))

    def window(low: int, high: int) -> float:
        return sum(np.float32(weights.get(b, 0.0)) for start, b in grams if low <= start < high)

    best = -np.inf
    for size in model.windows:
        if len(codes) <= size:
            return max(best, window(0, len(codes))) + model.bias
        stride = size // 4
        starts = [*range(0, len(codes) - size, stride), len(codes) - size]
        best = max(best, *(window(s, s + size) for s in starts))
    return best + model.bias


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from('我想不活了死自己消失 ,。abc die\u200b殺'),
               max_size=400))
def test_the_score_is_the_best_windows_sum(detector, text):
    folded = detector.fold(text)
    assert detector.scorer.score(folded) == pytest.approx(_naive(detector.scorer, folded),
                                                          abs=1e-3)


@pytest.mark.parametrize('traditional, simplified', [
    ('我想自殺', '我想自杀'), ('活著沒有意義', '活着没有意义'), ('我不想活了', '我不想活了')])
def test_traditional_characters_read_as_simplified(coordinator, traditional, simplified):
    scorer, fold = coordinator.crisis.scorer, coordinator.crisis.fold
    assert scorer.score(fold(traditional)) == scorer.score(fold(simplified))


@pytest.mark.parametrize('noisy, plain', [
    ('我\u200b想\u200b消\u200b失', '我想消失'), ('我想…消失！！！', '我想 消失'),
    ('ＩＷＡＮＴ  to   DISAPPEAR', 'iwant to disappear')])
def test_punctuation_spaces_and_format_characters_read_as_one_space(coordinator, noisy, plain):
    scorer, fold = coordinator.crisis.scorer, coordinator.crisis.fold
    assert scorer.score(fold(noisy)) == pytest.approx(scorer.score(fold(plain)))


def test_the_file_is_what_the_tuning_part_trains(coordinator):
    """Change the tuning part or the settings and this fails until ``make train-crisis``
    runs: the shipped weights are always the corpus's, never edited by hand."""
    shipped = coordinator.crisis.scorer.model
    assert shipped.training.corpus_sha256 == crisis_training.tuning_digest()
    trained = crisis_training.train(coordinator.crisis, shipped.training)
    assert trained.indices == shipped.indices
    assert np.allclose(trained.weights, shipped.weights, atol=1e-4)
    assert trained.threshold == pytest.approx(shipped.threshold, abs=1e-3)


@pytest.mark.parametrize('change, field', [
    ({'buckets': 1000}, 'power of 2'),
    ({'windows': [160, 48]}, 'windows'),
    ({'windows': [8]}, 'windows'),
    ({'ngrams': [3, 2]}, 'ngrams'),
    ({'weights': [0.5]}, 'one weight per index'),
    ({'indices': [5, 3], 'weights': [0.1, 0.2]}, 'ascending'),
    ({'indices': [1 << 21], 'weights': [0.1]}, 'below buckets'),
    ({'threshold': 'high'}, 'threshold'),
    ({'training': {'l2': 0}}, 'training'),
])
def test_a_bad_model_file_is_refused_with_the_field_named(change, field):
    data = json.loads(FILE.read_text(encoding='utf-8'))
    if 'training' in change:
        data['training'].update(change['training'])
    else:
        data.update(change)
    with pytest.raises(ConfigError, match=field):
        parse(json.dumps(data), CrisisModel, 'crisis_model.json')


def test_a_non_finite_weight_is_refused():
    data = json.loads(FILE.read_text(encoding='utf-8'))
    data['bias'] = float('nan')
    with pytest.raises(ConfigError):
        parse(json.dumps(data), CrisisModel, 'crisis_model.json')
