"""One chat request to an Ollama server, bounded in time, every fault classified.

Shared by the judge client (second opinions, the LLM tier, criterion re-judging, with a
cache) and the judge grader (``reviewer grade``, no store): this module imports neither
the database nor the models, so the graders stay pure.

* **The timeout bounds the whole request** (connect, headers and body). httpx's timeouts
  bound each read, so a server sending one byte per second would never time out; the
  request runs on ``ollama.AsyncClient`` under ``asyncio.wait_for``, which cancels it
  (and closes the connection) at the deadline.
* **Every reply is read apart from the answer**: ``done``, ``done_reason``,
  ``prompt_eval_count``, ``eval_count`` and a reasoning model's ``message.thinking`` come
  back in ``ChatReply``, so a caller can tell a reply cut at ``num_predict`` (or marked
  not done) or a prompt the server cut.
* **A request can be abandoned**: with an ``abandon`` event, setting it drops the
  request in flight within ``ABANDON_POLL_S`` (the connection is closed) and raises
  :class:`Abandoned`. The app sets it when its window closes: a judge that never
  answered kept the process alive for two timeouts after the window had gone.
* **A redirect is named**: the ``ollama`` client's httpx follows redirects (a 302 turns
  the POST into a GET, so the target never gets the request as sent). A request that
  fails after a redirect is a ``redirected`` fault naming the redirect and its target
  (the host does answer; what failed is where it sent us), not "no server listening".
* **Every body is read here, whole and decoded**, before the ``ollama`` client parses
  it: at most the reply's byte budget (raw and decoded), and never nested deeper than
  ``json_input.MAX_NESTING`` (the client's own ``json.loads`` would recurse into a
  RecursionError).
* **Faults are classified** (``RawFault``: unreachable, timeout, http, not_ollama,
  redirected); the
  caller words them (the two judge paths keep their own one-line wording) and decides
  about retries with :func:`transient`.
"""

from __future__ import annotations

import asyncio
import contextlib
import html as html_lib
import json
import re
import threading
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

CHARS_PER_TOKEN = 32
"""Far above any tokenizer's longest token: a reply beyond is not the model's."""
MIN_REPLY_CHARS = 65_536
MAX_REPLY_CHARS = 4_000_000

ABANDON_POLL_S = 0.05
"""How often a request in flight looks at its ``abandon`` event."""

UNREACHABLE = "unreachable"
TIMEOUT = "timeout"
HTTP = "http"
NOT_OLLAMA = "not_ollama"
REDIRECTED = "redirected"
BROKEN_HTTP = "the server's HTTP reply is broken"
"""The start of a not_ollama fault's detail when HTTP itself failed (a redirect loop, a
lying Content-Encoding): the server's setup, so every request would fail the same way."""


@dataclass(frozen=True, slots=True)
class ChatReply:
    """What the server answered: the content, the reasoning apart, and the counts."""

    content: str
    thinking: str = ""
    done_reason: str = ""
    done: bool = True  # False only when the server said "done": false
    prompt_tokens: int | None = None
    reply_tokens: int | None = None


class RawFault(Exception):
    """A request that got no usable reply. ``kind`` is one of the constants above;
    ``status`` the HTTP status (kind http); ``detail`` a one-line description."""

    def __init__(self, kind: str, detail: str, status: int | None = None) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.status = status


class Abandoned(Exception):
    """The request was dropped because its ``abandon`` event was set (the app is
    closing). Not a judge fault: nothing is recorded about the attempt, the caller's
    job ends."""

    def __init__(self) -> None:
        super().__init__("the judge request was abandoned: the app is closing")


MAX_RETRIES = 10
"""The most retries a judge call may be given (``--retries``): with waits doubling up to
``MAX_WAIT_S``, about 7 minutes of waiting at most, besides the tries themselves."""
MAX_WAIT_S = 60.0
"""The longest wait before one retry: the doubling stops there (``--retries 30`` used to
mean about 34 years; seventh hostile pass H2)."""


def retry_wait(backoff: float, n: int) -> float:
    """Seconds to wait before retry ``n`` (0 for the first): ``backoff * 2**n``, at most
    ``MAX_WAIT_S``."""
    return min(MAX_WAIT_S, backoff * float(2 ** min(n, 64)))


