"""make eval: the crisis check measured on its corpus, and the coordinator's time on the
longest requests.

* recall and false-positive rate per category, on the tuning part (what the
  patterns are tuned on: recall must be 100%) and on the held-out part
  (written before tuning, never tuned on: the honest figure);
* the time of one crisis check on requests at the transport cap (100,000
  characters): realistic text and inputs built to be slow (every pattern
  character mixed at random, all of CJK at random, one pattern's start
  repeated, topic questions that are set aside one by one, full-width text),
  five fresh texts each: the first time an automaton meets a text is the
  slowest, so each is measured once. Target: 20 ms;
* the time of the coordinator's whole decision (crisis check, then routing) on
  the same inputs cut to ``max_chars`` (the longest request that is routed) and
  on inputs built against routing (particles for the classical score, clauses,
  unit characters, the trigger phrases repeated); past ``max_chars`` a request
  is declined after its crisis check (or once NFKC makes it longer), so the first
  table bounds it;
* the service's whole answer (store included) to the same 100,000-character
  inputs from a learner whose deletion waits for its yes: the path that reads a
  request most before declining it (the yes check, the crisis check, the limit).
"""

from __future__ import annotations

import math
import random
import re
import statistics
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import yaml

from robot_skills.adapters.config import load
from robot_skills.coordinator.core import Coordinator, LearnerView, Request
from robot_skills.coordinator.crisis import CrisisDetector, _tail
from robot_skills.coordinator.crisis_model import CrisisModel
from robot_skills.coordinator.lexicon import Crisis, Phrases, Routing, has_span
from robot_skills.coordinator.service import CoordinatorService, Windows
from robot_skills.coordinator.store import Store
from robot_skills.runtime import paths

CORPUS = Path(__file__).resolve().parents[1] / 'test' / 'coordinator' / 'crisis_corpus'
CAP = 100_000
NOW = datetime(2026, 3, 1, 9, 0)
SEEDS = 5
DELETE = '删除我的联动记录'      # asks 确定要删除吗: the next request is read as its answer first


def corpus(part: str) -> dict[str, list[list[str]]]:
    return yaml.safe_load((CORPUS / f'{part}.yaml').read_text(encoding='utf-8'))


def lexicon_only(detector: CrisisDetector) -> CrisisDetector:
    """The same check with the model never referring: what the lexicon alone decides."""
    return CrisisDetector(detector.lexicon, detector.scorer.model.model_copy(
        update={'threshold': math.inf}))


def evaluate(detector: CrisisDetector, part: str) -> list[tuple[str, int, int, int, int]]:
    """(label, cases, referred by the lexicon alone, by the model alone (the whole text),
    by the check) per label of ``part``: positives first, then negatives. The check is not
    quite "either": its model reads only what the lexicon did not set aside (an idiom, a
    question about a novel's character), so it refers a little less than the two columns."""
    lexicon = lexicon_only(detector)
    data = corpus(part)
    rows = []
    for kind in ('positives', 'negatives'):
        counts: dict[str, list[int]] = {}
        for label, _, text in data[kind]:
            by_lexicon = lexicon.read(text).referral
            by_model = detector.scorer.refers(detector.fold(text))
            row = counts.setdefault(label, [0, 0, 0, 0])
            for n, hit in enumerate((True, by_lexicon, by_model, detector.read(text).referral)):
                row[n] += hit
        rows += [(f'{kind[:-1]}: {label}', *row) for label, row in counts.items()]
    return rows


