"""The judge client: the official ``ollama`` client, structured output, retries, a cache.

Every request is deterministic (temperature 0, a fixed seed, thinking off), so a request
byte-identical to an earlier one (same model, messages, options, format, think) is
answered from the ``judge_requests`` table instead of being sent again. Only a reply that
parsed and validated is cached: a failed request leaves no row.

Faults become a ``JudgeFault`` whose message is one line naming the model and host, e.g.
``judge qwen3.6:35b-a3b at http://127.0.0.1:11434: no server listening``. Transient faults
(no server, timeout, HTTP 5xx or 429) are retried a bounded number of times with
exponential backoff; a bad reply is not (the same request would get the same reply).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from models import JudgeRequest
from reviewer.errors import BadInputError, JudgeError
from reviewer.judge.schema import ReplyError, parse_json
from reviewer.store import Store

DEFAULT_HOST = "http://127.0.0.1:11434"
DEFAULT_MODEL = "qwen3.6:35b-a3b"
DEFAULT_OPTIONS: dict[str, Any] = {"temperature": 0, "seed": 42, "num_ctx": 8192}

Validator = Callable[[dict[str, Any]], object]


def normalize_host(text: str) -> str:
    """``host:port`` or a URL as a full URL (``http://`` and port 11434 when missing)."""
    text = text.strip().rstrip("/")
    if "://" not in text:
        text = f"http://{text}"
    parts = urlsplit(text)
    if not parts.hostname:
        raise BadInputError(f"{text!r} is not a judge host URL")
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    if host == "0.0.0.0":  # what a server listens on, not where a client connects
        host = "127.0.0.1"
    port = parts.port or (443 if parts.scheme == "https" else 11434)
    return f"{parts.scheme}://{host}:{port}{parts.path}"


def default_host() -> str:
    """``$OLLAMA_HOST`` (as Ollama reads it) or ``http://127.0.0.1:11434``."""
    env = os.environ.get("OLLAMA_HOST", "").strip()
    return normalize_host(env) if env else DEFAULT_HOST


def default_model() -> str:
    """``$REVIEWER_JUDGE_MODEL`` or the seed's judge, ``qwen3.6:35b-a3b``."""
    return os.environ.get("REVIEWER_JUDGE_MODEL", "").strip() or DEFAULT_MODEL


class JudgeFault(JudgeError):
    """A judge call that gave no usable answer. ``kind``: unreachable, http, timeout, reply.

    ``fatal`` faults (no server, unknown model) would fail every following request the
    same way, so a batch stops on them instead of marking every attempt failed.
    """

    def __init__(self, message: str, kind: str, status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status

    @property
    def fatal(self) -> bool:
        """True when retrying other requests against the same judge is pointless."""
        return self.kind == "unreachable" or self.status == 404


@dataclass(frozen=True, slots=True)
class JudgeCall:
    """A request ready to send: the body and its digest (the cache key)."""

    body: dict[str, Any]
    digest: str


def canonical_json(data: Any) -> str:
    """A stable serialization (sorted keys, no spaces) for hashing."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class JudgeClient:
    """One Ollama host and model, with the settings every request uses.

    ``options`` are merged over ``DEFAULT_OPTIONS`` (temperature 0, seed 42, num_ctx
    8192). ``retries`` counts extra tries after the first for transient faults, waiting
    ``backoff * 2**n`` seconds before the n-th retry. Thread-safe: the underlying httpx
    client is, and no state changes after construction.
    """

    def __init__(
        self,
        host: str | None = None,
        model: str | None = None,
        *,
        timeout: float = 120.0,
        options: Mapping[str, Any] | None = None,
        think: bool = False,
        retries: int = 2,
        backoff: float = 1.0,
    ) -> None:
        self.host = normalize_host(host) if host else default_host()
        self.model = (model if model is not None else default_model()).strip()
        if not self.model:
            raise BadInputError("the judge needs a model name (--model NAME)")
        if timeout <= 0:
            raise BadInputError("the judge timeout must be positive")
        self.timeout = timeout
        self.options = {**DEFAULT_OPTIONS, **(options or {})}
        self.think = think
        self.retries = max(0, retries)
        self.backoff = max(0.0, backoff)
        import ollama  # here, not at module level: it costs a third of the app's start-up

        self._client = ollama.Client(host=self.host, timeout=timeout)

    @property
    def where(self) -> str:
        """``judge MODEL at HOST``: the start of every fault message."""
        return f"judge {self.model} at {self.host}"

    def call(self, messages: list[dict[str, str]], schema: dict[str, Any]) -> JudgeCall:
        """The request body for ``messages`` under ``schema`` and its digest."""
        body = {
            "model": self.model,
            "messages": messages,
            "options": self.options,
            "format": schema,
            "think": self.think,
        }
        return JudgeCall(body, hashlib.sha256(canonical_json(body).encode()).hexdigest())

    # -- sending ------------------------------------------------------------------------
    def send(self, call: JudgeCall) -> str:
        """Send ``call`` (retrying transient faults); the reply's ``message.content``."""
        tries = self.retries + 1
        fault = JudgeFault(f"{self.where}: not sent", "unreachable")
        for n in range(tries):
            if n:
                time.sleep(self.backoff * 2 ** (n - 1))
            try:
                return self._send_once(call)
            except JudgeFault as exc:
                fault = exc
                if not self._transient(exc):
                    raise
        suffix = f" (after {tries} tries)" if tries > 1 else ""
        raise JudgeFault(f"{fault}{suffix}", fault.kind, fault.status)

    @staticmethod
    def _transient(fault: JudgeFault) -> bool:
        if fault.kind in ("unreachable", "timeout"):
            return True
        return fault.status is not None and (fault.status >= 500 or fault.status == 429)

    def _send_once(self, call: JudgeCall) -> str:
        import httpx  # with ollama: only a judge call needs them
        import ollama  # already loaded by __init__

        body = call.body
        try:
            response = self._client.chat(
                model=body["model"],
                messages=body["messages"],
                format=body["format"],
                options=body["options"],
                think=body["think"],
            )
        except ollama.ResponseError as exc:
            error = " ".join(str(exc.error).split()) or "no detail"
            raise JudgeFault(
                f"{self.where}: HTTP {exc.status_code}: {error}", "http", exc.status_code
            ) from None
        except httpx.TimeoutException:
            raise JudgeFault(f"{self.where}: timed out after {self.timeout:g} s",
                             "timeout") from None
        except (ConnectionError, httpx.ConnectError):
            raise JudgeFault(f"{self.where}: no server listening", "unreachable") from None
        except httpx.TransportError as exc:
            raise JudgeFault(f"{self.where}: connection failed ({type(exc).__name__})",
                             "unreachable") from None
        # Only the content is parsed: a reasoning model's ``thinking`` is not the answer.
        return response.message.content or ""

    # -- cache + parsing ----------------------------------------------------------------
    def chat_json(
        self,
        messages: list[dict[str, str]],
        schema: dict[str, Any],
        *,
        store: Store | None = None,
        validate: Validator | None = None,
        label: str | None = None,
    ) -> tuple[dict[str, Any], int | None]:
        """The judge's JSON reply and the id of its stored request (None without a store).

        With a ``store``, a byte-identical earlier request is answered from it and a new
        reply is stored once it parsed and passed ``validate`` (which raises ReplyError).
        ``label`` (e.g. the template version) is kept with the stored request.
        No database session is held while the request is in flight.
        """
        call = self.call(messages, schema)
        if store is not None:
            cached = self._cached(store, call.digest)
            if cached is not None:
                return self._parse(cached[1], validate), cached[0]
        content = self.send(call)
        data = self._parse(content, validate)
        if store is None:
            return data, None
        return data, self._remember(store, call, content, label)

    def _parse(self, content: str, validate: Validator | None) -> dict[str, Any]:
        try:
            data = parse_json(content)
            if validate is not None:
                validate(data)
        except ReplyError as exc:
            raise JudgeFault(f"{self.where}: {exc}", "reply") from None
        return data

    @staticmethod
    def _cached(store: Store, digest: str) -> tuple[int, str] | None:
        with store.session() as session:
            row = session.execute(
                select(JudgeRequest.id, JudgeRequest.reply).where(JudgeRequest.digest == digest)
            ).first()
        return (row[0], row[1]) if row is not None else None

    def _remember(self, store: Store, call: JudgeCall, content: str, label: str | None) -> int:
        request = dict(call.body)
        if label:
            request["template"] = label
        try:
            with store.session() as session:
                row = JudgeRequest(digest=call.digest, host=self.host, model=self.model,
                                   request=request, reply=content)
                session.add(row)
                session.flush()
                return row.id
        except IntegrityError:
            # Another worker stored the same request meanwhile: use its row.
            cached = self._cached(store, call.digest)
            if cached is None:
                raise
            return cached[0]
