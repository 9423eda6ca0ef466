"""What the TA says when it speaks, and the rules every utterance must pass.

An utterance is built from the material, never invented: the material's
content for the gap (a correction, a claim, both sides of a conflict) and the
question handed back to the students. ``problems`` is the one judge of any
utterance, whoever wrote it (a template or an LLM): Chinese, 1-2 sentences (3
only when a misreading blocks the discussion), at most ``max_hanzi``
characters, ending on a question about what to do, stating material content
rather than a label, never a must-discuss point's reference answer, never a
line spoken for someone else. ``material_problems`` runs every utterance a
pack can produce through it when the pack is loaded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from robot_skills.language.text import bigram_share, fold, hanzi
from robot_skills.pbl_ta.detectors import Finding
from robot_skills.pbl_ta.history import HOW_TO, Digest
from robot_skills.pbl_ta.material import Item, Lexicon, Material

SENTENCE = re.compile(r'[^。！？!?]+[。！？!?]*')
LATIN = re.compile(r'[A-Za-z]')
LABEL = re.compile(r'材料\s*[一二三四五六七八九十0-9A-Za-z]+')
QUOTE_SAFE = re.compile(r'[。！？!?；;：:“”"\n]+')   # what a quoted question may not carry


def compose(material: Material, lexicon: Lexicon, finding: Finding,
            about: Item | None = None, digest: Digest | None = None) -> str:
    """The template utterance for ``finding``: material content, then the question back.

    ``about``: for "怎么做", the material item the students' analysis is about.
    ``digest``: the session's history, for a student's question or an orchestrator's point
    (handed back with the material item it is about; a quoted question too long for the
    limit is referred to instead).
    """
    options = [sentences(material, lexicon, finding, about, digest)]
    if digest is not None and finding.gap in digest.questions:
        options.append(sentences(material, lexicon, finding, about, digest, short=True))
    texts = [''.join(_sentence(s) for s in option if s) for option in options]
    return next((t for t in texts if not problems(t, material, lexicon, finding.blocking)),
                texts[0])


def sentences(material: Material, lexicon: Lexicon, finding: Finding,
              about: Item | None = None, digest: Digest | None = None,
              short: bool = False) -> list[str]:
    gap = finding.gap
    if digest is not None and gap in digest.questions:
        asked = digest.questions[gap]     # never with the item it names: that would answer it
        unnamed = [i for i in (about, context(material, digest), *material.items)
                   if i is not None and not any(cue in asked.folded for cue in i.cues)]
        item = unnamed[0] if unnamed else None
        quoted = QUOTE_SAFE.sub('，', asked.text).strip('，')
        handback = (lexicon.question_handback_short if short else
                    lexicon.question_handback.replace('{question}', quoted))
        return [item.text if item is not None else '', handback]
    if digest is not None and gap in digest.agenda:
        point = digest.agenda[gap]
        item = _about(material, fold(point.point)) or about or context(material, digest)
        ask = point.question if point.question.endswith(('？', '?')) else ''
        if (not ask or QUOTE_SAFE.search(ask[:-1])      # one question, not several sentences
                or not any(cue in ask for cue in lexicon.handback_cues)):
            ask = lexicon.point_handback.replace('{point}', QUOTE_SAFE.sub('，', point.point))
        return [item.text, ask]
    reading = next((m for m in material.misreadings if m.id == gap), None)
    if reading is not None:
        return [reading.clarify if finding.blocking else '', reading.correction, reading.ask]
    conflict = next((c for c in material.conflicts if c.id == gap), None)
    if conflict is not None:
        return [conflict.text, conflict.ask]
    listed = next((p for p in material.must_discuss if p.id == gap), None)
    if listed is not None:
        return [material.item(listed.support).text, listed.ask]
    return [(about or context(material, None)).text, material.how_to or lexicon.how_to]


def _about(material: Material, folded: str) -> Item | None:
    """The material item whose cue ``folded`` names (the first), if any."""
    return next((item for item in material.items if any(cue in folded for cue in item.cues)),
                None)


def context(material: Material, digest: Digest | None) -> Item:
    """The material item the students touched last, else the first condition or chain."""
    if digest is not None and digest.touched:
        return material.item(max(digest.touched, key=digest.touched.__getitem__))
    return (material.conditions + material.causal_chains + material.items)[0]


def problems(text: str, material: Material, lexicon: Lexicon, blocking: bool = False) -> list[str]:
    """Every rule ``text`` breaks as a TA utterance ([] when it may be said)."""
    found = []
    parts = [p for p in SENTENCE.findall(text.strip()) if p.strip('。！？!? ')]
    if not parts:
        return ['empty']
    han = hanzi(text)
    if han < 4 * len(LATIN.findall(text)) or han == 0:
        found.append('not Chinese')
    allowed = 3 if blocking else 2
    if len(parts) > allowed:
        found.append(f'{len(parts)} sentences (at most {allowed})')
    if han > lexicon.max_hanzi:
        found.append(f'{han} characters (at most {lexicon.max_hanzi})')
    last = parts[-1].strip()
    if not last.endswith(('？', '?')):
        found.append('does not end on a question handed back to the students')
    elif not any(cue in last for cue in lexicon.handback_cues):
        found.append('its question does not ask what to do (' +
                     '/'.join(lexicon.handback_cues[:4]) + '…)')
    folded = fold(LABEL.sub('', text))
    if not any(cue in folded for cue in _content_cues(material)):
        found.append('states no material content (only a label or nothing)')
    for point in material.must_discuss:
        if point.answer and bigram_share(fold(point.answer), folded) >= lexicon.answer_overlap:
            found.append(f'gives away the answer of must-discuss point {point.id!r}')
    for label in lexicon.speaker_labels:
        if re.search(rf'{re.escape(label)}\w{{0,3}}[：:]', text):
            found.append(f'speaks for someone else ({label}…:)')
    return found


def material_problems(material: Material, lexicon: Lexicon) -> list[str]:
    """Each utterance the pack can produce that breaks a rule, naming the entry and fields."""
    found = []
    for where, finding, about in _every_utterance(material):
        text = compose(material, lexicon, finding, about)
        found += [f'entry {where}: the utterance {text!r} {problem}'
                  for problem in problems(text, material, lexicon, finding.blocking)]
    for item in material.items:     # a student's question handed back, at its shortest
        text = _sentence(item.text) + _sentence(lexicon.question_handback_short)
        found += [f"entry {item.id!r}, field 'text' with the lexicon's question_handback_short:"
                  f' the utterance {text!r} {problem}'
                  for problem in problems(text, material, lexicon)]
    return found


def _every_utterance(material: Material) -> Iterator[tuple[str, Finding, Item | None]]:
    for n, reading in enumerate(material.misreadings):
        where = f"misreadings[{n}] (id {reading.id!r}), fields 'correction'/'ask'"
        yield where, Finding('misreading', reading.id), None
        yield f"{where}/'clarify'", Finding('misreading', reading.id, blocking=True), None
    for n, conflict in enumerate(material.conflicts):
        yield (f"conflicts[{n}] (id {conflict.id!r}), fields 'text'/'ask'",
               Finding('stall', conflict.id), None)
    for n, point in enumerate(material.must_discuss):
        yield (f"must_discuss[{n}] (id {point.id!r}), field 'ask' and its support's 'text'",
               Finding('uncovered_point', point.id), None)
    for item in material.items:
        yield (f"{item.id!r}, field 'text' with the 怎么做 question ('how_to')",
               Finding('abstract', HOW_TO), item)


def _content_cues(material: Material) -> list[str]:
    cues = [cue for item in material.items for cue in item.cues]
    cues += [cue for reading in material.misreadings for cue in reading.corrected_by]
    cues += [cue for conflict in material.conflicts for side in conflict.sides
             for cue in side.cues]
    return cues + [cue for point in material.must_discuss for cue in point.cues]


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith(('。', '！', '？', '!', '?')) else f'{text}。'
