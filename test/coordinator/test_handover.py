"""The handover protocol (section 十): seven types, the SKILL enums, the consent bits, the schema."""

from __future__ import annotations

import copy
import itertools
import json
import re
from pathlib import Path

import jsonschema
import pytest
from config_files import seed
from coordinator_talk import NOW

from robot_skills.coordinator.handover import SCHEMA_FILE, check, schema
from robot_skills.runtime import paths

EXAMPLES = Path(paths.config('schemas/examples'))
TYPES = {
    'wrong_answer_handover': 'wrong-answer-handover', 'deep_analysis_writeback': 'deep-analysis-writeback',
    'profile_writeback': 'profile-writeback', 'subject_profile_writeback': 'subject-profile-writeback',
    'reminder_enqueue': 'reminder-enqueue', 'reminder_sync': 'reminder-sync',
    'teacher_writeback': 'teacher-writeback'}
# 10.2's "必检 consent 位", written out again here rather than read from the code under test.
MUST_BE_TRUE = {
    'wrong_answer_handover': {'crossSkillSharing'}, 'deep_analysis_writeback': {'crossSkillSharing'},
    'profile_writeback': {'crossSkillSharing'}, 'subject_profile_writeback': {'crossSkillSharing'},
    'reminder_enqueue': {'reminderConsent'}, 'reminder_sync': {'reminderConsent'},
    'teacher_writeback': {'teacherWritebackConsent'}}
BITS = ('crossSkillSharing', 'emotionTrackingConsent', 'reminderConsent', 'teacherWritebackConsent')
REQUIRED = ('sessionId', 'protocolVersion', 'handoverType', 'sender', 'recipient', 'consent',
            'payload', 'timestamp')


def stored(service) -> list[tuple[str, str, str]]:
    """Every stored handover, read by the test itself (no request path reads them all)."""
    return service.store._db.execute('SELECT session_id, kind, body FROM handover '
                                     'ORDER BY handover_id').fetchall()


def example(kind: str) -> dict:
    return json.loads((EXAMPLES / f'{TYPES[kind]}.example.json').read_text(encoding='utf-8'))


def test_there_is_one_example_per_type_and_each_validates():
    assert sorted(p.name for p in EXAMPLES.iterdir()) == sorted(f'{n}.example.json'
                                                               for n in TYPES.values())
    for kind in TYPES:
        handover, problems = check(json.dumps(example(kind)))
        assert problems == [] and handover.handoverType == kind


def test_the_documents_two_examples_are_the_fixtures():
    """10.3's examples, verbatim, plus the protocolVersion that 10.2 makes required."""
    blocks = re.findall(r'```json\n(.*?)```', seed('002_316331a7dc9fca08.txt'), re.S)
    documented = [json.loads(block) for block in blocks if '"handoverType"' in block]
    assert [d['handoverType'] for d in documented] == ['wrong_answer_handover',
                                                      'subject_profile_writeback']
    for data in documented:
        assert example(data['handoverType']) == {**data, 'protocolVersion': '2.1'}
        assert any('protocolVersion' in p for p in check(json.dumps(data))[1])


def test_the_exported_schema_is_current_and_accepts_the_examples():
    exported = json.loads(Path(paths.config(SCHEMA_FILE)).read_text(encoding='utf-8'))
    assert exported == schema(), 'run: python -m robot_skills.coordinator.handover'
    for kind in TYPES:
        jsonschema.validate(example(kind), exported)
    assert 'xiaozhi-correction-notebook' in exported['properties']['sender']['enum']
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**example('reminder_enqueue'), 'sender': 'someone-else'}, exported)


def _with_consent(data: dict, bits: dict) -> dict:
    data = copy.deepcopy(data)
    data['consent'] = {name: value for name, value in bits.items() if value is not None}
    return data


@pytest.mark.parametrize('kind', TYPES)
def test_every_consent_combination_of_every_type(kind):
    targets = ['general', 'emotion_dimension'] if kind == 'profile_writeback' else [None]
    wrong = []
    for target, values in itertools.product(targets, itertools.product((True, False, None),
                                                                        repeat=len(BITS))):
        data = example(kind)
        if target:
            data['payload']['profileData']['updateTarget'] = target
        bits = dict(zip(BITS, values, strict=True))
        needed = MUST_BE_TRUE[kind] | ({'emotionTrackingConsent'} if target ==
                                       'emotion_dimension' else set())
        expected = bits['crossSkillSharing'] is not None and all(bits[b] is True for b in needed)
        handover, problems = check(json.dumps(_with_consent(data, bits)))
        if (handover is not None) != expected or (not expected and not problems):
            wrong.append((target, bits, problems))
        if not expected and bits['crossSkillSharing'] is not None:
            missing = sorted(b for b in needed if bits[b] is not True)
            assert all(any(b in p for p in problems) for b in missing), (bits, problems)
    assert wrong == []


