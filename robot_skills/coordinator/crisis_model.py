"""The crisis check's second reader: a linear model over character n-grams.

The lexicon (``crisis.py``) reads the phrasings it has been shown, and blind probes
(writers who never saw it) found it refers only six or seven of their ten signals: each
writer brings phrasings no pattern names. This reader weighs every character n-gram of
the request (1 to 4 characters: 想消失, "end it", 不在了), learnt from the corpus's tuning
part (``make train-crisis``), so a signal said in words no pattern holds can
still outweigh the study words around it. Either reader alone is a referral
(宁可误报，不可漏报); the model never takes a referral away.

It reads the lexicon's folded copy (``folding.py``: NFKC, lower case, zero-width
characters gone) with traditional characters read as simplified (one character at a
time, through OpenCC's table) and every run of characters that are neither letters nor
digits as one space. Its score is the best sum of weights over windows of a few sizes
(``windows``; the whole text where it is shorter), each moved a quarter of itself, so a
sentence of up to three quarters of a window lies whole in one: a signal in a long
homework paste is diluted by at most a window's worth of homework. The threshold is set
on this same score (``bench/crisis_training.py``). Every step is a numpy pass over the code points:
linear in the text, about a millisecond per 10,000 characters.
"""

from __future__ import annotations

import math
import unicodedata

import numpy as np
from pydantic import Field, model_validator

from robot_skills.model.strict import Strict

PLANES = 0x30000            # letters and digits are looked up in the first three planes
SPACE = 0x20
STRIDES = 4                 # a window moves a quarter of itself: a sentence up to 3/4 of it
                            # lies whole in one
_MIX = np.uint64(0x100000001B3)          # FNV's prime: one step of the rolling hash
_ORDER = 0x9E3779B97F4A7C15              # n * this separates n-grams of different lengths
_MASK = (1 << 64) - 1


class Training(Strict):
    """How the weights were made (``make train-crisis`` reads these back)."""

    corpus_sha256: str = Field(pattern='^[0-9a-f]{64}$',
                               description="the tuning part's SHA-256 when trained")
    l2: float = Field(gt=0, description='the weight of the L2 penalty')
    iterations: int = Field(ge=1, le=100_000)
    learning_rate: float = Field(gt=0, le=1)
    folds: int = Field(ge=2, le=20, description='cross-validation folds that set the threshold')
    false_positive_target: float = Field(gt=0, lt=0.5, description=(
        'the share of held-out-fold hard negatives the threshold lets through'))
    min_weight: float = Field(ge=0, description='weights smaller than this are not kept')


class CrisisModel(Strict):
    """``config/coordinator/crisis_model.json``: the weights of the linear model."""

    ngrams: list[int] = Field(min_length=1, description='n-gram lengths, in characters')
    buckets: int = Field(description='n-grams are hashed into this many weights (a power of 2)')
    windows: list[int] = Field(min_length=1, description=(
        'sizes of the windows scored, in characters (each is moved a quarter of itself)'))
    threshold: float = Field(description='a score above it is a referral')
    bias: float
    indices: list[int] = Field(description='the buckets that have a weight, ascending')
    weights: list[float] = Field(description='their weights, in the same order')
    training: Training

    @model_validator(mode='after')
    def _consistent(self) -> CrisisModel:
        lengths = self.ngrams
        if sorted(set(lengths)) != lengths or not 1 <= lengths[0] <= lengths[-1] <= 8:
            raise ValueError('ngrams: distinct lengths from 1 to 8, ascending')
        if self.buckets < 2 or self.buckets & (self.buckets - 1) or self.buckets > 1 << 24:
            raise ValueError('buckets: a power of 2, at most 2**24')
        if sorted(set(self.windows)) != self.windows or not (
                4 * max(self.ngrams) <= self.windows[0] <= self.windows[-1] <= 10_000):
            raise ValueError('windows: distinct sizes, ascending, from 4 times the longest '
                             'n-gram to 10,000')
        if len(self.indices) != len(self.weights):
            raise ValueError('indices and weights: one weight per index')
        if any(b <= a for a, b in zip(self.indices, self.indices[1:], strict=False)) or (
                self.indices and not 0 <= self.indices[0] <= self.indices[-1] < self.buckets):
            raise ValueError('indices: ascending, distinct, each below buckets')
        if not all(map(math.isfinite, (self.threshold, self.bias, *self.weights))):
            raise ValueError('threshold, bias and weights: finite numbers')
        return self


