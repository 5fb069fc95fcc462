"""The judge client: the official ``ollama`` client, structured output, retries, a cache.

Every request is deterministic (temperature 0, a fixed seed), so a request byte-identical
to an earlier one (same model, messages, options, format, think) is answered from the
``judge_requests`` table instead of being sent again. Only a reply that parsed and
validated is cached (with a reasoning model's thoughts, when it thought): a failed
request leaves no row. Each request says how much context and how many reply tokens it
needs (``reviewer.judge.context``), and a reply whose prompt or answer the server cut is a
fault, not an answer.

Faults become a ``JudgeFault`` whose message is one line naming the model and host, e.g.
``judge qwen3.6:35b-a3b at http://127.0.0.1:11434: no server listening``. Transient faults
(no server, timeout, HTTP 5xx or 429) are retried a bounded number of times with
exponential backoff; a bad reply is not (the same request would get the same reply).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from models import JudgeRequest
from reviewer.errors import BadInputError, JudgeError
from reviewer.judge.context import DEFAULT_MAX_CTX, cut_prompt, cut_reply, sized_options
from reviewer.judge.host import default_host, normalize_host
from reviewer.judge.schema import ReplyError, parse_json
from reviewer.judge.transport import (
    NOT_OLLAMA,
    Abandoned,
    ChatReply,
    RawFault,
    chat_once,
    repeats_for_every_request,
    reply_limit,
    retry_wait,
    transient,
)
from reviewer.store import Store
from reviewer.text_rules import first_hidden, spelt

DEFAULT_MODEL = "qwen3.6:35b-a3b"
DEFAULT_OPTIONS: dict[str, Any] = {"temperature": 0, "seed": 42}
DEFAULT_REPLY_TOKENS = 512
"""``num_predict`` of a request whose caller gives no budget (one verdict needs ~100)."""

Validator = Callable[[dict[str, Any]], object]


def default_model() -> str:
    """``$REVIEWER_JUDGE_MODEL`` or the seed's judge, ``qwen3.6:35b-a3b``."""
    given = os.environ.get("REVIEWER_JUDGE_MODEL", "").strip()
    return model_name(given, "$REVIEWER_JUDGE_MODEL") if given else DEFAULT_MODEL


def model_name(text: str, given_as: str = "--model") -> str:
    """A judge model's name: printable text only. It is quoted in every judge message,
    and a newline in it forged a 'reviewer: …' line of its own (hostile pass, jd41)."""
    if first_hidden(text) is not None:
        raise BadInputError(f"judge model (from {given_as}) {spelt(text)!r}: contains a "
                            "control, bidi or invisible character")
    return text


