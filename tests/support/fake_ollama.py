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
the delay, the client raises ``httpx.ReadTimeout``. ``Reply(drip=0.2)`` sends the body one
byte every 0.2 s (a server that never stalls long enough for a read timeout: only a bound
on the whole request stops it); ``.dropped`` counts the replies whose client hung up
before the end. ``close()`` interrupts pending delays and drips, so a slow reply never
keeps a test waiting.

Faithful to Ollama (``ollama/server`` and its runner), scripted replies included:

* NDJSON streaming when the request asks for it (``"stream": true``, or no ``stream`` key:
  Ollama's default): content chunks with ``done: false``, then a final chunk with the
  counts; one JSON object with ``"stream": false``;
* ``prompt_eval_count`` is the prompt's token count (about 4 characters per token for
  scripted replies, the model's tokenizer with a backend), at most ``num_ctx``: a longer
  prompt is cut silently, as Ollama does; ``eval_count`` the reply's;
* ``done_reason`` ``"stop"``, or ``"length"`` when the reply reached ``num_predict``;
* ``.strict_model = True``: another model name gets 404 ``model 'x' not found``;
* ``think: true`` for a model without reasoning (``thinking=False``) gets 400
  ``"M" does not support thinking`` (only when ``.strict_model``, so the scripted tests
  keep answering whatever they ask);
* ``.load_error = "exit status 2"``: every chat gets 500 ``llama runner process has
  terminated: exit status 2`` (a model that fails to load, persistently);
* ``.force_options = {"num_ctx": 256}``: merged over every request's options, as a
  server configured to ignore what clients ask (to inject a cut prompt or reply);
* ``.redirect_loop = True``: every request gets 302 to its own path (a misconfigured
  proxy), for ever;
* ``.redirect_to = URL``: every request gets ``.redirect_status`` (302) to ``URL``, as
  given (a proxy sending clients elsewhere: a dead port, a web page).

A real model: ``FakeOllama(backend=LlamaBackend(path))`` (``tests/support/llama_backend.py``)
answers every request the queue and the responder leave with llama-cpp-python, through
Ollama's gemma3 chat template, ``format`` as a grammar, ``num_ctx``/``num_keep``
truncation and ``num_predict``. ``.generate(request)`` runs the backend on a request and
returns its Reply, for responders that alter a real reply (an injected bad rationale).

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
import math
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol


@dataclass
class Reply:
    """One scripted answer to ``POST /api/chat``."""

    content: str = ""
    status: int = 200
    error_message: str = ""
    delay: float = 0.0
    thinking: str | None = None
    raw_body: str | bytes | None = None
    raw_type: str = "text/html"
    drip: float = 0.0
    done_reason: str = "stop"
    prompt_tokens: int | None = None  # None: counted from the request
    reply_tokens: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)  # extra headers of a raw reply

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

CHARS_PER_TOKEN = 4
"""Scripted replies count a prompt's tokens as its characters / 4 (real tokenizers give
3.5 to 4.5 on French and English prose)."""
OLLAMA_NUM_CTX = 4096
"""Ollama's default context when a request sets no ``num_ctx``."""


class Backend(Protocol):
    """What answers a chat request when no reply is scripted (a real model)."""

    thinking: bool

    def generate(self, request: dict[str, Any], options: dict[str, Any]) -> Reply:
        """The reply to ``request`` under ``options`` (request options + forced ones)."""
        ...


