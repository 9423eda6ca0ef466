"""The complete role matrix (issue 18): every tool × every role, and the scopes.

``WHO`` is the checked-in decision of who may call each tool: a tool added without deciding
its roles here fails the first test. Every call goes through ``Records.call(name, args,
principal)`` on a store seeded with two learners' realistic pairs (records_flow); a refused
call answers PERMISSION (or NOT_FOUND for another pair's object) and leaves every table as
it was (``iterdump``); an allowed call on the caller's own pair is never PERMISSION.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from records_desk import CADENCE, FRAME, LESSON, Desk
from records_flow import WORDS, flow

from bench.school import seed_map
from robot_skills.records.api import TOOLS, Records, Store
from robot_skills.records.role_table import role_table
from robot_skills.records.roles import OPERATOR, Principal, Role, agent, learner

A, L, OP = Role.AGENT, Role.LEARNER, Role.OPERATOR
WHO: dict[str, set[Role]] = {
    # the teacher's writes (004 is written for 老师(agent))
    **{name: {A} for name in (
        'add_concept', 'add_exercise', 'add_flashcard', 'add_lesson', 'add_mindmap_seed',
        'add_simulated_quiz', 'adhoc_ack', 'adhoc_message_send', 'close_lesson_loop',
        'complete_contract', 'create_course', 'create_document', 'create_pair',
        'grade_exercise', 'live_heartbeat', 'live_move_append', 'live_pending',
        'live_session_cancel', 'live_session_complete', 'live_session_start',
        'live_snapshot_write', 'live_wait', 'patch_lesson', 'propose_contract',
        'publish_lesson', 'record_feedback', 'record_live_evaluation',
        'record_post_lesson_evaluation', 'reflect_on_teaching', 'update_concept',
        'update_contract_cadence', 'update_contract_coverage', 'update_document',
        'update_feedback_status', 'update_flashcard', 'update_lesson', 'update_mindmap_seed',
        'void_contract', 'write_hypothesis')},
    # her own acts on her pages
    **{name: {L} for name in (
        'add_highlight', 'adhoc_learner_send', 'declare_lesson_progress', 'establish_contract',
        'live_declare_close', 'live_learner_respond', 'register_learner', 'review_flashcard',
        'set_hypothesis_verdict', 'submit_exercise', 'erase_my_words')},
    # the teacher's reads, which the operators may also read
    **{name: {A, OP} for name in (
        'get_context', 'get_learner_brief', 'get_lesson_closure_facts', 'get_teacher_inbox',
        'verify_prep')},
    # her materials, read by all three
    **{name: {A, L, OP} for name in (
        'get_exercise', 'get_lesson', 'get_submission', 'live_session_get',
        'live_snapshot_get_latest')},
    'adhoc_thread_get': {A, L},             # her thread; it may create it, so not an operator's
    'export_learner_records': {L, OP},       # her right of access; not a teaching act
}
PRINCIPALS = {A: agent(), L: learner('l1'), OP: OPERATOR}


def arguments(ids: dict) -> dict[str, dict]:
    """Arguments for every tool, on the pair of ``ids``: plausible, mostly valid ones."""
    pair = {'pair_id': ids['pair_id']}
    lesson, course, session = ids['lesson_id'], ids['course_id'], ids['active_session']
    seed = seed_map('力的合成', [('合力', '等效的一个力', '两人拉车'),
                              ('分力', '合力拆成的力', '斜面'), ('定则', '平行四边形', '作图')])
    return {name: {**pair, **args} for name, args in {
        'add_concept': {'lesson_id': lesson, 'name': '合力', 'short_definition': '等效的一个力'},
        'add_exercise': {'lesson_id': lesson, 'prompt': '合力多大？', 'reference_answer': '5 N'},
        'add_flashcard': {'front': '合力？', 'back': '等效的一个力'},
        'add_highlight': {'document_id': ids['document_id'], 'quote': '一切物体'},
        'add_lesson': {'course_id': course, 'title': '力的合成', 'content_markdown': LESSON},
        'add_mindmap_seed': {'lesson_id': ids['lesson_2'], 'content': seed},
        'add_simulated_quiz': {'course_id': course, 'title': '小测',
                               'questions': [{'prompt': '什么是惯性？'}]},
        'adhoc_ack': {},
        'adhoc_learner_send': {'text': '老师，惯性和质量有关吗'},
        'adhoc_message_send': {'text': '有关：质量越大惯性越大。'},
        'adhoc_thread_get': {},
        'close_lesson_loop': {'lesson_id': ids['lesson_3'], 'no_cognitive_update_reason': '复习'},
        'complete_contract': {'contract_id': ids['contract_id'], 'completion_note': '一学期的力学'},
        'create_course': {'title': '运动学', 'planned_lesson_count': 2},
        'create_document': {'content_markdown': '# 讲义\n\n惯性的例子。'},
        'create_pair': {'learner_id': 'l3', 'learner_display_name': '新同学',
                        'provider': 'anthropic', 'model': 'claude', 'display_name': '小智'},
        'declare_lesson_progress': {'lesson_id': ids['lesson_3'],
                                    'progress': 'completed_declared'},
        'erase_my_words': {},
        'establish_contract': {'contract_id': ids['proposed']},
        'export_learner_records': {'learner_id': ids['learner_id']},
        'get_context': {},
        'get_exercise': {'exercise_id': ids['exercise_id']},
        'get_learner_brief': {},
        'get_lesson': {'lesson_id': lesson},
        'get_lesson_closure_facts': {'lesson_id': lesson},
        'get_submission': {'submission_id': ids['submission_id']},
        'get_teacher_inbox': {},
        'grade_exercise': {'submission_id': ids['submission_id'], 'score': 80,
                           'feedback': '好', 'regrade': True},
        'live_declare_close': {'live_session_id': session},
        'live_heartbeat': {},
        'live_learner_respond': {'live_session_id': session, 'text': '三个力'},
        'live_move_append': {'live_session_id': session, 'move_type': 'EXPLAIN',
                             'content': '先画受力图。'},
        'live_pending': {},
        'live_session_cancel': {'live_session_id': session},
        'live_session_complete': {'live_session_id': ids['live_session_id'], 'summary': '好',
                                  'teacher_reflection': '稳', 'next_action': '练'},
        'live_session_get': {'live_session_id': ids['live_session_id']},
        'live_session_start': {'lesson_id': ids['lesson_3']},
        'live_snapshot_get_latest': {'live_session_id': ids['live_session_id']},
        'live_snapshot_write': {'live_session_id': session, 'body': {'round': 2}},
        'live_wait': {'timeout_s': 0},
        'patch_lesson': {'lesson_id': lesson, 'kind': 'erratum', 'body': '更正一处'},
        'propose_contract': {'goal': '学完运动学', 'cadence': CADENCE},
        'publish_lesson': {'lesson_id': ids['draft']},
        'record_feedback': {'kind': 'issue', 'text': '字太小了'},
        'record_live_evaluation': {'live_session_id': ids['live_session_id'],
                                   'agent_observation': '稳'},
        'record_post_lesson_evaluation': {'lesson_id': ids['lesson_2'],
                                          'agent_observation': '不错'},
        'reflect_on_teaching': {'main_attribution': 'pacing', 'evidence': '她跟上了',
                                'counterfactual': '慢一点', 'method': '问答',
                                'action_link': {'type': 'cadence'}, 'next_action': '照旧',
                                'lesson_id': lesson},
        'register_learner': {'learner_id': ids['learner_id'], 'display_name': ids['name']},
        'review_flashcard': {'flashcard_id': ids['flashcard_id'], 'rating': 'good'},
        'set_hypothesis_verdict': {'hypothesis_id': ids['hypothesis_id'], 'verdict': 'frozen'},
        'submit_exercise': {'exercise_id': ids['exercise_id'], 'learner_answer': '利用惯性'},
        'update_concept': {'concept_id': ids['concept_id'], 'name': '惯性（物理）'},
        'update_contract_cadence': {'contract_id': ids['contract_id'], 'cadence': CADENCE},
        'update_contract_coverage': {'contract_id': ids['contract_id'],
                                     'add_course_ids': [course]},
        'update_document': {'document_id': ids['document_id'], 'title': '讲义'},
        'update_feedback_status': {'feedback_id': ids['feedback_id'], 'status': 'acknowledged'},
        'update_flashcard': {'flashcard_id': ids['flashcard_id'], 'back': '保持运动状态'},
        'update_lesson': {'lesson_id': ids['draft'], 'title': '草稿', 'revision_reason': '改题'},
        'update_mindmap_seed': {'mindmap_id': ids['mindmap_id'], 'content': seed},
        'verify_prep': {'course_id': course},
        'void_contract': {'contract_id': ids['proposed'], 'reason': '目标变了',
                          'learner_consent': '好的，作废吧'},
        'write_hypothesis': {'hypothesis_id': ids['hypothesis_id'], 'action': 'reinforce'},
    }.items()} | {'register_learner': {'learner_id': ids['learner_id'],
                                       'display_name': ids['name']},
                  'create_pair': {'learner_id': 'l3', 'learner_display_name': '新同学',
                                  'provider': 'anthropic', 'model': 'claude',
                                  'display_name': '小智'},
                  'export_learner_records': {'learner_id': ids['learner_id']},
                  'erase_my_words': {'pair_id': ids['pair_id']}}


def seeded(desk: Desk, learner_id: str, name: str) -> dict:
    """A realistic pair, plus an active live room, a proposed contract and a draft lesson."""
    ids = flow(desk, learner_id, name, {k: f'{v}（{name}）' for k, v in WORDS.items()})
    pair = ids['pair_id']
    ids['name'] = name
    ids['active_session'] = session = desk.ok('live_session_start', pair_id=pair,
                                              lesson_id=ids['lesson_2'])['live_session_id']
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
            content=FRAME)
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='ASK',
            content='受力有几个？', response_kind='text')
    ids['proposed'] = desk.contract(pair, establish=False)
    ids['draft'] = desk.lesson(pair, ids['course_id'], publish=False)
    return ids


@pytest.fixture(scope='module')
def school(tmp_path_factory):
    """Two learners' pairs (both active) and a third learner without one, in a file."""
    path = tmp_path_factory.mktemp('roles') / 'records.sqlite3'
    desk = Desk(path)
    ids = {'l1': seeded(desk, 'l1', '林小雨'), 'l2': seeded(desk, 'l2', '王小明')}
    desk.ok('register_learner', learner_id='l3', display_name='新同学')
    desk.store.close()
    return path, ids


