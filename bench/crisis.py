"""make eval: the crisis check measured on its corpus, and its time on the longest requests.

* recall and false-positive rate per category, on the tuning part (what the
  patterns are tuned on: recall must be 100%) and on the held-out part
  (written before tuning, never tuned on: the honest figure);
* the time of one crisis check on requests at the transport cap (100,000
  characters): realistic text and inputs built to be slow (every pattern
  character mixed at random, all of CJK at random, one pattern's start
  repeated, topic questions that are set aside one by one, full-width text),
  five fresh texts each: the first time an automaton meets a text is the
  slowest, so each is measured once. Target: 20 ms.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from pathlib import Path

import yaml

from robot_skills.coordinator.crisis import CrisisDetector
from robot_skills.coordinator.lexicon import Crisis
from robot_skills.model.config import load
from robot_skills.runtime import paths

CORPUS = Path(__file__).resolve().parents[1] / 'test' / 'coordinator' / 'crisis_corpus'
CAP = 100_000
SEEDS = 5


def corpus(part: str) -> dict[str, list[list[str]]]:
    return yaml.safe_load((CORPUS / f'{part}.yaml').read_text(encoding='utf-8'))


def evaluate(detector: CrisisDetector, part: str) -> list[tuple[str, int, int]]:
    """(label, cases, referred) per label of ``part``: positives first, then negatives."""
    data = corpus(part)
    rows = []
    for kind in ('positives', 'negatives'):
        cases = Counter(label for label, _, _ in data[kind])
        referred = Counter(label for label, _, text in data[kind]
                           if detector.read(text).referral)
        rows += [(f'{kind[:-1]}: {label}', cases[label], referred[label]) for label in cases]
    return rows


def slow_inputs(detector: CrisisDetector) -> dict[str, list[str]]:
    texts = [text for part in ('tuning', 'heldout') for kind in ('positives', 'negatives')
             for _, _, text in corpus(part)[kind]]
    alphabet = sorted({ch for p in detector.lexicon.categories.values() for s in (p.zh, p.en)
                       for pattern in s for ch in pattern if '\u4e00' <= ch <= '\u9fff'})

    def made(kind: str, rng: random.Random) -> str:
        if kind == 'learner text (the corpus, shuffled)':
            return ''.join(rng.choice(texts) + '。' for _ in range(CAP // 10))[:CAP]
        if kind == 'every pattern character at random':
            return ''.join(rng.choice(alphabet) for _ in range(CAP))
        if kind == 'all of CJK at random':
            return ''.join(chr(rng.randrange(0x4E00, 0xA000)) for _ in range(CAP))
        if kind == "one pattern's start repeated":
            return rng.choice(['想', '被', '不想', '我想了']) * CAP
        if kind == 'topic questions set aside one by one':
            return ''.join(rng.choice(['小说里主人公为什么想死。', '课文中的人为什么自杀？',
                                       'what does suicide mean. ']) for _ in range(CAP // 10))[:CAP]
        return ''.join(chr(rng.randrange(0xFF01, 0xFF5F)) + rng.choice('题 ')
                       for _ in range(CAP // 2))

    kinds = ['learner text (the corpus, shuffled)', 'every pattern character at random',
             'all of CJK at random', "one pattern's start repeated",
             'topic questions set aside one by one', 'full-width letters among text']
    return {kind: [made(kind, random.Random(seed)) for seed in range(SEEDS)] for kind in kinds}


def timings(detector: CrisisDetector) -> list[tuple[str, float, float]]:
    rows = []
    for kind, texts in slow_inputs(detector).items():
        measured = []
        for text in texts:
            began = time.perf_counter()
            detector.read(text)
            measured.append((time.perf_counter() - began) * 1e3)
        rows.append((kind, statistics.median(measured), max(measured)))
    return rows


def measure() -> dict:
    lexicon = load(paths.config('coordinator/crisis.yaml'), Crisis)
    began = time.perf_counter()
    detector = CrisisDetector(lexicon)
    loaded = (time.perf_counter() - began) * 1e3
    return {'tuning': evaluate(detector, 'tuning'), 'heldout': evaluate(detector, 'heldout'),
            'timings': timings(detector), 'load_ms': loaded}


def report(figures: dict) -> None:
    for part, title in (('heldout', 'held-out (never tuned on)'), ('tuning', 'tuning')):
        rows = figures[part]
        print(f'\n| crisis corpus, {title} | cases | referred | recall or false positives |'
              '\n|---|---|---|---|')
        for label, cases, referred in rows:
            kind = 'recall' if label.startswith('positive') else 'false positives'
            print(f'| {label} | {cases} | {referred} | {kind} {referred / cases:.1%} |')
        positives = [(c, r) for label, c, r in rows if label.startswith('positive')]
        negatives = [(c, r) for label, c, r in rows if label.startswith('negative')]
        p_cases, p_hit = map(sum, zip(*positives, strict=True))
        n_cases, n_hit = map(sum, zip(*negatives, strict=True))
        print(f'| **all positives** | {p_cases} | {p_hit} | recall {p_hit / p_cases:.1%} |')
        print(f'| **all hard negatives** | {n_cases} | {n_hit} | false positives '
              f'{n_hit / n_cases:.1%} |')
    print(f'\n| one crisis check, {CAP:,} characters, {SEEDS} fresh texts each (target <= 20 ms)'
          f' | median ms | max ms |\n|---|---|---|')
    for kind, median, worst in figures['timings']:
        print(f'| {kind} | {median:.1f} | {worst:.1f} |')
    print(f'| (loading the patterns and warming their automata, once at start) | '
          f'{figures["load_ms"]:.0f} | |')


def main() -> None:
    report(measure())


if __name__ == '__main__':
    main()
