"""The learner's data rights (issue 18 part 2): her export, and the erasure of her own words."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st
from records_desk import Desk
from records_flow import WORDS, flow

from robot_skills.records.erasure import COPY_CHARS, MARKER, WINDOW, _scrubbed, purge
from robot_skills.records.roles import OPERATOR, agent, learner

ERASED = ('response', 'message', 'feedback')          # the kinds erase_my_words erases


def dump(desk: Desk) -> str:
    return '\n'.join(desk.store.db.iterdump())


def call(desk: Desk, tool: str, principal=None, **args):
    return desk.records.call(tool, args, principal)


@pytest.fixture
def taught(desk):
    return flow(desk)


# ---- export --------------------------------------------------------------------------------

def test_her_export_holds_every_record_of_her_pair(desk, taught):
    result = call(desk, 'export_learner_records', learner('l1'), learner_id='l1')
    assert result.ok, result
    out = result.result
    assert out['learner']['display_name'] == '林小雨' and out['pair_ids'] == [taught['pair_id']]
    page = out['page']
    held = {(section, value) for section, rows in page.items() if isinstance(rows, list)
            for row in rows for value in row.values()}
    for section, key in [('contracts', 'contract_id'), ('courses', 'course_id'),
                         ('lessons', 'lesson_id'), ('concepts', 'concept_id'),
                         ('flashcards', 'flashcard_id'), ('mindmaps', 'mindmap_id'),
                         ('documents', 'document_id'), ('highlights', 'highlight_id'),
                         ('exercises', 'exercise_id'), ('submissions', 'submission_id'),
                         ('live_sessions', 'live_session_id'), ('live_moves', 'move_id'),
                         ('live_responses', 'response_id'), ('live_snapshots', 'snapshot_id'),
                         ('adhoc_messages', 'message_id'), ('feedback', 'feedback_id'),
                         ('hypotheses', 'hypothesis_id')]:
        assert (section, taught[key]) in held, section
    assert page['hypotheses'][0]['verdict'] == 'confirmed'
    assert page['reflections'] and page['post_lesson_evaluations'] and page['live_evaluations']
    assert page['events'] and page['live_events'] and page['flashcards'][0]['fsrs_state']
    assert 'reference_answer' not in page['exercises'][0]         # the grading key is not hers
    assert WORDS['response'] in json.dumps(page, ensure_ascii=False)
    assert out['next_cursor'] is None


def test_the_export_pages_by_pair_in_order(desk, taught):
    desk.store.run("UPDATE pair SET status = 'ended' WHERE pair_id = ?", taught['pair_id'])
    second = desk.pair()                          # her second relationship, after the first
    first = call(desk, 'export_learner_records', OPERATOR, learner_id='l1').result
    assert first['pair_ids'] == [taught['pair_id'], second]
    assert first['page']['pair']['pair_id'] == taught['pair_id']
    assert first['next_cursor'] == second
    page = call(desk, 'export_learner_records', OPERATOR, learner_id='l1',
                cursor=first['next_cursor']).result
    assert page['page']['pair']['pair_id'] == second and page['next_cursor'] is None
    assert page['page']['live_sessions'] == []


def test_the_export_is_hers_and_the_operators_only(desk, taught):
    flow(desk, 'l2', '王小明')
    before = dump(desk)
    assert call(desk, 'export_learner_records', learner('l2'), learner_id='l1').code == \
        'PERMISSION'
    assert call(desk, 'export_learner_records', agent(), learner_id='l1').code == 'PERMISSION'
    assert call(desk, 'export_learner_records', agent('l1'), learner_id='l1').code == \
        'PERMISSION'
    assert call(desk, 'export_learner_records', OPERATOR, learner_id='nobody').code == \
        'NOT_FOUND'
    assert call(desk, 'export_learner_records', learner('l1'), learner_id='l1',
                cursor='pair_of_someone').code == 'VALIDATION'
    assert dump(desk) == before
    desk.ok('register_learner', learner_id='l3', display_name='新同学')
    alone = call(desk, 'export_learner_records', learner('l3'), learner_id='l3').result
    assert alone['pair_ids'] == [] and alone['page'] is None


# ---- erasure: the one confirmation ----------------------------------------------------------

def test_the_first_call_changes_nothing_and_names_what_would_go(desk, taught):
    before = dump(desk)
    plan = call(desk, 'erase_my_words', learner('l1'))
    assert plan.ok and not plan.result['erased']
    assert plan.result['counts'] == {'live_responses': 1, 'adhoc_messages': 1, 'feedback': 1,
                                     'copies': 4}
    assert len(plan.result['confirm']) == 10 and plan.result['expires_at']
    assert dump(desk) == before
    again = call(desk, 'erase_my_words', learner('l1'))
    assert again.result['confirm'] == plan.result['confirm']            # deterministic


def test_a_stale_a_changed_or_a_replayed_code_erases_nothing(desk, taught):
    code = call(desk, 'erase_my_words', learner('l1')).result['confirm']
    desk.skip(2 * WINDOW.total_seconds())
    before = dump(desk)
    stale = call(desk, 'erase_my_words', learner('l1'), confirm=code)
    assert stale.code == 'CONFLICT' and dump(desk) == before
    fresh = stale.result['shortfall']['confirm']
    assert fresh != code and stale.result['shortfall']['counts']['live_responses'] == 1
    desk.ok('adhoc_learner_send', pair_id=taught['pair_id'], text='还有一个问题想问老师')
    before = dump(desk)
    changed = call(desk, 'erase_my_words', learner('l1'), confirm=fresh)
    assert changed.code == 'CONFLICT' and dump(desk) == before
    assert changed.result['shortfall']['counts']['adhoc_messages'] == 2
    code = changed.result['shortfall']['confirm']
    assert call(desk, 'erase_my_words', learner('l1'), confirm='0123456789').code == 'CONFLICT'
    assert call(desk, 'erase_my_words', learner('l1'), confirm=code.lower()).result['erased']
    after = dump(desk)
    assert call(desk, 'erase_my_words', learner('l1'), confirm=code).code == 'CONFLICT'
    assert dump(desk) == after
    nothing = call(desk, 'erase_my_words', learner('l1')).result
    assert not any(nothing['counts'].values()) and nothing['confirm'] == ''


def test_only_she_erases_and_only_her_own(desk, taught):
    other = flow(desk, 'l2', '王小明', {k: f'{v}（王）' for k, v in WORDS.items()})
    before = dump(desk)
    for principal in (OPERATOR, agent(), agent('l1')):
        refused = call(desk, 'erase_my_words', principal, learner_id='l1')
        assert refused.code == 'PERMISSION', principal
    assert call(desk, 'erase_my_words', learner('l2'), learner_id='l1').code == 'PERMISSION'
    assert call(desk, 'erase_my_words', learner('l2'),
                pair_id=taught['pair_id']).code == 'PERMISSION'
    assert call(desk, 'erase_my_words').code == 'VALIDATION'          # whose words?
    assert dump(desk) == before
    code = call(desk, 'erase_my_words', learner('l2')).result['confirm']
    assert call(desk, 'erase_my_words', learner('l2'), confirm=code).result['erased']
    mine = desk.store.one('SELECT text, erased_at FROM live_response WHERE response_id = ?',
                          taught['response_id'])
    assert (mine['text'], mine['erased_at']) == (WORDS['response'], None)
    theirs = desk.store.one('SELECT text FROM live_response WHERE response_id = ?',
                            other['response_id'])
    assert theirs['text'] == ''


# ---- erasure: tombstones, and the facts that stay -----------------------------------------

def readbacks(desk: Desk, ids: dict) -> dict:
    pair, lesson, session = ids['pair_id'], ids['lesson_id'], ids['live_session_id']
    whole = desk.ok('live_session_get', pair_id=pair, live_session_id=session)
    inbox = desk.ok('get_teacher_inbox', pair_id=pair)
    return {
        'facts': desk.ok('get_lesson_closure_facts', pair_id=pair, lesson_id=lesson),
        'brief': desk.ok('get_learner_brief', pair_id=pair)['brief_etag'],
        'session': whole['session'], 'moves': whole['moves'],
        'responses': [(r['response_id'], r['move_id'], r['after_move_seq'], r['at'])
                      for r in whole['responses']],
        'inbox': [(i['item_id'], i['type']) for i in inbox['items']],
        'feedback': (inbox['open_feedback']['count'],
                     [f['feedback_id'] for f in inbox['open_feedback']['recent']]),
        'events': [tuple(r) for r in desk.store.all('SELECT event_id, kind, at FROM event')],
        'live_events': [tuple(r) for r in desk.store.all(
            'SELECT seq, kind, live_session_id, at FROM live_event')],
        'submission': desk.ok('get_submission', pair_id=pair,
                              submission_id=ids['submission_id'])['agent_score'],
        'hypothesis': desk.store.one('SELECT verdict FROM hypothesis')['verdict'],
    }


def test_erasure_leaves_tombstones_and_every_teaching_fact(desk, taught):
    before = readbacks(desk, taught)
    code = call(desk, 'erase_my_words', learner('l1')).result['confirm']
    assert call(desk, 'erase_my_words', learner('l1'), confirm=code).result['erased']
    assert readbacks(desk, taught) == before
    whole = desk.ok('live_session_get', pair_id=taught['pair_id'],
                    live_session_id=taught['live_session_id'])
    assert [(r['text'], bool(r['erased_at'])) for r in whole['responses']] == [('', True)]
    messages = desk.ok('adhoc_thread_get', pair_id=taught['pair_id'])['messages']
    assert [(m['role'], m['text'] == '', bool(m['erased_at'])) for m in messages] == [
        ('learner', True, True), ('agent', False, False)]
    assert MARKER in messages[1]['text'] and WORDS['message'] not in messages[1]['text']
    inbox = desk.ok('get_teacher_inbox', pair_id=taught['pair_id'])
    assert inbox['open_feedback']['recent'][0]['excerpt'] == ''
    snapshot = desk.ok('live_snapshot_get_latest', pair_id=taught['pair_id'],
                       live_session_id=taught['live_session_id'])
    assert snapshot['body'] == {'round': 1, 'her_words': MARKER}        # still valid JSON
    page = call(desk, 'export_learner_records', learner('l1'), learner_id='l1').result['page']
    text = json.dumps(page, ensure_ascii=False)
    assert not any(WORDS[kind] in text for kind in ERASED)
    assert WORDS['answer'] in text                # her answers are not erasable yet (docstring)


def test_final_feedback_is_final_except_for_her_erasure(desk, taught):
    pair, feedback = taught['pair_id'], taught['feedback_id']
    desk.ok('update_feedback_status', pair_id=pair, feedback_id=feedback, status='acknowledged')
    desk.ok('update_feedback_status', pair_id=pair, feedback_id=feedback, status='addressed')
    with pytest.raises(sqlite3.IntegrityError, match='final'):
        desk.store.run("UPDATE feedback SET text = 'rewritten' WHERE feedback_id = ?", feedback)
    with pytest.raises(sqlite3.IntegrityError, match='final'):
        desk.store.run("UPDATE feedback SET note = 'x' WHERE feedback_id = ?", feedback)
    code = call(desk, 'erase_my_words', learner('l1')).result['confirm']
    assert call(desk, 'erase_my_words', learner('l1'), confirm=code).result['erased']
    row = desk.store.one('SELECT text, status, erased_at FROM feedback')
    assert (row['text'], row['status']) == ('', 'addressed') and row['erased_at']


def test_one_pair_only_when_she_names_it(desk, taught):
    desk.store.run("UPDATE pair SET status = 'ended' WHERE pair_id = ?", taught['pair_id'])
    second = desk.pair()
    desk.ok('adhoc_learner_send', pair_id=second, text='新的关系里我说的第一句话')
    plan = call(desk, 'erase_my_words', learner('l1'), pair_id=second).result
    assert plan['pair_ids'] == [second] and plan['counts']['adhoc_messages'] == 1
    assert call(desk, 'erase_my_words', learner('l1'), pair_id=second,
                confirm=plan['confirm']).result['erased']
    assert desk.store.one('SELECT text FROM live_response')['text'] == WORDS['response']


def test_no_erased_word_is_left_in_the_file_or_its_wal(tmp_path):
    path = tmp_path / 'records.sqlite3'
    desk = Desk(path)
    flow(desk)

    def on_disk() -> bytes:
        return b''.join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file() and
                        not p.name.endswith('-shm'))

    assert all(WORDS[kind].encode() in on_disk() for kind in ERASED)       # the search works
    code = call(desk, 'erase_my_words', learner('l1')).result['confirm']
    assert call(desk, 'erase_my_words', learner('l1'), confirm=code).result['erased']
    assert purge(desk.store)
    left = on_disk()
    assert not any(WORDS[kind].encode() in left for kind in ERASED)
    assert WORDS['answer'].encode() in left                  # the file was searched, not empty
    desk.store.close()


@given(st.text(min_size=COPY_CHARS, max_size=30).filter(lambda s: s.strip()),
       st.text(max_size=20), st.text(max_size=20))
def test_a_quoted_copy_goes_and_json_stays_json(words, before, after):
    payload = json.dumps({'quote': f'{before}{words}{after}', 'n': 1})
    wide = json.dumps({'quote': f'{before}{words}{after}'}, ensure_ascii=False)
    for text in (payload, wide):
        scrubbed = json.loads(_scrubbed(text, [words]))
        assert words not in scrubbed['quote']
