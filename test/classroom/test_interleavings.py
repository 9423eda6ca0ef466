"""Random interleavings of the runtime's events against the classroom core.

Every batch's acceptances and outcomes arrive in a random order the runtime could produce
(a per-command outcome before the barrier it completes, a hand done before the arm is
accepted), with random faults, timeouts, refusals, cut speech and random 暂停 / 继续 / 停止 /
answers / empty results in between. Whatever happens: no step raises, no motion command
after a motion fault, the document's variables only move forward, and once the devices
behave and the listener answers, every lesson reaches its end.
"""

from __future__ import annotations

from core_driver import fail, succeed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robot_skills.model.commands import ArmGesture, ArmMovePos, Call, Hand, HeadGesture, Speak
from robot_skills.model.outcomes import Outcome, Receipt, Status, accepted, judge, not_accepted
from robot_skills.model.skill import (
    Barrier,
    BatchCompleted,
    BatchReturned,
    CancelTimer,
    Capabilities,
    CommandCompleted,
    Heard,
    Refused,
    SendBatch,
    StartTimer,
    TimerFired,
    Trace,
)
from robot_skills.model.utterance import Dropped, Source, Utterance

CLASSROOM = '用课堂讲解的方式介绍光合作用'
RIGHT = '二氧化碳和水'

MOTION_TYPES = (ArmGesture, ArmMovePos, Hand, HeadGesture)
OUTCOME_KINDS = ['ok', 'ok', 'ok', 'error', 'timeout', 'rejected', 'cancelled', 'interrupted',
                 'empty', 'wrong']


def make_outcome(command, kind, spoken):
    if kind == 'ok' or (isinstance(command, Call) and kind not in ('error',)):
        return succeed(command)
    if kind == 'error':
        return fail(command, 'error', 'estop')
    if kind == 'timeout':
        return Outcome(command, Status.TIMEOUT, Receipt(), 'no result', chars_spoken=spoken)
    if kind == 'rejected':
        return Outcome(command, Status.REJECTED, Receipt(), 'rejected')
    if kind == 'cancelled':
        return fail(command, 'cancelled', 'cancelled')
    if kind == 'interrupted':
        if isinstance(command, Speak):
            return Outcome(command, Status.FAILED, Receipt('interrupted', '', 'x'), 'cut',
                           chars_spoken=spoken)
        return fail(command, 'cancelled', 'cut')
    if kind == 'empty':
        return fail(command, '', '')
    return judge(command, Receipt('completed', 'victory', 'x'))


