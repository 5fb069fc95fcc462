"""Reading run files (JSONL, one graded attempt per line) into validated records.

Every problem is reported as ``LineError(line, message)`` so the importer can either
refuse the whole file or set the line aside (``--skip-bad``). See docs/format.md.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from reviewer.input_bytes import bounded_lines
from reviewer.json_input import (
    MID_FILE_BOM,
    DuplicateKey,
    brackets,
    check_storable,
    may_be_unstorable,
    nested_too_deeply,
    no_duplicate_keys,
    parse_verdict,
    too_many_digits,
)
from reviewer.keys import MAX_INDEX, AttemptKey, nfc
from reviewer.text_rules import char_label, first_hidden, spelt

ROLES = ("system", "user", "assistant")


class LineError(Exception):
    """A line of a run file that cannot be imported."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass(frozen=True, slots=True)
class VerdictRecord:
    """A judge verdict as read from a record."""

    criterion: str
    met: bool
    rationale: str


@dataclass(frozen=True, slots=True)
class CheckRecord:
    """A check result as read from a record."""

    check: str
    passed: bool


@dataclass(frozen=True, slots=True)
class AttemptRecord:
    """One validated line of a run file."""

    line: int
    key: AttemptKey
    messages: list[dict[str, str]]
    response: str
    reference: str | None
    accepted: bool
    reasons: list[str]
    checks: tuple[CheckRecord, ...]
    judge_model: str | None
    verdicts: tuple[VerdictRecord, ...]
    turns_planned: int | None
    fingerprint: str


def _positive_int(data: dict[str, Any], key: str, *, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    # bool is an int subclass in Python: `true` is not a turn number.
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"'{key}' must be a positive integer, got {json.dumps(value)}")
    if value > MAX_INDEX:
        raise ValueError(f"'{key}' must be at most {MAX_INDEX:,}, got {value}")
    return value


def _name(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"'{key}' must be a non-empty string")
    if "/" in value:
        raise ValueError(f"'{key}' must not contain '/' (it is part of the attempt key)")
    bad = first_hidden(value)
    if bad is not None:
        # An id is typed back as part of an attempt key (`decide RUN/CONV/1/1`) and
        # printed raw by the CLI: a bidi override there reordered the terminal's line
        # (sixth hostile pass, U8). Refused as in reviewer names.
        raise ValueError(f"'{key}' {spelt(value)!r} contains {char_label(bad)}, a control, "
                         "bidi or invisible character; ids are printable text only")
    if value != value.strip():
        # A space before or after an id was stored as is: two attempts whose keys differ
        # by it alone, and a key typed or read back without it named the other one
        # (fifteenth hostile pass, P15-1; Z8 (4) of an earlier pass, a conversation id).
        raise ValueError(f"'{key}' {spelt(value)!r} has a space before or after it; "
                         "ids are typed back in attempt keys, where such spaces are lost")
    # Stored in NFC: the same id spelt with other code points (NFD, as macOS spells file
    # names) printed the same and imported as a second attempt (seventh pass, N1).
    return nfc(value)


def _messages(value: Any) -> list[dict[str, str]]:
    if not isinstance(value, list):
        raise ValueError("'messages' must be a list")
    out = []
    for i, msg in enumerate(value):
        if not isinstance(msg, dict):
            raise ValueError(f"messages[{i}] must be an object with 'role' and 'content'")
        role, content = msg.get("role"), msg.get("content")
        if role not in ROLES:
            raise ValueError(f"messages[{i}].role must be one of {', '.join(ROLES)}")
        if not isinstance(content, str):
            raise ValueError(f"messages[{i}].content must be a string")
        out.append({"role": role, "content": content})
    return out


