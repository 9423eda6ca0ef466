"""Live teaching (004 part 2) through the Python API: rules, gates, idempotency, the stream."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from records_desk import FRAME, taught_pair

REFLECT = {'summary': '她学会了先画受力图。', 'teacher_reflection': '斜面分解还不稳。',
           'next_action': '下次先练两道斜面题。'}


@pytest.fixture
def room(desk):
    pair, lessons = taught_pair(desk)
    session = desk.ok('live_session_start', pair_id=pair, lesson_id=lessons[0])
    return pair, lessons[0], session['live_session_id']


def test_a_second_start_for_the_same_lesson_joins_the_room(desk, room):
    pair, lesson, session = room
    again = desk.ok('live_session_start', pair_id=pair, lesson_id=lesson)
    assert again == {'live_session_id': session, 'status': 'active', 'joined_existing': True}
    free = desk.ok('live_session_start', pair_id=pair)
    assert free['joined_existing'] is False


@pytest.mark.parametrize('move, error', [
    ({'move_type': 'ASK', 'content': '受力有几个？', 'response_kind': 'text'}, 'is a FRAME'),
    ({'move_type': 'FRAME', 'content': '今天我们练受力分析。'}, 'how long, when done'),
    ({'move_type': 'FRAME', 'content': '大约20分钟，做完就算完成。'}, 'does not say what'),
])
def test_the_first_move_is_a_frame_saying_what_how_long_and_when_done(desk, room, move, error):
    pair, _, session = room
    assert error in desk.refused('live_move_append', 'VALIDATION', pair_id=pair,
                                 live_session_id=session, **move).error


@pytest.mark.parametrize('move, ok', [
    ({'move_type': 'ASK', 'content': '几个力？', 'response_kind': 'text'}, True),
    ({'move_type': 'PROBE', 'content': '为什么？', 'response_kind': 'none'}, False),
    ({'move_type': 'CHALLENGE', 'content': '真的吗？', 'response_kind': 'choice'}, False),
    ({'move_type': 'REFLECT', 'content': '回顾一下', 'response_kind': 'text'}, False),
    ({'move_type': 'REFLECT', 'content': '回顾一下', 'response_kind': 'none'}, True),
    ({'move_type': 'EXPLAIN', 'content': '讲' * 300}, True),
    ({'move_type': 'EXPLAIN', 'content': '讲' * 301}, False),
])
def test_the_move_rules(desk, room, move, ok):
    pair, _, session = room
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
            content=FRAME)
    result = desk.call('live_move_append', pair_id=pair, live_session_id=session, **move)
    assert result.ok is ok, result


def test_complete_needs_the_bell_the_three_parts_and_replays_unchanged(desk, room):
    pair, _, session = room
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
            content=FRAME)
    snap = desk.ok('live_snapshot_write', pair_id=pair, live_session_id=session,
                   body={'round': 3})['snapshot_id']
    refused = desk.refused('live_session_complete', 'CONFLICT', pair_id=pair,
                           live_session_id=session, **REFLECT)
    assert 'close bell' in refused.error
    desk.refused('live_session_complete', 'VALIDATION', pair_id=pair, live_session_id=session,
                 **{**REFLECT, 'next_action': ''})
    desk.ok('live_declare_close', pair_id=pair, live_session_id=session)
    leaked = desk.refused('live_session_complete', 'VALIDATION', pair_id=pair,
                          live_session_id=session, **{**REFLECT, 'summary': f'见 {snap}'})
    assert 'evidence_refs' in leaked.error
    done = desk.ok('live_session_complete', pair_id=pair, live_session_id=session, **REFLECT,
                   evaluation={'agent_observation': '受力图稳了', 'evidence_refs': [snap]})
    assert done['live_evaluation_id']
    replay = desk.ok('live_session_complete', pair_id=pair, live_session_id=session, **REFLECT,
                     evaluation={'agent_observation': '第二份'})
    assert replay['replayed'] and replay['ended_at'] == done['ended_at']
    assert replay['live_evaluation_id'] == done['live_evaluation_id']     # not overwritten
    assert desk.store.one('SELECT agent_observation FROM live_evaluation')[0] == '受力图稳了'
    desk.refused('live_move_append', 'CONFLICT', pair_id=pair, live_session_id=session,
                 move_type='ASK', content='?', response_kind='text')


def test_evaluations_once_and_only_after_completion(desk, room):
    pair, _, session = room
    desk.refused('record_live_evaluation', 'CONFLICT', pair_id=pair, live_session_id=session,
                 agent_observation='x')
    desk.ok('live_declare_close', pair_id=pair, live_session_id=session)
    desk.ok('live_session_complete', pair_id=pair, live_session_id=session, **REFLECT)
    desk.refused('record_live_evaluation', 'VALIDATION', pair_id=pair, live_session_id=session,
                 agent_observation='')
    desk.refused('record_live_evaluation', 'NOT_FOUND', pair_id=pair, live_session_id=session,
                 agent_observation='x', evidence_refs=['mv_nope'])
    first = desk.ok('record_live_evaluation', pair_id=pair, live_session_id=session,
                    agent_observation='好')
    again = desk.ok('record_live_evaluation', pair_id=pair, live_session_id=session,
                    agent_observation='另一份')
    assert (first['existing'], again['existing']) == (False, True)
    assert first['live_evaluation_id'] == again['live_evaluation_id']
    assert 'live_evaluation' in first['closure_progress']['completed']     # the receipt's progress


def test_cancel_is_idempotent_and_not_gated(desk, room):
    pair, _, session = room
    assert desk.ok('live_session_cancel', pair_id=pair, live_session_id=session)['status'] == \
        'cancelled'
    assert desk.ok('live_session_cancel', pair_id=pair, live_session_id=session)['status'] == \
        'cancelled'
    desk.refused('live_session_complete', 'CONFLICT', pair_id=pair, live_session_id=session,
                 **REFLECT)


def test_the_latest_snapshot_is_read_back(desk, room):
    pair, _, session = room
    desk.refused('live_snapshot_get_latest', 'NOT_FOUND', pair_id=pair, live_session_id=session)
    desk.ok('live_snapshot_write', pair_id=pair, live_session_id=session, body={'round': 3})
    desk.ok('live_snapshot_write', pair_id=pair, live_session_id=session, body={'round': 6})
    assert desk.ok('live_snapshot_get_latest', pair_id=pair,
                   live_session_id=session)['body'] == {'round': 6}


def test_live_pending_warns_at_six_empty_calls_and_refuses_at_twelve(desk):
    pair, _ = taught_pair(desk)
    results = [desk.call('live_pending', pair_id=pair) for _ in range(12)]
    assert [r.ok for r in results] == [True] * 11 + [False]
    assert 'warning' not in results[4].result and results[5].result['warning']['empty_calls'] == 6
    assert results[11].code == 'CONFLICT' and 'live_wait' in results[11].error
    desk.ok('adhoc_learner_send', pair_id=pair, text='老师，第三题我不会')
    real = desk.ok('live_pending', pair_id=pair)          # real data always answers, and resets
    assert real['sessions'][0]['type'] == 'ad_hoc_question' and 'warning' not in real
    desk.ok('adhoc_ack', pair_id=pair)
    assert 'warning' not in desk.ok('live_pending', pair_id=pair)


def test_the_teeth_count_within_90_seconds_only(desk):
    pair, _ = taught_pair(desk)
    for _ in range(5):
        desk.ok('live_pending', pair_id=pair)
    desk.skip(91)
    calm = [desk.ok('live_pending', pair_id=pair) for _ in range(5)]
    assert all('warning' not in c for c in calm)                  # a new window began


def test_waiting_keeps_the_bridge_online(desk):
    pair, _ = taught_pair(desk)
    assert desk.ok('live_pending', pair_id=pair)['bridge']['online'] is False
    desk.ok('live_wait', pair_id=pair, timeout_s=0)
    assert desk.ok('live_pending', pair_id=pair)['bridge']['online'] is True
    desk.skip(61)
    assert desk.ok('live_pending', pair_id=pair)['bridge']['online'] is False


def test_pending_orders_by_priority_and_names_the_reason(desk, room):
    pair, _, session = room
    started = desk.ok('live_pending', pair_id=pair)['sessions']
    assert [(s['type'], s['pending_reason']) for s in started] == [('session_start',
                                                                    'session_start')]
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
            content=FRAME)
    assert desk.ok('live_pending', pair_id=pair)['sessions'][0]['pending_reason'] == \
        'agent_owes_move'
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='ASK',
            content='几个力？', response_kind='text')
    desk.ok('live_learner_respond', pair_id=pair, live_session_id=session, text='三个')
    desk.ok('adhoc_learner_send', pair_id=pair, text='顺便问一句')
    kinds = [(s['type'], s['pending_reason']) for s in desk.ok('live_pending',
                                                                pair_id=pair)['sessions']]
    assert kinds == [('ad_hoc_question', 'learner_response_waiting'),
                     ('guided_response', 'learner_response_waiting')]
    online = desk.ok('live_pending', pair_id=pair)['bridge']['online']
    desk.ok('live_heartbeat', pair_id=pair, ttl_seconds=60)
    assert (online, desk.ok('live_pending', pair_id=pair)['bridge']['online']) == (False, True)


def test_live_wait_cursor_is_acknowledged_and_survives_a_restart(desk, room):
    pair, _, session = room
    first = desk.ok('live_wait', pair_id=pair, consumer_id='watch', timeout_s=0)
    assert first['timeout'] and first['events'] == [] and first['live_runtime_contract']
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
            content=FRAME)
    for text in ('一', '二'):
        desk.ok('live_learner_respond', pair_id=pair, live_session_id=session, text=text)
    got = desk.ok('live_wait', pair_id=pair, consumer_id='watch', timeout_s=0,
                  known_contract_version='v3')
    assert [e['kind'] for e in got['events']] == ['learner_response'] * 2
    assert 'live_runtime_contract' not in got and got['may_end_turn'] is False
    again = desk.ok('live_wait', pair_id=pair, consumer_id='watch', timeout_s=0)
    assert again['events'] == got['events']              # not acknowledged: delivered again
    desk.ok('live_declare_close', pair_id=pair, live_session_id=session)
    acked = desk.ok('live_wait', pair_id=pair, consumer_id='watch', timeout_s=0,
                    since=got['cursor'])
    assert [e['kind'] for e in acked['events']] == ['live.learner_close_declared']
    restarted = desk.ok('live_wait', pair_id=pair, consumer_id='watch', timeout_s=0)
    assert restarted['events'] == acked['events']        # the cursor is stored, not in memory
    fresh = desk.ok('live_wait', pair_id=pair, timeout_s=0)
    assert fresh['events'] == []                         # no consumer_id: from now on


def test_adhoc_threads(desk):
    pair, _ = taught_pair(desk)
    thread = desk.ok('adhoc_thread_get', pair_id=pair)
    assert thread['messages'] == [] and desk.ok('adhoc_thread_get', pair_id=pair)[
        'thread_id'] == thread['thread_id']
    first = desk.ok('adhoc_learner_send', pair_id=pair, text='第三题怎么做？')['message_id']
    desk.ok('adhoc_message_send', pair_id=pair, text='先画受力图。', is_learning_related=True,
            payload={'component_type': 'whiteboard_svg', 'body': '<svg/>'})
    desk.refused('adhoc_message_send', 'VALIDATION', pair_id=pair, text='x',
                 payload={'component_type': 'video', 'body': 'b'})
    later = desk.ok('adhoc_thread_get', pair_id=pair, after_message_id=first)['messages']
    assert [m['role'] for m in later] == ['agent'] and later[0]['payload']['body'] == '<svg/>'
    assert desk.store.one("SELECT count(*) FROM event WHERE kind = 'session_event.adhoc'")[0] == 1
    watch = desk.ok('live_wait', pair_id=pair, consumer_id='watch', timeout_s=0)['cursor']
    desk.ok('adhoc_learner_send', pair_id=pair, text='谢谢，不用回')
    assert desk.ok('live_wait', pair_id=pair, consumer_id='watch', timeout_s=0)['events']
    assert desk.ok('adhoc_ack', pair_id=pair) == desk.ok('adhoc_ack', pair_id=pair)
    assert desk.ok('live_wait', pair_id=pair, consumer_id='watch', timeout_s=0,
                   since=watch)['events'] == []             # acked: out of the wait stream too
    assert len(desk.ok('adhoc_thread_get', pair_id=pair)['messages']) == 3   # kept
    assert desk.ok('live_pending', pair_id=pair)['sessions'] == []
    desk.refused('adhoc_ack', 'NOT_FOUND', pair_id=pair, message_id=99)


def test_closing_a_lesson_taught_live_needs_its_journal_entry(desk, room):
    pair, lesson, session = room
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
            content=FRAME)
    facts = desk.ok('get_lesson_closure_facts', pair_id=pair, lesson_id=lesson)
    assert facts['missing'][:3] == ['live_completed', 'live_evidence', 'live_evaluation']
    assert facts['next_required_action'] == {'tool': 'live_session_complete',
                                             'pre_filled_refs': {'live_session_id': session}}
    snap = desk.ok('live_snapshot_write', pair_id=pair, live_session_id=session,
                   body={'round': 1})['snapshot_id']
    desk.ok('live_declare_close', pair_id=pair, live_session_id=session)
    desk.ok('live_session_complete', pair_id=pair, live_session_id=session, **REFLECT,
            evaluation={'agent_observation': '稳'})
    facts = desk.ok('get_lesson_closure_facts', pair_id=pair, lesson_id=lesson)
    assert {'live_completed', 'live_evidence', 'live_evaluation'} <= set(facts['completed'])
    desk.ok('record_post_lesson_evaluation', pair_id=pair, lesson_id=lesson,
            agent_observation='ok')
    refused = desk.refused('close_lesson_loop', 'CONFLICT', pair_id=pair, lesson_id=lesson)
    assert refused.result['shortfall']['snapshot_ids'] == [snap]
    desk.ok('close_lesson_loop', pair_id=pair, lesson_id=lesson, receipt=[
        {'kind': 'journal_entry', 'ref_id': snap, 'description': '第一轮的受力图'}])


def test_the_journal_entry_may_cite_the_live_evaluation_instead(desk, room):
    pair, lesson, session = room
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
            content=FRAME)
    desk.ok('live_declare_close', pair_id=pair, live_session_id=session)
    evaluation = desk.ok('live_session_complete', pair_id=pair, live_session_id=session,
                         **REFLECT, evaluation={'agent_observation': '稳'})['live_evaluation_id']
    desk.ok('record_post_lesson_evaluation', pair_id=pair, lesson_id=lesson,
            agent_observation='ok')
    refused = desk.refused('close_lesson_loop', 'CONFLICT', pair_id=pair, lesson_id=lesson)
    assert refused.result['shortfall'] == {'snapshot_ids': [],
                                           'live_evaluation_ids': [evaluation]}
    other_lesson = desk.ok('live_session_start', pair_id=pair)['live_session_id']
    desk.ok('live_declare_close', pair_id=pair, live_session_id=other_lesson)
    elsewhere = desk.ok('live_session_complete', pair_id=pair, live_session_id=other_lesson,
                        **REFLECT, evaluation={'agent_observation': '别的课'})[
        'live_evaluation_id']
    desk.refused('close_lesson_loop', 'CONFLICT', pair_id=pair, lesson_id=lesson, receipt=[
        {'kind': 'journal_entry', 'ref_id': elsewhere, 'description': '另一场'}])
    closed = desk.ok('close_lesson_loop', pair_id=pair, lesson_id=lesson, receipt=[
        {'kind': 'journal_entry', 'ref_id': evaluation, 'description': '这一场的场评'}])
    assert closed['closure_progress']['state'] == 'closed'


def reasons(desk, pair) -> list[str]:
    return [s['pending_reason'] for s in desk.ok('live_pending', pair_id=pair)['sessions']
            if s['type'] == 'guided_response']


@pytest.mark.parametrize('moves_after', [
    [('EXPLAIN', 'none')], [('FEEDBACK', 'none')], [('EXPLAIN', 'none'), ('MODEL', 'none')],
    [('ASK', 'text'), '她答', ('FEEDBACK', 'none')],
    [('ASK', 'text'), '她答', '她又补一句', ('EXPLAIN', 'none')],
])
def test_a_response_followed_by_an_agent_move_is_no_longer_waiting(desk, room, moves_after):
    pair, _, session = room
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
            content=FRAME)
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='ASK',
            content='几个力？', response_kind='text')
    assert reasons(desk, pair) == []                       # her turn: nothing pending
    desk.ok('live_learner_respond', pair_id=pair, live_session_id=session, text='三个')
    assert reasons(desk, pair) == ['learner_response_waiting']
    for step in moves_after:
        if isinstance(step, str):
            desk.ok('live_learner_respond', pair_id=pair, live_session_id=session, text=step)
            assert reasons(desk, pair) == ['learner_response_waiting']
        else:
            desk.ok('live_move_append', pair_id=pair, live_session_id=session,
                    move_type=step[0], content='受力图先画重力。', response_kind=step[1])
    assert reasons(desk, pair) == ['agent_owes_move']      # the agent holds the turn, owes


def test_a_response_in_the_same_instant_as_a_move_is_ordered_by_the_move_count(desk, room):
    pair, _, session = room
    instant = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    desk.records.context.clock = lambda: instant        # every call in the same millisecond
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
            content=FRAME)
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='ASK',
            content='几个力？', response_kind='text')
    desk.ok('live_learner_respond', pair_id=pair, live_session_id=session, text='三个')
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='EXPLAIN',
            content='对，重力、支持力、摩擦力。')
    assert reasons(desk, pair) == ['agent_owes_move']
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='ASK',
            content='哪个最大？', response_kind='text')
    desk.ok('live_learner_respond', pair_id=pair, live_session_id=session, text='重力')
    assert reasons(desk, pair) == ['learner_response_waiting']