def prompt_text(request: dict[str, Any]) -> str:
    """Every message content of a chat request, as a scripted reply counts it."""
    messages = request.get("messages") or []
    return "\n".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))


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

    def _send_raw(self, status: int, body: str | bytes, content_type: str = "text/html",
                  drip: float = 0.0, headers: dict[str, str] | None = None) -> None:
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", f"{content_type}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if not drip:
                self.wfile.write(data)
                return
            for n in range(len(data)):
                self.wfile.write(data[n:n + 1])
                self.wfile.flush()
                if self.server.fake._stopping.wait(drip):
                    return
        except OSError:
            self.server.fake._dropped()  # the client timed out and closed the connection

    def _send_stream(self, chunks: list[dict[str, Any]], drip: float) -> None:
        """NDJSON, one object per line, the connection closed at the end (HTTP/1.0)."""
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.end_headers()
            for chunk in chunks:
                line = (json.dumps(chunk, ensure_ascii=False) + "\n").encode("utf-8")
                self.wfile.write(line)
                self.wfile.flush()
                if drip and self.server.fake._stopping.wait(drip):
                    return
        except OSError:
            self.server.fake._dropped()

    def _redirect(self) -> bool:
        """``.redirect_loop``: 302 to the same path, whatever was asked; ``.redirect_to``:
        ``.redirect_status`` to that URL."""
        fake = self.server.fake
        if fake.redirect_loop:
            self._send_raw(302, "", headers={"Location": self.path})
        elif fake.redirect_to:
            self._send_raw(fake.redirect_status, "", headers={"Location": fake.redirect_to})
        else:
            return False
        return True

    def do_GET(self) -> None:
        fake = self.server.fake
        fake._record({"_path": self.path})
        if self._redirect():
            return
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
        if self._redirect():
            return
        if self.path == "/api/chat":
            self._chat(body)
        elif self.path == "/api/show":
            self._send(200, fake.show_body())
        else:
            self._send(404, {"error": f"unknown path {self.path}"})

    def _chat(self, body: dict[str, Any]) -> None:
        fake = self.server.fake
        reply = fake._refusal(body) or fake._next_reply(body)
        if reply.delay and fake._stopping.wait(reply.delay):
            return  # closing: drop the connection instead of answering
        if reply.raw_body is not None:
            self._send_raw(reply.status, reply.raw_body, reply.raw_type, reply.drip,
                           reply.headers)
            return
        if reply.status >= 400:
            self._send(reply.status, {"error": reply.error_message})
            return
        final = fake.chat_body(body, reply)
        if body.get("stream", True) is not False:  # Ollama streams unless told not to
            self._send_stream(fake.stream_chunks(final), reply.drip)
            return
        self._send_raw(200, json.dumps(final, ensure_ascii=False), "application/json",
                       reply.drip)