@pytest.fixture
def fresh(school, tmp_path):
    """A private copy of the seeded store, for calls that may write."""
    path, ids = school
    copy = tmp_path / 'records.sqlite3'
    shutil.copy(path, copy)
    store = Store(copy)
    yield Records(store), ids
    store.close()


@pytest.fixture(scope='module')
def shared(school, tmp_path_factory):
    """One copy for calls that must all be refused (a refusal never writes)."""
    path, ids = school
    copy = tmp_path_factory.mktemp('shared') / 'records.sqlite3'
    shutil.copy(path, copy)
    store = Store(copy)
    yield Records(store), ids
    store.close()


def dump(records: Records) -> str:
    return '\n'.join(records.context.store.db.iterdump())


def refused_without_effect(records: Records, name: str, args: dict, principal: Principal,
                           codes: tuple[str, ...] = ('PERMISSION',)):
    before = dump(records)
    result = records.call(name, args, principal)
    assert not result.ok and result.code in codes, (name, principal, result)
    assert dump(records) == before, (name, principal)
    return result


# ---- the table -------------------------------------------------------------------------------

def test_every_tool_has_its_roles_decided_here():
    assert set(TOOLS) == set(WHO), 'decide the roles of: ' + ', '.join(
        sorted(set(TOOLS) ^ set(WHO)))
    assert {name: set(tool.who) for name, tool in TOOLS.items()} == WHO