def transient(kind: str, status: int | None) -> bool:
    """Worth retrying: no server (it may be starting), a timeout, HTTP 5xx or 429."""
    if kind in (UNREACHABLE, TIMEOUT):
        return True
    return kind == HTTP and status is not None and (status >= 500 or status == 429)


def repeats_for_every_request(kind: str, status: int | None, detail: str) -> bool:
    """A fault every following request to the same server and model would hit too: no
    server, unknown model (404), refused credentials, a model that cannot think, a server
    whose HTTP is broken (a redirect loop, a body that does not match its encoding), a
    host that redirects elsewhere."""
    if kind in (UNREACHABLE, REDIRECTED) or (kind == NOT_OLLAMA
                                             and detail.startswith(BROKEN_HTTP)):
        return True
    if kind != HTTP or status is None:
        return False
    return status in (401, 403, 404) or (status == 400 and "does not support" in detail)


def one_line(text: str) -> str:
    """``text`` on one line (servers send multi-line errors and HTML)."""
    return " ".join(str(text).split())


MAX_ERROR_CHARS = 160
"""The most of an HTTP error's text a fault line shows."""
_HTML = re.compile(r"<\s*(?:!doctype\s+html|html|head|body|title|h1|p)\b", re.IGNORECASE)
_HIDDEN_PARTS = re.compile(r"<(script|style|head)\b.*?</\1\s*>|<!--.*?-->",
                           re.IGNORECASE | re.DOTALL)
_TITLE = re.compile(r"<title\b[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")


def error_text(text: str) -> str:
    """An HTTP error's body as a fault line shows it: one line, at most
    ``MAX_ERROR_CHARS`` characters. An HTML page (a proxy's or a web server's error
    page) is said to be one and shown as its text, tags, styles and scripts left out:
    a 501 page after a redirect was embedded whole, tags and all (ninth hostile pass
    M3). Ollama's own errors are one short sentence and stay as they are."""
    text = str(text)
    html = _HTML.search(text[:4096]) is not None
    if html:
        found = _TITLE.search(text)
        title = one_line(html_lib.unescape(_TAG.sub(" ", found[1]))) if found else ""
        text = one_line(html_lib.unescape(_TAG.sub(" ", _HIDDEN_PARTS.sub(" ", text))))
        if not text.startswith(title):  # the title is most often the first heading too
            text = f"{title} {text}"
    shown = one_line(text)
    if len(shown) > MAX_ERROR_CHARS:
        shown = shown[:MAX_ERROR_CHARS - 1].rstrip() + "…"
    return f"an HTML page: {shown}" if html else shown


def _not_ollama(exc: BaseException) -> RawFault:
    """A 200 reply that is not Ollama's JSON object (a proxy page, a JSON list, a number
    too long for Python to read…)."""
    from reviewer.json_input import beyond_digit_limit, too_many_digits

    if isinstance(exc, json.JSONDecodeError):
        what = "not JSON"
    elif isinstance(exc, TypeError):
        what = "JSON but not an object"
    elif type(exc).__name__ == "ValidationError":  # pydantic: fields of a chat reply missing
        what = "JSON but not a chat reply"
    elif isinstance(exc, UnicodeDecodeError):  # zstd or garbage (ninth hostile pass M3)
        return RawFault(NOT_OLLAMA, "the server's reply is not text (UTF-8): is this an "
                                    "Ollama server?")
    elif beyond_digit_limit(exc):  # the client's json.loads (eighth hostile pass M2)
        return RawFault(NOT_OLLAMA, f"the server's reply holds {too_many_digits()}: is "
                                    "this an Ollama server?")
    else:
        what = f"not Ollama's reply ({type(exc).__name__})"
    return RawFault(NOT_OLLAMA, f"the server's reply is {what}: is this an Ollama server?")


