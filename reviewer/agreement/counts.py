"""Counts over the store (``reviewer stats``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import distinct, func, select
from sqlalchemy.orm import Session

from models import Attempt, Check, Conversation, Criterion, Run
from reviewer.review.rows import decided_attempts


def basic_counts(session: Session) -> dict[str, int]:
    """The store's size and what the filter and the reviewers decided (``reviewed``:
    the attempts some reviewer decided, accept or reject)."""

    def count(stmt: Any) -> int:
        return int(session.scalar(stmt) or 0)

    attempts = count(select(func.count()).select_from(Attempt))
    accepted = count(select(func.count()).select_from(Attempt).where(Attempt.accepted))
    # Reviewed: decided by someone, as the queue's "reviewed" state reads it (a decision
    # undone leaves its row behind: it is not a decision).
    decided = decided_attempts().subquery()
    reviewed = count(select(func.count(distinct(decided.c.attempt_id))))
    return {
        "runs": count(select(func.count()).select_from(Run)),
        "conversations": count(select(func.count()).select_from(Conversation)),
        "attempts": attempts,
        "accepted": accepted,
        "rejected": attempts - accepted,
        "reviewed": reviewed,
        "criteria": count(select(func.count()).select_from(Criterion)),
        "checks": count(select(func.count()).select_from(Check)),
    }
