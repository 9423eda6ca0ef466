"""An optional LLM rewording of the TA's utterance, never trusted as is.

The endpoint gets the gap the core chose and its template utterance (material
content and the question back) and may phrase it more naturally. Its answer
goes through ``utterance.problems`` like the template (length, sentences, a
question about what to do, material content, no reference answer, nobody
else's voice) and through the hard limits in ``TaCore.discuss``; anything
that fails is dropped for the template, and the rejection is traced.
"""

from __future__ import annotations

from dataclasses import dataclass

from robot_skills.adapters.chat import ChatEndpoint

INSTRUCTIONS = """你是小组讨论里的助教，只以助教身份说话。
把给你的要点改写成一句到两句自然的中文课堂发言：先说出要点里的材料内容，
最后一句必须是把"具体怎么做、谁来做"抛回给同学的问句。
不要给出完整答案或完整方案，不要替任何人说话，不要只说材料编号。
只输出发言本身，不要引号，不要解释。"""


@dataclass(frozen=True)
class UtteranceWriter:
    endpoint: ChatEndpoint

    def write(self, topic: str, guidance: str, reason: str, template: str) -> str:
        """The endpoint's wording of ``template`` (a ``ChatError`` when it does not answer)."""
        prompt = f'讨论主题：{topic}\n教师引导：{guidance}\n介入原因：{reason}\n要点：{template}'
        return self.endpoint.complete([{'role': 'system', 'content': INSTRUCTIONS},
                                       {'role': 'user', 'content': prompt}],
                                      json_mode=False).strip().strip('"“”')
