"""The agreement dashboard's figures in one read: grader/reviewer agreement, refusals per
cause, cut conversations (``feedback_stats``) and agreement between reviewers."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from reviewer.agreement.feedback import feedback_stats
from reviewer.agreement.reviewers import reviewer_agreement


def dashboard_stats(session: Session, reviewer: str | None = None) -> dict[str, Any]:
    """``feedback_stats`` plus ``"between_reviewers"`` (a ``ReviewerAgreement``)."""
    stats = feedback_stats(session, reviewer)
    stats["between_reviewers"] = reviewer_agreement(session)
    return stats
