"""ECMAScript regular expressions, run by V8: the engine of Node and of the team's filter.

The team's filter is TypeScript, so its checks are JavaScript ``RegExp`` objects, and
JavaScript reads a pattern differently from Python's ``regex`` package: ``\\b``/``\\w``/``\\d``
are ASCII (``\\binscription\\b`` matches inside « préinscription »), ``.`` and ``^``/``$``
know four line terminators, ``ſ`` is not ``s`` under ``i`` without ``u``, ``(?i)`` and
``a++`` are syntax errors, flags are ``d g i m s u v y``. Rather than translate, this module
asks a real engine: V8 through ``mini-racer``, with the two V8 features newer than Node 20
(``(?i:…)`` modifiers, duplicate group names) switched off, so what Node 20 refuses is
refused here too (``tests/rule/test_ecmascript_node.py`` compares with Node itself).

The rest of the code asks three things, each with a time bound per text:

* :func:`evaluate` ``(source, flags, text) -> bool``: ``RegExp(source, flags).test(text)``;
* :func:`spans` ``(source, flags, text) -> [(start, end)]``: every match, as
  ``text.matchAll`` finds them (``g`` added), in **Python code point offsets**
  (:func:`spans_utf16`: the same in JavaScript's UTF-16 code units);
* :func:`test_many` ``(source, flags, texts) -> [bool]``: :func:`evaluate` on many texts in
  one trip into the engine (a call costs about a millisecond, a text a microsecond).

A pattern JavaScript rejects raises :class:`EcmaSyntaxError` with JavaScript's own message;
a text that one pattern searches longer than the bound raises
:class:`~reviewer.rule.pattern_errors.PatternTimeout`. ``g`` and ``d`` are accepted and
change no test: every test starts at index 0 (``lastIndex`` is reset), as a fresh
``RegExp`` would.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import resource
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from reviewer.errors import ReviewerError
from reviewer.rule.pattern_errors import PatternError, PatternTimeout

DEFAULT_TIMEOUT = 0.5
# V8 flags: the default, plus the two RegExp features V8 shipped after Node 20's V8 11.3,
# so that a pattern the production filter (Node 20) refuses is refused here as well.
V8_FLAGS = ("--single-threaded", "--no-js-regexp-modifiers",
            "--no-js-regexp-duplicate-named-groups")
# A batch gives the engine back after this many milliseconds (then resumes where it
# stopped): other callers (the example pane while a back-test runs) wait at most this.
SLICE_MS = 50

_PROGRAM = r"""
"use strict";
const cache = new Map();
let texts = [];
let progress = 0;
let marks = "";
function compile(source, flags) {
  const key = flags + "/" + source;
  let re = cache.get(key);
  if (re === undefined) {
    re = new RegExp(source, flags);
    // V8 compiles on the first run: "Regular expression too large" shows only then.
    re.test("");
    re.lastIndex = 0;
    if (cache.size >= 256) cache.clear();
    cache.set(key, re);
  }
  return re;
}
function rejection(source, flags) {
  try { compile(source, flags); return ""; } catch (e) { return String(e.message); }
}
function testFrom(source, flags, start, sliceMs, json) {
  const re = compile(source, flags);
  if (json !== "") texts = JSON.parse(json);
  const began = Date.now();
  marks = "";
  for (let i = start; i < texts.length; i++) {
    if (i > start && Date.now() - began > sliceMs) break;
    progress = i;
    re.lastIndex = 0;
    marks += re.test(texts[i]) ? "1" : "0";
  }
  return marks;
}
function done() { return marks; }
function testOne(source, flags, json) {
  const re = compile(source, flags);
  re.lastIndex = 0;
  return re.test(JSON.parse(json));
}
function spansOf(source, flags, json) {
  const re = compile(source, flags.includes("g") ? flags : flags + "g");
  re.lastIndex = 0;  // matchAll starts where the cached object's last test() left it
  const out = [];
  for (const m of JSON.parse(json).matchAll(re)) out.push(m.index, m.index + m[0].length);
  return JSON.stringify(out);
}
"""


class EcmaSyntaxError(PatternError):
    """A pattern (or flags) that JavaScript's ``new RegExp(source, flags)`` refuses.

    ``reason`` is JavaScript's message, e.g. ``Invalid regular expression: /(?P<n>a)/:
    Invalid group``.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class EngineUnavailable(PatternError):
    """The ECMAScript engine (mini-racer) cannot run here: not installed, or an
    address-space limit (``ulimit -v``) smaller than what V8 reserves at start.

    Not the pattern's fault: exit 1 (could not finish), not 2 (bad input). A caller that
    only shows matches (the example pane) shows this message in their place.
    """

    exit_code = ReviewerError.exit_code