def _bad_reply(exc: Exception) -> RawFault:
    """A reply httpx could not read: a redirect loop, a body its encoding header lies
    about (``Content-Encoding: gzip`` over plain bytes)."""
    import httpx

    if isinstance(exc, httpx.TooManyRedirects):
        what = "redirects in a loop"
    elif isinstance(exc, httpx.DecodingError):
        what = f"has a body that cannot be decoded: {one_line(str(exc))}"
    else:
        what = f"cannot be read: {type(exc).__name__}"
    return RawFault(NOT_OLLAMA, f"{BROKEN_HTTP} ({what}): is this an Ollama server?")


def _not_http(exc: Exception) -> RawFault:
    """What a ``RemoteProtocolError`` means, in words (seventh hostile pass M1: all of
    them read "connection failed (RemoteProtocolError)"). A connection closed before an
    answer or before the body's end stays an unreachable fault (a server that stopped
    may come back: retried); bytes that do not follow HTTP (a bad chunk, headers past
    httpx's buffer, TLS to an http:// host) are broken HTTP, as a lying encoding is."""
    text = one_line(str(exc))
    if text.startswith("Server disconnected without sending a response"):
        return RawFault(UNREACHABLE, "the server closed the connection without an HTTP "
                                     "answer")
    if text.startswith("peer closed connection without sending complete message body"):
        counts = text.partition("(")[2].rstrip(")")
        return RawFault(UNREACHABLE, "the reply was cut short: the server closed the "
                                     "connection before its end"
                                     + (f" ({counts})" if counts else ""))
    what = ("its headers are too long" if "buffer too long" in text.lower()
            else text.partition(":")[0][:MAX_LOCATION_CHARS] or type(exc).__name__)
    return RawFault(NOT_OLLAMA, f"{BROKEN_HTTP} (not HTTP: {what}): is this an Ollama "
                                "server?")


MAX_LOCATION_CHARS = 200
"""The most of a redirect's ``Location`` a fault line shows."""


def _redirected(redirect: tuple[int, str], after: RawFault) -> RawFault:
    """``after``, a fault met once the host had redirected the request, as a redirect:
    the line names the host's answer, not only what happened at its target."""
    status, location = redirect
    what = f"HTTP {after.status}: {after.detail}" if after.kind == HTTP else after.detail
    return RawFault(REDIRECTED, f"the server answered with a redirect (HTTP {status} to "
                                f"{location}) and following it failed ({what}): give the "
                                "judge's final address in --host")


def _capped_transport(limit: int, redirects: list[tuple[int, str]]) -> Any:
    """An httpx transport whose response bodies stop at ``limit`` bytes (RawFault), and
    which notes in ``redirects`` each redirect answered (its status and absolute target).

    The reply's size was checked once it was whole: a server sending an endless body
    grew ``rejudge`` to 1.5 GB within its timeout (the third hostile pass). Made here,
    not at module level: httpx loads only for a judge call."""
    import httpx

    class CappedStream(httpx.AsyncByteStream):
        def __init__(self, stream: Any) -> None:
            self.stream = stream

        async def __aiter__(self) -> Any:
            seen = 0
            async for chunk in self.stream:
                seen += len(chunk)
                if seen > limit:
                    raise RawFault(NOT_OLLAMA, f"the reply is longer than {limit:,} bytes, "
                                               "more than its token budget allows: is this "
                                               "an Ollama server?")
                yield chunk

        async def aclose(self) -> None:
            await self.stream.aclose()

    class CappedTransport(httpx.AsyncHTTPTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            response = await super().handle_async_request(request)
            response.stream = CappedStream(response.stream)
            checked: httpx.Response = await _read_checked(response, request, limit)
            response = checked
            location = response.headers.get("Location")
            if 300 <= response.status_code < 400 and location is not None:
                try:
                    target = str(request.url.join(location))
                except httpx.InvalidURL:
                    target = location
                target = one_line(target)
                if len(target) > MAX_LOCATION_CHARS:
                    target = target[:MAX_LOCATION_CHARS] + "…"
                redirects.append((response.status_code, target))
            return response

    return CappedTransport()


def _depth_fault(body: bytes) -> RawFault | None:
    """A RawFault when ``body``, read as JSON, nests deeper than ``MAX_NESTING``.

    The ``ollama`` client decodes the body itself (``json.loads``, a 200's and an
    error's alike), beyond ``json_input.loads``: a body nested 100,000 levels deep was a
    RecursionError, exit 70, the batch gone (seventh hostile pass T2)."""
    from reviewer.json_input import MAX_NESTING, brackets, nested_too_deeply, nesting

    if body.count(b"[") + body.count(b"{") <= MAX_NESTING:
        return None  # every ordinary reply: two counts in C
    try:
        text = body.decode(json.detect_encoding(body), "replace")
    except LookupError:  # pragma: no cover - detect_encoding names codecs Python has
        return None
    if not nested_too_deeply(text, opened=brackets(text)):
        return None
    return RawFault(NOT_OLLAMA, f"the reply is JSON nested {nesting(text):,} levels deep, "
                                f"more than the {MAX_NESTING} an Ollama reply needs: is "
                                "this an Ollama server?")


async def _read_checked(response: Any, request: Any, limit: int) -> Any:
    """``response`` read whole and decoded (its ``Content-Encoding`` undone), at most
    ``limit`` bytes once decoded too, and refused when nested too deeply for the
    client's JSON decoder: a new response with the decoded body."""
    import httpx

    chunks: list[bytes] = []
    seen = 0
    try:
        async for chunk in response.aiter_bytes():
            seen += len(chunk)
            if seen > limit:
                raise RawFault(NOT_OLLAMA, f"the reply is longer than {limit:,} bytes, "
                                           "more than its token budget allows: is this "
                                           "an Ollama server?")
            chunks.append(chunk)
    finally:
        await response.aclose()
    body = b"".join(chunks)
    fault = _depth_fault(body)
    if fault is not None:
        raise fault
    dropped = {"content-encoding", "content-length", "transfer-encoding"}
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in dropped]
    return httpx.Response(response.status_code, headers=headers, content=body,
                          request=request, extensions=response.extensions)


