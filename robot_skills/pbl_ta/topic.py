"""What the discussion is about, and the students' own questions about it.

**On topic** (``Topic.about``): a turn shares a content word pair with the pack (its
topic, guidance, items, misreadings, conflicts, points, trigger questions), or
talks about acting (a practice verb or an actor), or judges (an abstract or
comparison cue: 这个很重要 is about the topic at hand). Word pairs that carry no
topic (我们, 什么, 觉得 … the lexicon's ``generic_words``) do not count. A turn of
fillers only is neither on nor off topic (that is a stall, not drift).

**A student's question** (``questions``) is tracked when it is substantive and
about the topic: a sentence that asks (？, 吗, a question word such as 怎么 or 谁,
a choice question), not rhetorical (难道, or a negated question: 不就是…吗), not a
tag (…，对吧？), with at least ``MIN_CONTENT`` characters of content besides its
question words and fillers, and on topic. A question about a misreading's cue
is left to the misreading rule (it doubts it); one the speaker answers in the
same turn (X？我觉得 Y) is not open.

**Answered** (``answers``): a later turn by someone else that is not only a
question and either shares a content word pair with it, or is the first reply
after it with content on the topic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from robot_skills.language.text import fold
from robot_skills.pbl_ta.material import Lexicon, Material
from robot_skills.pbl_ta.stance import clauses, is_question

CONTENT = re.compile(r'[\w\u4e00-\u9fff%]')
MIN_CONTENT = 3
SENTENCE_END = re.compile(r'[。！？!?；;…\n]+')


def pairs(text: str) -> set[str]:
    """The content character pairs of a folded text."""
    return {text[i:i + 2] for i in range(len(text) - 1)
            if CONTENT.match(text[i]) and CONTENT.match(text[i + 1])}


@dataclass(frozen=True)
class Topic:
    """The pack's vocabulary, less the word pairs that carry no topic."""

    words: frozenset[str]
    generic: frozenset[str]
    noise: tuple[str, ...] = ()     # fillers and question words, longest first

    @classmethod
    def of(cls, material: Material, lexicon: Lexicon, extra: tuple[str, ...] = ()) -> Topic:
        texts = [material.topic, material.teacher_guidance, material.how_to,
                 *material.trigger_questions, *extra]
        for item in material.items:
            texts += [item.text, *item.cues]
        for reading in material.misreadings:
            texts += [reading.reading, reading.correction, reading.question, *reading.cues,
                      *reading.corrected_by]
        for conflict in material.conflicts:
            texts += [conflict.text, conflict.question, *(s.claim for s in conflict.sides)]
            texts += [cue for side in conflict.sides for cue in side.cues]
        for point in material.must_discuss:
            texts += [point.point, point.question, point.answer, *point.cues]
        generic = frozenset(gram for word in (*lexicon.generic_words, *lexicon.fillers,
                                              *lexicon.question_words)
                            for gram in pairs(fold(word)))
        words = frozenset(gram for text in texts for gram in pairs(fold(text))) - generic
        noise = tuple(sorted({fold(w) for w in (*lexicon.fillers, *lexicon.question_words)},
                             key=len, reverse=True))
        return cls(words, generic, noise)

    def content(self, folded: str, lexicon: Lexicon) -> str:
        """``folded`` without fillers and question words: what it says."""
        for word in self.noise:
            if word in folded:
                folded = folded.replace(word, '|')
        return folded

    def about(self, folded: str, lexicon: Lexicon) -> bool | None:
        """True on topic, False off topic, None for fillers only (neither)."""
        content = self.content(folded, lexicon)
        if len(CONTENT.findall(content)) < 2:
            return None
        if pairs(content) & self.words:
            return True
        cues = (*lexicon.practice_verbs, *lexicon.actors, *lexicon.abstract_cues,
                *lexicon.comparison_cues)
        return any(cue in folded for cue in cues if len(cue) > 1)   # 发 is also in 出发

    def shares(self, a: str, b: str) -> bool:
        """Two folded texts share a content word pair (not a generic one)."""
        return bool((pairs(a) - self.generic) & (pairs(b) - self.generic))


def questions(raw: str, topic: Topic, lexicon: Lexicon, misreading_cues: list[str]) -> list[str]:
    """The substantive, on-topic questions ``raw`` asks (their sentences, trimmed)."""
    found = []
    sentences = [s for s in re.split(r'(?<=[。！？!?；;…\n])', raw) if s.strip()]
    for n, sentence in enumerate(sentences):
        parts = clauses(sentence, lexicon)
        if not parts or not _asks(parts, lexicon):
            continue
        if any(replies(later, lexicon) for later in sentences[n + 1:]):
            continue        # asked and answered in the same turn (X？我觉得 Y)
        folded = ''.join(p.text for p in parts)
        if _rhetorical(parts, lexicon) or any(cue in folded for cue in misreading_cues):
            continue
        content = topic.content(folded, lexicon)
        if len(CONTENT.findall(content)) - _generic_chars(content, lexicon) < MIN_CONTENT:
            continue
        if topic.about(folded, lexicon):
            found.append(SENTENCE_END.sub('', sentence.strip()).strip() + '？')
    return found


def replies(raw: str, lexicon: Lexicon) -> bool:
    """``raw`` says something besides asking (a clause that is not a question, not filler)."""
    for clause in clauses(raw, lexicon):
        if is_question(clause, lexicon):
            continue
        rest = clause.text
        for filler in sorted(lexicon.fillers, key=len, reverse=True):
            rest = rest.replace(filler, '')
        if len(rest) >= 2:
            return True
    return False


def _asks(parts, lexicon: Lexicon) -> bool:
    """The sentence asks: ？ or 吗 or a choice question, or a question word closed by 呢
    (a question word alone does not ask: 我们几个轮流 is a statement)."""
    last = parts[-1]
    if last.text in lexicon.tags:
        return False
    if any(is_question(p, lexicon) for p in parts):
        return True
    return last.text.endswith('呢') and any(word in p.text for p in parts
                                           for word in lexicon.question_words)


def _rhetorical(parts, lexicon: Lexicon) -> bool:
    """难道…, or a question clause that opens on a negation (不就是…吗, 不是说…吗): it
    asserts."""
    text = ''.join(p.text for p in parts)
    if any(marker in text for marker in lexicon.rhetorical):
        return True
    last = parts[-1].text
    return any(last.startswith(neg) for neg in lexicon.negations)


def _generic_chars(content: str, lexicon: Lexicon) -> int:
    count = 0
    for word in lexicon.generic_words:
        count += content.count(fold(word)) * len(fold(word))
    return count
