"""pbl_ta: the PBL discussion teaching assistant (003) as a ROS node.

Subscribes ``discussion/turns`` (DiscussionTurn, a deep queue) and publishes
its own body turns there. Services: ``discussion/open`` (OpenDiscussion) opens
a session with a material pack of the configured ``discussions_dir`` (by name,
or a path inside that folder: a path outside it is refused without being read)
or an inline one (``material_yaml``, through the wire parser);
``discussion/ta_step`` (TaStep) answers plan / discuss / refresh with exactly
the document's JSON. Both take the orchestrator's optional inputs: the rolling
summary (``summary``) and the must-discuss points it maintains
(``must_discuss_json``); neither is ever traced, only counted. With
``robot_namespace`` set (e.g. ``/tianyi``), each TA body turn is also spoken
through that robot's ``tts/speak``. With ``llm_base_url`` set, an
OpenAI-compatible endpoint may reword an utterance on a worker thread; its
answer is used only if it passes the same rules.
Every refusal (unknown session, bad role, bad previous card, a pack that
breaks the rules) is answered with the reason, and logged and traced on
``skill_events`` by a reason code (``RefusedError.reason``): the answer may quote
what the caller sent, a trace never does. Traces carry ids, lengths and
decisions, never the students' words (a state card is traced by its flags and
the number of pending questions). A turn longer than the transport cap still
counts for the limits (read truncated). Steps are served concurrently (the
reentrant group of a ``ServiceNode``, ``runtime/service_node.py``): one waiting
for its ``last_turn_id`` or the LLM holds no other up; ``discuss`` checks the
limits again when it commits. Turns, opens, the robot's speech and the waits'
timeouts run one at a time, in the node's serial group.

Parameters (read only): ``lexicon_file``, ``discussions_dir``,
``robot_namespace``, ``ta_id``, the detector thresholds
(``misreading_grace``, ``stall_turns``, ``uncovered_turns``,
``abstract_turns``, ``drift_turns``, ``max_pending``), ``max_sessions``, ``max_text``, and
``llm_base_url`` / ``llm_model`` / ``llm_key_env`` / ``llm_timeout``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rclpy.task import Future

from robot_skills.adapters.chat import ChatError
from robot_skills.adapters.config import ConfigError, load, parse
from robot_skills.interface import DISCUSSION_OPEN, DISCUSSION_TA_STEP, DISCUSSION_TURNS
from robot_skills.model import wire
from robot_skills.model.commands import Device, Speak
from robot_skills.pbl_ta.card import StateCard
from robot_skills.pbl_ta.core import Session, Step, TaCore
from robot_skills.pbl_ta.detectors import Policy
from robot_skills.pbl_ta.history import ROLES, Turn
from robot_skills.pbl_ta.material import Agenda, AgendaPoint, Lexicon, Material
from robot_skills.pbl_ta.provider import UtteranceWriter
from robot_skills.pbl_ta.utterance import material_problems
from robot_skills.runtime import llm, paths
from robot_skills.runtime.diagnostics import Report
from robot_skills.runtime.entry import run
from robot_skills.runtime.llm import LlmSettings
from robot_skills.runtime.params import Settings, setting
from robot_skills.runtime.qos import profile
from robot_skills.runtime.robot import Robot, Timeouts
from robot_skills.runtime.service_node import ServiceNode
from robot_skills.runtime.tracing import to_json
from robot_skills.runtime.waits import Waits
from robot_skills_interfaces.msg import DiscussionTurn
from robot_skills_interfaces.srv import OpenDiscussion, TaStep

SKILL = 'pbl_ta'
MODES = ('plan', 'discuss', 'refresh')
TIMEOUTS = Timeouts(acceptance=2.0, result=60.0, discovery=5.0)
PACK_SUFFIXES = ('.yaml', '.yml', '.json')


@dataclass(frozen=True)
class TaSettings:
    lexicon_file: str = setting(paths.config('pbl_ta/lexicon.yaml'),
                                'How the TA reads a discussion', read_only=True)
    discussions_dir: str = setting(paths.config('discussions'),
                                   'Material packs, opened by name', read_only=True)
    robot_namespace: str = setting('', "Speak the TA's turns through this robot's tts/speak "
                                       "('' = do not speak)", read_only=True)
    ta_id: str = setting('ta', 'speaker_id of the TA on discussion/turns', read_only=True)
    misreading_grace: int = setting(1, 'Turns a peer gets to correct a misreading', low=0,
                                    high=50, read_only=True)
    stall_turns: int = setting(3, 'Turns without new content that make a stall', low=2,
                               high=50, read_only=True)
    uncovered_turns: int = setting(8, 'Turns a must-discuss point may stay uncovered', low=3,
                                   high=500, read_only=True)
    abstract_turns: int = setting(4, 'Turns of judgement without an action before 怎么做',
                                  low=2, high=50, read_only=True)
    drift_turns: int = setting(3, 'Turns off the topic (a question pending) before the TA '
                                  'brings the group back', low=2, high=50, read_only=True)
    max_pending: int = setting(4, 'pending_questions is a short list: at most this long',
                               low=1, high=20, read_only=True)
    max_sessions: int = setting(64, 'Open sessions at most (the oldest is closed beyond)',
                                low=1, high=10000, read_only=True)
    max_text: int = setting(2000, 'Characters of a turn that are read (all turns count)',
                            low=50, high=100000, read_only=True)
    turn_wait: float = setting(2.0, 'Seconds a step waits for its last_turn_id to be heard',
                               low=0.0, high=60.0, read_only=True)


@dataclass(frozen=True)
class RewordingSettings(LlmSettings):
    """The TA's ``llm_*`` parameters: a rewording must come back sooner than a lesson."""

    timeout: float = setting(10.0, 'Seconds per rewording request', low=1.0, high=120.0,
                             read_only=True)


