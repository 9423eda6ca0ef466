"""How Chinese sounds: toneless pinyin per character, and names found by sound.

ASR often writes a word with other characters of the same sound. The match
is conservative so that nothing unconfigured is ever matched.

Examples: 初心 heard as 出新, 贝旺路 as 北望路. The rules:

* names of two or three characters match only when every syllable is the same
  (tones ignored): 出新 -> 初心, never 出行 -> 初心;
* longer names also match when the syllables are the same after folding the
  sounds Mandarin speakers and recognisers confuse (zh/z, ch/c, sh/s, n/l,
  -ng/-n), or when exactly one syllable differs and that syllable keeps its
  final: 亚特兰提斯 -> 亚特兰蒂斯, never 合作公司 -> 合作共赢.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from pypinyin import Style, lazy_pinyin

FOLD_INITIALS = (('zh', 'z'), ('ch', 'c'), ('sh', 's'), ('l', 'n'))
FOLD_FINALS = (('ang', 'an'), ('eng', 'en'), ('ing', 'in'))
LONG_NAME = 4


@cache
def syllable(ch: str) -> str:
    """Toneless pinyin of one character (the character itself when it has none)."""
    return lazy_pinyin(ch, style=Style.NORMAL)[0].lower()


def syllables(text: str) -> tuple[str, ...]:
    return tuple(syllable(ch) for ch in text)


@cache
def _final(ch: str) -> str:
    return lazy_pinyin(ch, style=Style.FINALS)[0]


@cache
def folded(ch: str) -> str:
    """The syllable of ``ch`` with confusable initials and finals folded together."""
    sound = syllable(ch)
    for long, short in FOLD_INITIALS:
        if sound.startswith(long):
            sound = short + sound[len(long):]
            break
    for long, short in FOLD_FINALS:
        if sound.endswith(long):
            return sound[:-len(long)] + short
    return sound


def _is_han(ch: str) -> bool:
    return '\u4e00' <= ch <= '\u9fff'


@dataclass(frozen=True)
class Heard:
    """Where a configured name was heard in a text."""

    name: str
    start: int
    end: int


class PhoneticIndex:
    """Every configured name (Han characters only), indexed by how it sounds.

    Lookups are dictionary hits per window of the text (one per name length,
    and per syllable position for the one-syllable-off rule), so the cost does
    not grow with the number of names.
    """

    def __init__(self, names: Iterable[str]) -> None:
        self._exact: dict[tuple[str, ...], str] = {}
        self._folded: dict[tuple[str, ...], str] = {}
        self._one_off: dict[tuple[str, ...], list[tuple[str, int, str]]] = {}
        self._lengths: set[int] = set()
        for name in sorted(set(names), key=len, reverse=True):
            if len(name) < 2 or not all(_is_han(c) for c in name):
                continue
            self._lengths.add(len(name))
            self._exact.setdefault(tuple(syllable(c) for c in name), name)
            if len(name) >= LONG_NAME:
                fold = tuple(folded(c) for c in name)
                self._folded.setdefault(fold, name)
                for i, ch in enumerate(name):
                    self._one_off.setdefault(_blank(fold, i), []).append((name, i, _final(ch)))

    def find(self, text: str) -> list[Heard]:
        """Names heard in ``text``, longest first, each at its first place."""
        plain = [syllable(c) if _is_han(c) else None for c in text]
        fold = [folded(c) if _is_han(c) else None for c in text]
        found: dict[str, Heard] = {}
        for size in sorted(self._lengths, reverse=True):
            for start in range(len(text) - size + 1):
                window = [s for s in plain[start:start + size] if s is not None]
                folds = [f for f in fold[start:start + size] if f is not None]
                if len(window) < size:
                    continue
                for name in self._names_at(text[start:start + size], tuple(window),
                                           tuple(folds)):
                    found.setdefault(name, Heard(name, start, start + size))
        return list(found.values())

    def _names_at(self, window: str, plain: tuple[str, ...],
                  fold: tuple[str, ...]) -> list[str]:
        names = [self._exact[plain]] if plain in self._exact else []
        if len(window) < LONG_NAME:
            return names
        if fold in self._folded:
            names.append(self._folded[fold])
        for i, ch in enumerate(window):
            names += [name for name, position, final in self._one_off.get(_blank(fold, i), ())
                      if position == i and final == _final(ch)]
        return names


def _blank(fold: tuple[str, ...], i: int) -> tuple[str, ...]:
    return (*fold[:i], '*', *fold[i + 1:])