class Sim:
    """A runtime-like harness: per-batch event scripts interleaved by the test."""

    def __init__(self, core):
        self.core = core
        self.state = core.initial()
        self.pending = []          # list of [batch, [events]]
        self.timers = []
        self.sent = []
        self.traces = []
        self.voice_only_at = None
        self.prev = {}
        self.count = 0
        self.feed(Capabilities(()))

    def feed(self, event):
        step = self.core.step(self.state, event)
        self.state = step.state
        c = self.state.course
        for effect in step.effects:
            if isinstance(effect, SendBatch):
                self.sent.append(effect)
                if self.voice_only_at is not None:
                    moving = [x for x in effect.commands if isinstance(x, MOTION_TYPES)]
                    assert not moving, f'motion after a fault: {effect}'
                self.pending.append([effect, None])
            elif isinstance(effect, Trace):
                self.traces.append(effect)
            elif isinstance(effect, StartTimer):
                if effect.name in self.timers:
                    self.timers.remove(effect.name)
                self.timers.append(effect.name)
            elif isinstance(effect, CancelTimer) and effect.name in self.timers:
                self.timers.remove(effect.name)
        if c is not None and c.voice_only and c.active and self.voice_only_at is None:
            self.voice_only_at = len(self.sent)
        if c is not None:
            order = {'opening_stage': ['not_started', 'welcome_started', 'ready_for_first_point'],
                     'closing': ['in_progress', 'closing_feedback', 'closing', 'course_completed']}
            key = c.number
            prev = self.prev.get(key)
            if prev is not None:
                for name, values in order.items():
                    assert values.index(getattr(c, name)) >= values.index(getattr(prev, name)), (
                        name, getattr(prev, name), getattr(c, name), event)
                assert c.tts_chars_used >= prev.tts_chars_used
                assert c.voice_only >= prev.voice_only
                assert c.number_gesture_disabled >= prev.number_gesture_disabled
                assert c.presentation_mode == prev.presentation_mode or prev.presentation_mode in (
                    'unconfirmed',) or c.presentation_mode == 'completed'
            self.prev[key] = c

    def script(self, batch, kinds, order, spoken):
        """Runtime order: acceptance then outcome per command; an each-outcome is posted
        before the returned/completed barrier it fires."""
        n = len(batch.commands)
        # a legal permutation (each command accepted before it is done) from the order seed
        seq, open_ = [], {i: 0 for i in range(n)}
        rng = list(order) + [0] * (2 * n)
        k = 0
        while any(v < 2 for v in open_.values()):
            cand = [i for i, v in open_.items() if v < 2]
            i = cand[rng[k] % len(cand)]
            k += 1
            seq.append((i, 'accept' if open_[i] == 0 else 'done'))
            open_[i] += 1
        acc, out, events = [None] * n, [None] * n, []
        for i, what in seq:
            command = batch.commands[i]
            kind = kinds[i % len(kinds)]
            if what == 'accept':
                if kind == 'rejected' and not isinstance(command, Call):
                    acc[i] = not_accepted(command, Status.REJECTED, 'rejected')
                    out[i] = Outcome(command, Status.REJECTED, Receipt(), 'rejected')
                    if batch.each:
                        events.append(CommandCompleted(batch.batch_id, i, out[i]))
                else:
                    acc[i] = accepted(command)
                if all(a is not None for a in acc) and batch.barrier in (Barrier.RETURNED,
                                                                          Barrier.BOTH):
                    events.append(BatchReturned(batch.batch_id, tuple(acc)))
            else:
                if out[i] is None:
                    out[i] = make_outcome(command, kind, spoken)
                    if batch.each:
                        events.append(CommandCompleted(batch.batch_id, i, out[i]))
            finished = what == 'done' and all(o is not None for o in out) and not any(
                isinstance(e, BatchCompleted) for e in events)
            if finished and batch.barrier in (Barrier.COMPLETED, Barrier.BOTH):
                events.append(BatchCompleted(batch.batch_id, tuple(out)))
        return events

    def hear(self, text):
        self.count += 1
        self.feed(Heard(Utterance(Source.ASR, text, True, f'u{self.count}')))

    def advance(self, pick, kinds, order, spoken):
        if not self.pending:
            if self.timers:
                self.feed(TimerFired(self.timers.pop(0)))
            return
        entry = self.pending[pick % len(self.pending)]
        if entry[1] is None:
            entry[1] = self.script(entry[0], kinds, order, spoken)
        if entry[1]:
            self.feed(entry[1].pop(0))
        if not entry[1]:
            self.pending.remove(entry)

    def settle(self, limit=400):
        """Healthy devices from now on; answer and continue as a listener would."""
        for _ in range(limit):
            c = self.state.course
            if c is None or not c.active:
                return
            if self.pending:
                self.advance(0, ['ok'], [0], 0)
            elif self.timers:
                self.feed(TimerFired(self.timers.pop(0)))
            elif c.awaiting_state == 'paused':
                self.hear('继续')
            elif c.awaiting_state == 'awaiting_answer':
                self.hear(RIGHT)
            elif c.awaiting_state == 'awaiting_mode_confirmation':
                self.hear('课堂讲解')
            else:
                raise AssertionError(f'stuck: phase={c.phase!r} awaiting={c.awaiting_state!r} '
                                     f'waiting_for={c.waiting_for!r}')
        raise AssertionError('never completed')


ACTIONS = st.lists(st.one_of(
    st.tuples(st.just('advance'), st.integers(0, 5)), st.tuples(st.just('advance'), st.integers(0, 5)),
    st.tuples(st.just('advance'), st.integers(0, 5)),
    st.tuples(st.just('timer'), st.just(0)),
    st.tuples(st.just('hear'), st.sampled_from(['暂停', '继续', '停止', RIGHT, '嗯', ''])),
    st.tuples(st.just('refused'), st.sampled_from(['empty', 'duplicate']))), max_size=160)


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(actions=ACTIONS, kinds=st.lists(st.sampled_from(OUTCOME_KINDS), min_size=1, max_size=4),
       order=st.lists(st.integers(0, 7), max_size=10), spoken=st.integers(0, 200),
       stop_ok=st.booleans())
def test_random_interleavings(core, actions, kinds, order, spoken, stop_ok):
    sim = Sim(core)
    sim.hear(CLASSROOM)
    for what, arg in actions:
        if what == 'advance':
            sim.advance(arg, kinds, order, spoken)
        elif what == 'timer':
            if sim.timers:
                sim.feed(TimerFired(sim.timers.pop(0)))
        elif what == 'hear':
            if arg == '停止' and not stop_ok:
                continue
            sim.hear(arg)
        else:
            sim.feed(Refused(Dropped(Source.ASR, arg, 'x')))
    sim.settle()
