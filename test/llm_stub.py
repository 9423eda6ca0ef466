"""A local OpenAI-compatible chat-completions stub for the lesson provider's tests."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import yaml

from robot_skills.runtime import paths


def lesson_json() -> str:
    with open(paths.config('lessons/crust.yaml'), encoding='utf-8') as stream:
        data = yaml.safe_load(stream)
    data['topic'], data['aliases'] = '月相变化', []
    return json.dumps(data, ensure_ascii=False)


class Stub:
    """A chat-completions endpoint answering with the queued contents, in order."""

    def __init__(self, contents: list[str]) -> None:
        self.contents = list(contents)
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                body = json.loads(self.rfile.read(int(self.headers['Content-Length'])))
                stub.requests.append(body)
                stub.headers.append(dict(self.headers))
                content = stub.contents.pop(0) if stub.contents else '{}'
                reply = json.dumps({'choices': [{'message': {'role': 'assistant',
                                                             'content': content}}]}).encode()
                self.send_response(200)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f'http://127.0.0.1:{self.server.server_port}/v1'

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
