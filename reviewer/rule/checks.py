"""Evaluating a deterministic check (``D-…``) on an answer, with a time bound per pattern.

A check is a regular expression with flag letters (``i`` ignore case, ``m`` multiline,
``s`` dot matches newline, ``x`` verbose) and a mode:

* ``forbid`` fails when ``pattern`` matches the response;
* ``require`` fails when ``pattern`` does not match the response, and applies only when
  ``when`` matches the last user message (without ``when`` it always applies).

Patterns run with the ``regex`` package, whose ``timeout=`` stops a catastrophic
backtracking pattern (``(a+)+$`` on a long run of "a") instead of freezing the app:
the caller gets a :class:`PatternTimeout` naming the attempt it was stopped on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import regex

from reviewer.errors import BadInputError

DEFAULT_TIMEOUT = 0.5
FLAG_LETTERS = {"i": regex.IGNORECASE, "m": regex.MULTILINE, "s": regex.DOTALL,
                "x": regex.VERBOSE}
MODES = ("forbid", "require")


class PatternError(BadInputError):
    """A pattern (or its flags or mode) that cannot be compiled."""


class PatternTimeout(BadInputError):
    """A pattern ran longer than its time bound on one text (catastrophic backtracking?)."""

    def __init__(self, seconds: float, where: str = "") -> None:
        place = f" on {where}" if where else ""
        super().__init__(f"pattern stopped after {seconds:g} s{place}: catastrophic backtracking?")
        self.seconds = seconds
        self.where = where


@dataclass(frozen=True, slots=True)
class CheckPattern:
    """What a check evaluates: the pattern, its flags, its mode and its ``when`` pattern."""

    pattern: str
    flags: str = ""
    mode: str = "forbid"
    when: str | None = None


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


def compile_pattern(pattern: str, flags: str = "", *, label: str = "pattern") -> Any:
    """Compile one pattern; PatternError with the position of the mistake if invalid."""
    if not pattern:
        raise PatternError(f"{label} is empty")
    try:
        return regex.compile(pattern, flag_value(flags))
    except regex.error as exc:
        raise PatternError(f"invalid {label}: {exc}") from None


def compile_check(spec: CheckPattern, *, timeout: float = DEFAULT_TIMEOUT) -> CompiledCheck:
    """Validate and compile a check (pattern, flags, mode, when)."""
    if spec.mode not in MODES:
        raise PatternError(f"mode must be forbid or require, not {spec.mode!r}")
    when = compile_pattern(spec.when, spec.flags, label="when") if spec.when else None
    return CompiledCheck(spec, compile_pattern(spec.pattern, spec.flags), when, timeout)


def _search(pattern: Any, text: str, timeout: float, where: str) -> Any:
    try:
        return pattern.search(text, timeout=timeout)
    except TimeoutError:
        raise PatternTimeout(timeout, where) from None


def applies(check: CompiledCheck, last_user: str, *, where: str = "") -> bool:
    """Whether the check applies: always for ``forbid``; ``require`` only if ``when`` matches."""
    if check.spec.mode == "forbid" or check.when is None:
        return True
    return _search(check.when, last_user, check.timeout, where) is not None


def evaluate(check: CompiledCheck, response: str, last_user: str = "", *, where: str = "") -> bool:
    """True when the answer passes the check (``where`` names the text in a timeout message)."""
    if not applies(check, last_user, where=where):
        return True
    found = _search(check.pattern, response, check.timeout, where) is not None
    return not found if check.spec.mode == "forbid" else found


def find_matches(
    check: CompiledCheck, response: str, *, where: str = ""
) -> list[tuple[int, int]]:
    """The (start, end) spans the pattern matches in the response, for highlighting."""
    try:
        return [m.span() for m in check.pattern.finditer(response, timeout=check.timeout)]
    except TimeoutError:
        raise PatternTimeout(check.timeout, where) from None


def last_user_message(messages: Sequence[Any] | None) -> str:
    """The content of the last ``user`` message of a context ("" when there is none)."""
    for message in reversed(messages or ()):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else ""
    return ""
