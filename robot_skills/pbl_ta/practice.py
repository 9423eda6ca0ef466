"""A concrete, executable practice proposed by the students (003: 具体做法、执行动作、制度安排或
操作步骤; "讨论已经出现过较具体的做法比较").

A turn proposes a practice when one of its clauses, not a question, names a
concrete action (``practice_verbs``: 排班, 公示, 跟车 …) together with who does it
(``actors``: 楼长, 物业 …) or when, how often, in which order or how much
(``details`` and a number with a ``units`` word: 每天, 晚上, 第一步, 两小时). Three
things that sound like one are not:

* **empty slogans**: the words of ``slogans`` (加强宣传, 提高意识, 落实到位,
  加强监督 …) are taken out before looking for an action, so a turn made of them
  names none;
* **retelling the material**: a turn that cites the material (``material_refs``
  or a pack ``source`` such as 材料二) without a proposal of its own
  (``proposal_markers``: 我们可以, 建议, 让 …), or whose wording is mostly the
  material's own (``restatement_share`` of its character pairs found in the
  material's texts), reports what the material did, not what the students will do;
* **comparing the materials** (``compares_practices``): a comparison counts as
  comparing practices only when the comparing turn proposes one itself, or names
  the action of one proposed before and cites no material.
"""

from __future__ import annotations

import re
from functools import lru_cache

from robot_skills.language.text import bigram_share, fold
from robot_skills.pbl_ta.material import Lexicon, Material
from robot_skills.pbl_ta.stance import clauses, is_question, stance_of_clause


def proposes(raw: str, material: Material, words: Lexicon) -> bool:
    """``raw`` (one turn) proposes a concrete, executable practice of the students' own."""
    if restates(raw, material, words):
        return False
    parts = clauses(raw, words)
    return any(_concrete(clause.text, words)      # 不可能每天值守 rejects the practice
               and stance_of_clause(parts, n, words.practice_verbs, words) == 'affirms'
               for n, clause in enumerate(parts)
               if not is_question(clause, words))


def verbs(raw: str, words: Lexicon) -> set[str]:
    """The practice verbs ``raw`` names outside slogans."""
    text = _unslogan(fold(raw), words)
    return {verb for verb in words.practice_verbs if verb in text}


def cites(raw: str, material: Material, words: Lexicon) -> bool:
    """``raw`` refers to the material (材料二里, 有个小区 …)."""
    text = fold(raw)
    return any(ref in text for ref in (*words.material_refs, *_sources(material)))


def restates(raw: str, material: Material, words: Lexicon) -> bool:
    """Retelling: citing the material without a proposal, or mostly the material's words."""
    text = fold(raw)
    proposing = any(marker in text for marker in words.proposal_markers)
    if cites(raw, material, words) and not proposing:
        return True
    own = text
    for word in (*words.proposal_markers, *words.fillers):
        own = own.replace(word, '')
    return len(own) >= 4 and bigram_share(own, _material_text(material)) >= \
        words.restatement_share


def compares_practices(raw: str, material: Material, words: Lexicon,
                       proposed_verbs: set[str], concrete_now: bool) -> bool:
    """A comparison (``comparison_cues``) of practices, not of the materials."""
    text = fold(raw)
    if not any(cue in text for cue in words.comparison_cues):
        return False
    if concrete_now:
        return True
    return bool(verbs(raw, words) & proposed_verbs) and not cites(raw, material, words)


def _concrete(text: str, words: Lexicon) -> bool:
    text = _unslogan(text, words)
    if not any(verb in text for verb in words.practice_verbs):
        return False
    return (any(actor in text for actor in words.actors) or
            any(detail in text for detail in words.details) or
            _quantity(words).search(text) is not None)


def _unslogan(text: str, words: Lexicon) -> str:
    for slogan in sorted(words.slogans, key=len, reverse=True):
        text = text.replace(slogan, '|')
    return text


@lru_cache(maxsize=8)
def _quantity_pattern(units: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r'\d+(?:' + '|'.join(map(re.escape, units)) + ')')


def _quantity(words: Lexicon) -> re.Pattern[str]:
    return _quantity_pattern(tuple(words.units))


def _sources(material: Material) -> set[str]:
    return {fold(item.source) for item in material.items if item.source}


def _material_text(material: Material) -> str:
    return _folded_material(id(material), material)


_CACHE: dict[int, tuple[Material, str]] = {}


def _folded_material(key: int, material: Material) -> str:
    kept = _CACHE.get(key)
    if kept is not None and kept[0] is material:
        return kept[1]
    texts = [item.text for item in material.items]
    texts += [m.correction for m in material.misreadings]
    texts += [c.text for c in material.conflicts]
    folded = '|'.join(fold(t) for t in texts)
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[key] = (material, folded)
    return folded
