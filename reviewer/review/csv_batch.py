"""Reviewer decisions from the command line or a CSV file, through the app's audit trail.

Every field set is one typed command (``reviewer.review.commands``) applied as its own
undoable step, as the app's actions do (an audit event the app's undo sees). One attempt
from the command line is one unit of work; a CSV batch is a single transaction: a bad row
anywhere raises ``BadInputError("FILE:LINE: …")`` and nothing is written.

CSV columns (header required, UTF-8): ``key,decision,criteria,checks,note,reviewer``

* ``key``: ``RUN/CONVERSATION/TURN/ATTEMPT``;
* ``decision``: ``accept``, ``reject``, ``none`` (clear) or empty (leave as is);
* ``criteria``: ``G-DEMANDE=met;E-INVENTE=unmet`` (``none`` clears an override);
* ``checks``: ``D-COMMERCE=false-positive``, on a check that failed on that attempt
  (``none`` clears);
* ``note``: free text (empty = leave as is);
* ``reviewer``: who decides (empty = the default reviewer).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Check, CheckResult, CheckVersion, Criterion
from reviewer.errors import BadInputError
from reviewer.input_bytes import read_bounded
from reviewer.keys import AttemptKey
from reviewer.review.commands import (
    MarkFalsePositive,
    OverrideCriterion,
    ReviewCommand,
    SetDecision,
    SetNote,
    key_of,
)
from reviewer.review.identity import known_reviewer, reviewer_name
from reviewer.review.queue import attempt_id_for
from reviewer.review.rows import get_decision
from reviewer.rule.replay import FALSE_POSITIVE
from reviewer.text_rules import not_utf8, storable

CSV_COLUMNS = ("key", "decision", "criteria", "checks", "note", "reviewer")
CRITERION_VALUES: dict[str, bool | None] = {"met": True, "unmet": False, "none": None}
CHECK_VALUES: dict[str, str | None] = {"false-positive": FALSE_POSITIVE,
                                       "false_positive": FALSE_POSITIVE, "none": None}
UNSET = object()
MAX_CSV = 256 << 20
"""A decisions file beyond this is not one (``/dev/zero`` would fill the memory)."""


@dataclass
class DecisionInput:
    """What to set on one attempt (fields left out are not touched)."""

    key: AttemptKey
    decision: Any = UNSET
    criteria: dict[str, bool | None] = field(default_factory=dict)
    checks: dict[str, str | None] = field(default_factory=dict)
    note: str | None = None
    reviewer: str | None = None

    def changes(self, attempt_id: int) -> Iterator[ReviewCommand]:
        """The commands to apply, decision first."""
        if self.decision is not UNSET:
            yield SetDecision(attempt_id, self.decision)
        for cid, met in self.criteria.items():
            yield OverrideCriterion(attempt_id, cid, met)
        for cid, mark in self.checks.items():
            yield MarkFalsePositive(attempt_id, cid, mark == FALSE_POSITIVE)
        if self.note is not None:
            yield SetNote(attempt_id, self.note)


def parse_assignments(text: str, values: dict[str, Any], what: str) -> dict[str, Any]:
    """``ID=value;ID=value`` (or a list of ``ID=value``) into a dict, values mapped.

    One ID given two values (``G-DEMANDE=met;G-DEMANDE=unmet``) is refused: the last one
    won without a word (ninth hostile pass Q4). Given twice alike, it is said once."""
    out: dict[str, Any] = {}
    words: dict[str, str] = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        ident, sep, raw = part.partition("=")
        value = raw.strip().lower()
        if not sep or not ident.strip() or value not in values:
            allowed = "|".join(v for v in values if "_" not in v)
            raise BadInputError(f"{what} {part!r}: expected ID={allowed}")
        ident = ident.strip()
        if ident in out and out[ident] != values[value]:
            raise BadInputError(f"{what} {ident} is given twice, as {words[ident]} and as "
                                f"{value}: say it once")
        out[ident], words[ident] = values[value], value
    return out


def parse_decision(text: str) -> Any:
    """``accept``/``reject``/``none`` → the stored value; empty → UNSET (leave it)."""
    value = text.strip().lower()
    if not value:
        return UNSET
    if value not in ("accept", "reject", "none"):
        raise BadInputError(f"decision {text!r}: expected accept, reject or none")
    return None if value == "none" else value


def read_csv(path: Path) -> list[tuple[int, DecisionInput]]:
    """The rows of a decisions CSV with the line each starts on; FILE:LINE errors.

    The file is decoded whole before it is parsed (a batch of decisions is small), so a
    byte that is not UTF-8 is reported at its own line, not at the start of the chunk a
    text reader happened to be decoding, nor as a traceback before the header.
    """
    data = read_bounded(path, MAX_CSV)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise not_utf8(path, data) from None
    # A cell may be as long as the file (bounded above): the csv module's own limit of
    # 131,072 characters refused a long note that --note takes (seventh hostile pass C1).
    # Raised, never lowered: the limit is the module's, shared by every reader.
    if csv.field_size_limit() < MAX_CSV:
        csv.field_size_limit(MAX_CSV)
    # strict: a quote left open is an error ("unexpected end of data"), not a note that
    # swallows every row after it up to the end of the file.
    reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
    try:
        fieldnames = reader.fieldnames or []
    except csv.Error as exc:
        raise BadInputError(f"{path}:1: not a CSV header ({exc})") from None
    missing = [c for c in ("key",) if c not in fieldnames]
    unknown = [c for c in fieldnames if c not in CSV_COLUMNS]
    if missing or unknown:
        raise BadInputError(f"{path}:1: columns are {','.join(CSV_COLUMNS)}"
                            f" (missing {missing or 'none'}, unknown {unknown or 'none'})")
    twice = sorted({c for c in fieldnames if fieldnames.count(c) > 1})
    if twice:  # DictReader would keep the last one silently
        raise BadInputError(f"{path}:1: column {', '.join(twice)} appears twice")
    out: list[tuple[int, DecisionInput]] = []
    fields = _FieldsSet()
    start = reader.line_num + 1
    try:
        for row in reader:
            try:
                item = _row_input(row)
                fields.add(item, start)
                out.append((start, item))
            except BadInputError as exc:
                raise BadInputError(f"{path}:{start}: {exc}") from None
            start = reader.line_num + 1
    except csv.Error as exc:
        why = "a quote opened in this row is never closed" \
            if "unexpected end of data" in str(exc) else f"not a CSV row ({exc})"
        raise BadInputError(f"{path}:{start}: {why}") from None
    return out


class _FieldsSet:
    """Which row set each field of each attempt (per reviewer), and to what.

    A field set twice to different values is refused: the last row won without a word
    (eleventh hostile pass, V8: ``reject`` then ``accept`` for one key answered "2 rows,
    3 fields set"). The same value twice, or other fields of the same attempt on another
    row, are fine."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str | None, str], tuple[object, int]] = {}

    def add(self, item: DecisionInput, line: int) -> None:
        # Without the spaces around its ids, as the key is looked up when it names no
        # attempt as typed (P15-1): `R/…` and ` R/…` may name one attempt.
        key = unicodedata.normalize("NFC", str(item.key.bare()))
        for name, value in _fields(item):
            first = self._seen.setdefault((key, item.reviewer, name), (value, line))
            if first[0] != value:
                raise BadInputError(f"{name} of {item.key} was already set to another value "
                                    f"at line {first[1]}; one value per field")


def _fields(item: DecisionInput) -> Iterator[tuple[str, object]]:
    if item.decision is not UNSET:
        yield "the decision", item.decision
    for cid, met in item.criteria.items():
        yield f"criterion {cid}", met
    for cid, mark in item.checks.items():
        yield f"check {cid}", mark
    if item.note is not None:
        yield "the note", item.note


def _row_input(row: dict[str, Any]) -> DecisionInput:
    if None in row:
        raise BadInputError("more cells than columns")
    cell = {k: storable(row.get(k) or "", f"the {k} cell") for k in CSV_COLUMNS}
    item = DecisionInput(
        AttemptKey.parse(cell["key"]),
        parse_decision(cell["decision"]),
        parse_assignments(cell["criteria"], CRITERION_VALUES, "criterion"),
        parse_assignments(cell["checks"], CHECK_VALUES, "check"),
        cell["note"] or None,
        reviewer_name(cell["reviewer"]) if cell["reviewer"].strip() else None,
    )
    if not any(True for _ in item.changes(0)):
        raise BadInputError("nothing to decide (no decision, override or note)")
    return item


def attempt_id_of(session: Session, key: AttemptKey) -> int:
    """The id of the attempt with this key; BadInputError when it is not stored."""
    found = attempt_id_for(session, key)
    if found is None:
        raise BadInputError(f"no attempt {key}")
    return found


def _check_ids(session: Session, item: DecisionInput) -> None:
    criteria = set(session.scalars(select(Criterion.id)))
    checks = set(session.scalars(select(Check.id)))
    for cid in item.criteria:
        if cid not in criteria:
            raise BadInputError(f"unknown criterion {cid!r}")
    for cid in item.checks:
        if cid not in checks:
            raise BadInputError(f"unknown check {cid!r}")


def _hits_to_mark(session: Session, item: DecisionInput, attempt_id: int) -> None:
    """Refuse a false positive on a check that has no failed result on the attempt.

    Fifteenth hostile pass, P15-10: ``--check D-LIEN=false-positive`` on an attempt whose
    D-LIEN passed was stored without a word; a false positive is a wrong hit, and a check
    that passed made none (the app's key acts on failed checks only). Clearing a mark
    (``none``) stays possible whatever the result.
    """
    marked = [cid for cid, mark in item.checks.items() if mark is not None]
    if not marked:
        return
    results: dict[str, set[bool]] = {}
    for cid, passed in session.execute(
            select(CheckVersion.check_id, CheckResult.passed)
            .join(CheckVersion, CheckVersion.id == CheckResult.check_version_id)
            .where(CheckResult.attempt_id == attempt_id,
                   CheckVersion.check_id.in_(marked))):
        results.setdefault(cid, set()).add(passed)
    for cid in marked:
        if False in results.get(cid, set()):
            continue
        said = "passed on" if cid in results else "has no result on"
        raise BadInputError(f"{cid} {said} {key_of(session, attempt_id)}: only a failed "
                            "check's hit can be marked a false positive")


def apply_input(session: Session, item: DecisionInput, reviewer: str) -> tuple[int, int]:
    """Apply one attempt's changes in the caller's unit of work; return how many were set,
    and the attempt's id (the one the key named: ``attempt_id_of``).

    A field already holding the new value is skipped, so re-running a CSV adds no event.
    """
    _check_ids(session, item)
    attempt_id = attempt_id_of(session, item.key)
    _hits_to_mark(session, item, attempt_id)
    # ``ALICE`` where the store knows ``alice``: refused on its row, even where it would
    # change nothing (ninth hostile pass, N2).
    who = known_reviewer(session, item.reviewer or reviewer)
    done = 0
    for command in item.changes(attempt_id):
        if command.read(get_decision(session, attempt_id, who)) == command.value:
            continue
        command.apply(session, who)
        done += 1
    return done, attempt_id


def apply_batch(
    session: Session, rows: list[tuple[int, DecisionInput]], reviewer: str, where: str
) -> int:
    """Apply every row in the caller's single transaction; errors name ``where:LINE``."""
    total = 0
    for line, item in rows:
        try:
            total += apply_input(session, item, reviewer)[0]
        except BadInputError as exc:
            raise BadInputError(f"{where}:{line}: {exc}") from None
    return total
