"""The crisis exception: checked before routing, reports or any other output.

Self-harm, suicidal thoughts, being bullied or hurt, lasting despair and
family safety stop every other flow. The answer follows the document's order:
steady and without judgement -> what an AI cannot do -> reach a trusted adult
-> the help line of the learner's region (asked for when unknown, with the
mainland's 110/120 said in any case). 宁可误报，不可漏报: any single signal of
the lexicon is a referral.

Hyperbole about school work ("这道题要杀死我了", "作业烦死了") is not a referral
on its own. Flagging it would stop the learning request of every frustrated
student, teach them that venting gets them a script, and bury real signals in
noise; instead the request is answered and one gentle check-in is added, which
keeps the door open. Whenever a real signal is also present (想死, 不想活 ...)
the referral wins: the hyperbole rule never removes a flag.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from robot_skills.coordinator.lexicon import Crisis


@dataclass(frozen=True)
class Signal:
    category: str
    pattern: str


@dataclass(frozen=True)
class CrisisReading:
    signals: tuple[Signal, ...]
    hyperbole: bool

    @property
    def referral(self) -> bool:
        return bool(self.signals)


class CrisisDetector:
    def __init__(self, lexicon: Crisis) -> None:
        self.lexicon = lexicon
        self._categories = [(name, pattern, re.compile(pattern))
                            for name, patterns in lexicon.categories.items()
                            for pattern in patterns]
        self._hyperbole = [re.compile(p) for p in lexicon.hyperbole.patterns]

    def read(self, text: str) -> CrisisReading:
        folded = re.sub(r'\s+', '', unicodedata.normalize('NFKC', text))
        signals = tuple(Signal(name, pattern) for name, pattern, regex in self._categories
                        if regex.search(folded))
        hyperbole = not signals and any(regex.search(folded) for regex in self._hyperbole)
        return CrisisReading(signals, hyperbole)

    def region(self, text: str) -> str | None:
        """The region a learner names in ``text`` (中国大陆, 北京, 香港 ...), if any."""
        for region, names in self.lexicon.regions.names.items():
            if any(name in text for name in names):
                return region
        return None

    def reply(self, region: str | None) -> str:
        """Steady -> AI's limits -> a trusted adult -> the region's help line (or ask)."""
        reply = self.lexicon.reply
        parts = [reply.steady, reply.limits, reply.adult]
        if region is None:
            parts += [reply.ask_region, reply.mainland_hint]
        else:
            lines = self.lexicon.regions.lines
            parts.append(lines.get(region, lines['other']))
        return ''.join(parts)
