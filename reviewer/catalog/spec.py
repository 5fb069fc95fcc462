"""Catalog files: the criteria and checks a run was graded with, as the file states them.

``read_catalog`` / ``parse_catalog`` validate a catalog document into specs; storing them
as versions is ``reviewer.catalog.versions``. A top-level ``"dialect"`` (``python`` or
``ecmascript``) is the default of the checks, each of which may name its own; without
either a check is ``python``. Each pattern is compiled by the engine that will run it, so
a pattern JavaScript refuses is refused at import with JavaScript's message and the
``FILE:LINE`` of the pattern.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reviewer.errors import BadInputError
from reviewer.input_bytes import read_text
from reviewer.json_input import check_storable, nested_too_deeply, no_duplicate_keys
from reviewer.rule.checks import DIALECTS, CheckPattern, PatternError, compile_check
from reviewer.rule.ecmascript import EcmaSyntaxError, EngineUnavailable, unavailable

KINDS = ("success", "failure")


@dataclass(frozen=True, slots=True)
class CriterionSpec:
    """A criterion as a catalog states it."""

    id: str
    kind: str
    severity: str | None
    text: str


@dataclass(frozen=True, slots=True)
class CheckSpec:
    """A check as a catalog states it."""

    id: str
    description: str
    pattern: str
    flags: str
    mode: str
    when: str | None
    dialect: str = "python"

    @property
    def check_pattern(self) -> CheckPattern:
        """What the check evaluates."""
        return CheckPattern(self.pattern, self.flags, self.mode, self.when, self.dialect)


@dataclass(frozen=True, slots=True)
class Catalog:
    """A parsed catalog file."""

    criteria: tuple[CriterionSpec, ...]
    checks: tuple[CheckSpec, ...]
    # Why the ECMAScript patterns were stored without JavaScript checking their syntax
    # (the engine could not start here), or "".
    unchecked: str = ""


def _str_field(entry: dict[str, Any], key: str, where: str, *, optional: bool = False) -> Any:
    value = entry.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or (not optional and not value.strip() and key == "id"):
        raise BadInputError(f"{where}: '{key}' must be a non-empty string")
    return value


# A criterion text is a sentence or a paragraph the judge reads in every prompt. A 50 MB
# one (a catalog can hold it) kept the app deaf to the keyboard for 21 s at start, at
# 100 % CPU and 4 GB (sixteenth hostile pass, P16-1). Far above any written criterion.
MAX_CRITERION_TEXT = 20_000


def criterion_text(text: str, what: str) -> str:
    """``text`` when a criterion may say it, else BadInputError naming ``what``."""
    if len(text) > MAX_CRITERION_TEXT:
        raise BadInputError(f"{what}: the text is {len(text):,} characters, at most "
                            f"{MAX_CRITERION_TEXT:,} (a criterion is read in every prompt)")
    return text


def _criterion(entry: Any, where: str) -> CriterionSpec:
    if not isinstance(entry, dict):
        raise BadInputError(f"{where}: a criterion must be an object")
    cid = _str_field(entry, "id", where)
    kind = entry.get("kind") or _kind_from_id(cid)
    if kind not in KINDS:
        raise BadInputError(f"{where}: criterion {cid}: 'kind' must be success or failure")
    severity = entry.get("severity")
    # Only "major" matters to the filter rule; other severities are kept as they are.
    if severity is not None and not isinstance(severity, str):
        raise BadInputError(f"{where}: criterion {cid}: 'severity' must be a string or null")
    text = criterion_text(_str_field(entry, "text", where), f"{where}: criterion {cid}")
    return CriterionSpec(cid, kind, severity, text)


def _kind_from_id(cid: str) -> str | None:
    # The judge's naming convention: G-… success criteria, E-… failure criteria.
    if cid.startswith("G-"):
        return "success"
    if cid.startswith("E-"):
        return "failure"
    return None


def _dialect(value: Any, where: str) -> str:
    if value not in DIALECTS:
        raise BadInputError(f"{where}: 'dialect' must be python or ecmascript, not {value!r}")
    return str(value)


def _check(entry: Any, where: str, default_dialect: str, file: str) -> CheckSpec:
    if not isinstance(entry, dict):
        raise BadInputError(f"{where}: a check must be an object")
    cid = _str_field(entry, "id", where)
    pattern = _str_field(entry, "pattern", where)
    flags = entry.get("flags") or ""
    if not isinstance(flags, str):
        raise BadInputError(f"{where}: check {cid}: 'flags' must be a string")
    mode = entry.get("mode") or "forbid"
    when = _str_field(entry, "when", where, optional=True)
    dialect = _dialect(entry.get("dialect", default_dialect), f"{where}: check {cid}")
    try:
        # Compiled by the engine that will run it, so what imports is what runs.
        compile_check(CheckPattern(pattern, flags, mode, when, dialect))
    except EngineUnavailable:
        # No engine to ask here (ulimit -v): stored as written, as the production filter
        # runs it; whatever evaluates it later (back-test, recheck) needs the engine and
        # says so. The import says how many went in unchecked (Catalog.unchecked).
        pass
    except EcmaSyntaxError as exc:
        key = "when" if str(exc).startswith("invalid when") else "pattern"
        line = entry.line_of(key) if isinstance(entry, _Located) else None
        place = f"{file}:{line}: {where.removeprefix(file + ': ')}" if line else where
        raise BadInputError(f"{place}: check {cid}: {exc}") from None
    except PatternError as exc:
        raise BadInputError(f"{where}: check {cid}: {exc}") from None
    description = entry.get("description") or ""
    if not isinstance(description, str):
        raise BadInputError(f"{where}: check {cid}: 'description' must be a string")
    return CheckSpec(cid, description, pattern, flags, mode, when, dialect)


def parse_catalog(data: Any, where: str) -> Catalog:
    """Validate a decoded catalog document (``where``: its file, for messages)."""
    if not isinstance(data, dict):
        raise BadInputError(f"{where}: a catalog is an object with 'criteria' and 'checks'")
    crit = data.get("criteria", [])
    chk = data.get("checks", [])
    if not isinstance(crit, list) or not isinstance(chk, list):
        raise BadInputError(f"{where}: 'criteria' and 'checks' must be lists")
    default = _dialect(data.get("dialect", "python"), where)
    criteria = tuple(_criterion(e, f"{where}: criteria[{i}]") for i, e in enumerate(crit))
    checks = tuple(_check(e, f"{where}: checks[{i}]", default, where) for i, e in enumerate(chk))
    for label, ids in (("criterion", [c.id for c in criteria]), ("check", [c.id for c in checks])):
        dupes = {x for x in ids if ids.count(x) > 1}
        if dupes:
            raise BadInputError(f"{where}: duplicate {label} id {sorted(dupes)[0]}")
    scripted = sum(c.dialect == "ecmascript" for c in checks)
    reason = unavailable() if scripted else None
    unchecked = (f"{scripted} ECMAScript check pattern(s) stored without a syntax check: "
                 f"{reason}") if reason else ""
    return Catalog(criteria, checks, unchecked)


class _Located(dict[str, Any]):
    """A JSON object that knows where it sits in its file, to name the line of a key."""

    def __init__(self, pairs: dict[str, Any], text: str, start: int, end: int) -> None:
        super().__init__(pairs)
        self._text, self._start, self._end = text, start, end

    def line_of(self, key: str) -> int | None:
        """The 1-based line of ``"key":`` in this object (None when not found)."""
        # A check holds no nested object, so the first such key is its own; a key is a
        # string followed by a colon, which no string value is.
        found = re.compile(r'(?<!\\)"' + re.escape(key) + r'"\s*:').search(
            self._text, self._start, self._end)
        return None if found is None else self._text.count("\n", 0, found.start()) + 1


class _LocatingDecoder(json.JSONDecoder):
    """``json`` with the pure-Python scanner, whose objects remember their position."""

    def __init__(self, text: str) -> None:
        super().__init__(object_pairs_hook=no_duplicate_keys)
        # Neither is in the typeshed stubs, both are in every CPython since 3.0.
        parse: Any = vars(json.decoder)["JSONObject"]
        make_scanner: Any = vars(json.scanner)["py_make_scanner"]

        def parse_object(s_and_end: tuple[str, int], *args: Any) -> tuple[Any, int]:
            value, end = parse(s_and_end, *args)
            return _Located(value, text, s_and_end[1] - 1, end), end

        self.parse_object = parse_object
        self.scan_once = make_scanner(self)


MAX_CATALOG = 64 << 20
"""The largest catalog file read (fourth hostile pass, MEM: ``--catalog /dev/zero`` was
read until memory ran out); a catalog of ten thousand checks is a few megabytes."""


def read_catalog(path: Path) -> Catalog:
    """Read and validate a catalog JSON file."""
    text = read_text(path, MAX_CATALOG, "a catalog")
    if nested_too_deeply(text):  # before the decoder, which may exhaust a small C stack
        raise BadInputError(f"{path}: JSON nested too deeply")
    try:
        data = _LocatingDecoder(text).decode(text)
        check_storable(data)
    except RecursionError:
        raise BadInputError(f"{path}: JSON nested too deeply") from None
    except ValueError as exc:
        raise BadInputError(f"{path}: not a usable JSON catalog ({exc})") from None
    return parse_catalog(data, str(path))
