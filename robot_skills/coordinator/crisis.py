"""The crisis exception: checked before routing, reports or any other output.

Self-harm, suicidal thoughts, being bullied or hurt, family safety, lasting
despair and other danger beyond learning stop every other flow. The answer
follows the document's order: steady and without judgement -> what an AI
cannot do -> reach a trusted adult -> the help line of the learner's region
(asked for when unknown, with the mainland's 110/120 said in any case).
宁可误报，不可漏报: any single signal is a referral.

How a request is read, in time linear in its length (it is checked before
the length limit, on up to the transport cap: 100,000 characters):

* its own folded copy (``fold``, ``folding.py``), never shown to routing (which
  keeps what folding destroys, such as the superscripts of m·s⁻¹): NFKC of the
  characters that need it (full width letters, compatibility ideographs,
  ligatures; the full-width punctuation the patterns allow stays), character
  by character through a table (a mark never joins the letter before it);
  lower case, apostrophes dropped ("don't" is "dont");
* traditional Chinese is read by the patterns themselves: at load, every
  simplified character of a pattern becomes a class of it and the traditional
  characters OpenCC converts to it (自杀 reads 自殺), so a text is never
  converted (a conversion would cost more than the whole check);
* RE2 (``google-re2``): the patterns of ``config/coordinator/crisis.yaml``
  without a span in a few sets (``_groups``), each matched in one pass over the
  UTF-8 text with no backtracking; their automata are warmed at load. The Chinese
  sets and tails read a copy with each run of the characters no Chinese pattern names
  cut to one (``unnamed_runs``), where that makes it four times shorter. The
  patterns with a span (``…{0,16}``, ``{m,n}``) are read by ``match_ends``
  (every offset at once, in a time set by the text's length: an automaton's
  states multiply on text dense in the words that open a span), where their
  tail is in the text; RE2 then finds those matches in small windows.
  Spaces, punctuation, zero-width characters and particles between
  the parts of a phrase are part of the patterns (``~``), so "想\u200b死",
  "想，死" and "想了死" read as 想死. Chinese patterns never cross a hard sentence
  end (。！？；!?;), so the sets read the text in chunks cut there (``_chunks``);
  English ones read it whole. The first real signal ends the check;
* a match inside an ``exclusions`` idiom is not a signal (想死你了);
* a match is a question about a topic only when its sentence names the topic
  (``frames``: a text, a word, an event), asks about it (``asks``), its clause
  does one of the two, and it has no first-person word (``_TopicRule``):
  Chinese drops the subject ("不想活了"), so a frame alone never sets a match
  aside. At most ``MAX_CHECKED`` matches are looked at:
  past that, the text is a referral (an input built to exhaust the check is
  not a reason to miss one). Placing a match costs RE2 a read from its chunk's start
  (English: from the text's), so the reads that place matches share a budget of
  ``SCAN_BUDGET`` bytes (2 MB, five full reads of the largest text): past it, too, the text is a
  referral (100 kB of filler before 63 topic questions, each of its own pattern, cost
  25-30 ms). The first real signal ends the check;
* where the lexicon finds no signal, a linear model over character n-grams
  (``crisis_model.py``, learnt from the corpus's tuning part) reads the rest of the
  folded text, the spans an idiom or the topic rule set aside blanked out: a signal
  said in words no pattern holds (blind probes: the lexicon alone refers about six in
  ten of theirs) can still be a referral. Its referral is category ``learned``.

Everything after folding works on the UTF-8 bytes of the text (RE2 reads
UTF-8; encoding it once instead of once per regex halves the cost).

Hyperbole about school work ("这道题要杀死我了", "作业烦死了") is not a referral on
its own. Flagging it would stop the learning request of every frustrated
student, teach them that venting gets them a script, and bury real signals in
noise; instead the request is answered and one gentle check-in is added,
which keeps the door open. Whenever a real signal is also present (想死, 不想活
...) the referral wins: the hyperbole rule never removes a flag.
"""

from __future__ import annotations

import itertools
import random
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import opencc
import re2

from robot_skills.coordinator import match_ends, unnamed_runs
from robot_skills.coordinator.crisis_model import CrisisModel, Scorer
from robot_skills.coordinator.folding import Folding
from robot_skills.coordinator.lexicon import Crisis, automaton_room, has_span