def slow_inputs(detector: CrisisDetector) -> dict[str, list[str]]:
    texts = [text for part in ('tuning', 'heldout') for kind in ('positives', 'negatives')
             for _, _, text in corpus(part)[kind]]
    negatives = [text for part in ('tuning', 'heldout') for _, _, text in corpus(part)['negatives']]
    alphabet = sorted({ch for p in detector.lexicon.categories.values() for s in (p.zh, p.en)
                       for pattern in s for ch in pattern if '\u4e00' <= ch <= '\u9fff'})

    gaps = [*'了过着的很就都也还要会是在啊吧呢，、：·—～“”（） ', '\u200b']
    gapped = [*alphabet, *gaps]
    # the Chinese patterns' words cut short (never whole, so seldom a signal), without "I"
    # (a sentence that says "I" is never set aside: a topic question in it is a signal)
    first_person = re.compile(detector.lexicon.first_person.zh)
    cut_short = sorted({cut for p in detector.lexicon.categories.values() for pattern in p.zh
                        for word in re.findall('[\u4e00-\u9fff]+', pattern)
                        for n in range(1, len(word))
                        if not first_person.search(cut := word[:n]) and '我' not in cut})
    # what comes before a span (…): every one of them keeps a partial match alive
    starts = sorted({ch for p in detector.lexicon.categories.values() for s in (p.zh, p.en)
                     for pattern in s if '…' in pattern
                     for ch in pattern.split('…')[0] if '\u4e00' <= ch <= '\u9fff'})
    tails = ''.join(sorted({ch for p in detector.lexicon.categories.values() for pattern in p.zh
                            for ch in _tail(pattern) if '\u4e00' <= ch <= '\u9fff'}))

    # its own automata (the timed ones stay cold), and the lexicon's decision alone: the
    # texts below are the lexicon's worst cases, read whole only where it finds no signal
    # (the model, which reads every text whole, may still refer them)
    checker = lexicon_only(detector)

    def quiet(rng: random.Random) -> str:
        """Pattern characters at random, 500 at a time, each part without a signal."""
        while True:
            part = ''.join(rng.choices(alphabet, k=500))
            if not checker.read(part).referral:
                return part

    def no_signal(rng: random.Random) -> str:
        while checker.read(text := ''.join(quiet(rng) for _ in range(CAP // 500))).referral:
            pass
        return text

    def soup(rng: random.Random) -> str:
        """Words cut short, each before a gap character, with no sentence end: one sentence
        of 100,000 characters that keeps every set's partial matches alive (a reviewer's
        construction, the slowest text known), 600 characters at a time without a signal."""
        parts: list[str] = []
        while sum(map(len, parts)) < CAP:
            part = ''.join(rng.choice(cut_short) + rng.choice(gaps) for _ in range(200))
            if not checker.read(part).referral and not first_person.search(part):
                parts.append(part)
        return ''.join(parts)[:CAP]

    def at_random(characters: list[str] | str) -> Callable[[random.Random], str]:
        return lambda rng: ''.join(rng.choices(characters, k=CAP))[:CAP]

    makers: dict[str, Callable[[random.Random], str]] = {
        'learner text (the corpus, shuffled)':
            lambda rng: ''.join(rng.choice(texts) + '。' for _ in range(CAP // 10))[:CAP],
        'hard negatives (the corpus, shuffled)':
            lambda rng: ''.join(rng.choice(negatives) + '。' for _ in range(CAP // 10))[:CAP],
        'every pattern character at random': at_random(alphabet),
        'pattern characters at random, no signal': no_signal,
        'pattern characters and gap characters at random': at_random(gapped),
        'span starts at random': at_random(starts),
        'span starts, then every tail after a line break':
            lambda rng: at_random(starts)(rng)[:CAP - 100] + '\n' + tails,
        "one span's words densely, its tail after a line break":
            lambda rng: at_random(['网友', '别', '不要', '的', '说'])(rng)[:CAP - 2] + '\n跟',
        'all of CJK at random':
            lambda rng: ''.join(chr(rng.randrange(0x4E00, 0xA000)) for _ in range(CAP)),
        "one pattern's start repeated":
            lambda rng: (rng.choice(['想', '被', '不想', '我想了']) * CAP)[:CAP],
        'topic questions set aside one by one': lambda rng: ''.join(rng.choices(
            ['小说里主人公为什么想死。', '课文中的人为什么自杀？', 'what does suicide mean. '],
            k=CAP // 10))[:CAP],
        "the patterns' words cut short, each before a gap character, no sentence end": soup,
        '... the same with a question about a topic halfway (set aside)':
            lambda rng: (lambda text: text[:CAP // 2] + '小说里主人公为什么想死？'
                         + text[CAP // 2:])(soup(rng))[:CAP],
        'full-width letters among text': lambda rng: ''.join(
            chr(rng.randrange(0xFF01, 0xFF5F)) + rng.choice('题 ') for _ in range(CAP // 2)),
        'pattern characters, 3% full-width letters, every tail at the end':
            lambda rng: ''.join(chr(rng.randrange(0xFF21, 0xFF3B)) if rng.random() < .03
                                else rng.choice(gapped)
                                for _ in range(CAP))[:CAP - 100] + '\n' + tails,
        'English span words in blocks, each a question about a word (\\W+ has no bound)':
            lambda rng: ''.join(' '.join(rng.choices(['stranger', 'why', 'story', 'x'], k=200))
                                + ' car\n' for _ in range(CAP // 1000))[:CAP],
        'a character NFKC makes 18 long (U+FDFA), with commas':
            lambda rng: ''.join(rng.choice(['\ufdfa', '\ufdfa，', '想']) for _ in range(CAP))[:CAP],
    }
    texts = {kind: [make(random.Random(seed)) for seed in range(SEEDS)]
             for kind, make in makers.items()}
    texts["each span pattern's own words at random (one text per pattern)"] = [
        ' '.join(random.Random(source).choices(words, k=CAP))[:CAP]
        for source, words in span_words(detector).items()]
    return texts


def span_words(detector: CrisisDetector) -> dict[str, list[str]]:
    """Each pattern with a span -> its words (Chinese runs, English words) and two common
    ones: text of them keeps a partial match alive at nearly every character."""
    return {source: [*re.findall(r'[\u4e00-\u9fff]+|[a-z]+', source), '的', 'the']
            for p in detector.lexicon.categories.values() for source in (*p.zh, *p.en)
            if has_span(source)}


def routing_inputs(routing: Routing) -> dict[str, list[str]]:
    """Requests of ``max_chars`` built against the routing rules."""
    size = routing.max_chars
    passage = routing.chinese_passage
    particles = ''.join([*passage.classical_markers, *passage.classical_strong, '，'])
    phrases = ''.join({ch for stage in routing.stages for p in stage.phrases for ch in p})

    def made(kind: str, rng: random.Random) -> str:
        if kind == 'classical particles at random':
            return ''.join(rng.choice(particles) for _ in range(size))
        if kind == 'short clauses, one particle each':
            return ''.join(rng.choice(['我也去，', '他之前，', '而我，']) for _ in range(size // 3))
        if kind == 'stage phrase characters at random':
            return ''.join(rng.choice(phrases) for _ in range(size))
        if kind == 'numbers and unit characters':
            return ''.join(rng.choice('0123456789NPamskgVAW/·-⁻¹²多少几') for _ in range(size))
        return ''.join(rng.choice(['看了答案', '错了三', '第四', '懂', '遍']) for _ in range(size))

    kinds = ['classical particles at random', 'short clauses, one particle each',
             'stage phrase characters at random', 'numbers and unit characters',
             'trigger phrases repeated']
    return {kind: [made(kind, random.Random(seed))[:size] for seed in range(SEEDS)]
            for kind in kinds}


def timed(texts: dict[str, list[str]], run,
          before: Callable[[], None] = lambda: None) -> list[tuple[str, float, float]]:
    """(kind, median ms, max ms): each fresh text run once (``before`` it: not timed)."""
    rows = []
    for kind, batch in texts.items():
        measured = []
        for text in batch:
            before()
            began = time.perf_counter()
            run(text)
            measured.append((time.perf_counter() - began) * 1e3)
        rows.append((kind, statistics.median(measured), max(measured)))
    return rows


def measure() -> dict:
    lexicon = load(paths.config('coordinator/crisis.yaml'), Crisis)
    model = load(paths.config('coordinator/crisis_model.json'), CrisisModel)
    began = time.perf_counter()
    detector = CrisisDetector(lexicon, model)
    loaded = (time.perf_counter() - began) * 1e3
    routing = load(paths.config('coordinator/routing.yaml'), Routing)
    phrases = load(paths.config('coordinator/phrases.yaml'), Phrases)
    coordinator = Coordinator(routing, lexicon, model, phrases)
    slow = slow_inputs(detector)
    routed = {f'{kind}, cut to {routing.max_chars:,}': [text[:routing.max_chars]
                                                       for text in batch]
              for kind, batch in slow.items()}
    routed.update(routing_inputs(routing))
    service = CoordinatorService(coordinator, Store(':memory:'), Windows())
    return {'tuning': evaluate(detector, 'tuning'), 'heldout': evaluate(detector, 'heldout'),
            'timings': timed(slow, detector.read), 'load_ms': loaded,
            'decisions': timed(routed, lambda text: coordinator.decide(
                Request('r', 'l', text), LearnerView(), NOW)),
            'answers': timed(slow, lambda text: service.request(Request('r', 'l', text), NOW),
                             lambda: service.request(Request('d', 'l', DELETE), NOW)),
            'max_chars': routing.max_chars}


def report(figures: dict) -> None:
    for part, title in (('heldout', 'held-out (never tuned on)'), ('tuning', 'tuning')):
        rows = figures[part]
        print(f'\n| crisis corpus, {title} | cases | lexicon | model | referred (the check) '
              '| recall or false positives |\n|---|---|---|---|---|---|')
        for label, cases, lexicon, model, referred in rows:
            kind = 'recall' if label.startswith('positive') else 'false positives'
            print(f'| {label} | {cases} | {lexicon} | {model} | {referred} | '
                  f'{kind} {referred / cases:.1%} |')
        for kind, title in (('positive', 'all positives'), ('negative', 'all negatives')):
            cases, lexicon, model, referred = map(sum, zip(
                *[row[1:] for row in rows if row[0].startswith(kind)], strict=True))
            rate = 'recall' if kind == 'positive' else 'false positives'
            print(f'| **{title}** | {cases} | {lexicon} ({lexicon / cases:.1%}) | {model} '
                  f'({model / cases:.1%}) | {referred} | {rate} {referred / cases:.1%} |')
    print(f'\n| one crisis check, {CAP:,} characters, {SEEDS} fresh texts each (target <= 20 ms)'
          f' | median ms | max ms |\n|---|---|---|')
    for kind, median, worst in figures['timings']:
        print(f'| {kind} | {median:.1f} | {worst:.1f} |')
    print(f'| (loading the patterns and warming their automata, once at start) | '
          f'{figures["load_ms"]:.0f} | |')
    print(f'\n| the whole decision (crisis check, then routing), {figures["max_chars"]:,} '
          'characters (target <= 20 ms) | median ms | max ms |\n|---|---|---|')
    for kind, median, worst in figures['decisions']:
        print(f'| {kind} | {median:.1f} | {worst:.1f} |')
    print(f'\n| the service\'s whole answer, {CAP:,} characters, to a learner whose deletion '
          'waits for its yes (target <= 20 ms) | median ms | max ms |\n|---|---|---|')
    for kind, median, worst in figures['answers']:
        print(f'| {kind} | {median:.1f} | {worst:.1f} |')


def main() -> None:
    report(measure())


if __name__ == '__main__':
    main()
