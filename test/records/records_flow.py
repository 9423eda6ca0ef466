"""A realistic pair for the rights and roles tests: every kind of record, her words marked.

``flow(desk, learner)`` plays, through the tools, a pair with a contract, a course of three
lessons she has learned, a concept, a flashcard she reviewed, a mind-map seed, a document
she highlighted with a note, an exercise she answered (graded), a live session (FRAME, a
question, her answer, a snapshot quoting it, her close bell, completed with an evaluation),
an ad-hoc exchange (the agent's reply quotes her), her feedback, a hypothesis she ruled on,
a post-lesson evaluation and a reflection quoting her. ``WORDS`` are the texts she typed,
each long and unique, so a test can look for them anywhere, the file's bytes included.
"""

from __future__ import annotations

from records_desk import FRAME, LESSON, Desk

from bench.school import seed_map

WORDS = {
    'response': '我觉得小车停下是因为推力用完了所以慢慢停',
    'message': '老师我周三晚上想多练两道斜面上的受力题可以吗',
    'answer': '跳远助跑是为了利用惯性让起跳时水平速度更大一些',
    'feedback': '希望闪卡背面能多放一张示意图方便我回忆',
    'note': '这句话要背下来考试常考第一定律原文',
}
REFLECT = {'summary': '她学会了先画受力图。', 'teacher_reflection': '斜面分解还不稳。',
           'next_action': '下次先练两道斜面题。'}


def flow(desk: Desk, learner: str = 'l1', name: str = '林小雨', words: dict | None = None
         ) -> dict[str, str]:
    """Play the pair; answer every id a test may need."""
    said = words or WORDS
    ids: dict[str, str] = {'learner_id': learner}
    pair = ids['pair_id'] = desk.pair(learner, name)
    contract = ids['contract_id'] = desk.contract(pair)
    course = ids['course_id'] = desk.course(pair, contract, planned=3)
    lessons = [desk.lesson(pair, course, progress='completed_declared') for _ in range(3)]
    lesson = ids['lesson_id'] = lessons[0]
    ids['lesson_2'], ids['lesson_3'] = lessons[1:]
    concept = ids['concept_id'] = desk.ok('add_concept', pair_id=pair, lesson_id=lesson,
                                          name='惯性', short_definition='保持运动状态的性质'
                                          )['concept_id']
    card = ids['flashcard_id'] = desk.ok('add_flashcard', pair_id=pair, front='惯性是什么？',
                                         back='保持原来运动状态的性质',
                                         concept_id=concept)['flashcard_id']
    desk.ok('review_flashcard', pair_id=pair, flashcard_id=card, rating='good')
    seed = seed_map('牛顿第一定律', [('惯性', '保持运动状态的性质', '急刹车时前倾'),
                                ('第一定律', '不受力时保持静止或匀速', '冰壶'),
                                ('力与运动', '力改变运动状态', '小车停下')])
    ids['mindmap_id'] = desk.ok('add_mindmap_seed', pair_id=pair, lesson_id=lesson,
                                content=seed)['mindmap_id']
    document = ids['document_id'] = desk.ok('create_document', pair_id=pair,
                                            content_markdown=LESSON)['document_id']
    ids['highlight_id'] = desk.ok('add_highlight', pair_id=pair, document_id=document,
                                  quote='一切物体', note=said['note'])['highlight_id']
    exercise = ids['exercise_id'] = desk.ok('add_exercise', pair_id=pair, lesson_id=lesson,
                                            prompt='为什么跳远要助跑？',
                                            reference_answer='利用惯性',
                                            expected_concepts=[concept])['exercise_id']
    submission = ids['submission_id'] = desk.ok('submit_exercise', pair_id=pair,
                                                exercise_id=exercise,
                                                learner_answer=said['answer'],
                                                confidence='high')['submission_id']
    desk.ok('grade_exercise', pair_id=pair, submission_id=submission, score=90,
            feedback=f'对，你说“{said["answer"]}”，讲得清楚。')
    session = ids['live_session_id'] = desk.ok('live_session_start', pair_id=pair,
                                               lesson_id=lesson)['live_session_id']
    desk.ok('live_move_append', pair_id=pair, live_session_id=session, move_type='FRAME',
            content=FRAME)
    move = ids['move_id'] = desk.ok('live_move_append', pair_id=pair, live_session_id=session,
                                    move_type='ASK', content='推力撤去后小车为什么会停？',
                                    response_kind='text')['move_id']
    ids['response_id'] = desk.ok('live_learner_respond', pair_id=pair, live_session_id=session,
                                 move_id=move, text=said['response'])['response_id']
    ids['snapshot_id'] = snapshot = desk.ok(
        'live_snapshot_write', pair_id=pair, live_session_id=session,
        body={'round': 1, 'her_words': said['response']})['snapshot_id']
    desk.ok('live_declare_close', pair_id=pair, live_session_id=session)
    desk.ok('live_session_complete', pair_id=pair, live_session_id=session, **REFLECT,
            evaluation={'agent_observation': f'她说“{said["response"]}”，误以为力维持运动。',
                        'evidence_refs': [snapshot]})
    ids['message_id'] = desk.ok('adhoc_learner_send', pair_id=pair,
                                text=said['message'])['message_id']
    desk.ok('adhoc_message_send', pair_id=pair, text=f'好的！你说“{said["message"]}”，周三见。',
            is_learning_related=True)
    ids['feedback_id'] = desk.ok('record_feedback', pair_id=pair, kind='idea',
                                 text=said['feedback'], lesson_id=lesson)['feedback_id']
    hypothesis = ids['hypothesis_id'] = desk.ok(
        'write_hypothesis', pair_id=pair, domain='力与运动',
        observation='她常把力当成维持运动的原因', confidence=0.6)['hypothesis_id']
    desk.ok('set_hypothesis_verdict', pair_id=pair, hypothesis_id=hypothesis,
            verdict='confirmed')
    desk.ok('record_post_lesson_evaluation', pair_id=pair, lesson_id=lesson,
            agent_observation='受力图稳了，下一课练斜面。', exercises_submitted_count=1)
    desk.ok('reflect_on_teaching', pair_id=pair, main_attribution='explanation',
            evidence=f'她说“{said["response"]}”', counterfactual='先做实验会更好',
            action_link={'type': 'lesson_revision', 'ref': lesson}, method='问答',
            next_action='加一个冰面实验', lesson_id=lesson)
    return ids
