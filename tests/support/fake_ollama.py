"""A local HTTP server that speaks enough of Ollama's API for tests, with scripted replies.

Ollama cannot run in the test environment, so every test that needs a judge talks to this
server through the real ``ollama.Client`` (never a monkeypatched client).

API
---
``FakeOllama(model="fake-judge:7b")``
    Starts listening on ``127.0.0.1`` on a free port, serving from a background thread.
    Use it as a context manager or call ``close()``; the ``fake_ollama`` pytest fixture in
    ``tests/conftest.py`` does that for you.

``.url``
    ``http://127.0.0.1:PORT``: pass it as ``host=`` to ``ollama.Client``.

``.requests`` / ``.chat_requests``
    Every request body received (parsed JSON, with ``"_path"`` added), in order; the second
    only keeps ``POST /api/chat`` bodies, e.g. ``fake.chat_requests[0]["options"]["seed"]``.

Scripting ``/api/chat`` replies (a FIFO queue: each chat request consumes one reply; when
the queue is empty the ``responder`` is called, and without a responder the server answers
HTTP 500 "no scripted reply"):

``.reply_json(obj, delay=0.0)``
    ``obj`` is serialized with ``json.dumps`` into ``message.content`` (what a model returns
    under ``format=<schema>``).
``.reply_text(text, delay=0.0)``
    Raw ``message.content``, e.g. malformed JSON.
``.reply_error(status, message="…", delay=0.0)``
    HTTP ``status`` with the body ``{"error": message}`` (what Ollama sends on errors);
    the client raises ``ollama.ResponseError``.
``.reply_raw(body, status=200)``
    The whole HTTP body as given, e.g. an HTML page from a proxy instead of Ollama.
``.reply_thinking(thinking, content)``
    A reply whose ``message`` also carries ``thinking`` (reasoning models).
``.responder = fn``
    ``fn(request_json) -> Reply`` scripts replies by request content. Build replies with
    ``Reply.json(obj)``, ``Reply.text(str)``, ``Reply.error(status, msg)``.

``delay`` makes the server wait before answering: with a client ``timeout`` shorter than
the delay, the client raises ``httpx.ReadTimeout``. ``close()`` interrupts pending delays,
so a slow reply never keeps a test waiting.

``GroupJudge(quality, bonus=…)`` (at the end of this module)
    A ``responder`` for the group judge that notes answers by their text, with an optional
    bonus per position shown: unbiased without one, ``GroupJudge.preferring_first()``
    favours the first answers (position-bias tests of ``reviewer calibrate --orders``).

Other endpoints, enough for ``Client.list()``, ``Client.show()`` and a version probe:
``GET /api/tags`` (lists ``.model``), ``POST /api/show`` (has ``model_info``),
``GET /api/version``. Replies mimic a real model's: ``model``, RFC 3339 ``created_at``,
``message``, ``done``, ``done_reason``, and the duration/count fields in nanoseconds.
"""

from __future__ import annotations

import collections
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted answer to ``POST /api/chat``."""

    content: str = ""
    status: int = 200
    error_message: str = ""
    delay: float = 0.0
    thinking: str | None = None
    raw_body: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def json(cls, obj: Any, delay: float = 0.0) -> Reply:
        """A reply whose ``message.content`` is ``obj`` serialized as JSON."""
        return cls(content=json.dumps(obj, ensure_ascii=False), delay=delay)

    @classmethod
    def text(cls, text: str, delay: float = 0.0) -> Reply:
        """A reply whose ``message.content`` is ``text`` as is (e.g. malformed JSON)."""
        return cls(content=text, delay=delay)

    @classmethod
    def error(cls, status: int, message: str = "scripted failure", delay: float = 0.0) -> Reply:
        """An HTTP error reply with Ollama's ``{"error": …}`` body."""
        return cls(status=status, error_message=message, delay=delay)


Responder = Callable[[dict[str, Any]], Reply]


def _now_rfc3339() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


