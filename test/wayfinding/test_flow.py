"""One guidance flow per request: ordering, failures, stop phrases, waiting input."""

from __future__ import annotations

import pytest

from robot_skills.model.skill import BatchCompleted, Refused
from robot_skills.model.utterance import Dropped, Source

BEIWANG = '贝旺路在穿过前方茶水区，右手边第一个会议室就是贝旺路。'


def test_the_gesture_waits_for_the_speech_result(talk):
    turn = talk.hear('贝旺路怎么走', settle=False)
    assert turn.order == ['speak'] and turn.gestures == []
    (speech,) = talk.in_flight
    talk.complete(speech, turn)
    assert turn.order == ['speak', 'gesture']
    assert (turn.gestures[0].action, turn.gestures[0].side) == ('welcome', 'left')
    assert talk.core.label(talk.state) == 'gesturing'


def test_a_failed_speech_means_no_gesture(talk):
    turn = talk.hear('贝旺路怎么走', speech_ok=False)
    assert turn.gestures == []
    done = next(t.detail for t in turn.traces if t.kind == 'turn_done')
    assert done['speech'] == 'failed' and done['gesture'] == 'skipped: speech failed'
    assert talk.core.label(talk.state) == 'idle'


def test_a_failed_gesture_is_not_retried_and_the_skill_stays_active(talk):
    turn = talk.hear('摇光怎么走', gesture_ok=False)
    assert len(turn.gestures) == 1
    assert next(t.detail for t in turn.traces if t.kind == 'turn_done')['gesture'] == 'failed'
    assert talk.hear('贝旺路怎么走').speech == BEIWANG


@pytest.mark.parametrize('question', ['初心', '天枢', '二楼厕所', '三楼厕所', '茶水区', '洽谈室', '打印机',
                                      '会议室', '健身房', '三层库房', '四楼电话间'])
def test_no_gesture_off_the_fifth_floor_or_for_groups_questions_and_unknowns(talk, question):
    assert talk.hear(question).gestures == []


@pytest.mark.parametrize('question', ['前方茶水区'])
def test_front_facing_places_show_no_gesture(talk, question):
    assert talk.hear(question).gestures == []


def test_a_remote_visitor_gets_the_text_first_then_the_speech(talk):
    turn = talk.hear('初心在哪', remote=True)
    assert turn.order == ['reply', 'speak']
    (reply,) = turn.replies
    assert (reply.in_reply_to, reply.recipient_id) == ('u1', 'visitor')
    assert reply.text == turn.speech       # spoken name, floor prompt and the route verbatim


def test_a_remote_fifth_floor_answer_has_name_and_route(talk):
    turn = talk.hear('贝旺路', remote=True)
    assert turn.replies[0].text == '贝旺路：穿过前方茶水区，右手边第一个会议室就是贝旺路。'
    assert turn.order == ['reply', 'speak', 'gesture']


@pytest.mark.parametrize('question, expected', [
    ('茶水区', '五层有两个茶水区。'), ('会议室', '请问您要去几层，或者哪个会议室？'),
    ('健身房', '抱歉，我暂时没有健身房的路线信息'), ('三层库房', '三层没有库房，抱歉。'),
])
def test_remote_visitors_get_every_kind_of_answer_in_writing(talk, question, expected):
    turn = talk.hear(question, remote=True)
    assert len(turn.replies) == 1 and turn.replies[0].text.startswith(expected)


def test_input_during_a_flow_waits_its_turn(talk):
    first = talk.hear('贝旺路怎么走', settle=False)
    waiting = talk.hear('初心怎么走', settle=False)
    assert waiting.said == [] and [t.kind for t in waiting.traces] == ['queued']
    speech = talk.in_flight[0]
    talk.complete(speech, first)
    talk.complete(talk.in_flight[0], first)        # the gesture ends the first flow ...
    assert first.said[1].startswith('初心在三层')    # ... and the waiting request runs


@pytest.mark.parametrize('phrase', ['不问了', '停止', '退下', '不用了', '小范小范，不用了，谢谢'])
def test_a_stop_phrase_preempts_speech_and_drops_the_gesture(talk, phrase):
    flow = talk.hear('贝旺路怎么走', settle=False)
    queued = talk.hear('初心怎么走', settle=False)
    stop = talk.hear(phrase, settle=False)
    assert stop.said == ['好的，有需要再问我。'] and stop.forced == [True]
    decision = stop.decision()
    assert decision['dropped_gesture'] is True and decision['dropped_waiting'] == ['u2']
    old, new = talk.in_flight
    talk.complete(old, flow, speech_ok=False)      # the cut speech comes back interrupted
    talk.complete(new, stop)
    assert flow.gestures == [] and queued.said == [] and talk.in_flight == []
    assert talk.core.label(talk.state) == 'idle'
    assert talk.hear('贝旺路怎么走').speech == BEIWANG   # still active


def test_a_stop_while_gesturing_does_not_interrupt_speech_and_keeps_the_running_gesture(talk):
    flow = talk.hear('贝旺路怎么走', settle=False)
    talk.complete(talk.in_flight[0], flow)         # speech done, gesture running
    stop = talk.hear('停止', settle=False)
    assert stop.forced == [False]
    assert stop.decision()['dropped_gesture'] is False


def test_a_stop_when_idle_just_answers(talk):
    turn = talk.hear('退下')
    assert turn.said == ['好的，有需要再问我。'] and turn.gestures == []


def test_a_stop_clears_a_pending_question(talk):
    talk.hear('会议室')
    talk.hear('不问了')
    assert talk.state.pending is None
    assert talk.hear('三楼').speech == '请问您要去三层的哪个会议室？'


def test_one_request_one_flow_one_gesture(talk):
    turn = talk.hear('贝旺路和摇光怎么走')
    assert len(turn.said) == 1 and len(turn.gestures) == 1
    assert turn.decision()['target'] == '5-01贝旺路'   # the first place named


@pytest.mark.parametrize('reason, awake, source, answered', [
    ('too_long', True, Source.REMOTE, True), ('too_long', True, Source.ASR, True),
    ('too_long', False, Source.ASR, False), ('empty', True, Source.REMOTE, True),
    ('malformed_json', False, Source.ASR, False),
])
def test_refused_input_gets_the_generic_question_only_when_addressed(talk, reason, awake,
                                                                     source, answered):
    turn = talk.send(Refused(Dropped(source, reason, 'r1', 'visitor', awake=awake)))
    assert turn.said == (['请问您要去几层，或者哪个会议室？'] if answered else [])
    assert len(turn.replies) == (1 if answered and source is Source.REMOTE else 0)


def test_stale_results_are_ignored(talk):
    turn = talk.send(BatchCompleted('t99-speak', ()))
    assert [t.kind for t in turn.traces] == ['stale_result']
