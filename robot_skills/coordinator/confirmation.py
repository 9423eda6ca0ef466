"""The one confirmation of "删除我的联动记录": only an unambiguous yes deletes.

The document deletes "after confirming once" (删除后不可恢复，会先确认一次).
A deletion cannot be undone, so an answer is a yes only when each of its
pieces (split at punctuation) is, by itself, one of the complete
answers of the ``answers`` list (确定, 是的, 删吧, 对，删除 ...), or that answer
said two or three times (删吧删吧). Nothing is read into a piece: a word that
is a yes in one sentence is not one in another (是吧 and 对吧 ask, 对了 changes
the subject, 好了 and 行了 mean "enough", 都行 hands the choice back), so a
negation, a question, a hedge, a condition, a tag question, or any other word
makes the answer not a yes, and the deletion is cancelled. The question
itself expires (``Windows.confirm``): a yes long after it answers nothing.
Reading a confirmation word as a substring is what turned "我不确定，先别删"
into a deletion.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cached_property

from robot_skills.model.strict import Strict

# Punctuation between the pieces of an answer ("对，删除。", "yes, delete it").
SEPARATORS = re.compile(r'[,.!~;:，。！～、；：…]+')
SPACES = re.compile(r'\s+')
QUESTION = re.compile(r'[?？]')
REPEATS = (1, 2, 3)
LONGEST = 200       # characters: a longer answer is not an unambiguous yes (nor read as one)


class Confirmation(Strict):
    """The complete answers that confirm a deletion (``config/coordinator/routing.yaml``)."""

    answers: list[str]

    @cached_property
    def _answers(self) -> frozenset[str]:
        return frozenset(fold(a) * n for a in self.answers for n in REPEATS if fold(a)) | \
            frozenset(fold(a).replace(' ', '') * n for a in self.answers for n in REPEATS)

    def is_yes(self, text: str) -> bool:
        """Whether ``text`` is a yes and nothing but a yes."""
        if len(text) > LONGEST or QUESTION.search(text):
            return False
        pieces = [p.strip() for p in SEPARATORS.split(fold(text)) if p.strip()]
        return bool(pieces) and all(piece in self._answers or piece.replace(' ', '') in
                                    self._answers for piece in pieces)


def fold(text: str) -> str:
    """NFKC, lower case, no zero-width or format characters, one space between words."""
    text = unicodedata.normalize('NFKC', text).lower()
    return SPACES.sub(' ', ''.join(ch for ch in text if unicodedata.category(ch) != 'Cf'))
