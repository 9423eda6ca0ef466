"""The Q5 reception guide as a pure state machine (no rclpy).

One request runs one guidance flow: the remote reply first (remote visitors),
then ``tts/speak``; on the robot's own floor, and only once the speech result
came back successfully, one ``arm_gesture`` welcome towards the target. A
failed speech means no gesture; a failed gesture is not retried. Input that
arrives during a flow waits its turn, except a stop phrase, which preempts:
the flow ends, a gesture not yet started is dropped, waiting input is dropped,
and the robot says "好的，有需要再问我。" (interrupting current speech). The skill
never deactivates; after every turn it simply waits for the next input.

Voice counts only with the wake word (``kws_triggered``); remote text always
counts. A clarification question leaves its query pending for
``clarification_timeout`` seconds; the next turn completes it.

Input waiting for its turn is bounded: at most ``max_pending`` utterances
wait. Past that, the oldest waiting voice question is dropped (traced
``input_dropped``: a person in front of the robot asks again); when only remote
messages wait, the oldest one is dropped with a reply (phrase ``busy``), so a
remote visitor is never left without an answer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from robot_skills.model.commands import ArmGesture, Speak
from robot_skills.model.skill import (
    BatchCompleted,
    CancelTimer,
    Effect,
    Event,
    Heard,
    Refused,
    Reply,
    SendBatch,
    StartTimer,
    Step,
    TimerFired,
    Trace,
)
from robot_skills.model.utterance import Source, Utterance
from robot_skills.wayfinding.answers import Answer, Composer
from robot_skills.wayfinding.building import Building
from robot_skills.wayfinding.resolver import Clarify, Query, Resolver

CLARIFICATION_TIMER = 'clarification'


@dataclass(frozen=True)
class Flow:
    """The guidance flow of one turn."""

    turn: int
    answer: Answer
    reply_to: tuple[str, str] | None     # (message id, sender) of a remote visitor
    phase: str = 'speaking'              # speaking | gesturing

    @property
    def speech_batch(self) -> str:
        return f't{self.turn}-speak'

    @property
    def gesture_batch(self) -> str:
        return f't{self.turn}-gesture'


@dataclass(frozen=True)
class GuideState:
    turn: int = 0
    flow: Flow | None = None
    pending: Query | None = None         # a clarification waiting for its answer
    waiting: tuple[Utterance, ...] = ()  # input that arrived during the flow


class WayfindingCore:
    """Decides every turn of the wayfinding guide from its building."""

    skill = 'wayfinding_guide'

    def __init__(self, building: Building, clarification_timeout: float,
                 max_pending: int = 5) -> None:
        self.resolver = Resolver(building)
        self.composer = Composer(building, self.resolver.index)
        self.clarification_timeout = clarification_timeout
        self.max_pending = max_pending

    def initial(self) -> GuideState:
        return GuideState()

    def label(self, state: GuideState) -> str:
        if state.flow is not None:
            return state.flow.phase
        return 'awaiting_clarification' if state.pending is not None else 'idle'

    def session_id(self, state: GuideState) -> str:
        return f'turn-{state.turn}'

    def step(self, state: GuideState, event: Event) -> Step[GuideState]:
        if isinstance(event, Heard):
            return self._heard(state, event.utterance)
        if isinstance(event, Refused):
            return self._refused(state, event)
        if isinstance(event, BatchCompleted):
            return self._completed(state, event)
        if isinstance(event, TimerFired) and event.name == CLARIFICATION_TIMER:
            if state.pending is None:
                return Step(state)
            return Step(replace(state, pending=None),
                        (Trace('clarification_expired', 'idle'),))
        return Step(state)

    # ---- input ------------------------------------------------------------------------

    def _heard(self, state: GuideState, utterance: Utterance) -> Step[GuideState]:
        if not utterance.awake:
            return Step(state, (Trace('ignored', detail={'why': 'no wake word',
                                                         'utterance_id': utterance.utterance_id}),))
        text = self.resolver.clean(utterance.text)
        if self.resolver.is_stop(text):
            return self._stop(state, utterance)
        if state.flow is not None:
            return self._queue(state, utterance)
        query = self.resolver.read(text)
        if state.pending is not None:
            query = query.answering(state.pending)
        answer = self.composer.answer(self.resolver.resolve(query))
        return self._begin(state, utterance, answer, {'chars': len(text)})

    def _queue(self, state: GuideState, utterance: Utterance) -> Step[GuideState]:
        """Wait behind the current flow; a full queue sheds its oldest voice input first."""
        assert state.flow is not None
        waiting = (*state.waiting, utterance)
        effects: list[Effect] = [Trace('queued', detail={
            'utterance_id': utterance.utterance_id, 'behind_turn': state.flow.turn})]
        if len(waiting) > self.max_pending:
            voices = [n for n, u in enumerate(waiting) if u.source is not Source.REMOTE]
            shed = voices[0] if voices else 0
            dropped = waiting[shed]
            waiting = waiting[:shed] + waiting[shed + 1:]
            effects.append(Trace('input_dropped', detail={
                'utterance_id': dropped.utterance_id, 'source': dropped.source,
                'why': f'more than {self.max_pending} waiting'}))
            if dropped.source is Source.REMOTE:
                effects.append(Reply(dropped.utterance_id, dropped.sender_id,
                                     self.resolver.building.phrases.busy))
        return Step(replace(state, waiting=waiting), tuple(effects))

    def _refused(self, state: GuideState, event: Refused) -> Step[GuideState]:
        """Input too long or empty: a person who addressed the robot gets the generic question."""
        dropped = event.dropped
        if not dropped.awake or state.flow is not None:
            return Step(state, (Trace('ignored', detail={'why': dropped.reason}),))
        question = self.resolver.building.phrases.clarify_any
        answer = self.composer.answer(Clarify(question, Query(meeting_room=True)))
        utterance = Utterance(dropped.source, '', True, dropped.utterance_id, dropped.sender_id)
        return self._begin(state, utterance, answer, {'refused': dropped.reason})

    def _stop(self, state: GuideState, utterance: Utterance) -> Step[GuideState]:
        flow = state.flow
        detail = {'stopped_turn': flow.turn if flow else None,
                  'dropped_gesture': bool(flow and flow.phase == 'speaking'
                                          and flow.answer.gesture_side),
                  'dropped_waiting': [u.utterance_id for u in state.waiting]}
        force = flow is not None and flow.phase == 'speaking'
        return self._begin(replace(state, waiting=()), utterance, self.composer.stop(), detail,
                           force)

    def _begin(self, state: GuideState, utterance: Utterance, answer: Answer,
               detail: dict[str, Any], force: bool = False) -> Step[GuideState]:
        turn = state.turn + 1
        remote = utterance.source is Source.REMOTE
        flow = Flow(turn, answer, (utterance.utterance_id, utterance.sender_id) if remote else None)
        effects: list[Effect] = [Trace('decision', 'speaking', {
            **detail, 'utterance_id': utterance.utterance_id, 'kind': answer.kind,
            'target': answer.target, 'spoken_name': answer.spoken_name, 'say': answer.speech,
            'gesture': answer.gesture_side})]
        if state.pending is not None:
            effects.append(CancelTimer(CLARIFICATION_TIMER))
        if answer.pending is not None:
            effects.append(StartTimer(CLARIFICATION_TIMER, self.clarification_timeout))
        if flow.reply_to:
            effects.append(Reply(*flow.reply_to, answer.text))
        effects.append(SendBatch(flow.speech_batch, (Speak(answer.speech, force=force),)))
        return Step(GuideState(turn, flow, answer.pending, state.waiting), tuple(effects))

    # ---- results ------------------------------------------------------------------------

    def _completed(self, state: GuideState, event: BatchCompleted) -> Step[GuideState]:
        flow = state.flow
        if flow is None or event.batch_id not in (flow.speech_batch, flow.gesture_batch):
            return Step(state, (Trace('stale_result', detail={'batch_id': event.batch_id}),))
        outcome = event.outcomes[0]
        if event.batch_id == flow.speech_batch and outcome.ok and flow.answer.gesture_side:
            gesture = ArmGesture('welcome', flow.answer.gesture_side, 1, 1.0)
            return Step(replace(state, flow=replace(flow, phase='gesturing')),
                        (SendBatch(flow.gesture_batch, (gesture,)),))
        step = 'speech' if event.batch_id == flow.speech_batch else 'gesture'
        detail = {'turn': flow.turn, step: outcome.status, 'reason': outcome.reason}
        if step == 'speech' and not outcome.ok and flow.answer.gesture_side:
            detail['gesture'] = 'skipped: speech failed'
        return self._next(replace(state, flow=None), Trace('turn_done', detail=detail))

    def _next(self, state: GuideState, done: Trace) -> Step[GuideState]:
        """End of a flow: take the next waiting input, if any."""
        if not state.waiting:
            return Step(state, (done,))
        head, rest = state.waiting[0], state.waiting[1:]
        step = self._heard(replace(state, waiting=rest), head)
        return Step(step.state, (done, *step.effects))