# V8 (PartitionAlloc, the pointer-compression cage) reserves hundreds of gigabytes of
# address space when it starts and aborts the process (SIGTRAP, exit 133, a native stack
# trace) when it cannot: measured here at any limit up to 200 GB, none at 256 GB. No V8
# flag changes those reservations, so under a limit the engine is first started in a
# child process, which may die in its place.
_PROBE = ("from py_mini_racer import MiniRacer, init_mini_racer\n"
          f"init_mini_racer(flags={V8_FLAGS!r})\n"
          "MiniRacer().eval('1')\n")
PROBE_TIMEOUT = 60.0


def _gigabytes(limit: int) -> str:
    return f"ulimit -v {limit >> 10}, {limit / (1 << 30):.1f} GB"


def _address_space_refusal() -> str | None:
    """Why V8 cannot start under this process's address-space limit, or None."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        done = subprocess.run([sys.executable, "-I", "-c", _PROBE], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=PROBE_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None  # the probe itself could not say: let the engine try
    if done.returncode == 0:
        return None
    return ("the JavaScript regex engine needs more virtual memory than ulimit -v allows "
            f"({_gigabytes(soft)}); raise the limit or run without it")


class _Engine:
    """One V8 context with the program above; calls are serialised by a lock."""

    def __init__(self) -> None:
        try:
            from py_mini_racer import LibAlreadyInitializedError, MiniRacer, init_mini_racer
        except ImportError as exc:  # pragma: no cover - a broken install
            raise EngineUnavailable(f"the ECMAScript engine is not installed ({exc})") from None
        # If someone started V8 first, its flags stay (the tests against Node would show).
        with contextlib.suppress(LibAlreadyInitializedError):
            init_mini_racer(flags=V8_FLAGS)
        from py_mini_racer import JSEvalException, JSTimeoutException

        self._timeout_error: type[Exception] = JSTimeoutException
        self._eval_error: type[Exception] = JSEvalException
        self._ctx = MiniRacer()
        self._ctx.eval(_PROGRAM)
        self.lock = threading.Lock()
        # The batch the context holds: another caller may load its own between two slices.
        self.loaded: str | None = None
        # A call stopped by its time bound may still answer later, from V8's thread:
        # freeing the context then printed mini-racer's "Event loop is closed" traceback
        # under the one-line message (see _close).
        self.stopped = False
        fns = {name: self._ctx.eval(name) for name in
               ("rejection", "testFrom", "done", "testOne", "spansOf")}
        self._fn: dict[str, Callable[..., Any]] = fns  # type: ignore[assignment]

    def close(self) -> None:
        """Free the V8 context and stop its thread."""
        with self.lock:
            self._fn.clear()
            self._ctx.close()

    def call(self, name: str, *args: Any, timeout: float | None = None) -> Any:
        """Call a function of the program; None when the time bound stopped it.

        A call that compiles a pattern JavaScript refuses raises EcmaSyntaxError.
        """
        try:
            return self._fn[name](*args, timeout_sec=timeout)
        except self._timeout_error:
            self.stopped = True
            return None
        except KeyboardInterrupt:
            # Ctrl-C while V8 runs: the call is still in flight on mini-racer's threads,
            # and closing the context at exit then printed their tracebacks ("Event loop
            # is closed", 16 lines under the one-line message). The process is ending.
            abandon()
            raise
        except self._eval_error:
            if name in ("testFrom", "testOne", "spansOf"):
                reason = self._fn["rejection"](args[0], args[1])
                if reason:
                    raise EcmaSyntaxError(_short(str(reason), args[0])) from None
            raise


_engine: _Engine | None = None
_engine_lock = threading.Lock()
_refusal: str | None = None


def _get() -> _Engine:
    global _engine, _refusal
    if _engine is None:
        with _engine_lock:
            if _refusal is not None:
                raise EngineUnavailable(_refusal)
            if _engine is None:
                _refusal = _address_space_refusal()
                if _refusal is not None:
                    raise EngineUnavailable(_refusal)
                _engine = _Engine()
                atexit.register(_close)
    return _engine


def unavailable() -> str | None:
    """Why the engine could not start in this process (None: it started, or was not
    asked yet)."""
    return _refusal


def abandon() -> None:
    """Leave the engine to the end of the process without freeing its V8 context.

    The GUI calls it when it quits: on some stores (the benchmark's 10,000-attempt run)
    freeing the context there crashed the process (exit 139, in mr_free_context), while
    the CLI and the tests free it cleanly at exit. The process is ending: the memory goes
    back with it, and an extra reference keeps the context's finaliser from running.
    """
    global _engine
    engine, _engine = _engine, None
    if engine is not None:  # there was an engine: ctypes is loaded already (py_mini_racer)
        import ctypes

        ctypes.pythonapi.Py_IncRef(ctypes.py_object(engine))


def _close() -> None:
    # Before the interpreter freezes mini-racer's event-loop thread: left to the garbage
    # collector at shutdown, closing the context waits for that thread forever.
    global _engine
    engine = _engine
    if engine is not None and engine.stopped:
        abandon()  # a stopped call may still answer: the process's end frees it all
        return
    _engine = None
    if engine is not None:
        engine.close()


def _json(text: str) -> str:
    # ASCII JSON: a lone surrogate (which UTF-8 cannot carry) reaches JavaScript intact.
    return json.dumps(text)


def check_syntax(source: str, flags: str = "") -> None:
    """Raise EcmaSyntaxError when ``new RegExp(source, flags)`` throws in JavaScript."""
    engine = _get()
    with engine.lock:
        reason = engine.call("rejection", source, flags)
    if reason:
        raise EcmaSyntaxError(_short(str(reason), source))


def _short(reason: str, source: str, limit: int = 60) -> str:
    """JavaScript's message with the pattern it quotes cut to ``limit`` characters (a
    120 KB pattern made a 120 KB error line)."""
    if len(source) <= limit:
        return reason
    return reason.replace(source, source[:limit] + "…", 1)


def test_many(source: str, flags: str, texts: Sequence[str], *,
              timeout: float = DEFAULT_TIMEOUT,
              where: Callable[[int], str] | None = None,
              checkpoint: Callable[[], None] | None = None) -> list[bool]:
    """``RegExp(source, flags).test(t)`` for every text, in one trip into the engine.

    A text on which the test runs longer than ``timeout`` seconds raises PatternTimeout
    (``where(index)`` names it); the others cost no more than in a loop inside JavaScript.
    The engine hands back every 50 ms: ``checkpoint()`` runs then, and may raise to stop
    (outside the engine's lock, so the exception leaves the engine ready).
    """
    if not texts:
        check_syntax(source, flags)
        return []
    engine = _get()
    out: list[bool] = []
    payload = json.dumps(list(texts))
    start = 0
    while start < len(texts):
        if checkpoint is not None:
            checkpoint()
        with engine.lock:
            # The texts go in once, unless another caller loaded its own in between.
            fresh = "" if engine.loaded is payload else payload
            engine.loaded = payload
            marks = engine.call("testFrom", source, flags, start, SLICE_MS, fresh,
                                timeout=timeout)
            if marks is None:
                # Stopped inside one text: keep what was done before it, then give that
                # text the whole bound alone, so only a text slow by itself is blamed.
                marks = str(engine.call("done"))
                index = start + len(marks)
                alone = engine.call("testFrom", source, flags, index, 0, "", timeout=timeout)
                if alone is None:
                    raise PatternTimeout(timeout, where(index) if where else "")
                marks += str(alone)[:1]
        out.extend(m == "1" for m in str(marks))
        start += len(str(marks))
    return out


def evaluate(source: str, flags: str, text: str, *, timeout: float = DEFAULT_TIMEOUT,
             where: str = "") -> bool:
    """``new RegExp(source, flags).test(text)``: True when the pattern matches the text."""
    engine = _get()
    with engine.lock:
        found = engine.call("testOne", source, flags, _json(text), timeout=timeout)
    if found is None:
        raise PatternTimeout(timeout, where)
    return bool(found)


def spans_utf16(source: str, flags: str, text: str, *, timeout: float = DEFAULT_TIMEOUT,
                where: str = "") -> list[tuple[int, int]]:
    """Every match of the pattern in ``text`` (``matchAll``) as JavaScript gives it:
    ``(m.index, m.index + m[0].length)`` in UTF-16 code units."""
    engine = _get()
    with engine.lock:
        found = engine.call("spansOf", source, flags, _json(text), timeout=timeout)
    if found is None:
        raise PatternTimeout(timeout, where)
    flat: list[int] = json.loads(str(found))
    return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]


def spans(source: str, flags: str, text: str, *, timeout: float = DEFAULT_TIMEOUT,
          where: str = "") -> list[tuple[int, int]]:
    """Every match of the pattern in ``text`` (``matchAll``), as code point offsets.

    JavaScript indexes UTF-16 code units; Python, code points. A match that starts or ends
    inside a surrogate pair (possible without ``u``: ``/./`` on « 😀 ») covers that whole
    character here; an empty match stays empty.
    """
    units = _CodePoints(text)
    return [(units.start(a), units.start(a) if b == a else units.end(b))
            for a, b in spans_utf16(source, flags, text, timeout=timeout, where=where)]


class _CodePoints:
    """Maps UTF-16 offsets of ``text`` to code point offsets (identity without astral)."""

    def __init__(self, text: str) -> None:
        self._map: list[int] | None = None
        if text and max(text) > "\uffff":
            # starts[u] = the code point holding UTF-16 unit u; one entry past the end.
            starts: list[int] = []
            for i, ch in enumerate(text):
                starts.append(i)
                if ch > "\uffff":
                    starts.append(i)
            starts.append(len(text))
            self._map = starts

    def start(self, unit: int) -> int:
        """The code point holding ``unit``."""
        return unit if self._map is None else self._map[unit]

    def end(self, unit: int) -> int:
        """How many code points begin before ``unit`` (``unit`` > 0)."""
        return unit if self._map is None else self._map[unit - 1] + 1