LEARNED = 'learned'    # the category of the model's signal (it weighs every category at once)
MAX_CHECKED = 32
SCAN_BUDGET = 2_000_000  # bytes RE2 may read to place matches; past it, the text is a referral
BLOCK = 1024             # bytes: a sentence that runs on is cut at a multiple of this ...
SENTENCE = 6 * BLOCK     # ... at least this far either side of a match (where 我 is seen)
NEAR = 300               # bytes either side of a match in which its sentence may name a topic
CLAUSE = 90              # bytes either side of a match in which its clause may ask
WINDOW = 200             # bytes around a match in which an exclusion idiom is looked for
GROUP = 64               # patterns without a span per RE2 set (215 in one: 40-60 ms on some text)
TAIL_GROUP = 24          # tails of span patterns per RE2 set
CHUNK = 8192             # bytes read before the Chinese patterns' text is cut
BMP = 0x10000            # the ends of sentences and clauses are characters below it
WARM = 100_000           # characters of each warm text (the transport cap)
WARM_TEXTS = 6           # random texts of each mix read at load to build the common states
_CJK = ''.join(chr(c) for c in range(0x4E00, 0xA000))
# Characters of every UTF-8 length outside CJK (Latin, symbols, emoji, rare ideographs):
# their bytes reach automaton states CJK text never does (100 kB of emoji cost 8 ms more).
_ELSEWHERE = ''.join(chr(c) for c in (*range(0xA0, 0x800, 7), *range(0x2000, 0x3000, 3),
                                      *range(0x1F300, 0x1FA00, 5), *range(0x20000, 0x2A6DF, 97)))
_OPENCC = ('t2s', 'tw2s', 'hk2s')


@dataclass(frozen=True)
class Signal:
    category: str
    pattern: str


@dataclass(frozen=True)
class CrisisReading:
    signals: tuple[Signal, ...]
    hyperbole: bool
    region: str | None = None        # the region the text names (read with a signal only)

    @property
    def referral(self) -> bool:
        return bool(self.signals)

    @property
    def learned(self) -> bool:
        """Only the model refers (no pattern names a signal)."""
        return self.referral and all(s.category == LEARNED for s in self.signals)


@dataclass(frozen=True)
class _Pattern:
    category: str
    script: str         # zh: never crosses a sentence end; en: \\W+ crosses anything
    source: str
    regex: Any


@dataclass(frozen=True)
class _Set:
    compiled: Any           # an RE2 set
    indices: list[int]      # its patterns


@dataclass(frozen=True)
class _Span:
    index: int                  # its pattern
    tree: match_ends.Node
    width: int | None           # the most characters one of its matches spans (None: no bound)
    ending: Any                 # RE2: the pattern at the end of the text (None with a width)
    tailed: bool                # read only when its tail is in the text


def _compiled(pattern: str) -> Any:
    return re2.compile(pattern.encode(), automaton_room())


def _alternation(patterns: list[str]) -> Any:
    return _compiled('|'.join(f'(?:{p})' for p in patterns)) if patterns else None