def test_the_docs_table_is_made_from_the_tools():
    rows = role_table().splitlines()[2:]
    assert len(rows) == len(TOOLS)
    for row in rows:
        name = row.split('`')[1]
        marks = [cell.strip() == '✓' for cell in row.split('|')[2:5]]
        assert marks == [role in WHO[name] for role in Role], name
    page = Path(__file__).resolve().parents[2] / 'docs' / 'skills' / 'learning_records.md'
    assert role_table().strip() in page.read_text(encoding='utf-8'), \
        'docs/skills/learning_records.md: paste python -m robot_skills.records.role_table'


# ---- every tool × every role ------------------------------------------------------------------

@pytest.mark.parametrize('role', list(Role), ids=lambda role: role.value)
@pytest.mark.parametrize('name', sorted(WHO))
def test_a_role_calls_exactly_the_tools_it_may(fresh, name, role):
    records, ids = fresh
    args = arguments(ids['l1'])[name]
    principal = PRINCIPALS[role]
    if role in WHO[name]:
        result = records.call(name, args, principal)
        assert result.code != 'PERMISSION', (name, role, result)
    else:
        refused = refused_without_effect(records, name, args, principal)
        assert role.value in refused.error and name in refused.error


def test_every_seeded_call_succeeds_in_its_role(school, tmp_path):
    """The matrix is not a matrix of VALIDATION: each tool, on its own fresh copy of the
    school, succeeds for a role that may call it."""
    path, ids = school
    failed = []
    for name in sorted(WHO):
        copy = tmp_path / f'{name}.sqlite3'
        shutil.copy(path, copy)
        store = Store(copy)
        role = A if A in WHO[name] else min(WHO[name])
        result = Records(store).call(name, arguments(ids['l1'])[name], PRINCIPALS[role])
        store.close()
        if not result.ok:
            failed.append((name, result.code, result.error))
    assert not failed, failed