class RefusedError(ValueError):
    """A step or an open that is answered "no"; ``reason`` is what the trace says."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def load_packs(folder: str, lexicon: Lexicon) -> dict[str, Material]:
    """Every pack of ``folder`` by file name; a pack that breaks a rule, or a link that leads
    out of the folder, stops the node (naming the file, never quoting it)."""
    root = Path(folder).resolve()
    packs = {}
    for path in sorted(Path(folder).glob('*.yaml')):
        if not path.resolve().is_relative_to(root):
            raise ConfigError(path, ['leads out of discussions_dir (a link): packs are read '
                                     'from the configured folder only; copy it in'])
        packs[path.stem] = load_pack(path, lexicon)
    return packs


def load_pack(path: Path | str, lexicon: Lexicon) -> Material:
    """A material pack whose every possible utterance obeys the rules, or a ``ConfigError``."""
    return checked(load(path, Material), lexicon, path)


def checked(pack: Material, lexicon: Lexicon, source: Path | str) -> Material:
    problems = material_problems(pack, lexicon)
    if problems:
        raise ConfigError(source, problems)
    return pack


class PblTa(ServiceNode):
    """The discussion TA node (see the module docstring)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('pbl_ta', SKILL, **kwargs)

    def configure(self) -> None:
        self.open_workers(1, 'ta-writer', finish=False)     # an LLM call may take seconds
        value = self.value = Settings(self, TaSettings).value
        self.lexicon = load(value.lexicon_file, Lexicon)
        self.packs = load_packs(value.discussions_dir, self.lexicon)
        self.core = TaCore(self.lexicon, Policy(
            value.misreading_grace, value.stall_turns, value.uncovered_turns,
            value.abstract_turns, max_pending=value.max_pending,
            drift_turns=value.drift_turns), value.ta_id)
        self.sessions: dict[str, Session] = {}
        self._ids = itertools.count(1)
        # Steps may wait (for a turn, for the LLM) and are served concurrently (self.calls):
        # one waiting holds no other up. Turns arrive in self.serial; self.lock guards the
        # sessions both share and is held only between awaits, never across one.
        self._heard_turns: Waits[tuple[str, str]] = self.waits()   # (session, turn)
        self._turns = self.create_publisher(DiscussionTurn, DISCUSSION_TURNS.name,
                                            profile(DISCUSSION_TURNS.qos))
        self.create_subscription(DiscussionTurn, DISCUSSION_TURNS.name, self._on_turn,
                                 profile(DISCUSSION_TURNS.qos),
                                 callback_group=self.serial, oversize=self._on_oversize)
        self.create_service(OpenDiscussion, DISCUSSION_OPEN.name, self._on_open,
                            callback_group=self.serial)
        self.create_service(TaStep, DISCUSSION_TA_STEP.name, self._on_step,
                            callback_group=self.calls)
        self.robot = (Robot(self, [Device.TTS], lambda: TIMEOUTS, self.serial,
                            namespace=value.robot_namespace) if value.robot_namespace else None)
        endpoint = Settings(self, RewordingSettings, llm.PREFIX).value.endpoint()
        self.writer = UtteranceWriter(endpoint) if endpoint else None
        self.report('sessions', lambda: Report({'open': str(len(self.sessions)),
                                                'max': str(value.max_sessions)}))
        if self.robot is not None:
            self.report('devices', self.robot.report)
        self.tracer.emit('capabilities', detail={
            'packs': sorted(self.packs), 'speaks_through': value.robot_namespace,
            'llm': bool(self.writer)})

    # ---- sessions and turns ---------------------------------------------------------------

    def _on_open(self, request: OpenDiscussion.Request,
                 response: OpenDiscussion.Response) -> OpenDiscussion.Response:
        session_id = request.session_id or f'discussion-{next(self._ids)}'
        try:
            material = self._material(request)
            agenda = _agenda(request.must_discuss_json, self.guard.limits)
        except RefusedError as error:
            return self._refuse_open(response, session_id, str(error), error.reason)
        except ConfigError as error:
            return self._refuse_open(response, session_id, str(error), 'bad_pack')
        with self.lock:
            return self._open(session_id, material, response, agenda,
                              request.summary[:self.value.max_text])

    def _open(self, session_id: str, material: Material, response: OpenDiscussion.Response,
              agenda: list[AgendaPoint] | None = None,
              summary: str = '') -> OpenDiscussion.Response:
        if session_id in self.sessions:
            return self._refuse_open(response, session_id, f'session {session_id[:80]!r} is '
                                                           'open already; use another session_id',
                                     'session_open')
        if len(self.sessions) >= self.value.max_sessions:
            closed = next(iter(self.sessions))
            del self.sessions[closed]
            self.tracer.emit('session_closed', 'evicted', closed,
                             {'max_sessions': self.value.max_sessions})
        session = self.sessions[session_id] = self.core.open(session_id, material)
        self.core.note(session, summary, agenda)
        self.tracer.emit('session_opened', '', session_id, {
            'topic': material.topic, 'agenda_points': len(agenda or ()),
            'summary_chars': len(summary)})
        response.ok, response.session_id = True, session_id
        return response

    def _material(self, request: OpenDiscussion.Request) -> Material:
        if bool(request.material) == bool(request.material_yaml):
            raise RefusedError('one_material', 'give exactly one of material (a pack name, or '
                                               'a path in the pack folder) and material_yaml')
        if request.material_yaml:
            pack = checked(parse(request.material_yaml, Material, 'material_yaml',
                                 self.guard.limits), self.lexicon, 'material_yaml')
        else:
            pack = self._pack(request.material)
        update = {k: v for k, v in (('topic', request.topic),
                                    ('teacher_guidance', request.teacher_guidance)) if v}
        return pack.model_copy(update=update) if update else pack

    def _pack(self, name: str) -> Material:
        """A pack of the configured folder, by name or by a path inside it; nothing else is
        read (a path outside the folder is refused before it is opened)."""
        if name in self.packs:
            return self.packs[name]
        folder = Path(self.value.discussions_dir).resolve()
        path = (folder / name).resolve()
        if path.suffix in PACK_SUFFIXES and path.is_relative_to(folder) and path.is_file():
            return load_pack(path, self.lexicon)
        raise RefusedError('no_pack', f'no material pack {name[:80]!r} in the configured '
                                      f'folder (known: {", ".join(sorted(self.packs)) or "none"}'
                                      '); paths outside it are not read')

    def _refuse_open(self, response: OpenDiscussion.Response, session_id: str,
                     error: str, reason: str) -> OpenDiscussion.Response:
        self.tracer.emit('refused', 'open', detail={'reason': reason})   # the id was not taken
        response.ok, response.session_id, response.error = False, session_id, error
        return response

    def _on_oversize(self, msg: DiscussionTurn, field: str, size: int) -> None:
        """A turn beyond the transport cap still counts: its text is read truncated."""
        if field != 'text':
            self.tracer.emit('input_rejected', detail={'field': field, 'size': size})
            return
        self._on_turn(msg)

    def _on_turn(self, msg: DiscussionTurn) -> None:
        session = self.sessions.get(msg.session_id)
        problem = ('unknown session' if session is None else
                   f'unknown speaker_role {msg.speaker_role!r} (one of {", ".join(ROLES)})'
                   if msg.speaker_role not in ROLES else '')
        if problem or session is None:
            self.tracer.emit('input_rejected', 'unknown session' if session is None else
                             'unknown speaker_role', session.session_id if session else '',
                             {'turn_id': msg.turn_id[:200], 'chars': len(msg.text)})
            return
        text = msg.text[:self.value.max_text]
        with self.lock:
            fresh = self.core.hear(session, Turn(msg.speaker_role, msg.speaker_id, text,
                                                 msg.is_body), msg.turn_id)
        if msg.turn_id:
            self._heard_turns.settle((msg.session_id, msg.turn_id))
        self.tracer.emit('input', 'duplicate' if not fresh else 'heard', msg.session_id, {
            'turn_id': msg.turn_id, 'role': msg.speaker_role, 'body': msg.is_body,
            'chars': len(msg.text), 'truncated': len(msg.text) > len(text)})

    # ---- steps ------------------------------------------------------------------------------

    async def _on_step(self, request: TaStep.Request,
                       response: TaStep.Response) -> TaStep.Response:
        session = self.sessions.get(request.session_id)
        try:
            if session is None:
                raise RefusedError('unknown_session', f'no open session '
                                                      f'{request.session_id[:80]!r}: call '
                                                      'discussion/open first')
            if request.mode not in MODES:
                raise RefusedError('unknown_mode', f'mode must be one of {", ".join(MODES)}, '
                                                   f'not {request.mode[:80]!r}')
            previous = _card(request.previous_state_card_json, self.guard.limits)
            agenda = _agenda(request.must_discuss_json, self.guard.limits)
            if request.last_turn_id and not await self._heard(session, request.last_turn_id):
                raise RefusedError('turn_not_heard', f'turn {request.last_turn_id[:80]!r} was '
                                                     'not heard on discussion/turns within '
                                                     f'{self.value.turn_wait:g} s')
        except RefusedError as error:
            mode = request.mode if request.mode in MODES else 'unknown'
            self.tracer.emit('refused', mode, session.session_id if session else '',
                             {'reason': error.reason})
            response.ok, response.error = False, str(error)
            return response
        with self.lock:
            self.core.note(session, request.summary[:self.value.max_text], agenda)
        if request.mode == 'discuss':
            step = await self._discuss(session, previous)
        else:
            with self.lock:
                step = (self.core.plan(session) if request.mode == 'plan' else
                        self.core.refresh(session, previous))
        response.ok, response.json, response.reason = True, to_json(step.answer), step.reason
        card = step.answer.get('state_card', {})
        self.tracer.emit('decision', request.mode, session.session_id, {
            'reason': step.reason, 'gap': step.gap, 'spoke': bool(step.utterance),
            'pending': len(card.get('pending_questions', ())),
            'should_speak': card.get('should_speak'),
            'can_end_discussion': card.get('can_end_discussion'),
            'rejected': len(step.rejected)})
        return response

    async def _heard(self, session: Session, turn_id: str) -> bool:
        """Whether ``turn_id`` was heard, waiting for it up to ``turn_wait`` (no polling)."""
        def seen() -> bool:
            with self.lock:
                return session.seen(turn_id)
        return await self._heard_turns.wait((session.session_id, turn_id), self.value.turn_wait,
                                            seen)

    async def _discuss(self, session: Session, previous: StateCard | None) -> Step:
        with self.lock:
            draft = self.core.draft(session, previous)
        candidate = ''
        if draft.finding is not None and self.writer is not None:
            candidate = await self._reworded(session, draft.reason, draft.text)
        with self.lock:
            step = self.core.discuss(session, draft, candidate)
            if step.utterance:
                self._spoken(session, step.utterance)
        return step

    async def _reworded(self, session: Session, reason: str, template: str) -> str:
        """The writer's wording, from a worker thread ('' when it fails: the template stays)."""
        assert self.writer is not None
        material = session.material
        try:
            wording = await self.workers.run(self.writer.write, material.topic,
                                             material.teacher_guidance, reason, template)
        except ChatError as error:
            self.tracer.emit('degraded', 'llm', session.session_id, {'error': str(error)})
            return ''
        return wording if isinstance(wording, str) else ''

    def _spoken(self, session: Session, text: str) -> None:
        """Publish the TA's body turn, and say it through the robot when configured."""
        turn_id = f'{session.session_id}-ta-{session.digest.body}'
        session.remember(turn_id)   # the echo of our own turn is not a second turn
        self._turns.publish(DiscussionTurn(
            stamp=self.get_clock().now().to_msg(), session_id=session.session_id,
            speaker_role='ta', speaker_id=self.value.ta_id, text=text, is_body=True,
            turn_id=turn_id))
        if self.robot is None:
            return
        batch = self.robot.send(turn_id, [Speak(text)])

        def spoken(future: Future) -> None:
            for speech in future.result() or ():    # the one outcome of the batch's one speech
                self.tracer.emit('spoken', speech.status.value, session.session_id,
                                 {'turn_id': turn_id, 'reason': speech.reason})

        batch.completed.add_done_callback(spoken)


def _card(raw: str, limits: wire.Limits) -> StateCard | None:
    """The role packet's previous state card ('' = none), or a refusal naming the field."""
    if not raw.strip():
        return None
    field = 'previous_state_card_json'
    try:
        return wire.model(wire.json_value(raw, field, limits), StateCard, field)
    except wire.WireError as error:
        raise RefusedError('bad_previous_card', str(error)) from error


def _agenda(raw: str, limits: wire.Limits) -> list[AgendaPoint] | None:
    """The orchestrator's must-discuss points ('' = none), or a refusal naming the entry."""
    if not raw.strip():
        return None
    field = 'must_discuss_json'
    try:
        value = wire.json_value(raw, field, limits)
        if not isinstance(value, list):
            raise RefusedError('bad_must_discuss', f'{field}: a JSON list of points, not '
                                                   f'{type(value).__name__}')
        return wire.model({'points': value}, Agenda, field).points
    except wire.WireError as error:
        raise RefusedError('bad_must_discuss', str(error)) from error


def main(args: list[str] | None = None) -> int:
    return run(PblTa, args)
