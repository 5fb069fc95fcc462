"""A reviewer's decision row: reading it, its plain snapshot, the conflict a stale write raises."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Select, select
from sqlalchemy.orm import Session

from models import ReviewDecision
from reviewer.errors import ReviewerError

DECISIONS = ("accept", "reject")


class ConflictError(ReviewerError):
    """The decision changed since it was read (another window or process wrote it)."""

    def __init__(self, message: str, current: dict[str, Any]) -> None:
        super().__init__(message)
        self.current = current


def holds_decision(row: Any = ReviewDecision) -> ColumnElement[bool]:
    """SQL: the decision row ``row`` (``ReviewDecision`` or an alias of it) holds a
    decision, accept or reject. The one meaning of "reviewed": a row whose decision was
    undone, or which holds overrides or a note alone, is no decision (the eighth hostile
    pass, S5: ``reviewer stats`` counted such rows, the queue and the window did not)."""
    condition: ColumnElement[bool] = row.decision.is_not(None)
    return condition


def decided_attempts(reviewer: str | None = None) -> Select[Any]:
    """The ids of the attempts ``reviewer`` decided (anyone, for None): the queue's
    "reviewed" state and its progress, and ``reviewer stats``'s ``reviewed``, read here."""
    stmt = select(ReviewDecision.attempt_id).where(holds_decision())
    if reviewer is not None:
        stmt = stmt.where(ReviewDecision.reviewer == reviewer)
    return stmt


def get_decision(session: Session, attempt_id: int, reviewer: str) -> ReviewDecision | None:
    """This reviewer's decision row on an attempt, if any."""
    return session.scalar(
        select(ReviewDecision).where(
            ReviewDecision.attempt_id == attempt_id, ReviewDecision.reviewer == reviewer
        )
    )


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