# ---- scopes ----------------------------------------------------------------------------------

OBJECT_ARGS = ('lesson_id', 'course_id', 'document_id', 'exercise_id', 'submission_id',
               'live_session_id', 'contract_id', 'flashcard_id', 'hypothesis_id', 'concept_id',
               'mindmap_id', 'feedback_id')
SCOPED = {'learner l1': learner('l1'), 'agent of l1': agent('l1'),
          'agent of her pair': None}          # filled in with l1's pair id below


def scoped(name: str, ids: dict) -> Principal:
    principal = SCOPED[name]
    return principal if principal is not None else agent(pair_ids=frozenset(
        {ids['l1']['pair_id']}))


@pytest.mark.parametrize('who', sorted(SCOPED))
def test_another_pair_named_is_refused_without_effect(shared, who):
    records, ids = shared
    principal = scoped(who, ids)
    other = arguments(ids['l2'])
    for name in sorted(WHO):
        if principal.role in WHO[name] and 'pair_id' in TOOLS[name].args.model_fields:
            result = refused_without_effect(records, name, other[name], principal,
                                            ('PERMISSION', 'NOT_FOUND'))
            assert ids['l2']['pair_id'] not in json.dumps(result.result), name


@pytest.mark.parametrize('who', sorted(SCOPED))
def test_another_pairs_objects_are_not_found_from_her_own_pair(shared, who):
    records, ids = shared
    principal = scoped(who, ids)
    other = arguments(ids['l2'])
    for name in sorted(WHO):
        args = {**other[name], 'pair_id': ''}
        if principal.role in WHO[name] and any(key in args for key in OBJECT_ARGS) and \
                name not in ('create_course', 'live_session_start', 'reflect_on_teaching'):
            result = refused_without_effect(records, name, args, principal, ('NOT_FOUND',))
            assert ids['l2']['pair_id'] not in json.dumps(result.result) + result.error, name


def test_her_empty_pair_id_is_her_own_active_pair_among_many(fresh):
    records, ids = fresh
    mine = records.call('adhoc_thread_get', {}, learner('l1'))
    thread = records.context.store.one('SELECT pair_id FROM adhoc_thread WHERE thread_id = ?',
                                       mine.result['thread_id'])
    assert thread['pair_id'] == ids['l1']['pair_id']
    context = records.call('get_context', {}, agent('l1')).result
    assert context['identity']['learner_id'] == 'l1'
    many = records.call('get_context', {}, agent())          # unscoped: two are active
    assert many.code == 'VALIDATION'
    assert set(many.result['shortfall']['available_pairs']) == {ids['l1']['pair_id'],
                                                                ids['l2']['pair_id']}


