"""Whether a speaker holds what a phrase says: negation, doubt and reported speech with scope.

A student who says 不是罚款就能解决的, 只要罚款就能解决吗？ or 有人说罚款就能解决，我不同意
rejects the misreading rather than voicing it (003: 明显误读 is a student's reading,
and a peer who pushes back is the peer correcting it). So a cue is read in its
clause and sentence, not as a substring:

* **negation with scope**: negators (``negations``) anywhere before the cue in
  its clause count, back to the last ``scope_breaks`` word (大家不分类是因为意识差:
  the 不 negates 分类, not 意识差); a complement-taking negator closing the
  previous clause (我不觉得，…) counts too; two negations cancel; words that only
  look negative (不过, 不少, 是不是 …, ``not_negations``) are read as themselves.
  A rejecting predicate after the cue (意识差不是原因, 罚得狠也没用:
  ``rejections``) negates it as well.
* **questions**: a sentence ending in ？ or 吗, or with 难道 (``rhetorical``), or a
  choice question (是不是…, ``choice_questions``) doubts its content; a negated
  question affirms it (难道不是…吗, 不就是…吗: rhetorical); a tag after an
  assertion (…，对吧？ ``tags``) seeks agreement and keeps it affirmed.
* **reported speech**: a cue after someone else's reporting verb (有人说, 他们觉得,
  你刚才说: ``others`` + ``reporting_verbs``, or ``hearsay`` like 据说) is theirs,
  not the speaker's: it is affirmed only when the speaker endorses it later in
  the turn (``endorsements``); 以为 said of others, or a retraction of one's own
  (我本来以为, ``retractions``), rejects it.
* **disagreement after it**: a later clause of the turn that disagrees (我不同意,
  才怪, ``disagreements``) rejects what came before.

``stance`` answers per turn for a set of cues: ``affirms`` (some mention is the
speaker's own), ``rejects`` (every mention is negated, doubted or disagreed with),
``reports`` (only others' words, not endorsed), or ``absent``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from robot_skills.language.text import fold
from robot_skills.pbl_ta.material import Lexicon

Stance = Literal['affirms', 'rejects', 'reports', 'absent']
SENTENCES = re.compile(r'[^。！？!?；;…\n]+[。！？!?；;…\n]*')
CLAUSE_MARKS = re.compile(r'[，,、：:\s“”"「」『』（）()—]+')
QUESTION_MARKS = ('？', '?')
SUBJECT_REACH = 4          # characters between a reporting verb and its subject, at most


@dataclass(frozen=True)
class Clause:
    text: str          # folded
    sentence: int      # index of its sentence in the turn
    question: bool     # its sentence asks (？, 吗, 难道)
    last: bool         # the last clause of its sentence


def clauses(text: str, words: Lexicon) -> tuple[Clause, ...]:
    """The turn's clauses, folded, each with whether its sentence is a question (cached: the
    misreading, practice and question rules all read the same turn)."""
    key = id(words)
    if _LEXICONS.get(key) is not words:
        if len(_LEXICONS) >= MAX_LEXICONS:
            _LEXICONS.clear()
            _clauses.cache_clear()
        _LEXICONS[key] = words
    return _clauses(text, key)


MAX_LEXICONS = 8
_LEXICONS: dict[int, Lexicon] = {}


@lru_cache(maxsize=2048)
def _clauses(text: str, key: int) -> tuple[Clause, ...]:
    words = _LEXICONS[key]
    found: list[Clause] = []
    for particle in words.question_particles:     # ASR: 只要罚款就行吗我看不一定
        text = re.sub(f'{re.escape(particle)}(?=[^\\s。！？!?，,；;…])', f'{particle}？', text)
    for n, sentence in enumerate(SENTENCES.findall(text) or [text]):
        body = sentence.rstrip('。！？!?；;…\n ')
        folded_parts = [fold(part) for part in CLAUSE_MARKS.split(body)]
        parts = [p for part in folded_parts if part for p in _split_openers(part, words)]
        if not parts:
            continue
        asks = (sentence.rstrip().endswith(QUESTION_MARKS) or
                any(parts[-1].endswith(particle) for particle in words.question_particles))
        for m, part in enumerate(parts):
            rhetorical = any(marker in part for marker in words.rhetorical)
            found.append(Clause(part, n, asks or rhetorical, m == len(parts) - 1))
    return tuple(found)


def is_question(clause: Clause, words: Lexicon) -> bool:
    """The clause asks something (a tag after an assertion does not make it ask)."""
    return clause.question or _choice(clause.text, words)


def stance(text: str, cues: list[str], words: Lexicon) -> Stance:
    """How the speaker of ``text`` stands to what ``cues`` say (see the module docstring)."""
    parts = clauses(text, words)
    verdicts = [_clause_stance(parts, n, cue_at, words)
                for n, clause in enumerate(parts)
                if (cue_at := _first_cue(clause.text, cues)) is not None]
    if not verdicts:
        return 'absent'
    for verdict in ('affirms', 'rejects'):
        if verdict in verdicts:
            return verdict
    return 'reports'


def stance_of_clause(parts: tuple[Clause, ...], n: int, cues: list[str],
                     words: Lexicon) -> Stance:
    """How the speaker stands to what ``cues`` say in clause ``n`` of ``parts`` alone."""
    cue_at = _first_cue(parts[n].text, cues)
    return 'absent' if cue_at is None else _clause_stance(parts, n, cue_at, words)


# ---- one clause -----------------------------------------------------------------------------

def _clause_stance(parts: tuple[Clause, ...], n: int, cue_at: tuple[int, int],
                   words: Lexicon) -> Stance:
    clause = parts[n]
    start, end = cue_at
    before = clause.text[:start]
    pre = _scope(before, words)
    later = parts[n + 1:]
    if any(_leads(p.text, words.disagreements, words) for p in later):
        return 'rejects'
    if any(r in before for r in words.retractions):
        return 'rejects'
    reporter = _reporter(before, words)
    if reporter is None and n > 0 and parts[n - 1].sentence == clause.sentence:
        reporter = _reporter(parts[n - 1].text, words, closing=True)
    if reporter == 'mistaken':
        return 'rejects'
    negations = _negations(pre, words)
    if n > 0 and parts[n - 1].sentence == clause.sentence and any(
            parts[n - 1].text.endswith(neg) for neg in words.complement_negations):
        negations += 1
    rejected = any(r in clause.text[end:] for r in words.rejections)
    tagged = not clause.last and _tag_closes(parts, n, words)
    asks = (clause.question and not tagged) or _choice(pre, words)
    if asks:
        holds = negations % 2 == 1 and not _choice(pre, words) and not rejected
    else:
        holds = (negations + rejected) % 2 == 0
    if reporter == 'reported' and not any(_leads(p.text, words.endorsements, words)
                                          for p in later):
        return 'reports' if holds else 'rejects'
    return 'affirms' if holds else 'rejects'


def _first_cue(text: str, cues: list[str]) -> tuple[int, int] | None:
    """(start, end) of the earliest cue in ``text`` (overlapping cues: the earliest wins)."""
    best = None
    for cue in cues:
        at = text.find(cue)
        if at >= 0 and (best is None or at < best[0]):
            best = (at, at + len(cue))
    return best


def _scope(pre: str, words: Lexicon) -> str:
    """The part of ``pre`` a negation in it can still reach: after the last scope break."""
    cut = 0
    for word in words.scope_breaks:
        at = pre.rfind(word)
        if at >= 0:
            cut = max(cut, at + len(word))
    return pre[cut:]


def _tokens(text: str, words: Lexicon) -> list[tuple[str, str]]:
    """Longest-match scan: (kind, word) for negations and look-alikes; other text skipped."""
    table = [(w, 'neutral') for w in (*words.not_negations, *words.choice_questions)]
    table += [(w, 'negation') for w in words.negations]
    table.sort(key=lambda entry: -len(entry[0]))
    found, at = [], 0
    while at < len(text):
        hit = next(((kind, w) for w, kind in table if text.startswith(w, at)), None)
        if hit is None:
            at += 1
            continue
        found.append(hit)
        at += len(hit[1])
    return found


def _negations(pre: str, words: Lexicon) -> int:
    return sum(1 for kind, _ in _tokens(pre, words) if kind == 'negation')


def _choice(text: str, words: Lexicon) -> bool:
    return any(word in text for word in words.choice_questions)


def _reporter(pre: str, words: Lexicon, closing: bool = False) -> str | None:
    """'reported' (someone else's words), 'mistaken' (以为 said of others), or None.

    ``closing``: ``pre`` is the previous clause, which must end on the reporting verb.
    """
    if any(marker in pre for marker in words.hearsay):
        return 'reported'
    for verb in words.reporting_verbs:
        at = pre.rfind(verb)
        if at < 0 or (closing and not pre.endswith(verb)):
            continue
        subject = pre[max(0, at - SUBJECT_REACH):at]
        if any(other in subject for other in words.others):
            return 'mistaken' if verb in words.mistaken_verbs else 'reported'
    return None


def _leads(text: str, phrases: list[str], words: Lexicon) -> bool:
    """``text`` (a clause) starts with one of ``phrases``, after a connective, 我 or 我觉得
    (只要罚款就能解决，我觉得不对)."""
    for opener in sorted(words.clause_openers, key=len, reverse=True):
        if text.startswith(opener):
            text = text[len(opener):]
            break
    heads = ('', '我', *(f'我{verb}' for verb in words.reporting_verbs))
    return any(text.startswith(head + p) for head in heads for p in phrases)


def _tag_closes(parts: tuple[Clause, ...], n: int, words: Lexicon) -> bool:
    """The sentence of clause ``n`` ends on a tag (…，对吧？): an assertion, not a question."""
    sentence = parts[n].sentence
    tail = [p for p in parts[n + 1:] if p.sentence == sentence]
    return bool(tail) and tail[-1].text in words.tags


def _split_openers(part: str, words: Lexicon) -> list[str]:
    """Split a folded clause before contrastive connectives (ASR text has no commas)."""
    if not any(opener in part[1:] for opener in words.clause_openers):
        return [part]
    pieces = [part]
    for opener in words.clause_openers:
        pieces = [p for piece in pieces for p in _split_at(piece, opener)]
    return [p for p in pieces if p]


def _split_at(text: str, opener: str) -> list[str]:
    """``text`` cut before every ``opener`` after its first character (a loop, not a
    recursion: a turn of a thousand openers is still one turn)."""
    pieces, start = [], 0
    at = text.find(opener, 1)
    while at >= 0:
        pieces.append(text[start:at])
        start = at
        at = text.find(opener, at + 1)
    pieces.append(text[start:])
    return pieces