def _word_table() -> np.ndarray:
    """Code point -> whether it is a letter or a digit (the rest reads as a space)."""
    return np.array([unicodedata.category(chr(c))[0] in 'LN' for c in range(PLANES)])


_WORD = _word_table()


class Features:
    """A folded text as hashed n-grams: the one reading both training and scoring use."""

    def __init__(self, ngrams: list[int], buckets: int, simplified: dict[str, str]) -> None:
        self.ngrams = ngrams
        self._orders = [np.uint64(n * _ORDER & _MASK) for n in ngrams]
        self._shift = np.uint64(64 - buckets.bit_length() + 1)
        self._table = np.arange(PLANES, dtype=np.uint64)
        self._table[~_WORD] = SPACE
        for traditional, simple in simplified.items():
            self._table[ord(traditional)] = ord(simple)

    def codes(self, folded: str) -> np.ndarray:
        """The code points read: simplified, each run of non-word characters one space,
        with a space at either end (so an n-gram sees where a word starts and ends)."""
        points = np.frombuffer(folded.encode('utf-32-le', 'surrogatepass'), dtype=np.uint32)
        mapped = np.full(len(points) + 2, SPACE, dtype=np.uint64)
        inside = points < PLANES
        mapped[1:-1][inside] = self._table[points[inside]]
        spaces = mapped == SPACE
        return mapped[np.r_[True, ~(spaces[1:] & spaces[:-1])]]

    def buckets(self, codes: np.ndarray) -> list[np.ndarray]:
        """For each n-gram length, the bucket of the n-gram starting at each position (the
        hash of an n-gram extends the one of its first n - 1 characters)."""
        out, hashed, length = [], np.zeros(len(codes), dtype=np.uint64), 0
        for n, order in zip(self.ngrams, self._orders, strict=True):
            count = max(len(codes) - n + 1, 0)
            while length < n:
                hashed = hashed[:len(codes) - length] * _MIX + codes[length:]
                length += 1
            out.append(((hashed[:count] * order) >> self._shift).view(np.int64))
        return out


class Scorer:
    """A ``CrisisModel`` ready to score folded text."""

    def __init__(self, model: CrisisModel, simplified: dict[str, str]) -> None:
        self.model = model
        self.features = Features(model.ngrams, model.buckets, simplified)
        self.weights = self.table(model.indices, model.weights)

    def table(self, indices: list[int], weights: list[float]) -> np.ndarray:
        """Every bucket's weight (0 where none is kept)."""
        table = np.zeros(self.model.buckets, dtype=np.float32)
        table[np.asarray(indices, dtype=np.int64)] = weights
        return table

    def score(self, folded: str) -> float:
        return self.best(self.features.codes(folded), self.weights, self.model.bias)

    def best(self, codes: np.ndarray, weights: np.ndarray, bias: float) -> float:
        """The best window's sum, over windows of every size (the whole text where it is
        shorter than one): a window's n-grams are those that start in it."""
        per_position = np.zeros(len(codes), dtype=np.float64)
        for ids in self.features.buckets(codes):
            per_position[:len(ids)] += weights[ids]
        total = np.concatenate(([0.0], np.cumsum(per_position)))
        best = -np.inf
        for window in self.model.windows:
            if len(codes) <= window:
                best = max(best, total[-1])
                break
            stride = window // STRIDES
            starts = np.r_[np.arange(0, len(codes) - window, stride), len(codes) - window]
            best = max(best, float((total[starts + window] - total[starts]).max()))
        return float(best) + bias

    def refers(self, folded: str) -> bool:
        return self.score(folded) > self.model.threshold
