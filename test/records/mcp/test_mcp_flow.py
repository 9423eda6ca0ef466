"""A whole teaching flow over MCP (streamable HTTP): the teacher with an agent token, the
learner acting on her own pages with a learner token, both in the one node."""

from __future__ import annotations

import anyio
from records.mcp.mcp_sides import ok, over_http, refusal
from records_desk import CADENCE, LESSON

from robot_skills.records.roles import agent, learner


def test_a_whole_teaching_flow_over_http(served):
    teacher_token = served.token(agent()).token
    her_token = served.token(learner('l1')).token

    async def flow() -> dict:
        async with over_http(served.url, teacher_token) as teacher, \
                over_http(served.url, her_token) as her:
            await ok(her, 'register_learner', learner_id='l1', display_name='林小雨')
            pair = (await ok(teacher, 'create_pair', learner_id='l1',
                             learner_display_name='林小雨', provider='p', model='m',
                             display_name='小智'))['pair_id']
            contract = (await ok(teacher, 'propose_contract', pair_id=pair,
                                 goal='三个月读完高一力学', cadence=CADENCE))['contract_id']
            await ok(her, 'establish_contract', pair_id=pair, contract_id=contract)
            course = (await ok(teacher, 'create_course', pair_id=pair, title='力学',
                               contract_id=contract, planned_lesson_count=1))['course_id']
            lesson = (await ok(teacher, 'add_lesson', pair_id=pair, course_id=course,
                               title='牛顿第一定律', content_markdown=LESSON))['lesson_id']
            await ok(teacher, 'publish_lesson', pair_id=pair, lesson_id=lesson)
            await ok(her, 'declare_lesson_progress', pair_id=pair, lesson_id=lesson,
                     progress='completed_declared')
            await ok(teacher, 'add_flashcard', pair_id=pair, front='惯性是什么？',
                     back='保持原来运动状态的性质')
            exercise = (await ok(teacher, 'add_exercise', pair_id=pair, lesson_id=lesson,
                                 prompt='为什么急刹车时人会前倾？',
                                 reference_answer='惯性'))['exercise_id']
            submission = (await ok(her, 'submit_exercise', pair_id=pair, exercise_id=exercise,
                                   learner_answer='因为惯性', confidence='high'))['submission_id']
            # the loop cannot close on ungraded work: the code and the shortfall say so
            early = refusal(await teacher.call_tool('close_lesson_loop', {
                'pair_id': pair, 'lesson_id': lesson, 'no_cognitive_update_reason': 'r'}))
            assert early['code'] == 'CONFLICT'
            assert early['shortfall']['ungraded_submission_ids'] == [submission]
            await ok(teacher, 'grade_exercise', pair_id=pair, submission_id=submission,
                     score=90, feedback='对')
            return await ok(teacher, 'close_lesson_loop', pair_id=pair, lesson_id=lesson,
                            no_cognitive_update_reason='第一课，没有新的判断。')
    closed = anyio.run(flow)
    assert closed['closure_progress']['state'] == 'closed'