class CrisisDetector:
    def __init__(self, lexicon: Crisis, model: CrisisModel) -> None:
        self.lexicon = lexicon
        self._variants = _traditional_variants()
        self.scorer = Scorer(model, {traditional: simplified
                                     for simplified, more in sorted(self._variants.items())
                                     for traditional in more})
        for simplified, more in lexicon.more_variants.items():      # written Cantonese
            self._variants[simplified] = ''.join(sorted({*self._variants.get(simplified, ''),
                                                         *more}))
        self._macros = {'~': match_ends.parse(lexicon.gap, {}, self._variants),   # for _tree
                        '…': match_ends.Chars(frozenset(lexicon.sentence_end), True)}
        self._patterns = [_Pattern(name, script, source, _compiled(self._expand(source)))
                          for name, category in lexicon.categories.items()
                          for script, sources in (('zh', category.zh), ('en', category.en))
                          for source in sources]
        self._tails = {script: self._tail_sets(script) for script in ('zh', 'en')}
        self._zh_sets = self._groups('zh')
        self._en_sets = self._groups('en')
        self._hyperbole = [self._tree(p) for p in (*lexicon.hyperbole.zh, *lexicon.hyperbole.en)]
        self._spans = self._span_trees()
        self._named = self._named_by_chinese_sets()
        self._alphabet = match_ends.Alphabet(set().union(
            *(match_ends.classes(tree) for tree in (*(s.tree for s in self._spans),
                                                    *self._hyperbole))))
        self._exclusions = [_compiled(self._expand(p))
                            for p in (*lexicon.exclusions.zh, *lexicon.exclusions.en)]
        self._topic = self._topic_words()
        self._regions = self._region_set()
        self._hard_ends = _compiled('|'.join(re2.escape(c) for c in hard_ends(lexicon)))
        self._folding = Folding(self.lexicon.gap + self.lexicon.sentence_end,
                                {**dict(zip(*lexicon.lookalikes, strict=True)), **lexicon.symbols},
                                self._separators())
        self._warm()

    def _expand(self, pattern: str, gap: str | None = None) -> str:
        """``~`` is the gap between parts (``gap``, the lexicon's by default); ``…`` any
        character of the same sentence; every simplified character also matches its
        traditional forms."""
        return _with_variants(pattern.replace(     # the span first: the gap may hold a '…'
            '…', f'[^{_class(self.lexicon.sentence_end)}]').replace(
                '~', self.lexicon.gap if gap is None else gap), self._variants)

    def _loose(self, pattern: str) -> str:
        """``pattern`` with a gap of any length: what the RE2 sets read (``_groups``)."""
        return self._expand(pattern, f'{_gap_class(self.lexicon)}*')

    def _separators(self) -> dict[str, int]:
        """The characters whose runs fold to one (``Folding``), each with its rank: the gap's
        punctuation, spaces and symbols (0), the clause ends (1), the topic rule's full stop
        (2), the line break (3), the hard sentence ends (4): dots before a line break keep
        the line break, which ends a span (…) and an exclusion's reach where a dot does not."""
        lexicon = self.lexicon
        every = ''.join(map(chr, [*range(0xD800), *range(0xE000, BMP)]))
        separators = {char: 0 for char in re2.findall(_gap_class(lexicon), every)
                      if unicodedata.category(char)[0] not in 'LNM'
                      and unicodedata.category(char) != 'Cf'}
        separators.update({char: 1 for char in lexicon.clause_end})
        separators.update({char: 2 for char in lexicon.topic_sentence_end})
        separators.update({char: 3 for char in lexicon.sentence_end})
        separators.update({char: 4 for char in hard_ends(lexicon)})
        return separators

    def _any(self, patterns: list[str]) -> Any:
        return _alternation([self._expand(p) for p in patterns])

    def _topic_words(self) -> _TopicWords:
        lexicon = self.lexicon
        sentence_ends = lexicon.sentence_end + lexicon.topic_sentence_end
        return _TopicWords(self._any(lexicon.frames.zh), self._any(lexicon.frames.en),
                           self._any(lexicon.asks.zh), self._any(lexicon.asks.en),
                           self._any([lexicon.first_person.zh, lexicon.first_person.en]),
                           self._any([*lexicon.requests.zh, *lexicon.requests.en]),
                           _EndIndex(sentence_ends, lexicon.clause_end))

    def _region_set(self) -> tuple[Any, list[str]]:
        """One RE2 set of the regions' names (a Chinese one anywhere, another as a word), and
        the region of each entry: a text is read once, not once per region (11 reads of
        100 kB of emoji cost 6 ms)."""
        compiled = re2.Set.SearchSet(automaton_room())
        regions = []
        for region, names in self.lexicon.regions.names.items():
            if names:
                alternatives = (re2.escape(n) if _is_cjk(n) else rf'\b{re2.escape(n)}\b'
                                for n in names)
                compiled.Add(self._expand('|'.join(alternatives)).encode())
                regions.append(region)
        compiled.Compile()
        return compiled, regions

    def _groups(self, script: str) -> list[_Set]:
        """The RE2 sets of one script's patterns without a span, ``GROUP`` to a set, each
        with its pattern indices: a filter that says which patterns may match, each then
        found by its own regex (``_matches``); the patterns with a span are read another
        way (``_span_trees``).

        A set's automaton is built as text reaches its states, and a state is a set of
        partial matches. Two choices keep their number down on text made of the patterns'
        own words (where building them cost 17 ms of 100,000 characters, after warming):
        the sets read every pattern ``_loose`` (a gap of up to 4 characters is 5 partial
        matches, one of any length is one; a superset, so nothing is lost), and patterns
        that read alike share a set (their partial matches come and go together). Each
        halves the time.
        """
        mine = sorted((i for i, p in enumerate(self._patterns)
                       if p.script == script and not has_span(p.source)),
                      key=lambda i: _skeleton(self._patterns[i].source))
        return self._sets([(index, self._patterns[index].source) for index in mine], GROUP)

    def _sets(self, sources: list[tuple[int, str]], size: int) -> list[_Set]:
        """RE2 sets of ``size`` of the ``_loose`` ``sources``, each (pattern index, source)."""
        sets = []
        for start in range(0, len(sources), size):
            chunk = sources[start:start + size]
            compiled = re2.Set.SearchSet(automaton_room())
            for _, source in chunk:
                compiled.Add(self._loose(source).encode())
            compiled.Compile()
            sets.append(_Set(compiled, [index for index, _ in chunk]))
        return sets

    def _span_trees(self) -> list[_Span]:
        """The patterns with a span (``…``, ``{m,n}``), read by ``match_ends``.

        A span keeps a partial match alive over many characters, one per opening word
        before it: an automaton makes a state of each set of them, and text dense in
        opening words reaches new ones without end (one pattern alone took 100-300 ms on
        100,000 characters of its own words, whether or not it matched). ``match_ends``
        reads every offset at once in a time set by the text's length alone.
        """
        spans = []
        for index, pattern in enumerate(self._patterns):
            if has_span(pattern.source):
                tree = self._tree(pattern.source)
                width = match_ends.width(tree)
                ending = (None if width is not None else
                          _compiled(f'(?:{self._expand(pattern.source)})\\z'))
                spans.append(_Span(index, tree, width, ending, bool(_tail(pattern.source))))
        return spans

    def _named_by_chinese_sets(self) -> unnamed_runs.Named:
        """The characters the Chinese sets and tails read (a ``$`` reads none)."""
        macros = {**self._macros, '$': match_ends.Seq(())}
        zh = [p.source for p in self._patterns if p.script == 'zh']
        sources = [*(s for s in zh if not has_span(s)), *filter(None, map(_tail, zh))]
        return unnamed_runs.Named.of([match_ends.parse(source, macros, self._variants)
                                      for source in sources])

    def _tree(self, source: str) -> match_ends.Node:
        """``source`` as ``match_ends`` reads it: the gap, the span and traditional forms."""
        return match_ends.parse(source, self._macros, self._variants)

    def _tail_sets(self, script: str) -> list[_Set]:
        """The tails (``_tail``) of one script's patterns with a span in RE2 sets of
        ``TAIL_GROUP``, each with the pattern index of each tail (one set of all 61 took
        10 ms, up to 70 ms first, on text of the patterns' own prefixes).

        A span pattern can match only where its tail does, and a tail has no span: reading
        the tails first is cheap, and a span pattern whose tail is not in the text is not
        read at all.
        """
        tailed = sorted(((index, tail) for index, pattern in enumerate(self._patterns)
                         if pattern.script == script and (tail := _tail(pattern.source))),
                        key=lambda pair: _skeleton(pair[1]))
        return self._sets(tailed, TAIL_GROUP)

    def _warm(self) -> None:
        """Read ``WARM_TEXTS`` random texts (seeded: every start warms the same) of each mix:
        the patterns' characters; those with the gap's and the sentence ends; the patterns'
        literal parts (Chinese runs and English words) among those; all of CJK.

        A DFA state is a set of partial matches, built the first time a text reaches it. Text
        made of the patterns' own characters or parts reaches many of them: building them as
        a request arrived cost up to 30 ms for its first 100,000 characters. A periodic warm
        text reached few; random ones reach the common states, so a request builds few.
        """
        alphabet = sorted({ch for p in self._patterns for ch in p.source if _is_cjk(ch)})
        if not alphabet:
            return
        gaps = [*alphabet, *self._gap_characters(), *self.lexicon.sentence_end]
        lexicon = self.lexicon
        sources = [*(p.source for p in self._patterns), *lexicon.hyperbole.zh,
                   *lexicon.hyperbole.en, *lexicon.exclusions.zh, *lexicon.exclusions.en,
                   *lexicon.frames.zh, *lexicon.frames.en, *lexicon.asks.zh, *lexicon.asks.en]
        parts = sorted({part for source in sources
                        for part in re.findall(r'[\u4e00-\u9fff]+|[a-z]+', source)})
        rng = random.Random(0)
        prefixes = sorted({part[:n] for part in parts for n in range(1, len(part))})
        for chars in (alphabet, gaps, [*parts, *gaps, ' '], [*prefixes, *gaps], _CJK, _ELSEWHERE):
            for _ in range(WARM_TEXTS):
                text = ''.join(rng.choices(chars, k=WARM))[:WARM].encode()
                for group in (*self._zh_sets, *self._en_sets):
                    group.compiled.Match(text)
                for tails in (*self._tails['zh'], *self._tails['en']):
                    tails.compiled.Match(text)

    def _gap_characters(self) -> list[str]:
        """The characters the gap (``~``) lets through, those written in it and a few spaces
        and zero-width ones (its class names them by category)."""
        gap = re2.compile(f'(?:{self.lexicon.gap})')
        pool = set(self.lexicon.gap) | set(' \t\u200b\u200d\ufeff')
        return sorted(c for c in pool if gap.fullmatch(c))

    def fold(self, text: str) -> str:
        """The request as the crisis patterns read it (``folding.py``)."""
        return self._folding(text)

    # ---- reading -----------------------------------------------------------------------------

    def read(self, text: str) -> CrisisReading:
        """The lexicon first, then the model (``crisis_model.py``) on what the lexicon did not
        set aside: the words an exclusion idiom or the topic rule decided on (想死你们了, a
        novel's character who 不想活了) are theirs to decide, every other word is the model's."""
        folded = self.fold(text)
        encoded = folded.encode()
        reading = match_ends.Text(folded, self._alphabet)   # one for spans and hyperbole
        signal, aside = self._signal(reading, encoded)
        if signal is None and self.scorer.refers(_blanked(encoded, aside)):
            signal = Signal(LEARNED, 'model')
        if signal is not None:
            return CrisisReading((signal,), False, self._region(encoded))
        return CrisisReading((), any(match_ends.ends(tree, reading) for tree in self._hyperbole))

    def _signal(self, reading: match_ends.Text,
                text: bytes) -> tuple[Signal | None, list[tuple[int, int]]]:
        """The first real signal of ``text`` (``reading``, in UTF-8), or None: the first match
        neither inside an exclusion idiom nor about a topic, or the match past
        ``MAX_CHECKED`` (a match the check cannot place is a signal: ``_span_matches``); and
        the spans set aside before it (an idiom whole, a topic question's match)."""
        topic = _TopicRule(text, reading, self._topic)
        aside: list[tuple[int, int]] = []
        for checked, (pattern, start, end) in enumerate(self._matches(reading, text)):
            if checked >= MAX_CHECKED or start is None:
                return Signal(pattern.category, pattern.source), aside
            idiom = self._excluded(text, start, end)
            if idiom is None and not topic.sets_aside(start, end, pattern.script):
                return Signal(pattern.category, pattern.source), aside
            aside.append(idiom or (start, end))
        return None, aside

    def _matches(self, reading: match_ends.Text,
                 text: bytes) -> Iterator[tuple[_Pattern, int | None, int]]:
        """Every match, as (pattern, start, end) in bytes: those of the RE2 sets first, in
        chunks (``_chunks``), then those of the span patterns (``_span_matches``). The
        Chinese sets read each chunk with its runs of characters they never name cut to one
        (``unnamed_runs``); each pattern they report is then found in the text itself."""
        budget = [SCAN_BUDGET]        # bytes RE2 may still read to place matches
        cut = self._named.cut(reading, text)
        reads = itertools.chain(((self._zh_sets, start, end) for start, end in self._chunks(text)),
                                [(self._en_sets, 0, len(text))])
        for sets, start, end in reads:
            view = (cut.stretch(start, end) if sets is self._zh_sets else text)
            for group in sets:
                for index in sorted(group.indices[n] for n in group.compiled.Match(view) or ()):
                    pattern = self._patterns[index]
                    if not _spend(budget, end - start):
                        yield pattern, None, end
                        return
                    for match in pattern.regex.finditer(text, start, end):
                        yield pattern, match.start(), match.end()
        yield from self._span_matches(reading, text, cut, budget)

    def _span_matches(self, reading: match_ends.Text, text: bytes, cut: unnamed_runs.Cut,
                      budget: list[int]) -> Iterator[tuple[_Pattern, int | None, int]]:
        r"""The matches of the span patterns whose tail is in the text (``_tail_sets``).

        ``match_ends`` says where each can end. A pattern with a bound on its width
        (every Chinese one) then has RE2 find its matches (their start decides the
        checks) in the windows reaching back one width from those ends, merged where
        they meet: RE2 reads only around real matches. One without a bound (English
        ``\W+``, which crosses Chinese text too) has each end's longest match found by
        RE2 anchored at that end (``\z`` on the text up to it: RE2 then reads backwards
        from the end, only as far as a match can reach).
        """
        tails = {group.indices[n]
                 for script, view in (('zh', cut.stretch(0, len(text))), ('en', text))
                 for group in self._tails[script] for n in group.compiled.Match(view) or ()}
        chosen = [span for span in self._spans if not span.tailed or span.index in tails]
        for span in chosen:
            ends = match_ends.offsets(match_ends.ends(span.tree, reading))
            if not len(ends):
                continue
            pattern, to_byte = self._patterns[span.index], reading.byte_offsets
            if span.width is None:
                for stop in to_byte[ends].tolist():
                    if not _spend(budget, stop):
                        yield pattern, None, stop
                        return
                    found = span.ending.search(text[:stop])    # None: a bug of one reader
                    yield pattern, found.start() if found else None, stop
            else:
                yield from self._windowed(pattern, ends, span.width, to_byte, text)

    @staticmethod
    def _windowed(pattern: _Pattern, ends: np.ndarray, width: int, to_byte: np.ndarray,
                  text: bytes) -> Iterator[tuple[_Pattern, int | None, int]]:
        """RE2's matches of ``pattern`` in the windows ``width`` characters back from
        ``ends``, merged where they meet (a window where RE2 finds none, which would be a
        bug of one reader, yields a match without a start: a signal)."""
        starts = np.maximum(ends - width, 0)
        first = np.flatnonzero(np.r_[True, starts[1:] > ends[:-1]])
        last = np.r_[first[1:] - 1, len(ends) - 1]
        for low, high in zip(to_byte[starts[first]].tolist(), to_byte[ends[last]].tolist(),
                             strict=True):
            found = False
            for match in pattern.regex.finditer(text, low, high):
                found = True
                yield pattern, match.start(), match.end()
            if not found:
                yield pattern, None, high

    def _chunks(self, text: bytes) -> Iterator[tuple[int, int]]:
        r"""``text`` cut after the first hard sentence end (。！？；!?;) past every ``CHUNK`` bytes.

        A Chinese pattern never crosses a hard sentence end: neither the gap (``~``) nor a
        span (``…``) lets one through, and no pattern names one (a test holds every pattern
        of the file to this). So a cut there loses no Chinese match, and the check stops at
        the first chunk with a real signal instead of reading 100,000 characters first. A
        line break is not a cut (the gap lets "想\n死" through), and English patterns read
        the whole text (``\W+`` between words crosses anything).
        """
        start = 0
        while start < len(text):
            cut = self._hard_ends.search(text, start + CHUNK)
            end = cut.end() if cut else len(text)
            yield start, end
            start = end

    def _excluded(self, text: bytes, start: int, end: int) -> tuple[int, int] | None:
        """The exclusion idiom the match lies inside (looked for around it only; a match
        longer than ``WINDOW`` is no idiom: an English one may span 100 kB of separators).
        Each idiom is looked for on its own: in one alternation, an idiom that ends inside
        another hid it (跑800米累死 hid 累死了，怎么跑更轻松)."""
        if end - start > WINDOW:
            return None
        low, high = max(0, start - WINDOW), end + WINDOW
        return next(((m.start(), m.end()) for idiom in self._exclusions
                     for m in idiom.finditer(text, low, high)
                     if m.start() <= start and end <= m.end()), None)

    # ---- the answer ----------------------------------------------------------------------------

    def region(self, text: str) -> str | None:
        """The region a learner names in ``text`` (中国大陆, 北京, 香港, 臺灣 ...), if any."""
        return self._region(self.fold(text).encode())

    def _region(self, folded: bytes) -> str | None:
        """The first region of the file named in ``folded`` (one pass for all of them)."""
        compiled, regions = self._regions
        found = compiled.Match(folded)
        return regions[min(found)] if found else None

    def reply(self, region: str | None) -> str:
        """Steady -> AI's limits -> a trusted adult -> the region's help line (or ask)."""
        reply = self.lexicon.reply
        return ''.join([reply.steady, reply.limits, reply.adult, self.line(region)])

    def line(self, region: str | None) -> str:
        """The region's help line; when the region is unknown, ask, and say the mainland's."""
        if region is None:
            return self.lexicon.reply.ask_region + self.lexicon.reply.mainland_hint
        lines = self.lexicon.regions.lines
        return lines.get(region, lines['other'])


