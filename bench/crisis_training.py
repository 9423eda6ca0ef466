"""make train-crisis: the crisis model's weights, learnt from the corpus's tuning part.

Logistic regression over the hashed n-grams ``crisis_model.Features`` reads, full batch
with Adam and an L2 penalty, from zero weights: the same corpus and settings give the
same weights on any machine (a test retrains and compares). The threshold is set by
cross-validation inside the tuning part: each fold is scored by a model trained on the
others, and the threshold lets through ``false_positive_target`` of those out-of-fold
negatives, so it is chosen on text its model never saw. The held-out part is never read
here: its figures (``make eval``) stay a measurement.

Writes ``config/coordinator/crisis_model.json`` (``--check``: compare instead, exit 1 on
a difference).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from bench.crisis import CORPUS, corpus
from robot_skills.adapters.config import load
from robot_skills.coordinator.crisis import CrisisDetector
from robot_skills.coordinator.crisis_model import CrisisModel, Training
from robot_skills.coordinator.lexicon import Crisis
from robot_skills.runtime import paths

MODEL = Path(__file__).resolve().parents[1] / 'config' / 'coordinator' / 'crisis_model.json'
DECIMALS = 5                 # of a kept weight (the file stays diffable)


def cases(detector: CrisisDetector) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
    """Each tuning case's code points, its buckets (every n-gram length together) and its
    label (1: refer)."""
    data = corpus('tuning')
    texts = [(1, text) for _, _, text in data['positives']] + [
        (0, text) for _, _, text in data['negatives']]
    features = detector.scorer.features
    codes = [features.codes(detector.fold(text)) for _, text in texts]
    rows = [np.concatenate(features.buckets(points)) for points in codes]
    return codes, rows, np.array([label for label, _ in texts], dtype=np.float64)


def fit(rows: list[np.ndarray], labels: np.ndarray,
        training: Training) -> tuple[np.ndarray, np.ndarray, float]:
    """(buckets, their weights, bias): Adam on the mean log loss plus ``l2``/2 |w|²."""
    buckets, column = np.unique(np.concatenate(rows), return_inverse=True)
    row = np.repeat(np.arange(len(rows)), [len(r) for r in rows])
    params = np.zeros(len(buckets) + 1)            # the last one is the bias
    first, second = np.zeros_like(params), np.zeros_like(params)
    for step in range(1, training.iterations + 1):
        weights, bias = params[:-1], params[-1]
        logits = np.bincount(row, weights=weights[column], minlength=len(rows)) + bias
        residual = (1 / (1 + np.exp(-logits)) - labels) / len(rows)
        gradient = np.r_[np.bincount(column, weights=residual[row], minlength=len(buckets))
                         + training.l2 * weights, residual.sum()]
        first = 0.9 * first + 0.1 * gradient
        second = 0.999 * second + 0.001 * gradient * gradient
        params -= (training.learning_rate * (first / (1 - 0.9 ** step))
                   / (np.sqrt(second / (1 - 0.999 ** step)) + 1e-8))
    return buckets, params[:-1], float(params[-1])


def threshold(detector: CrisisDetector, codes: list[np.ndarray], rows: list[np.ndarray],
              labels: np.ndarray, training: Training) -> float:
    """The score the out-of-fold negatives pass at the rate ``false_positive_target``: each
    fold scored as the check scores a request (``Scorer.best``) by a model trained on the
    others."""
    scorer = detector.scorer
    fold = np.arange(len(rows)) % training.folds
    scores = np.zeros(len(rows))
    for k in range(training.folds):
        train = np.flatnonzero(fold != k)
        buckets, weights, bias = fit([rows[i] for i in train], labels[train], training)
        table = scorer.table(buckets.tolist(), weights.tolist())
        for i in np.flatnonzero(fold == k):
            scores[i] = scorer.best(codes[i], table, bias)
    negatives = np.sort(scores[labels == 0])
    passed = int(np.floor(training.false_positive_target * len(negatives)))
    return round(float(negatives[len(negatives) - passed - 1]), DECIMALS)


def train(detector: CrisisDetector, training: Training) -> CrisisModel:
    codes, rows, labels = cases(detector)
    buckets, weights, bias = fit(rows, labels, training)
    kept = np.abs(weights) >= training.min_weight
    old = detector.scorer.model
    return CrisisModel(
        ngrams=old.ngrams, buckets=old.buckets, windows=old.windows,
        threshold=threshold(detector, codes, rows, labels, training), bias=round(bias, DECIMALS),
        indices=buckets[kept].tolist(), weights=np.round(weights[kept], DECIMALS).tolist(),
        training=training.model_copy(update={'corpus_sha256': tuning_digest()}))


def tuning_digest() -> str:
    return hashlib.sha256((CORPUS / 'tuning.yaml').read_bytes()).hexdigest()


def written(model: CrisisModel) -> str:
    """The file's text: the settings first, the weights one list per line."""
    data = model.model_dump()
    head = {k: v for k, v in data.items() if k not in ('indices', 'weights')}
    lines = ['{'] + [f'  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},'
                     for k, v in head.items()]
    lines += [f'  "indices": {json.dumps(data["indices"], separators=(",", ":"))},',
              f'  "weights": {json.dumps(data["weights"], separators=(",", ":"))}', '}']
    return '\n'.join(lines) + '\n'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--check', action='store_true', help='compare with the file, write nothing')
    args = parser.parse_args(argv)
    current = load(MODEL, CrisisModel)
    detector = CrisisDetector(load(paths.config('coordinator/crisis.yaml'), Crisis), current)
    text = written(train(detector, current.training))
    if args.check:
        same = text == MODEL.read_text(encoding='utf-8')
        print('crisis_model.json is what the tuning part trains' if same else
              'crisis_model.json differs from what the tuning part trains: make train-crisis')
        return 0 if same else 1
    MODEL.write_text(text, encoding='utf-8')
    print(f'wrote {MODEL}: {len(json.loads(text)["indices"]):,} weights')
    return 0


if __name__ == '__main__':
    sys.exit(main())