def _drop(path: str):
    def mutate(data: dict) -> None:
        *parents, last = path.split('.')
        for key in parents:
            data = data[key]
        del data[last]
    return mutate


def _set(path: str, value):
    def mutate(data: dict) -> None:
        *parents, last = path.split('.')
        for key in parents:
            data = data[key]
        data[last] = value
    return mutate


MUTATIONS = [
    *[(kind, _drop(field), field) for kind in TYPES for field in REQUIRED],
    *[(kind, _set('sender', 'xiaozhi-made-up'), 'sender') for kind in TYPES],
    *[(kind, _set('recipient', 'teacher'), 'recipient') for kind in TYPES],
    *[(kind, _set('protocolVersion', '2.0'), 'protocolVersion') for kind in TYPES],
    *[(kind, _set('timestamp', 'yesterday'), 'timestamp') for kind in TYPES],
    *[(kind, _set('surprise', 1), 'surprise') for kind in TYPES],
    *[(kind, _drop('consent.crossSkillSharing'), 'crossSkillSharing') for kind in TYPES],
    *[(kind, _set('payload', {}), 'payload') for kind in TYPES],
    ('wrong_answer_handover', _set('recipient', 'xiaozhi-correction-notebook'), 'goes to'),
    ('wrong_answer_handover', _set('sender', 'xiaozhi-feynman-learning'), 'sent by'),
    ('wrong_answer_handover', _drop('payload.wrongAnswerData.concept'), 'concept'),
    ('wrong_answer_handover', _set('payload.wrongAnswerData.subject', 'history'), 'subject'),
    ('wrong_answer_handover', _set('payload.wrongAnswerData.occurrenceCountInWindow', -1),
     'occurrenceCountInWindow'),
    ('wrong_answer_handover', _drop('payload.wrongAnswerData.surfaceInfo.correctAnswer'),
     'correctAnswer'),
    ('wrong_answer_handover', _set('payload.reminderData', {'reminderType': 'plan_task',
                                                           'content': 'x'}), 'wrongAnswerData'),
    ('deep_analysis_writeback', _set('payload.deepAnalysisData.rootCause', ''), 'rootCause'),
    ('profile_writeback', _set('payload.profileData.updateTarget', 'everything'), 'updateTarget'),
    ('subject_profile_writeback', _drop('payload.profileData.extensionPatch'), 'extensionPatch'),
    ('reminder_enqueue', _set('payload.reminderData.reminderType', 'at_7pm'), 'reminderType'),
    ('reminder_enqueue', _set('recipient', 'xiaozhi-learning-dna'), 'goes to'),
    ('reminder_sync', _set('sender', 'xiaozhi-correction-notebook'), 'sent by'),
    ('teacher_writeback', _drop('payload.teacherWritebackData.note'), 'note'),
]


@pytest.mark.parametrize('kind, mutate, named', MUTATIONS)
def test_a_mutated_example_fails_naming_what_is_wrong(kind, mutate, named):
    data = example(kind)
    mutate(data)
    handover, problems = check(json.dumps(data, ensure_ascii=False))
    assert handover is None and problems
    assert any(named in problem for problem in problems), problems


@pytest.mark.parametrize('raw', ['', '{', 'null', '[]', '"handover"', '{"sessionId": 1}',
                                 '\x00' * 10, '{"a":' * 500])
def test_garbage_is_refused_with_an_error_not_an_exception(raw):
    handover, problems = check(raw)
    assert handover is None and problems


def test_a_valid_handover_is_stored_and_may_suggest_feynman(service):
    result = service.handover(json.dumps(example('wrong_answer_handover')), NOW)
    assert result.accepted and result.errors == () and result.detail['suggest_feynman']
    assert [kind for _, kind, _ in stored(service)] == ['wrong_answer_handover']


def test_an_invalid_one_may_be_resubmitted_once_then_the_answer_degrades(service):
    bad = example('wrong_answer_handover')
    bad['consent']['crossSkillSharing'] = False
    first = service.handover(json.dumps(bad), NOW)
    assert not first.accepted and first.reply_text == '' and first.detail == {'may_resubmit': True}
    second = service.handover(json.dumps(bad), NOW)
    assert not second.accepted and '这条记录我没能存进去' in second.reply_text
    assert second.detail == {'degraded': 'single-session answer'}
    assert service.handover(json.dumps(bad), NOW).reply_text == second.reply_text
    assert stored(service) == []


def test_a_failed_handover_does_not_poison_a_different_one(service):
    bad = example('reminder_enqueue')
    del bad['payload']
    service.handover(json.dumps(bad), NOW)
    assert service.handover(json.dumps(example('reminder_enqueue')), NOW).accepted
    assert service.handover(json.dumps(example('teacher_writeback')), NOW).accepted
    assert len(stored(service)) == 2