class _EndIndex:
    """Where sentences and clauses end in a text, found together from its code points (one
    table lookup whatever their number; on its UTF-8 bytes, the same took 3 ms of 100,000
    characters dense in commas) and given in bytes. Besides ``clause_ends``, a space between
    two characters of U+4000-U+9FFF (Han, and a few rarer ones) ends a clause (不想活了
    活着…), and so does a character past the BMP (a rare ideograph or symbol; emoji have
    folded away by then)."""

    def __init__(self, sentence_ends: str, clause_ends: str) -> None:
        self._kind = np.zeros(BMP, np.uint8)              # 1: a clause end, 2: a sentence end
        for kind, ends in ((1, clause_ends), (2, sentence_ends)):     # (below U+FFFF: lexicon)
            for end in ends:
                self._kind[ord(end)] = kind

    def of(self, reading: match_ends.Text) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """{'sentence': ..., 'clause': ...}: (first byte, byte past) of every end, in order (a
        sentence end ends a clause too)."""
        codes = reading.codes
        kind = self._kind[np.minimum(codes, BMP - 1)]
        han = (codes >= 0x4000) & (codes <= 0x9FFF)
        ends = (kind > 0) | (codes >= BMP)
        ends[1:-1] |= (codes[1:-1] == 0x20) & han[:-2] & han[2:]
        at = np.flatnonzero(ends)
        first, past = reading.byte_offsets[at], reading.byte_offsets[at + 1]
        sentence = kind[at] == 2
        return {'sentence': (first[sentence], past[sentence]), 'clause': (first, past)}


