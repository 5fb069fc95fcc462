"""Team mode: several reviewers on one store, each with their own decisions.

A decision is one row per (attempt, reviewer), so two reviewers never write the same row
and nothing is overwritten. What remains is to *tell* a reviewer when someone else
decided on the attempt they are deciding on after they loaded it: ``decide`` does the
write and returns the other reviewers' decisions, with the ones written since the caller
looked at the attempt as conflicts.

Race-free on both backends: the attempt row is locked first (``FOR NO KEY UPDATE`` on
PostgreSQL; SQLite has a single writer, taken by our own write), and the other decisions
are read only after that, so of two reviewers deciding at the same moment the later one
always sees the earlier one. The same reviewer in two windows is refused by the version
check of a command's ``apply`` (``reviewer.review.commands``: ``ConflictError``).

Call ``decide`` for one attempt per transaction (as the app actions do): a transaction
holding the locks of several attempts, taken in different orders by two reviewers, could
deadlock on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Attempt, AuditEvent, ReviewDecision
from reviewer.errors import BadInputError
from reviewer.review.commands import Change, ReviewCommand
from reviewer.review.identity import default_reviewer as default_reviewer
from reviewer.review.identity import reviewer_name
from reviewer.review.rows import get_decision, snapshot


@dataclass(frozen=True, slots=True)
class OtherDecision:
    """Another reviewer's current decision on the same attempt."""

    reviewer: str
    version: int
    decision: str | None
    criteria: dict[str, Any]
    checks: dict[str, Any]
    note: str
    updated_at: datetime

    @classmethod
    def of(cls, row: ReviewDecision) -> OtherDecision:
        """A detached copy of a decision row."""
        return cls(row.reviewer, row.version, row.decision, dict(row.criteria or {}),
                   dict(row.checks or {}), row.note, row.updated_at)


@dataclass(frozen=True, slots=True)
class Conflict:
    """Another reviewer decided on this attempt after the caller loaded it.

    ``seen_version`` is the version the caller had seen (0: none). ``value`` is their value
    of the field just set; ``disagrees`` says whether it differs from the caller's new one.
    """

    other: OtherDecision
    seen_version: int
    disagrees: bool
    value: Any = None

    def message(self, field: str) -> str:
        """One line for the status bar or the CLI (``field``: the field's name to show)."""
        verb = "disagrees" if self.disagrees else "agrees"
        return (f"{self.other.reviewer} also reviewed this attempt meanwhile "
                f"({field} = {self.value!r}, {verb})")


@dataclass(frozen=True, slots=True)
class DecisionResult:
    """What ``decide`` wrote and what the other reviewers decided on the same attempt."""

    event: AuditEvent
    mine: dict[str, Any]
    others: tuple[OtherDecision, ...]
    conflicts: tuple[Conflict, ...]


def other_decisions(session: Session, attempt_id: int, reviewer: str) -> list[OtherDecision]:
    """The other reviewers' decisions on an attempt, by reviewer name."""
    rows = session.scalars(
        select(ReviewDecision)
        .where(ReviewDecision.attempt_id == attempt_id, ReviewDecision.reviewer != reviewer)
        .order_by(ReviewDecision.reviewer)
        .execution_options(populate_existing=True)  # another session may have changed them
    )
    return [OtherDecision.of(row) for row in rows]


def seen_versions(session: Session, attempt_id: int, reviewer: str) -> dict[str, int]:
    """What to remember when showing an attempt: each other reviewer's decision version."""
    return {o.reviewer: o.version for o in other_decisions(session, attempt_id, reviewer)}


def _lock_attempt(session: Session, attempt_id: int) -> None:
    """Serialise the deciders of one attempt (PostgreSQL row lock; no-op on SQLite).

    ``FOR NO KEY UPDATE`` rather than ``FOR UPDATE``: it does not block the foreign-key
    checks of rows inserted meanwhile (verdicts, audit events) for this attempt.
    """
    found = session.scalar(
        select(Attempt.id).where(Attempt.id == attempt_id).with_for_update(key_share=True)
    )
    if found is None:
        raise BadInputError(f"no attempt with id {attempt_id}")


def decide(
    session: Session,
    reviewer: str,
    change: Change | ReviewCommand,
    *,
    expected_version: int | None = None,
    seen_others: Mapping[str, int] | None = None,
) -> DecisionResult:
    """Apply ``change`` (a command, or its stored form) for ``reviewer`` and report the
    other reviewers' decisions.

    ``seen_others`` is ``seen_versions(...)`` taken when the caller loaded the attempt;
    every other decision that is new or changed since then is returned as a conflict (the
    caller's own decision is stored anyway: it is theirs). ``None`` = do not compare.
    Raises ``ConflictError`` when the caller's own decision changed meanwhile.
    """
    reviewer = reviewer_name(reviewer)
    command = change.command() if isinstance(change, Change) else change
    _lock_attempt(session, command.attempt_id)
    # Our write comes before reading the others: on SQLite it takes the single write lock,
    # so whoever decided before us has committed and is visible to the read below.
    event = command.apply(session, reviewer, expected_version=expected_version)
    others = tuple(other_decisions(session, command.attempt_id, reviewer))
    conflicts: tuple[Conflict, ...] = ()
    if seen_others is not None:
        conflicts = tuple(
            Conflict(o, seen_others.get(o.reviewer, 0),
                     command.read(o) not in (None, command.value), command.read(o))
            for o in others
            if o.version != seen_others.get(o.reviewer, 0)
        )
    mine = snapshot(get_decision(session, command.attempt_id, reviewer))
    return DecisionResult(event, mine, others, conflicts)