class FakeOllama:
    """A scripted Ollama server on 127.0.0.1 (see the module docstring for the API)."""

    def __init__(self, model: str = "fake-judge:7b", version: str = "0.12.6", *,
                 backend: Backend | None = None) -> None:
        self.model = model
        self.version = version
        self.backend = backend
        self.thinking = bool(backend and backend.thinking)
        self.strict_model = backend is not None
        self.load_error = ""
        self.force_options: dict[str, Any] = {}
        self.redirect_loop = False
        self.redirect_to = ""
        self.redirect_status = 302
        self.dropped = 0
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

    def reply_raw(self, body: str | bytes, status: int = 200, content_type: str = "text/html",
                  drip: float = 0.0, headers: dict[str, str] | None = None) -> None:
        """Queue a reply whose whole HTTP body is ``body`` (not Ollama's JSON: a proxy page…;
        bytes are sent as they are, e.g. gzip), with extra ``headers`` (a
        ``Content-Encoding`` the body does not have…)."""
        self.push(Reply(raw_body=body, status=status, raw_type=content_type, drip=drip,
                        headers=dict(headers or {})))

    def reply_thinking(self, thinking: str, content: str) -> None:
        """Queue a reply with a ``message.thinking`` part besides the content."""
        self.push(Reply(content=content, thinking=thinking))

    def reset(self) -> None:
        """Forget what was received and scripted, and stop injecting faults."""
        with self._lock:
            self.requests.clear()
            self._replies.clear()
            self.dropped = 0
        self.responder = None
        self.load_error = ""
        self.force_options = {}
        self.redirect_loop = False
        self.redirect_to = ""
        self.redirect_status = 302

    @property
    def pending(self) -> int:
        """How many scripted replies have not been consumed yet."""
        with self._lock:
            return len(self._replies)

    # -- bodies ------------------------------------------------------------------------
    def options(self, request: dict[str, Any]) -> dict[str, Any]:
        """The options a request is served under: its own, then the forced ones."""
        given = request.get("options")
        return {**(given if isinstance(given, dict) else {}), **self.force_options}

    def prompt_tokens(self, request: dict[str, Any]) -> int:
        """A scripted reply's ``prompt_eval_count``: the prompt at ~4 characters per
        token, at most ``num_ctx`` (Ollama cuts a longer prompt and says so only here)."""
        count = math.ceil(len(prompt_text(request)) / CHARS_PER_TOKEN) + 8
        return min(count, int(self.options(request).get("num_ctx") or OLLAMA_NUM_CTX))

    def chat_body(self, request: dict[str, Any], reply: Reply) -> dict[str, Any]:
        """The JSON a real ``/api/chat`` returns (non-streaming; the last stream chunk)."""
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.thinking is not None:
            message["thinking"] = reply.thinking
        prompt = reply.prompt_tokens
        return {
            "model": request.get("model") or self.model,
            "created_at": _now_rfc3339(),
            "message": message,
            "done": True,
            "done_reason": reply.done_reason,
            "total_duration": 1_204_000_000,
            "load_duration": 31_000_000,
            "prompt_eval_count": self.prompt_tokens(request) if prompt is None else prompt,
            "prompt_eval_duration": 280_000_000,
            "eval_count": reply.reply_tokens or max(1, len(reply.content) // 4),
            "eval_duration": 880_000_000,
            **reply.extra,
        }

    @staticmethod
    def stream_chunks(final: dict[str, Any], size: int = 16) -> list[dict[str, Any]]:
        """``final`` as Ollama streams it: the content (and thinking) in pieces with
        ``done: false``, then the counts with an empty message."""
        head = {"model": final["model"], "created_at": final["created_at"]}
        message = final["message"]
        chunks = []
        for part in ("thinking", "content"):
            text = message.get(part) or ""
            for start in range(0, len(text), size):
                chunks.append({**head, "message": {"role": "assistant", "content": "",
                                                   part: text[start:start + size]},
                               "done": False})
        return [*chunks, {**final, "message": {"role": "assistant", "content": ""}}]

    def generate(self, request: dict[str, Any]) -> Reply:
        """The backend's reply to ``request`` (for responders altering a real reply)."""
        if self.backend is None:
            raise RuntimeError("this fake has no model backend")
        return self.backend.generate(request, self.options(request))

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
            "capabilities": ["completion", *(["thinking"] if self.thinking else [])],
            "modified_at": _now_rfc3339(),
        }

    # -- internals ---------------------------------------------------------------------
    def _record(self, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(body)

    def _dropped(self) -> None:
        with self._lock:
            self.dropped += 1

    def _refusal(self, body: dict[str, Any]) -> Reply | None:
        """What Ollama answers before running the model: load failure, unknown model,
        thinking asked of a model that cannot."""
        if self.load_error:
            return Reply.error(500, f"llama runner process has terminated: {self.load_error}")
        if not self.strict_model:
            return None
        name = str(body.get("model") or "")
        if name != self.model:
            return Reply.error(404, f"model '{name}' not found")
        if body.get("think") is True and not self.thinking:
            return Reply.error(400, f'"{name}" does not support thinking')
        return None

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
            responder = self.responder
        if responder is not None:
            return responder(body)
        if self.backend is not None:
            return self.generate(body)
        return Reply.error(500, "no scripted reply")

    # -- lifecycle ---------------------------------------------------------------------
    def close(self) -> None:
        """Stop serving, interrupt pending delays and drips, join every server thread."""
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