def _checks(value: Any, known: set[str]) -> tuple[CheckRecord, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ValueError("'checks' must be a list")
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise ValueError(f"checks[{i}] must be an object with an 'id'")
        if item["id"] not in known:
            raise ValueError(f"unknown check id {item['id']!r} (not in the catalog)")
        if not isinstance(item.get("passed"), bool):
            raise ValueError(f"checks[{i}].passed must be true or false")
        out.append(CheckRecord(item["id"], item["passed"]))
    return tuple(out)


def _judge(value: Any, known: set[str]) -> tuple[str | None, tuple[VerdictRecord, ...]]:
    if value is None:
        return None, ()
    if not isinstance(value, dict):
        raise ValueError("'judge' must be an object with 'model' and 'verdicts'")
    model = value.get("model")
    if model is not None and not isinstance(model, str):
        raise ValueError("judge.model must be a string")
    verdicts = value.get("verdicts", [])
    if not isinstance(verdicts, list):
        raise ValueError("judge.verdicts must be a list")
    out = []
    for i, item in enumerate(verdicts):
        if not isinstance(item, dict) or not isinstance(item.get("criterion"), str):
            raise ValueError(f"judge.verdicts[{i}] must be an object with a 'criterion'")
        if item["criterion"] not in known:
            raise ValueError(f"unknown criterion id {item['criterion']!r} (not in the catalog)")
        met = parse_verdict(item.get("verdict"))
        if met is None:
            raise ValueError(
                f"judge.verdicts[{i}].verdict {json.dumps(item.get('verdict'))} is not "
                "oui/non, yes/no or true/false"
            )
        rationale = item.get("rationale", "")
        if not isinstance(rationale, str):
            raise ValueError(f"judge.verdicts[{i}].rationale must be a string")
        out.append(VerdictRecord(item["criterion"], met, rationale))
    ids = [v.criterion for v in out]
    if len(set(ids)) != len(ids):
        raise ValueError("a criterion is judged twice in judge.verdicts")
    return model, tuple(out)


def parse_record(raw: bytes, line: int, criteria: set[str], checks: set[str]) -> AttemptRecord:
    """Validate one line; raises LineError with a message naming what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LineError(line, f"not valid UTF-8 (byte {exc.start})") from None
    if "\x00" in text:
        raise LineError(line, "contains a NUL character")
    if text.startswith("\ufeff"):
        raise LineError(line, MID_FILE_BOM)
    opened = brackets(text)
    if nested_too_deeply(text, opened=opened):  # the decoder could exhaust a small C stack
        raise LineError(line, "JSON nested too deeply")
    try:
        data = json.loads(text, object_pairs_hook=no_duplicate_keys)
    except RecursionError:
        raise LineError(line, "JSON nested too deeply") from None
    except (json.JSONDecodeError, DuplicateKey) as exc:
        raise LineError(line, f"not valid JSON ({exc})") from None
    except ValueError:  # the only other: an integer past Python's digit limit
        raise LineError(line, too_many_digits()) from None
    if not isinstance(data, dict):
        raise LineError(line, "a record must be a JSON object")
    try:
        if may_be_unstorable(text, opened):
            check_storable(data)
        return _record(data, line, criteria, checks)
    except ValueError as exc:
        raise LineError(line, str(exc)) from None


def _record(data: dict[str, Any], line: int, criteria: set[str], checks: set[str]) -> AttemptRecord:
    key = AttemptKey(
        _name(data, "run"),
        _name(data, "conversation"),
        _positive_int(data, "turn") or 0,
        _positive_int(data, "attempt") or 0,
    )
    response = data.get("response")
    if not isinstance(response, str):
        raise ValueError("'response' must be a string")
    reference = data.get("reference")
    if reference is not None and not isinstance(reference, str):
        raise ValueError("'reference' must be a string or null")
    accepted = data.get("accepted")
    if not isinstance(accepted, bool):
        raise ValueError("'accepted' must be true or false")
    reasons = data.get("reasons", [])
    if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
        raise ValueError("'reasons' must be a list of strings")
    model, verdicts = _judge(data.get("judge"), criteria)
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return AttemptRecord(
        line=line,
        key=key,
        messages=_messages(data.get("messages", [])),
        response=response,
        reference=reference,
        accepted=accepted,
        reasons=list(reasons),
        checks=_checks(data.get("checks"), checks),
        judge_model=model,
        verdicts=verdicts,
        turns_planned=_positive_int(data, "turns_planned", optional=True),
        fingerprint=hashlib.sha256(canonical).hexdigest(),
    )


def iter_lines(fh: BinaryIO, source: object = "the run file") -> Iterator[tuple[int, bytes]]:
    """Non-blank lines with their 1-based numbers (a trailing newline is not a line),
    read in bounded memory: ``/dev/zero`` is "not a text file", not an exhausted memory."""
    for number, raw in bounded_lines(fh, source):
        stripped = raw.strip()
        if stripped:
            yield number, stripped


def count_lines(path: Path) -> int:
    """Number of lines, for the progress bar (fast: counts newlines in blocks)."""
    total = 0
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            total += block.count(b"\n")
    return total