# Bytes of the HTTP body per character the reply may hold: JSON escapes (\u00e9 is six
# bytes for one character), the reply's other fields, some room.
BODY_BYTES_PER_CHAR = 8
BODY_SLACK = 64 * 1024


async def _unless(request: Awaitable[Any], abandon: threading.Event | None) -> Any:
    """``request``'s result, or Abandoned once ``abandon`` is set (the request is then
    cancelled, which closes its connection)."""
    task = asyncio.ensure_future(request)
    try:
        while not task.done():
            if abandon is not None and abandon.is_set():
                raise Abandoned
            await asyncio.wait({task}, timeout=ABANDON_POLL_S)
        return task.result()
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _chat(host: str, body: dict[str, Any], timeout: float,
                abandon: threading.Event | None = None,
                redirects: list[tuple[int, str]] | None = None) -> Any:
    import ollama  # here, not at module level: it costs a third of the app's start-up

    # The client's own timeout bounds each step too (connect, each read): the deadline
    # below bounds the sum.
    transport = _capped_transport(reply_limit(body) * BODY_BYTES_PER_CHAR + BODY_SLACK,
                                  [] if redirects is None else redirects)
    async with ollama.AsyncClient(host=host, timeout=timeout, transport=transport) as client:
        request = client.chat(model=body["model"], messages=body["messages"],
                              format=body.get("format"), options=body.get("options"),
                              think=body.get("think"), stream=False)
        return await asyncio.wait_for(
            request if abandon is None else _unless(request, abandon), timeout)