class _Server(ThreadingHTTPServer):
    # Non-daemon handler threads, joined by server_close(): no thread outlives the fake.
    daemon_threads = False
    block_on_close = True
    fake: FakeOllama

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet when a client gave up (timeout) and the socket is gone."""


class _Handler(BaseHTTPRequestHandler):
    # HTTP/1.0: one request per connection, so no handler thread waits on a keep-alive.
    protocol_version = "HTTP/1.0"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """No access log on stderr during tests."""

    def _read_json(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        return body if isinstance(body, dict) else {"_body": body}

    def _send(self, status: int, obj: Any) -> None:
        self._send_raw(status, json.dumps(obj, ensure_ascii=False), "application/json")

    def _send_raw(self, status: int, body: str, content_type: str = "text/html") -> None:
        data = body.encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", f"{content_type}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass  # the client timed out and closed the connection

    def do_GET(self) -> None:
        fake = self.server.fake
        fake._record({"_path": self.path})
        if self.path == "/api/tags":
            self._send(200, fake.tags_body())
        elif self.path == "/api/version":
            self._send(200, {"version": fake.version})
        else:
            self._send(404, {"error": f"unknown path {self.path}"})

    def do_POST(self) -> None:
        fake = self.server.fake
        body = self._read_json()
        fake._record({**body, "_path": self.path})
        if self.path == "/api/chat":
            self._chat(body)
        elif self.path == "/api/show":
            self._send(200, fake.show_body())
        else:
            self._send(404, {"error": f"unknown path {self.path}"})

    def _chat(self, body: dict[str, Any]) -> None:
        fake = self.server.fake
        reply = fake._next_reply(body)
        if reply.delay and fake._stopping.wait(reply.delay):
            return  # closing: drop the connection instead of answering
        if reply.raw_body is not None:
            self._send_raw(reply.status, reply.raw_body)
            return
        if reply.status >= 400:
            self._send(reply.status, {"error": reply.error_message})
            return
        self._send(200, fake.chat_body(body, reply))


class FakeOllama:
    """A scripted Ollama server on 127.0.0.1 (see the module docstring for the API)."""

    def __init__(self, model: str = "fake-judge:7b", version: str = "0.12.6") -> None:
        self.model = model
        self.version = version
        self.requests: list[dict[str, Any]] = []
        self.responder: Responder | None = None
        self._replies: collections.deque[Reply] = collections.deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        """Base URL to give ``ollama.Client(host=…)``."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """Bodies of the ``POST /api/chat`` requests received so far."""
        with self._lock:
            return [r for r in self.requests if r.get("_path") == "/api/chat"]

    # -- scripting ---------------------------------------------------------------------
    def push(self, reply: Reply) -> None:
        """Queue a reply for the next ``/api/chat`` request."""
        with self._lock:
            self._replies.append(reply)

    def reply_json(self, obj: Any, delay: float = 0.0) -> None:
        """Queue a reply whose content is ``obj`` as JSON."""
        self.push(Reply.json(obj, delay))

    def reply_text(self, text: str, delay: float = 0.0) -> None:
        """Queue a reply whose content is ``text`` verbatim."""
        self.push(Reply.text(text, delay))

    def reply_error(
        self, status: int, message: str = "scripted failure", delay: float = 0.0
    ) -> None:
        """Queue an HTTP error reply."""
        self.push(Reply.error(status, message, delay))

    def reply_raw(self, body: str, status: int = 200) -> None:
        """Queue a reply whose whole HTTP body is ``body`` (not Ollama's JSON: a proxy page…)."""
        self.push(Reply(raw_body=body, status=status))

    def reply_thinking(self, thinking: str, content: str) -> None:
        """Queue a reply with a ``message.thinking`` part besides the content."""
        self.push(Reply(content=content, thinking=thinking))

    @property
    def pending(self) -> int:
        """How many scripted replies have not been consumed yet."""
        with self._lock:
            return len(self._replies)

    # -- bodies ------------------------------------------------------------------------
    def chat_body(self, request: dict[str, Any], reply: Reply) -> dict[str, Any]:
        """The JSON a real ``/api/chat`` returns (non-streaming)."""
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.thinking is not None:
            message["thinking"] = reply.thinking
        return {
            "model": request.get("model") or self.model,
            "created_at": _now_rfc3339(),
            "message": message,
            "done": True,
            "done_reason": "stop",
            "total_duration": 1_204_000_000,
            "load_duration": 31_000_000,
            "prompt_eval_count": 412,
            "prompt_eval_duration": 280_000_000,
            "eval_count": max(1, len(reply.content) // 4),
            "eval_duration": 880_000_000,
            **reply.extra,
        }

    def tags_body(self) -> dict[str, Any]:
        """``GET /api/tags``: the one model this fake serves."""
        return {
            "models": [
                {
                    "name": self.model,
                    "model": self.model,
                    "modified_at": _now_rfc3339(),
                    "size": 4_683_087_332,
                    "digest": "a" * 64,
                    "details": {
                        "parent_model": "",
                        "format": "gguf",
                        "family": "qwen2",
                        "families": ["qwen2"],
                        "parameter_size": "7.6B",
                        "quantization_level": "Q4_K_M",
                    },
                }
            ]
        }

    def show_body(self) -> dict[str, Any]:
        """``POST /api/show``: details with the ``model_info`` key the client requires."""
        return {
            "modelfile": f"FROM {self.model}",
            "parameters": "temperature 0.7",
            "template": "{{ .Prompt }}",
            "details": self.tags_body()["models"][0]["details"],
            "model_info": {"general.architecture": "qwen2", "qwen2.context_length": 32768},
            "capabilities": ["completion"],
            "modified_at": _now_rfc3339(),
        }

    # -- internals ---------------------------------------------------------------------
    def _record(self, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(body)

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
            responder = self.responder
        if responder is not None:
            return responder(body)
        return Reply.error(500, "no scripted reply")

    # -- lifecycle ---------------------------------------------------------------------
    def close(self) -> None:
        """Stop serving, interrupt pending delays and join every server thread."""
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeOllama:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- a group judge with (or without) a position preference (issue 20) -------------------

_ANSWER_HEADING = re.compile(r"^### Réponse (\d+)\n", re.MULTILINE)
_AFTER_ANSWERS = re.compile(r"\n\nNote les \d+ réponses", re.MULTILINE)


def group_answers(request: dict[str, Any]) -> list[str]:
    """The candidate answers of a group-judge request (``### Réponse i`` sections of the
    last user message, as ``reviewer.graders.judge.build_messages`` writes them)."""
    text = str(request.get("messages", [{}])[-1].get("content", ""))
    end = _AFTER_ANSWERS.search(text)
    text = text[: end.start()] if end else text
    heads = list(_ANSWER_HEADING.finditer(text))
    return [
        text[h.end() : heads[k + 1].start() if k + 1 < len(heads) else len(text)].rstrip("\n")
        for k, h in enumerate(heads)
    ]


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        resolved = schema.get("$defs", {}).get(ref.removeprefix("#/$defs/"), {})
        return resolved if isinstance(resolved, dict) else {}
    return node


class GroupJudge:
    """A ``responder`` that notes every answer of a group-judge request by its **content**
    (``quality``: answer text → 1–5 note, 3 for unknown texts), plus a **position bonus**:
    ``bonus[p]`` is added to the note of the answer shown at position ``p`` (0-based) and
    the note is clipped to 1–5. No bonus: an unbiased judge, whose notes do not depend on
    the order; ``GroupJudge.preferring_first(quality)`` favours the first positions.

    The reply follows the request's own ``format`` schema: every 1–5 integer field gets the
    note, ``answer`` the 1-based position, strings a short justification, so the judge can
    add or rename axes without this fake changing. ``.calls`` counts the requests served.

    Usage: ``fake.responder = GroupJudge({"text A": 5, "text B": 2}, bonus=(2, 0, -2))``.
    """

    def __init__(self, quality: dict[str, int] | None = None,
                 bonus: tuple[int, ...] = ()) -> None:
        self.quality = dict(quality or {})
        self.bonus = bonus
        self.calls = 0
        self.seen: list[list[str]] = []  # answers in the order each request showed them

    @classmethod
    def preferring_first(cls, quality: dict[str, int] | None = None) -> GroupJudge:
        """A judge that adds 3 to the first answer shown, 1 to the second, −1 to the
        third and −3 to every later one: the order decides most of the ranking."""
        return cls(quality, bonus=(3, 1, -1, -3, -3, -3, -3, -3, -3, -3, -3, -3))

    def note(self, text: str, position: int) -> int:
        """The note of ``text`` shown at ``position`` (0-based)."""
        bonus = self.bonus[position] if position < len(self.bonus) else 0
        return max(1, min(5, self.quality.get(text, 3) + bonus))

    def __call__(self, request: dict[str, Any]) -> Reply:
        answers = group_answers(request)
        self.calls += 1
        self.seen.append(answers)
        schema = request.get("format") if isinstance(request.get("format"), dict) else {}
        assert isinstance(schema, dict)
        items = schema.get("properties", {}).get("notes", {}).get("items", {})
        fields = _resolve(schema, items).get("properties", {}) if items else {}
        notes = [self._entry(fields, text, p) for p, text in enumerate(answers)]
        return Reply.json({"notes": notes})

    def _entry(self, fields: dict[str, Any], text: str, position: int) -> dict[str, Any]:
        value = self.note(text, position)
        if not fields:  # no schema sent: the judge's current shape
            fields = {k: {"type": "integer", "maximum": 5} for k in
                      ("correctness", "helpfulness", "tone", "format")}
            fields = {"answer": {"type": "integer"}, **fields,
                      "justification": {"type": "string"}}
        entry: dict[str, Any] = {}
        for name, spec in fields.items():
            kind = spec.get("type") if isinstance(spec, dict) else None
            if name == "answer":
                entry[name] = position + 1
            elif kind == "integer":
                entry[name] = value
            elif kind == "string":
                entry[name] = f"Note {value} (position {position + 1})."
            elif kind == "boolean":
                entry[name] = value >= 3
        return entry
