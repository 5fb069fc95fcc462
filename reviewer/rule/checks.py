"""Evaluating a deterministic check (``D-…``) on an answer, with a time bound per pattern.

A check is a regular expression in a *dialect*, with flag letters, and a mode:

* ``python`` (the default): the ``regex`` package, flags ``i`` ignore case, ``m``
  multiline, ``s`` dot matches newline, ``x`` verbose;
* ``ecmascript``: JavaScript's ``RegExp``, run by V8 as the team's TypeScript filter runs
  it (``reviewer.rule.ecmascript``), flags ``d g i m s u v y``.

The mode:

* ``forbid`` fails when ``pattern`` matches the response;
* ``require`` fails when ``pattern`` does not match the response, and applies only when
  ``when`` matches the last user message (without ``when`` it always applies).

Every search has a time bound per text (``regex``'s ``timeout=``; V8's termination), so a
catastrophic backtracking pattern (``(a+)+$`` on a long run of "a") is stopped instead of
freezing the app: the caller gets a :class:`PatternTimeout` naming the attempt.
:func:`evaluate_many` evaluates one check on many answers at once (the ECMAScript engine
is entered once per batch instead of once per answer).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import regex

from reviewer.rule import ecmascript
from reviewer.rule.pattern_errors import PatternError, PatternTimeout

__all__ = ["DEFAULT_TIMEOUT", "DIALECTS", "CheckPattern", "CompiledCheck", "EcmaPattern",
           "PatternError", "PatternTimeout", "applies", "compile_check", "compile_pattern",
           "evaluate", "evaluate_many", "find_matches", "last_user_message"]

DEFAULT_TIMEOUT = 0.5
FLAG_LETTERS = {"i": regex.IGNORECASE, "m": regex.MULTILINE, "s": regex.DOTALL,
                "x": regex.VERBOSE}
MODES = ("forbid", "require")
DIALECTS = ("python", "ecmascript")


@dataclass(frozen=True, slots=True)
class CheckPattern:
    """What a check evaluates: the pattern, its flags, its mode, its ``when`` pattern and
    the dialect both patterns are written in."""

    pattern: str
    flags: str = ""
    mode: str = "forbid"
    when: str | None = None
    dialect: str = "python"


@dataclass(frozen=True, slots=True)
class EcmaPattern:
    """A pattern JavaScript accepted, ready for ``reviewer.rule.ecmascript``."""

    source: str
    flags: str


@dataclass(frozen=True, slots=True)
class CompiledCheck:
    """A check ready to run: compiled patterns and the time bound per text."""

    spec: CheckPattern
    pattern: Any
    when: Any
    timeout: float


def flag_value(flags: str) -> int:
    """The ``regex`` flags for letters like ``"im"``; PatternError on an unknown letter."""
    value = 0
    for letter in flags:
        if letter not in FLAG_LETTERS:
            raise PatternError(f"unknown regex flag {letter!r} (use i, m, s, x)")
        value |= FLAG_LETTERS[letter]
    return value


def compile_pattern(pattern: str, flags: str = "", *, label: str = "pattern",
                    dialect: str = "python") -> Any:
    """Compile one pattern; PatternError with the position of the mistake if invalid.

    An ``ecmascript`` pattern is checked by JavaScript itself: the error is its message.
    """
    if not pattern:
        raise PatternError(f"{label} is empty")
    if dialect == "ecmascript":
        try:
            ecmascript.check_syntax(pattern, flags)
        except ecmascript.EcmaSyntaxError as exc:
            raise ecmascript.EcmaSyntaxError(f"invalid {label} (ECMAScript): {exc.reason}") \
                from None
        return EcmaPattern(pattern, flags)
    if dialect != "python":
        raise PatternError(f"dialect must be python or ecmascript, not {dialect!r}")
    try:
        return regex.compile(pattern, flag_value(flags))
    except regex.error as exc:
        raise PatternError(f"invalid {label}: {exc}") from None


def compile_check(spec: CheckPattern, *, timeout: float = DEFAULT_TIMEOUT) -> CompiledCheck:
    """Validate and compile a check (pattern, flags, mode, when, dialect)."""
    if spec.mode not in MODES:
        raise PatternError(f"mode must be forbid or require, not {spec.mode!r}")
    if spec.dialect not in DIALECTS:
        raise PatternError(f"dialect must be python or ecmascript, not {spec.dialect!r}")
    when = compile_pattern(spec.when, spec.flags, label="when", dialect=spec.dialect) \
        if spec.when else None
    pattern = compile_pattern(spec.pattern, spec.flags, dialect=spec.dialect)
    return CompiledCheck(spec, pattern, when, timeout)


def _search(pattern: Any, text: str, timeout: float, where: str) -> bool:
    if isinstance(pattern, EcmaPattern):
        return ecmascript.evaluate(pattern.source, pattern.flags, text, timeout=timeout,
                                   where=where)
    try:
        return pattern.search(text, timeout=timeout) is not None
    except TimeoutError:
        raise PatternTimeout(timeout, where) from None


def applies(check: CompiledCheck, last_user: str, *, where: str = "") -> bool:
    """Whether the check applies: always for ``forbid``; ``require`` only if ``when`` matches."""
    if check.spec.mode == "forbid" or check.when is None:
        return True
    return _search(check.when, last_user, check.timeout, where)


def _verdict(check: CompiledCheck, found: bool) -> bool:
    return not found if check.spec.mode == "forbid" else found


def evaluate(check: CompiledCheck, response: str, last_user: str = "", *, where: str = "") -> bool:
    """True when the answer passes the check (``where`` names the text in a timeout message)."""
    if not applies(check, last_user, where=where):
        return True
    return _verdict(check, _search(check.pattern, response, check.timeout, where))


def _found_many(pattern: Any, texts: Sequence[str], timeout: float,
                where: Callable[[int], str], checkpoint: Callable[[], None] | None
                ) -> list[bool]:
    if isinstance(pattern, EcmaPattern):
        return ecmascript.test_many(pattern.source, pattern.flags, texts, timeout=timeout,
                                    where=where, checkpoint=checkpoint)
    found = []
    for i, text in enumerate(texts):
        if checkpoint is not None:
            checkpoint()
        found.append(_search(pattern, text, timeout, where(i)))
    return found


def evaluate_many(check: CompiledCheck, responses: Sequence[str],
                  last_users: Sequence[str] | None = None, *,
                  where: Callable[[int], str] = lambda _: "",
                  checkpoint: Callable[[], None] | None = None) -> list[bool]:
    """:func:`evaluate` on many answers (``last_users[i]`` goes with ``responses[i]``).

    The same results as a loop; for ``ecmascript`` one trip into the engine per pattern.
    ``checkpoint()`` is called before each text (``python``) or every 50 ms inside the
    engine (``ecmascript``); it may raise to stop the evaluation.
    """
    if check.spec.mode == "require" and check.when is not None:
        users = last_users if last_users is not None else [""] * len(responses)
        applying = _found_many(check.when, users, check.timeout, where, checkpoint)
    else:
        applying = [True] * len(responses)
    chosen = [i for i, yes in enumerate(applying) if yes]
    found = _found_many(check.pattern, [responses[i] for i in chosen], check.timeout,
                        lambda j: where(chosen[j]), checkpoint)
    passed = [True] * len(responses)
    for i, hit in zip(chosen, found, strict=True):
        passed[i] = _verdict(check, hit)
    return passed


def find_matches(
    check: CompiledCheck, response: str, *, where: str = ""
) -> list[tuple[int, int]]:
    """The (start, end) spans the pattern matches in the response, for highlighting.

    Code point offsets into ``response`` in both dialects.
    """
    pattern = check.pattern
    if isinstance(pattern, EcmaPattern):
        return ecmascript.spans(pattern.source, pattern.flags, response,
                                timeout=check.timeout, where=where)
    try:
        return [m.span() for m in pattern.finditer(response, timeout=check.timeout)]
    except TimeoutError:
        raise PatternTimeout(check.timeout, where) from None


def last_user_message(messages: Sequence[Any] | None) -> str:
    """The content of the last ``user`` message of a context ("" when there is none)."""
    for message in reversed(messages or ()):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else ""
    return ""
