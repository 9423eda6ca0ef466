"""What a line typed at ``robot_skills_sim --console`` means (``HELP`` says it)."""

from __future__ import annotations

from dataclasses import dataclass

from robot_skills.sim.scenario import Step

HELP = """\
    贝旺路怎么走          ASR with the wake word detected (kws_triggered true)
    ~ 贝旺路怎么走        ASR without the wake word
    > 三层厕所在哪        a remote text message
    {"text": ...}        a raw asr/json payload
    @tianyi              talk to another robot from now on
    quit                 leave (end of input works too)"""


@dataclass(frozen=True)
class Switch:
    robot: str


@dataclass(frozen=True)
class Quit:
    pass


@dataclass(frozen=True)
class Problem:
    message: str


def parse_line(line: str, robot: str, robots: list[str]) -> Step | Switch | Quit | Problem | None:
    text = line.strip()
    if not text:
        return None
    if text in ('quit', 'exit'):
        return Quit()
    if text.startswith('@'):
        name = text[1:].strip()
        if name not in robots:
            return Problem(f'no robot {name!r}; robots: {", ".join(robots)}')
        return Switch(name)
    if text.startswith('>'):
        return Step(robot=robot, remote=text[1:].strip(), sender='console')
    if text.startswith('~'):
        return Step(robot=robot, asr=text[1:].strip(), wake=False)
    if text.startswith('{'):
        return Step.model_validate({'robot': robot, 'json': text})
    return Step(robot=robot, asr=text)
