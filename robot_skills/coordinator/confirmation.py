"""The one confirmation of "删除我的联动记录": only an unambiguous yes deletes.

The document deletes "after confirming once" (删除后不可恢复，会先确认一次).
A deletion cannot be undone, so the answer is read as a yes only when every
part of it is a yes: the whole utterance, after folding, must split into
words of the ``affirmative`` list (确定, 是的, 删吧 ...) and harmless ``fillers``
(我, 要, 吧, 了 ...), and nothing else. A negation (不/别/没/先别), a question
(吗, ？, 真的要吗), a hedge (我不确定, 再想想, 等一下), a condition (如果…就删),
or any other word makes it not a yes, and the deletion is cancelled.
Reading a confirmation word as a substring is what turned "我不确定，先别删"
into a deletion.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cached_property

from robot_skills.model.config import Strict

# Punctuation and spaces between the words of an answer ("对，删除。", "yes, delete").
SEPARATORS = re.compile(r'[\s,.!~;:，。！～、；：…]+')
QUESTION = re.compile(r'[?？]')


class Confirmation(Strict):
    """The words of an unambiguous yes (``config/coordinator/routing.yaml``)."""

    affirmative: list[str]
    fillers: list[str]

    @cached_property
    def _words(self) -> tuple[frozenset[str], int]:
        words = frozenset(fold(w) for w in [*self.affirmative, *self.fillers] if fold(w))
        return words, max(map(len, words), default=0)

    @cached_property
    def _yes(self) -> frozenset[str]:
        return frozenset(fold(w) for w in self.affirmative)

    def is_yes(self, text: str) -> bool:
        """Whether ``text`` is a yes and nothing but a yes."""
        if QUESTION.search(text):
            return False
        pieces = [p for p in SEPARATORS.split(fold(text)) if p]
        found: list[str] = []
        for piece in pieces:
            words = self._split(piece)
            if words is None:
                return False
            found += words
        return any(word in self._yes for word in found)

    def _split(self, piece: str) -> list[str] | None:
        """``piece`` as a sequence of known words (longest first), or None."""
        words, longest = self._words
        best: list[list[str] | None] = [[]] + [None] * len(piece)
        for end in range(1, len(piece) + 1):
            for size in range(min(longest, end), 0, -1):
                start = end - size
                if best[start] is not None and piece[start:end] in words:
                    best[end] = [*best[start], piece[start:end]]  # type: ignore[misc]
                    break
        return best[len(piece)]


def fold(text: str) -> str:
    """NFKC, lower case, no zero-width or format characters."""
    text = unicodedata.normalize('NFKC', text).lower()
    return ''.join(ch for ch in text if unicodedata.category(ch) != 'Cf')