class JudgeFault(JudgeError):
    """A judge call that gave no usable answer.

    ``kind``: unreachable, timeout, http, not_ollama (a 200 reply that is not Ollama's
    JSON), redirected (a request that failed after the host redirected it), reply (the
    answer is not what was asked), cut (prompt or reply cut by the server), too_long
    (refused before sending). ``fatal`` faults (no server, unknown model, a model that
    cannot think, a redirect) would fail every following request the same way, so a
    batch stops on them instead of marking every attempt failed.
    """

    def __init__(self, message: str, kind: str, status: int | None = None,
                 detail: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.detail = detail or message

    @property
    def fatal(self) -> bool:
        """True when retrying other requests against the same judge is pointless."""
        return repeats_for_every_request(self.kind, self.status, self.detail)

    @property
    def signature(self) -> tuple[str, int | None, str]:
        """What two faults share when they are "the same fault" (a streak of 5xx)."""
        return (self.kind, self.status, self.detail)


@dataclass(frozen=True, slots=True)
class JudgeCall:
    """A request ready to send: the body, its digest (the cache key) and the prompt's
    estimated tokens (to tell a prompt the server cut)."""

    body: dict[str, Any]
    digest: str
    estimate: int = 0


def canonical_json(data: Any) -> str:
    """A stable serialization (sorted keys, no spaces) for hashing."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class JudgeClient:
    """One Ollama host and model, with the settings every request uses.

    ``options`` are merged over ``DEFAULT_OPTIONS`` (temperature 0, seed 42); each
    request also gets ``num_predict`` (its reply budget) and ``num_ctx`` sized to hold
    its prompt and reply (at most ``max_ctx``), unless ``options`` fixes them.
    ``think`` asks a reasoning model to think (its reasoning is stored with the reply,
    never parsed). ``retries`` counts extra tries after the first for transient faults,
    waiting ``backoff * 2**n`` seconds (at most a minute) before the n-th retry;
    ``timeout`` bounds each try as a whole (connect, headers, body). Setting ``abandon``
    drops the request in flight and any retry (``Abandoned``, not a fault: the app sets
    it when it closes).
    Thread-safe: no state changes after construction.
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
        max_ctx: int = DEFAULT_MAX_CTX,
        abandon: threading.Event | None = None,
    ) -> None:
        self.host = normalize_host(host) if host else default_host()
        self.model = (model if model is not None else default_model()).strip()
        if not self.model:
            raise BadInputError("the judge needs a model name (--model NAME)")
        if timeout <= 0:
            raise BadInputError("the judge timeout must be positive")
        if max_ctx < 512:
            raise BadInputError("the judge context (--max-ctx) must be at least 512 tokens")
        self.timeout = timeout
        self.options = {**DEFAULT_OPTIONS, **(options or {})}
        self.think = think
        self.retries = max(0, retries)
        self.backoff = max(0.0, backoff)
        self.max_ctx = max_ctx
        self.abandon = abandon

    @property
    def where(self) -> str:
        """``judge MODEL at HOST``: the start of every fault message."""
        return f"judge {self.model} at {self.host}"

    def fault(self, kind: str, detail: str, status: int | None = None) -> JudgeFault:
        """A JudgeFault whose message names this judge."""
        return JudgeFault(f"{self.where}: {detail}", kind, status, detail)

    def call(self, messages: list[dict[str, str]], schema: dict[str, Any],
             reply_tokens: int = DEFAULT_REPLY_TOKENS) -> JudgeCall:
        """The request body for ``messages`` under ``schema`` and its digest.

        JudgeFault (kind too_long) when the prompt cannot fit the allowed context.
        """
        try:
            options, estimate = sized_options(self.options, messages, reply_tokens,
                                              think=self.think, max_ctx=self.max_ctx)
        except ValueError as exc:
            raise self.fault("too_long", str(exc)) from None
        body = {
            "model": self.model,
            "messages": messages,
            "options": options,
            "format": schema,
            "think": self.think,
        }
        return JudgeCall(body, hashlib.sha256(canonical_json(body).encode()).hexdigest(),
                         estimate)

    # -- sending ------------------------------------------------------------------------
    def send(self, call: JudgeCall) -> ChatReply:
        """Send ``call`` (retrying transient faults); the whole reply, checked uncut."""
        tries = self.retries + 1
        fault = self.fault("unreachable", "not sent")
        abandon = self.abandon
        for n in range(tries):
            if n:
                delay = retry_wait(self.backoff, n - 1)
                if abandon is None:
                    time.sleep(delay)
                elif abandon.wait(delay):
                    raise Abandoned
            try:
                reply = chat_once(self.host, call.body, self.timeout, abandon)
            except RawFault as exc:
                fault = self.fault(exc.kind, self._detail(exc), exc.status)
                if not transient(exc.kind, exc.status):
                    raise fault from None
                continue
            self._check_uncut(call, reply)
            return reply
        suffix = f" (after {tries} tries)" if tries > 1 else ""
        raise JudgeFault(f"{fault}{suffix}", fault.kind, fault.status, fault.detail)

    @staticmethod
    def _detail(exc: RawFault) -> str:
        return f"HTTP {exc.status}: {exc.detail}" if exc.kind == "http" else exc.detail

    def _check_uncut(self, call: JudgeCall, reply: ChatReply) -> None:
        """A cut prompt or reply is a fault, not retried: the same request is cut the same
        way. The prompt is checked first: a reply to a cut prompt answers another question."""
        options = call.body["options"]
        problem = cut_prompt(reply.prompt_tokens, call.estimate, int(options["num_ctx"]))
        problem = problem or cut_reply(reply.done_reason, reply.reply_tokens,
                                       int(options["num_predict"]), reply.done)
        if problem:
            raise self.fault("cut", problem)

    # -- cache + parsing ----------------------------------------------------------------
    def chat_json(
        self,
        messages: list[dict[str, str]],
        schema: dict[str, Any],
        *,
        store: Store | None = None,
        validate: Validator | None = None,
        label: str | None = None,
        reply_tokens: int = DEFAULT_REPLY_TOKENS,
    ) -> tuple[dict[str, Any], int | None]:
        """The judge's JSON reply and the id of its stored request (None without a store).

        With a ``store``, a byte-identical earlier request is answered from it and a new
        reply is stored (with its reasoning, when the model thought) once it parsed and
        passed ``validate`` (which raises ReplyError). ``label`` (e.g. the template
        version) is kept with the stored request. ``reply_tokens`` is the reply's budget
        (``num_predict``). No database session is held while the request is in flight.
        """
        call = self.call(messages, schema, reply_tokens)
        if store is not None:
            cached = self._cached(store, call.digest)
            if cached is not None:
                # A reply stored before replies were bounded is refused as a new one is.
                if len(cached[1]) > reply_limit(call.body):
                    raise self.fault(NOT_OLLAMA, f"the stored reply holds {len(cached[1]):,} "
                                     "characters, more than its token budget allows")
                return self._parse(cached[1], validate), cached[0]
        reply = self.send(call)
        data = self._parse(reply.content, validate)
        if store is None:
            return data, None
        return data, self._remember(store, call, reply, label)

    def _parse(self, content: str, validate: Validator | None) -> dict[str, Any]:
        try:
            data = parse_json(content)
            if validate is not None:
                validate(data)
        except ReplyError as exc:
            raise self.fault("reply", str(exc)) from None
        return data

    @staticmethod
    def _cached(store: Store, digest: str) -> tuple[int, str] | None:
        with store.session() as session:
            row = session.execute(
                select(JudgeRequest.id, JudgeRequest.reply).where(JudgeRequest.digest == digest)
            ).first()
        return (row[0], row[1]) if row is not None else None

    def _remember(self, store: Store, call: JudgeCall, reply: ChatReply,
                  label: str | None) -> int:
        request = dict(call.body)
        if label:
            request["template"] = label
        try:
            with store.session() as session:
                row = JudgeRequest(digest=call.digest, host=self.host, model=self.model,
                                   request=request, reply=reply.content,
                                   thinking=reply.thinking or None)
                session.add(row)
                session.flush()
                return row.id
        except IntegrityError:
            # Another worker stored the same request meanwhile: use its row.
            cached = self._cached(store, call.digest)
            if cached is None:
                raise
            return cached[0]