def test_a_refusal_never_lists_another_learners_pairs(fresh):
    records, ids = fresh
    alone = records.call('adhoc_thread_get', {}, learner('l3'))         # no pair yet
    assert alone.code == 'VALIDATION' and alone.result['shortfall']['available_pairs'] == []
    missing = records.call('get_lesson', {'pair_id': 'pair_nowhere', 'lesson_id': 'x'},
                           learner('l1'))
    assert missing.code in ('PERMISSION', 'NOT_FOUND')
    text = json.dumps(missing.result) + missing.error + alone.error
    assert ids['l2']['pair_id'] not in text and ids['l1']['pair_id'] not in alone.error


def test_nobody_registers_or_pairs_for_another_learner(shared):
    records, ids = shared
    refused_without_effect(records, 'register_learner',
                           {'learner_id': 'l9', 'display_name': '别人'}, learner('l1'))
    pairing = arguments(ids['l1'])['create_pair']
    refused_without_effect(records, 'create_pair', pairing, agent('l1'))
    refused_without_effect(records, 'create_pair', pairing,
                           agent(pair_ids=frozenset({ids['l1']['pair_id']})))
    refused_without_effect(records, 'create_pair', {**pairing, 'learner_id': 'l1'},
                           learner('l1'))                    # her role does not pair


# ---- any principal, any tool ----------------------------------------------------------------

PRINCIPAL = st.sampled_from([agent(), agent('l1'), agent('l2'), learner('l1'), learner('l2'),
                             learner('l3'), OPERATOR])


@given(principal=PRINCIPAL, name=st.sampled_from(sorted(WHO)),
       owner=st.sampled_from(['l1', 'l2']))
def test_a_refused_role_or_scope_never_changes_anything(shared, principal, name, owner):
    records, ids = shared
    args = arguments(ids[owner])[name]
    if principal.role not in WHO[name]:
        refused_without_effect(records, name, args, principal)
    elif not principal.unscoped and principal.learner_id != owner and \
            'pair_id' in TOOLS[name].args.model_fields and args.get('pair_id'):
        refused_without_effect(records, name, args, principal, ('PERMISSION', 'NOT_FOUND'))


def test_a_consumer_cursor_is_one_pairs_another_pairs_agent_can_neither_read_nor_move_it():
    """An agent scoped to pair A naming pair B's consumer_id must not skip B's events."""
    desk = Desk()
    mine, theirs = flow(desk, 'l1', '林小雨'), flow(desk, 'l2', '王小明', words={
        key: text + '二' for key, text in WORDS.items()})
    agent_a = agent(pair_ids=frozenset({mine['pair_id']}))
    agent_b = agent(pair_ids=frozenset({theirs['pair_id']}))
    first = desk.records.call('live_wait', {'pair_id': theirs['pair_id'], 'consumer_id': 'b',
                                            'timeout_s': 0}, agent_b)
    before = desk.store.one("SELECT seq FROM consumer_cursor WHERE consumer_id = 'b'")['seq']
    for since in (None, 10 ** 9):
        refused = desk.records.call('live_wait', {'pair_id': mine['pair_id'], 'consumer_id': 'b',
                                                  'timeout_s': 0, 'since': since}, agent_a)
        assert (refused.ok, refused.code) == (False, 'CONFLICT')
        assert 'cursor' not in refused.result
    assert desk.store.one("SELECT seq FROM consumer_cursor WHERE consumer_id = 'b'")['seq'] \
        == before == first.result['cursor']


def test_the_learner_reads_her_exercise_without_its_grading_key():
    desk = Desk()
    ids = flow(desk)
    hers = desk.records.call('get_exercise', {'exercise_id': ids['exercise_id']},
                             learner('l1'))
    assert hers.ok and hers.result['reference_answer'] is None
    for caller in (agent(), OPERATOR):
        theirs = desk.records.call('get_exercise', {'exercise_id': ids['exercise_id']}, caller)
        assert theirs.ok and theirs.result['reference_answer'] == '利用惯性'
