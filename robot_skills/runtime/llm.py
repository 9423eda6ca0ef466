"""The optional LLM endpoint of a skill, as its ``llm_*`` parameters (declared once here).

The classroom asks it for lessons nobody authored, the TA for a rewording of what
it says; both check the answer against their own rules before anything reaches
the robot. The API key is read from the environment variable the parameters
name, never from a parameter (parameters are readable by anyone on the domain).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from robot_skills.adapters.chat import ChatEndpoint
from robot_skills.runtime.params import setting

PREFIX = 'llm_'          # llm_base_url, llm_model, llm_key_env, llm_timeout


@dataclass(frozen=True)
class LlmSettings:
    base_url: str = setting('', "OpenAI-compatible chat endpoint ('' = none; what it is "
                                'asked: the skill\'s page)', read_only=True)
    model: str = setting('', 'Model name for the endpoint', read_only=True)
    key_env: str = setting('ROBOT_SKILLS_LLM_KEY', 'Environment variable with the API key',
                           read_only=True)
    timeout: float = setting(20.0, 'Seconds per request', low=1.0, high=300.0,
                             read_only=True)

    def endpoint(self) -> ChatEndpoint | None:
        """The endpoint these settings name, or None without a ``base_url``."""
        if not self.base_url:
            return None
        return ChatEndpoint(self.base_url, self.model, os.environ.get(self.key_env, ''),
                            self.timeout)