@dataclass(frozen=True)
class _TopicWords:
    frames_zh: Any              # RE2 alternations (None: an empty list, never found)
    frames_en: Any
    asks_zh: Any
    asks_en: Any
    first_person: Any
    requests: Any               # help asked with school work: blanked before "I" is looked for
    ends: _EndIndex             # of sentences (the English full stop too) and of clauses


class _TopicRule:
    """The topic rule over one text: a match is set aside as a question about a study topic
    (``sets_aside``) only when, around its start and around its end alike,

    * a Chinese match's own clause names the topic (``frames``) and its sentence asks
      within ``NEAR`` bytes: "小说结尾主角自杀了，这个结局有什么作用" names the novel in
      the clause and asks in the next; "想自杀，这个成语怎么写" names nothing in its
      clause, and is a signal;
    * an English match's clause asks before it (English asks first: "what does suicide
      mean"; "want to die what does life mean" asks after) or asks in Chinese
      ("suicide是什么意思"), or names the topic there ("bully 和 tease 的区别") while its
      sentence asks ("In history class Tom is bullied every day" names a subject and asks
      nothing), and its sentence names a topic within ``NEAR`` bytes;
    * none of these words lies wholly inside the match (没意思 holds 意思);
    * and its sentence says nothing of "I" (``first_person``), at least ``SENTENCE`` bytes
      either side: a far 我 still counts (so do the words of a disclosure the file lists:
      最近, 也想, "been feeling", 疼吗). Words that ask the robot for help with school work
      (``requests``: 帮我分析, "help me with my essay") are not "I": "帮我分析一下《雷雨》里
      周萍为什么自杀" asks about a play; "帮我分析下为什么看完《雷雨》之后也想自杀" does not.

    A clause ends at a comma, a dash, an ellipsis, a space between two Han characters or
    an emoji as well as at a sentence end (not at a colon: "道德与法治：遇到家庭暴力…" names
    its topic before one). The ends are found once for the
    whole text, and only when a match is to be placed; a sentence that runs on is cut at a
    multiple of ``BLOCK`` past its reach, so that the first-person reading of nearby
    matches is one. Every other reading is of a few hundred bytes.
    """

    def __init__(self, text: bytes, reading: match_ends.Text, words: _TopicWords) -> None:
        self._text, self._reading, self._words = text, reading, words
        self._index: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._first_person: dict[tuple[int, int], bool] = {}

    def sets_aside(self, start: int, end: int, script: str) -> bool:
        """The match [``start``, ``end``) of a ``script`` pattern is a question about a topic
        (see the class): around its start and its end (the same stretches, read once, for
        a match within one clause)."""
        around = {(self._around(position, 'sentence', SENTENCE, BLOCK),
                   self._around(position, 'clause', CLAUSE),
                   self._around(position, 'sentence', NEAR))
                  for position in (start, max(start, end - 1))}
        return all(self._about_a_topic(*stretches, start, end, script)
                   for stretches in around)

    def _about_a_topic(self, sentence: tuple[int, int], clause: tuple[int, int],
                       near: tuple[int, int], start: int, end: int, script: str) -> bool:
        words = self._words
        if sentence not in self._first_person:
            low, high = sentence        # a slice: RE2's ^ and $ hold only at the text's ends
            said = self._text[low:high]
            if words.requests is not None:
                said = words.requests.sub(b' ', said)
            self._first_person[sentence] = words.first_person is not None and \
                words.first_person.search(said) is not None
        if self._first_person[sentence]:
            return False
        low, high = clause
        if script == 'zh':
            return (self._beside(words.frames_zh, (low, high), start, end)
                    or self._beside(words.frames_en, (low, high), start, end)) and \
                (self._beside(words.asks_zh, near, start, end)
                 or self._beside(words.asks_en, near, start, end))
        before = (low, min(start, high))
        asked = (self._beside(words.asks_en, before, start, end)
                 or self._beside(words.asks_zh, (low, high), start, end)
                 or ((self._beside(words.frames_en, before, start, end)       # named, and
                      or self._beside(words.frames_zh, (low, high), start, end))
                     and (self._beside(words.asks_en, near, start, end)      # asked nearby
                          or self._beside(words.asks_zh, near, start, end))))
        return asked and (self._beside(words.frames_en, near, start, end)
                          or self._beside(words.frames_zh, near, start, end))

    def _beside(self, regex: Any, bounds: tuple[int, int], start: int, end: int) -> bool:
        """``regex`` matches within ``bounds``, not wholly inside the match [start, end)."""
        low, high = bounds          # a slice: RE2's ^ and $ hold only at the text's ends
        return regex is not None and low < high and any(
            low + found.start() < start or low + found.end() > end
            for found in regex.finditer(self._text[low:high]))

    def _around(self, position: int, ends: str, reach: int,
                block: int = 1) -> tuple[int, int]:
        """(start, stop) in bytes of the stretch around ``position`` between two ``ends`` (of
        a 'sentence' or a 'clause'):
        just past the last that lies wholly in the reach before it, at the first that lies
        wholly in the reach after it (an end of several bytes is one character of UTF-8);
        where none is, the reach, rounded out to a multiple of ``block``."""
        if not self._index:
            self._index = self._words.ends.of(self._reading)
        starts, stops = self._index[ends]
        floor = max(0, (position - reach) // block * block)
        ceiling = ((position + reach) // block + 1) * block     # both move at one offset
        before = int(np.searchsorted(stops, position, 'right')) - 1
        start = int(stops[before]) if before >= 0 and starts[before] >= floor else floor
        after = int(np.searchsorted(starts, position, 'left'))
        stop = int(starts[after]) if after < len(starts) and stops[after] <= ceiling else ceiling
        return start, stop


def _skeleton(source: str) -> str:
    """``source`` without its syntax: the order in which patterns that read alike sort
    together (``_groups``)."""
    return re.sub(r'[(?:|)~…?*+\\[\]]', '', source)


def _blanked(text: bytes, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span (at character boundaries) read as a space."""
    kept, at = [], 0
    for start, end in sorted(spans):
        if start >= at:
            kept.append(text[at:start])
        at = max(at, end)
    return b' '.join([*kept, text[at:]]).decode()


def _spend(budget: list[int], size: int) -> bool:
    """Take ``size`` bytes of reading from ``budget``: False when it has run out."""
    budget[0] -= size
    return budget[0] >= 0


def _traditional_variants() -> dict[str, str]:
    """Simplified character -> the traditional characters OpenCC converts to it."""
    variants: dict[str, set[str]] = {}
    for config in _OPENCC:
        for traditional, simplified in zip(_CJK, opencc.OpenCC(config).convert(_CJK),
                                           strict=True):
            if traditional != simplified:
                variants.setdefault(simplified, set()).add(traditional)
    return {s: ''.join(sorted(t)) for s, t in variants.items()}


def _with_variants(pattern: str, variants: dict[str, str]) -> str:
    """``pattern`` with each simplified character ``c`` read as ``[c<traditional>]`` (inside a
    class, the traditional characters are added to it)."""
    out, in_class, escaped = [], False, False
    for ch in pattern:
        extra = variants.get(ch, '') if not escaped else ''
        if extra:
            out.append(ch + extra if in_class else f'[{ch}{extra}]')
        else:
            out.append(ch)
        if escaped:
            escaped = False
        elif ch == '\\':
            escaped = True
        elif ch == '[':
            in_class = True
        elif ch == ']':
            in_class = False
    return ''.join(out)


def _class(characters: str) -> str:
    """``characters`` as the inside of an RE2 character class."""
    return ''.join(f'\\{c}' if c in '\\]^-[' else c for c in characters)


def _is_cjk(name: str) -> bool:
    return any('\u4e00' <= ch <= '\u9fff' for ch in name)


def _gap_class(lexicon: Crisis) -> str:
    """The class the gap repeats (the lexicon's gap is ``[...]{0,n}``)."""
    return lexicon.gap[:lexicon.gap.rindex('{')]


def hard_ends(lexicon: Crisis) -> str:
    r"""The sentence ends no Chinese pattern crosses: every one but whitespace (a line break
    may fall inside a phrase: "我想\n死")."""
    return ''.join(c for c in lexicon.sentence_end if not c.isspace())


def _tail(source: str) -> str:
    r"""What follows a pattern's last span (``…`` or a repeat up to a bound, such as English
    ``(?:\w+\W+){0,6}``), out of any group it sits in: a regex every match of the pattern
    contains ('' when there is none: no span, nothing after it, an alternative at the top
    level that may match without it, or a parenthesis it cannot count: an escaped one or one
    in a class). Without one, a span pattern is read on every request (71 English ones took
    2 ms of a 20-character request)."""
    bounds = [m.end() - 1 for m in re.finditer(r'\{\d*,\d*\}', source)]
    last = max([source.rfind('…'), *bounds])
    if (last < 0 or re.search(r'\\[()]|\[[^\]]*[()]', source) is not None
            or _top_level_bar(source)):
        return ''
    depth = source[:last].count('(') - source[:last].count(')')
    position = last + 1
    while depth > 0 or (position < len(source) and source[position] in '{?*+'):
        if position >= len(source):
            return ''
        char = source[position]
        if char == '{':
            position = source.index('}', position)
        elif char == '(':
            depth += 1
        elif char == ')':
            depth -= 1
        position += 1
    return source[position:]


def _top_level_bar(source: str) -> bool:
    depth = 0
    for char in source:
        depth += {'(': 1, ')': -1}.get(char, 0)
        if char == '|' and depth == 0:
            return True
    return False