def _run(coroutine: Any) -> Any:
    """``asyncio.run``, also from a thread whose event loop is running (then the request
    runs on a helper thread: a running loop cannot be blocked on)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1, thread_name_prefix="judge-request") as pool:
        return pool.submit(asyncio.run, coroutine).result()


def reply_limit(body: dict[str, Any]) -> int:
    """The most characters a reply to ``body`` may hold: ``CHARS_PER_TOKEN`` per token
    of its ``num_predict`` (``MAX_REPLY_CHARS`` without one), at least
    ``MIN_REPLY_CHARS``."""
    budget = (body.get("options") or {}).get("num_predict")
    if not isinstance(budget, int) or budget <= 0:
        return MAX_REPLY_CHARS
    return min(MAX_REPLY_CHARS, max(MIN_REPLY_CHARS, budget * CHARS_PER_TOKEN))


def _check_size(size: int, body: dict[str, Any]) -> None:
    """RawFault for a reply far longer than the tokens asked: whatever reads it next
    (the guard's copy check, the contradiction scanner) takes time in its length, and a
    30 MB rationale kept ``rejudge`` busy for ever."""
    limit = reply_limit(body)
    if size > limit:
        raise RawFault(NOT_OLLAMA, f"the reply holds {size:,} characters, more than the "
                                   f"{limit:,} its token budget allows: is this an Ollama "
                                   "server?")


def chat_once(host: str, body: dict[str, Any], timeout: float,
              abandon: threading.Event | None = None) -> ChatReply:
    """Send ``body`` (``model``, ``messages``, ``format``, ``options``, ``think``) once;
    RawFault on anything but a well-formed reply within ``timeout`` seconds in all;
    Abandoned as soon as ``abandon`` is set."""
    redirects: list[tuple[int, str]] = []
    try:
        return _chat_once(host, body, timeout, abandon, redirects)
    except RawFault as fault:
        if not redirects or (fault.kind == NOT_OLLAMA and fault.detail.startswith(BROKEN_HTTP)):
            raise  # a redirect loop, a broken body: said as they are
        raise _redirected(redirects[0], fault) from None


def _chat_once(host: str, body: dict[str, Any], timeout: float,
               abandon: threading.Event | None, redirects: list[tuple[int, str]]) -> ChatReply:
    import httpx  # with ollama: only a judge call needs them
    import ollama
    from pydantic import ValidationError

    try:
        response = _run(_chat(host, body, timeout, abandon, redirects))
    except ollama.ResponseError as exc:
        raise RawFault(HTTP, error_text(exc.error) or "no detail", exc.status_code) from None
    except (TimeoutError, httpx.TimeoutException):
        raise RawFault(TIMEOUT, f"timed out after {timeout:g} s") from None
    except (ConnectionError, httpx.ConnectError):
        raise RawFault(UNREACHABLE, "no server listening") from None
    except httpx.RemoteProtocolError as exc:
        raise _not_http(exc) from None
    except httpx.TransportError as exc:
        raise RawFault(UNREACHABLE, f"connection failed ({type(exc).__name__})") from None
    except httpx.HTTPError as exc:  # the rest of httpx's faults: what the server sent
        raise _bad_reply(exc) from None
    except (ValueError, TypeError, ValidationError, AttributeError) as exc:
        raise _not_ollama(exc) from None
    message = getattr(response, "message", None)
    if message is None:
        raise RawFault(NOT_OLLAMA, "the server's reply has no message: is this an Ollama "
                                   "server?")
    content = message.content or ""
    thinking = getattr(message, "thinking", None) or ""
    _check_size(len(content) + len(thinking), body)
    return ChatReply(
        content=content,
        thinking=thinking,
        done_reason=response.done_reason or "",
        done=response.done is not False,  # a server that omits it is not doubted
        prompt_tokens=response.prompt_eval_count,
        reply_tokens=response.eval_count,
    )


STREAK = 3
"""How many identical server errors in a row stop a batch (``--stop-after``)."""


class FaultStreak:
    """Counts the same HTTP 5xx fault in a row across a batch (thread-safe).

    A server answering "llama runner process has terminated" to every request would
    otherwise mark every remaining item failed, each after its retries; after ``limit``
    identical ones in a row the batch stops with a resumable message. Any other outcome
    (a success, another fault) starts the count again.
    """

    def __init__(self, limit: int = STREAK) -> None:
        import threading

        self.limit = max(1, limit)
        self._last: tuple[str, int | None, str] | None = None
        self._count = 0
        self._lock = threading.Lock()

    def observe(self, kind: str | None, status: int | None = None, detail: str = "") -> bool:
        """Record one outcome (``kind`` None = success); True when the streak is complete."""
        with self._lock:
            if kind != HTTP or status is None or status < 500:
                self._last, self._count = None, 0
                return False
            signature = (kind, status, detail)
            self._count = self._count + 1 if signature == self._last else 1
            self._last = signature
            return self._count >= self.limit

    def stop_message(self, message: str) -> str:
        """``message`` saying the fault repeated."""
        return f"{message} ({self.limit} times in a row)"
