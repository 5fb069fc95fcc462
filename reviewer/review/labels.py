"""Which reviewer decision speaks for an attempt, and what it says about a check or criterion.

Several reviewers may decide the same attempt. Figures and exports use *one* decision
per attempt: the named reviewer's when one is given (``--reviewer``), otherwise the most
recently updated decision among all reviewers (the team's latest word). Decisions are
human-scale (one per reviewed attempt), so they are read into memory once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Attempt, ReviewDecision
from reviewer.rule.filter import can_refuse, goes_against
from reviewer.rule.replay import FALSE_POSITIVE, Overrides, replay
from reviewer.rule.verdicts import EffectiveVerdict


@dataclass(frozen=True, slots=True)
class ReviewView:
    """One reviewer's decision on one attempt, detached from the session."""

    attempt_id: int
    reviewer: str
    decision: str | None
    criteria: Mapping[str, bool] = field(default_factory=dict)
    checks: Mapping[str, str] = field(default_factory=dict)
    note: str = ""
    updated_at: datetime | None = None

    @property
    def audited(self) -> bool:
        """True when the reviewer said something: a decision or an override."""
        return self.decision is not None or bool(self.criteria) or bool(self.checks)

    @property
    def overrides(self) -> Overrides:
        """The overrides, in the form ``reviewer.replay`` takes."""
        return Overrides(dict(self.criteria), dict(self.checks))

    def marks_false_positive(self, check_id: str) -> bool:
        """True when the reviewer marked this check's hit as a false positive."""
        return self.checks.get(check_id) == FALSE_POSITIVE


def review_views(session: Session, reviewer: str | None = None) -> dict[int, ReviewView]:
    """The decision that speaks for each audited attempt (see the module docstring)."""
    stmt: Any = select(
        ReviewDecision.attempt_id, ReviewDecision.reviewer, ReviewDecision.decision,
        ReviewDecision.criteria, ReviewDecision.checks, ReviewDecision.note,
        ReviewDecision.updated_at,
    ).order_by(ReviewDecision.updated_at, ReviewDecision.id)
    if reviewer is not None:
        stmt = stmt.where(ReviewDecision.reviewer == reviewer)
    out: dict[int, ReviewView] = {}
    for aid, who, decision, criteria, checks, note, updated in session.execute(stmt):
        view = ReviewView(aid, who, decision, dict(criteria or {}), dict(checks or {}),
                          note or "", updated)
        if view.audited:
            out[aid] = view  # later rows (more recent) replace earlier ones
    return out


def check_label(view: ReviewView, check_id: str, stored_passed: bool | None) -> bool | None:
    """The reviewer's label for a check on an attempt: True = should fail, False = should pass.

    * hit marked false positive, or attempt accepted → should pass;
    * attempt rejected while the stored result failed and was not marked false positive
      → should fail (the reviewer confirmed this cause);
    * anything else → None (the reviewer said nothing about this check).
    """
    if view.marks_false_positive(check_id) or view.decision == "accept":
        return False
    if view.decision == "reject" and stored_passed is False:
        return True
    return None


def grader_fails(v: EffectiveVerdict) -> bool:
    """The grader's reading of one criterion: the judge's verdict (second opinion included,
    no override) goes against the answer (success "non", failure "oui", minor included)."""
    return goes_against(v.kind, v.judged)


def reviewer_good(attempt: Attempt, view: ReviewView) -> bool:
    """The reviewer's label for the whole attempt (True = good)."""
    if view.decision is not None:
        return view.decision == "accept"
    return replay(attempt, overrides=view.overrides).accepted


def criterion_bad(v: EffectiveVerdict, view: ReviewView) -> bool:
    """The reviewer's label for one criterion on one attempt (True = the answer fails it).

    ``v`` is read with this reviewer's overrides (``effective_verdicts(…,
    overrides=view.overrides)``): an override is the reviewer's word; without one, an
    accepted attempt fails no criterion that could have refused it; otherwise the judge's
    verdict stands.
    """
    if v.override is None and view.decision == "accept" and can_refuse(v.kind, v.severity):
        return False
    return goes_against(v.kind, v.met)
