"""Test helpers for pbl_ta: the shipped pack and lexicon, and a discussion to play."""

from __future__ import annotations

from collections.abc import Iterable

from robot_skills.adapters.config import load
from robot_skills.pbl_ta.core import Session, Step, TaCore
from robot_skills.pbl_ta.detectors import Policy
from robot_skills.pbl_ta.history import Digest, Turn
from robot_skills.pbl_ta.material import Lexicon, Material
from robot_skills.runtime import paths

PACK = 'discussions/community_waste.yaml'


def lexicon() -> Lexicon:
    return load(paths.config('pbl_ta/lexicon.yaml'), Lexicon)


def material() -> Material:
    return load(paths.config(PACK), Material)


def student(text: str, speaker: str = 's1') -> Turn:
    return Turn('student', speaker, text)


def digest(*texts: str, pack: Material | None = None) -> Digest:
    """The digest of student turns (a text 'TA:<gap>' is a TA turn that raised <gap>)."""
    folded = Digest(pack or material(), lexicon())
    for n, text in enumerate(texts):
        if text.startswith('TA:'):
            folded.add(Turn('ta', 'ta', '助教的话', True, text[3:]))
        else:
            folded.add(student(text, f's{n % 3}'))
    return folded


class Talk:
    """A session played the way an orchestrator plays it: a turn, then a refresh."""

    def __init__(self, policy: Policy | None = None, pack: Material | None = None) -> None:
        self.core = TaCore(lexicon(), policy)
        self.session: Session = self.core.open('s', pack or material())
        self.turns = 0
        self.history: list[bool] = []     # per body turn: the TA spoke it (the whole session)

    def say(self, *texts: str, role: str = 'student') -> Step:
        """Turns by three speakers in rotation, then a refresh."""
        for text in texts:
            self.core.hear(self.session, Turn(role, f'{role}{self.turns % 3}', text))
            self.history.append(False)
            self.turns += 1
        return self.core.refresh(self.session)

    def discuss(self) -> Step:
        step = self.core.discuss(self.session, self.core.draft(self.session))
        if step.utterance:
            self.history.append(True)
        return step

    def play(self, texts: Iterable[str]) -> list[Step]:
        """Each text, then a refresh, then discuss whenever the card says should_speak."""
        steps = []
        for text in texts:
            step = self.say(text)
            steps.append(step)
            if step.answer['state_card']['should_speak']:
                steps.append(self.discuss())
        return steps
