"""One OpenAI-compatible chat-completions endpoint, shared by every optional LLM provider.

Only the standard library is used for HTTP, and nothing here runs on an
executor thread: callers (the classroom's lesson provider, the TA's utterance
writer) call ``complete`` from a worker thread and check what comes back
against their own rules before anything reaches the robot.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass


class ChatError(Exception):
    """The endpoint gave no usable answer."""


@dataclass(frozen=True)
class ChatEndpoint:
    base_url: str
    model: str
    api_key: str = ''
    timeout: float = 20.0

    def complete(self, messages: list[dict], json_mode: bool = True) -> str:
        """The assistant's content for ``messages`` (temperature 0), or a ``ChatError``."""
        body: dict = {'model': self.model, 'messages': messages, 'temperature': 0}
        if json_mode:
            body['response_format'] = {'type': 'json_object'}
        headers = {'Content-Type': 'application/json'}
        if self.api_key:
            headers['Authorization'] = f'Bearer {self.api_key}'
        request = urllib.request.Request(f'{self.base_url.rstrip("/")}/chat/completions',
                                         data=json.dumps(body).encode(), headers=headers,
                                         method='POST')
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                reply = json.load(response)
            return str(reply['choices'][0]['message']['content'])
        except (urllib.error.URLError, TimeoutError, ValueError, KeyError, IndexError,
                TypeError) as error:
            raise ChatError(f'the provider did not answer usably: {error}') from error
