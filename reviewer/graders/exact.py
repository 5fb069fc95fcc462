"""All-or-nothing graders: exact value, substring, regular expression, JSON, label.

Each returns 1.0 or 0.0. Texts are compared after Unicode NFC normalisation and trimming
of surrounding whitespace; case is ignored unless asked otherwise (``casefold``, so "ß"
matches "SS").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any, Literal

import regex

from reviewer.errors import BadInputError
from reviewer.json_input import loads

_FLAGS = {"i": regex.IGNORECASE, "m": regex.MULTILINE, "s": regex.DOTALL, "x": regex.VERBOSE}
# Seconds a pattern may search one response: a catastrophic one ("(a+)+$" on a long run of
# "a") is stopped and reported instead of running for hours.
REGEX_TIMEOUT = 0.5


def _norm(text: str, case_sensitive: bool) -> str:
    text = " ".join(unicodedata.normalize("NFC", text).split())
    return text if case_sensitive else text.casefold()


def exact(
    response: str,
    expected: str,
    *,
    mode: Literal["equals", "contains"] = "equals",
    case_sensitive: bool = False,
) -> float:
    """1 when the response equals (or contains) the expected value, else 0.

    Runs of whitespace count as one space, so a wrapped line still matches.
    """
    got, want = _norm(response, case_sensitive), _norm(expected, case_sensitive)
    if mode == "equals":
        return float(got == want)
    if mode == "contains":
        return float(want in got)
    raise BadInputError(f"unknown exact mode {mode!r} (choose: equals, contains)")


DIALECTS = ("python", "ecmascript")


def compile_pattern(pattern: str, flags: str = "") -> regex.Pattern[str]:
    """Compile ``pattern`` with flag letters among ``imsx``; bad input is a BadInputError."""
    value = 0
    for letter in flags:
        if letter not in _FLAGS:
            raise BadInputError(f"unknown regex flag {letter!r} (use letters among imsx)")
        value |= _FLAGS[letter]
    try:
        return regex.compile(pattern, value)
    except regex.error as exc:
        raise BadInputError(f"invalid regular expression {pattern!r}: {exc}") from None


def regex_match(response: str, pattern: str, flags: str = "", *,
                timeout: float = REGEX_TIMEOUT, dialect: str = "python") -> float:
    """1 when ``pattern`` is found anywhere in the response (``search``, not ``match``).

    ``dialect="ecmascript"``: the pattern is JavaScript's (``RegExp(pattern, flags).test``,
    flags among ``dgimsuvy``), run by V8 as the team's filter runs it. A search running
    longer than ``timeout`` seconds, or a pattern the dialect refuses, is a BadInputError.
    """
    if dialect == "ecmascript":
        return _ecmascript_match(response, pattern, flags, timeout)
    if dialect != "python":
        raise BadInputError(f"unknown regex dialect {dialect!r} (use python or ecmascript)")
    try:
        found = compile_pattern(pattern, flags).search(response, timeout=timeout)
    except TimeoutError:
        raise BadInputError(f"regular expression {pattern!r} stopped after {timeout:g} s: "
                            "catastrophic backtracking?") from None
    return float(found is not None)


def _ecmascript_match(response: str, pattern: str, flags: str, timeout: float) -> float:
    # Here, not at module level: V8 loads only for an ECMAScript pattern.
    from reviewer.rule import ecmascript
    from reviewer.rule.pattern_errors import PatternTimeout

    try:
        return float(ecmascript.evaluate(pattern, flags, response, timeout=timeout))
    except ecmascript.EcmaSyntaxError as exc:
        raise BadInputError(f"invalid regular expression {pattern!r} (ECMAScript): "
                            f"{exc.reason}") from None
    except PatternTimeout:
        raise BadInputError(f"regular expression {pattern!r} stopped after {timeout:g} s: "
                            "catastrophic backtracking?") from None


def json_valid(response: str, schema: Mapping[str, Any] | None = None) -> float:
    """1 when the whole response (trimmed) is JSON, and valid against ``schema`` if given.

    No Markdown fence is stripped: a fixed output format means the bare JSON. JSON
    nested deeper than ``MAX_NESTING`` is not read (0): Python's decoder could exhaust
    a small C stack on it. Each search of one of the schema's patterns stops after
    ``REGEX_TIMEOUT`` seconds (``SchemaPatternTimeout``, a BadInputError naming it).
    """
    from referencing.exceptions import Unresolvable

    from reviewer.graders.schema_patterns import bounded

    try:
        value = loads(response.strip())
    except ValueError:
        return 0.0
    if schema is None:
        return 1.0
    validator = _checked_schema(schema)
    try:
        with bounded(REGEX_TIMEOUT):
            return float(validator.is_valid(value))
    except Unresolvable as exc:  # references are resolved inside the schema only
        raise BadInputError(f"JSON schema: cannot resolve $ref {exc.ref!r} (a reference "
                            "must point inside the schema file)") from None
    except RecursionError:
        raise BadInputError("JSON schema: a $ref loops back to itself without "
                            "end") from None


def _checked_schema(schema: Mapping[str, Any]) -> Any:
    import jsonschema

    try:
        validator = jsonschema.validators.validator_for(schema)(schema)
        validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise BadInputError(f"invalid JSON schema: {exc.message}") from None
    except RecursionError:  # a schema nested deeper than the checker can walk
        raise BadInputError("JSON schema: nested too deeply") from None
    return validator


def label(response: str, labels: Iterable[str], *, case_sensitive: bool = False) -> float:
    """1 when the response, trimmed and without a final period, is one of ``labels``."""
    known = {_norm(lab, case_sensitive) for lab in labels}
    if not known:
        raise BadInputError("the label grader needs at least one label")
    got = _norm(response, case_sensitive).rstrip(".").strip()
    return float(got in known)
