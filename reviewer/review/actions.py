"""The reviewer's actions as the app performs them: operations on one unit of work.

Thin layer over :mod:`reviewer.review.decisions` (the audit trail). Each function receives
the session of the caller's unit of work (the app's task manager opens and commits it,
so a decision is on disk the moment the task reports back: no Save button) and returns
an ``Outcome`` saying which attempt it changed (``Outcome.changes``) so the screens can
refresh it. Toggles read the current state in the same transaction, so a stale screen
never writes a value the reviewer did not see flipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session, selectinload

from models import Attempt, CheckResult, Verdict
from reviewer.changes import NOTHING, Changes, decision_of
from reviewer.errors import BadInputError
from reviewer.review import decisions as review
from reviewer.review import team
from reviewer.rule.replay import FALSE_POSITIVE, Overrides, first_opinions, second_opinions


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an action did: the attempt it touched and the field, None when nothing to do."""

    attempt_id: int | None
    field: str | None = None
    action: str = "set"
    # Team mode: one line per other reviewer who decided on the attempt meanwhile.
    conflicts: tuple[str, ...] = ()

    @property
    def changes(self) -> Changes:
        """What the screens must refresh."""
        return NOTHING if self.attempt_id is None else decision_of(self.attempt_id)


def set_field(session: Session, reviewer: str, attempt_id: int, field: str, value: Any,
              *, expected_version: int | None = None) -> Outcome:
    """Set one review field and commit it with its audit event."""
    review.apply_change(session, reviewer, review.Change(attempt_id, field, value),
                        expected_version=expected_version)
    return Outcome(attempt_id, field)


def decide(session: Session, reviewer: str, attempt_id: int, decision: str | None,
           *, seen_others: Mapping[str, int] | None = None) -> Outcome:
    """Accept or reject the attempt (None clears the decision).

    ``seen_others`` (``team.seen_versions`` taken when the attempt was shown) makes the
    outcome list the other reviewers who decided on it since, in ``conflicts``.
    """
    if seen_others is None:
        return set_field(session, reviewer, attempt_id, "decision", decision)
    result = team.decide(session, reviewer, review.Change(attempt_id, "decision", decision),
                         seen_others=seen_others)
    return Outcome(attempt_id, "decision",
                   conflicts=tuple(c.message("decision") for c in result.conflicts))


def set_note(session: Session, reviewer: str, attempt_id: int, note: str) -> Outcome:
    """Replace the reviewer's note (no event when unchanged)."""
    current = review.read_field(review.get_decision(session, attempt_id, reviewer), "note")
    if current == note:
        return Outcome(None)
    review.apply_change(session, reviewer, review.Change(attempt_id, "note", note))
    return Outcome(attempt_id, "note")


def toggle_criterion(session: Session, reviewer: str, attempt_id: int,
                     criterion_id: str) -> Outcome:
    """Flip the verdict the rule uses for ``criterion_id``.

    The flip is stored as an override; flipping back to what the judge (with its second
    opinion) said removes the override instead of storing a redundant one.
    """
    attempt = session.get(Attempt, attempt_id, options=[
        selectinload(Attempt.verdicts).selectinload(Verdict.criterion_version)])
    if attempt is None:
        raise BadInputError(f"no attempt with id {attempt_id}")
    row = review.get_decision(session, attempt_id, reviewer)
    overrides = Overrides.of(row)
    seconds = second_opinions(attempt.verdicts)
    for v in first_opinions(attempt.verdicts):
        cv = v.criterion_version
        if cv.criterion_id != criterion_id:
            continue
        judged = v.met
        second = seconds.get(criterion_id)
        if cv.kind == "success" and not v.met and second is not None and second.met:
            judged = True
        current = overrides.criteria.get(criterion_id, judged)
        new = not current
        value: bool | None = None if new == judged else new
        review.apply_change(session, reviewer,
                            review.Change(attempt_id, f"criterion:{criterion_id}", value))
        return Outcome(attempt_id, f"criterion:{criterion_id}")
    raise BadInputError(f"attempt {attempt_id} has no verdict on {criterion_id}")


def toggle_false_positive(session: Session, reviewer: str, attempt_id: int,
                          check_id: str) -> Outcome:
    """Mark a failed check as a false positive, or clear that mark."""
    attempt = session.get(Attempt, attempt_id, options=[
        selectinload(Attempt.check_results).selectinload(CheckResult.check_version)])
    if attempt is None:
        raise BadInputError(f"no attempt with id {attempt_id}")
    if not any(r.check_version.check_id == check_id for r in attempt.check_results):
        raise BadInputError(f"attempt {attempt_id} has no result for {check_id}")
    field = f"check:{check_id}"
    current = review.read_field(review.get_decision(session, attempt_id, reviewer), field)
    value = None if current == FALSE_POSITIVE else FALSE_POSITIVE
    review.apply_change(session, reviewer, review.Change(attempt_id, field, value))
    return Outcome(attempt_id, field)


def undo(session: Session, reviewer: str) -> Outcome:
    """Revert the reviewer's latest change (across restarts: read from the audit trail)."""
    event = review.undo(session, reviewer)
    return Outcome(None) if event is None else Outcome(event.attempt_id, event.field, "undo")


def redo(session: Session, reviewer: str) -> Outcome:
    """Re-apply the change the latest undo reverted."""
    event = review.redo(session, reviewer)
    return Outcome(None) if event is None else Outcome(event.attempt_id, event.field, "redo")


def undo_state(session: Session, reviewer: str) -> tuple[int, int]:
    """How many steps can be undone and redone (for enabling the menu entries)."""
    stacks = review.history(session, reviewer)
    return len(stacks.undo), len(stacks.redo)
