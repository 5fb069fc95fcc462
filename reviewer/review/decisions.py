"""Reviewer decisions as commands with an append-only audit trail (undo across restarts).

Every change is one ``AuditEvent`` (field, old value, new value) plus the new state in
``ReviewDecision``; both are written in the same transaction, committed at once. Undo and
redo are events too (``reverts_id``), so the undo history is rebuilt from the trail after
a restart. Fields:

* ``decision``: ``"accept"``, ``"reject"`` or None;
* ``note``: free text;
* ``criterion:<ID>``: True (met / "oui"), False (unmet / "non") or None (no override);
* ``check:<ID>``: ``"false_positive"`` or None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from models import Attempt, AuditEvent, ReviewDecision, utcnow
from reviewer.errors import BadInputError, ReviewerError
from reviewer.rule.replay import FALSE_POSITIVE

DECISIONS = ("accept", "reject")


class ConflictError(ReviewerError):
    """The decision changed since it was read (another window or process wrote it)."""

    def __init__(self, message: str, current: dict[str, Any]) -> None:
        super().__init__(message)
        self.current = current


@dataclass(frozen=True, slots=True)
class Change:
    """One field to set on one attempt for one reviewer."""

    attempt_id: int
    field: str
    new: Any


def validate(change: Change) -> None:
    """Refuse fields and values the store cannot mean."""
    f, v = change.field, change.new
    if f == "decision" and v not in (*DECISIONS, None):
        raise BadInputError(f"decision must be accept, reject or none, not {v!r}")
    elif f == "note" and not isinstance(v, str):
        raise BadInputError("a note is text")
    elif f.startswith("criterion:") and v not in (True, False, None):
        raise BadInputError(f"{f}: an override is met, unmet or none")
    elif f.startswith("check:") and v not in (FALSE_POSITIVE, None):
        raise BadInputError(f"{f}: a check override is false_positive or none")
    elif f != "decision" and f != "note" and not f.startswith(("criterion:", "check:")):
        raise BadInputError(f"unknown review field {f!r}")


def get_decision(session: Session, attempt_id: int, reviewer: str) -> ReviewDecision | None:
    """This reviewer's decision row on an attempt, if any."""
    return session.scalar(
        select(ReviewDecision).where(
            ReviewDecision.attempt_id == attempt_id, ReviewDecision.reviewer == reviewer
        )
    )


def read_field(row: ReviewDecision | None, field: str) -> Any:
    """The current value of a review field (None when unset)."""
    if row is None:
        return "" if field == "note" else None
    if field == "decision":
        return row.decision
    if field == "note":
        return row.note
    kind, _, ident = field.partition(":")
    mapping = row.criteria if kind == "criterion" else row.checks
    return (mapping or {}).get(ident)


def _write_field(row: ReviewDecision, field: str, value: Any) -> None:
    if field == "decision":
        row.decision = value
    elif field == "note":
        row.note = value
    else:
        kind, _, ident = field.partition(":")
        # Assign a new dict: JSON columns do not track in-place mutation.
        mapping = dict((row.criteria if kind == "criterion" else row.checks) or {})
        if value is None:
            mapping.pop(ident, None)
        else:
            mapping[ident] = value
        if kind == "criterion":
            row.criteria = mapping
        else:
            row.checks = mapping
    row.updated_at = utcnow()


def snapshot(row: ReviewDecision | None) -> dict[str, Any]:
    """A plain view of a decision, for messages and exports."""
    if row is None:
        return {"decision": None, "criteria": {}, "checks": {}, "note": "", "version": 0}
    return {
        "decision": row.decision,
        "criteria": dict(row.criteria or {}),
        "checks": dict(row.checks or {}),
        "note": row.note,
        "version": row.version,
    }


def apply_change(
    session: Session,
    reviewer: str,
    change: Change,
    *,
    expected_version: int | None = None,
    action: str = "set",
    reverts_id: int | None = None,
) -> AuditEvent:
    """Set one field and append its audit event; flushes, the caller's unit of work commits.

    ``expected_version`` is the decision version the caller last saw (0 = none existed);
    if the stored one differs, ConflictError tells what is stored now and nothing changes.
    """
    validate(change)
    if session.get(Attempt, change.attempt_id) is None:
        raise BadInputError(f"no attempt with id {change.attempt_id}")
    row = get_decision(session, change.attempt_id, reviewer)
    stored_version = row.version if row is not None else 0
    if expected_version is not None and expected_version != stored_version:
        raise ConflictError(
            f"the decision of {reviewer} on this attempt changed meanwhile "
            f"(version {stored_version}, you had {expected_version})",
            snapshot(row),
        )
    old = read_field(row, change.field)
    if row is None:
        row = ReviewDecision(attempt_id=change.attempt_id, reviewer=reviewer, criteria={},
                             checks={}, note="")
        session.add(row)
    _write_field(row, change.field, change.new)
    event = AuditEvent(attempt_id=change.attempt_id, reviewer=reviewer, action=action,
                       field=change.field, old=old, new=change.new, reverts_id=reverts_id)
    session.add(event)
    try:
        session.flush()
    except (StaleDataError, IntegrityError) as exc:
        # Another session inserted or updated this row between our read and our write.
        session.rollback()
        raise ConflictError(
            f"the decision of {reviewer} on this attempt was written by another session",
            snapshot(get_decision(session, change.attempt_id, reviewer)),
        ) from exc
    return event


@dataclass(frozen=True, slots=True)
class History:
    """The undo and redo stacks of one reviewer, rebuilt from the audit trail."""

    undo: tuple[int, ...]
    redo: tuple[int, ...]


def history(session: Session, reviewer: str) -> History:
    """Replay the reviewer's trail: a new change clears redo; undo moves to redo; redo back."""
    undo: list[int] = []
    redo: list[int] = []
    rows = session.execute(
        select(AuditEvent.id, AuditEvent.action)
        .where(AuditEvent.reviewer == reviewer)
        .order_by(AuditEvent.id)
    )
    for event_id, action in rows:
        if action == "undo":
            if undo:
                undo.pop()
            redo.append(event_id)
        elif action == "redo":
            if redo:
                redo.pop()
            undo.append(event_id)
        else:
            undo.append(event_id)
            redo.clear()
    return History(tuple(undo), tuple(redo))


def undo(session: Session, reviewer: str) -> AuditEvent | None:
    """Revert the reviewer's latest change still in effect; None when nothing to undo."""
    stack = history(session, reviewer).undo
    if not stack:
        return None
    target = session.get_one(AuditEvent, stack[-1])
    return apply_change(session, reviewer, Change(target.attempt_id, target.field, target.old),
                        action="undo", reverts_id=target.id)


def redo(session: Session, reviewer: str) -> AuditEvent | None:
    """Re-apply the change the latest undo reverted; None when nothing to redo."""
    stack = history(session, reviewer).redo
    if not stack:
        return None
    undo_event = session.get_one(AuditEvent, stack[-1])
    return apply_change(
        session, reviewer, Change(undo_event.attempt_id, undo_event.field, undo_event.old),
        action="redo", reverts_id=undo_event.id,
    )
