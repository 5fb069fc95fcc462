"""Reviewer decisions with an append-only audit trail (undo across restarts).

Every change is one ``AuditEvent`` (field, old value, new value) plus the new state in
``ReviewDecision``; both are written in the same transaction, committed at once. The
changes are typed commands (``reviewer.review.commands``: ``SetDecision``, ``SetNote``,
``OverrideCriterion``, ``MarkFalsePositive``, ``CommandGroup``); undo and redo are events
too (``reverts_id``) and the stacks are stored (``reviewer.review.stacks``,
``reviewer.review.undo``), so the undo history survives a restart.

This module is the entry point for callers that speak in stored field strings
(``decision``, ``note``, ``criterion:<ID>``, ``check:<ID>``): ``apply_change`` turns a
``Change`` into its command.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from models import AuditEvent
from reviewer.review.commands import Change
from reviewer.review.rows import DECISIONS, ConflictError, get_decision, snapshot
from reviewer.review.undo import Step, redo, undo

__all__ = ["DECISIONS", "Change", "ConflictError", "Step", "apply_change", "get_decision",
           "redo", "snapshot", "undo", "validate"]


def validate(change: Change) -> None:
    """Refuse fields and values the store cannot mean (BadInputError)."""
    change.command()


def apply_change(session: Session, reviewer: str, change: Change, *,
                 expected_version: int | None = None) -> AuditEvent:
    """Set one field as one undoable step; flushes, the caller's unit of work commits.

    ``expected_version`` is the decision version the caller last saw (0 = none existed);
    if the stored one differs, ConflictError tells what is stored now and nothing changes.
    """
    return change.command().apply(session, reviewer, expected_version=expected_version)
