"""The reviewer's actions as the app performs them: operations on one unit of work.

Each action builds a typed command (``reviewer.review.commands``) and applies it as one
undoable step; ``rescue`` and ``accept_overriding`` apply a group of them (the overrides
and the decision) as one step. Each function receives the session of the caller's unit of work (the
app's task manager opens and commits it, so a decision is on disk the moment the task
reports back: no Save button) and returns an ``Outcome`` saying which attempts it changed
(``Outcome.changes``) so the screens can refresh them. Toggles read the current state in
the same transaction, so a stale screen never writes a value the reviewer did not see
flipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.orm import Session, selectinload

from models import Attempt, CheckResult, Verdict
from reviewer.changes import NOTHING, Changes
from reviewer.errors import BadInputError
from reviewer.review import team
from reviewer.review import undo as undoing
from reviewer.review.commands import (
    MarkFalsePositive,
    OverrideCriterion,
    ReviewCommand,
    SetDecision,
    SetNote,
    accept_with_overrides,
    command_for,
)
from reviewer.review.example import load_example
from reviewer.review.rows import get_decision
from reviewer.rule.replay import FALSE_POSITIVE, Overrides, check_outcomes, effective_verdicts
from reviewer.text_rules import storable


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an action did: the attempt it touched and the field, None when nothing to do.

    ``field`` is None for a step that changed several fields (a grouped step); ``others``
    lists the further attempts such a step changed. A rescue or an accept with overrides
    names the criteria it set (``flipped``) and the checks it marked (``marked``); an undo
    or a redo names the step it took back or applied again (``step``).
    """

    attempt_id: int | None
    field: str | None = None
    action: str = "set"
    # Team mode: one line per other reviewer who decided on the attempt meanwhile.
    conflicts: tuple[str, ...] = ()
    others: tuple[int, ...] = ()
    flipped: tuple[str, ...] = ()
    marked: tuple[str, ...] = ()
    step: undoing.UndoStep | None = None
    # A decision: this reviewer's own decision stored meanwhile elsewhere (another window,
    # the command line) that the one taken replaced, unseen (fifteenth hostile pass,
    # P15-13 (8)).
    replaced: str | None = None

    @property
    def changes(self) -> Changes:
        """What the screens must refresh."""
        if self.attempt_id is None:
            return NOTHING
        return Changes(attempts=frozenset({self.attempt_id, *self.others}), decisions=True)


def _apply(session: Session, reviewer: str, command: ReviewCommand,
           *, expected_version: int | None = None) -> Outcome:
    command.apply(session, reviewer, expected_version=expected_version)
    return Outcome(command.attempt_id, command.field)


def set_field(session: Session, reviewer: str, attempt_id: int, field: str, value: Any,
              *, expected_version: int | None = None) -> Outcome:
    """Set one review field (stored string form) and commit it with its audit event."""
    return _apply(session, reviewer, command_for(attempt_id, field, value),
                  expected_version=expected_version)


def decide(session: Session, reviewer: str, attempt_id: int, decision: str | None,
           *, seen_others: Mapping[str, int] | None = None,
           seen_own: tuple[str | None, ...] = ()) -> Outcome:
    """Accept or reject the attempt (None clears the decision).

    ``seen_others`` (``team.seen_versions`` taken when the attempt was shown) makes the
    outcome list the other reviewers who decided on it since, in ``conflicts``.
    ``seen_own`` (``(decision,)``: this reviewer's decision as shown; empty when nothing
    was shown, a script) makes it name, in ``replaced``, a decision of this reviewer's
    stored since, elsewhere, that this one replaces.
    """
    command = SetDecision(attempt_id, decision)
    replaced = None
    if seen_own:
        row = get_decision(session, attempt_id, reviewer)
        stored = row.decision if row is not None else None
        if stored != seen_own[0] and stored not in (None, decision):
            replaced = stored
    if seen_others is None:
        return replace(_apply(session, reviewer, command), replaced=replaced)
    result = team.decide(session, reviewer, command, seen_others=seen_others)
    return Outcome(attempt_id, command.field, replaced=replaced,
                   conflicts=tuple(c.message("decision") for c in result.conflicts))


def set_note(session: Session, reviewer: str, attempt_id: int, note: str) -> Outcome:
    """Replace the reviewer's note (no event when unchanged)."""
    storable(note, "the note")
    command = SetNote(attempt_id, note)
    if command.read(get_decision(session, attempt_id, reviewer)) == note:
        return Outcome(None)
    return _apply(session, reviewer, command)


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
    overrides = Overrides.of(get_decision(session, attempt_id, reviewer))
    verdict = next((v for v in effective_verdicts(attempt.verdicts, overrides=overrides)
                    if v.criterion_id == criterion_id), None)
    if verdict is None:
        raise BadInputError(f"attempt {attempt_id} has no verdict on {criterion_id}")
    flipped = not verdict.met
    return _apply(session, reviewer, OverrideCriterion(
        attempt_id, criterion_id, None if flipped == verdict.judged else flipped))


def toggle_false_positive(session: Session, reviewer: str, attempt_id: int,
                          check_id: str) -> Outcome:
    """Mark a failed check as a false positive, or clear that mark."""
    attempt = session.get(Attempt, attempt_id, options=[
        selectinload(Attempt.check_results).selectinload(CheckResult.check_version)])
    if attempt is None:
        raise BadInputError(f"no attempt with id {attempt_id}")
    if not any(r.check_version.check_id == check_id for r in attempt.check_results):
        raise BadInputError(f"attempt {attempt_id} has no result for {check_id}")
    probe = MarkFalsePositive(attempt_id, check_id, True)
    marked = probe.read(get_decision(session, attempt_id, reviewer)) == FALSE_POSITIVE
    return _apply(session, reviewer, MarkFalsePositive(attempt_id, check_id, not marked))


def _accept_with(session: Session, reviewer: str, attempt_id: int,
                 criteria: Mapping[str, bool | None], checks: tuple[str, ...],
                 action: str) -> Outcome:
    accept_with_overrides(attempt_id, criteria, checks).apply(session, reviewer)
    return Outcome(attempt_id, None, action, flipped=tuple(criteria), marked=checks)


def _flipped(met: bool, judged: bool) -> bool | None:
    """The override that flips a verdict now ``met``: none when that is the judge's own."""
    return None if (not met) == judged else not met


def rescue(session: Session, reviewer: str, attempt_id: int) -> Outcome:
    """Flip exactly the verdicts whose contradiction would change the filter's decision
    (the example's ``rescue_flips``, read in this unit of work) and accept: one step.

    Nothing is written when no such contradiction is open (``Outcome(None)``).
    """
    view = load_example(session, attempt_id, reviewer)
    rows = {v.criterion_id: v for v in view.verdicts}
    flips = {c: not rows[c].effective for c in view.rescue_flips if c in rows}
    if not flips:
        return Outcome(None, action="rescue")
    return _accept_with(session, reviewer, attempt_id, flips, (), "rescue")


def accept_overriding(session: Session, reviewer: str, attempt_id: int) -> Outcome:
    """Flip every verdict that still refuses the attempt and mark every failed check a
    false positive, then accept: one step, so the override the back-tests and the
    agreement figures read is stored with the decision (the rule then accepts)."""
    attempt = session.get(Attempt, attempt_id, options=[
        selectinload(Attempt.verdicts).selectinload(Verdict.criterion_version),
        selectinload(Attempt.check_results).selectinload(CheckResult.check_version)])
    if attempt is None:
        raise BadInputError(f"no attempt with id {attempt_id}")
    overrides = Overrides.of(get_decision(session, attempt_id, reviewer))
    criteria = {v.criterion_id: _flipped(v.met, v.judged)
                for v in effective_verdicts(attempt.verdicts, overrides=overrides)
                if v.refuses}
    checks = tuple(dict.fromkeys(
        c.check_id for c in check_outcomes(attempt.check_results, overrides=overrides)
        if not c.passed))
    return _accept_with(session, reviewer, attempt_id, criteria, checks, "accept")


def _moved(session: Session, step: undoing.Step | None, action: str) -> Outcome:
    if step is None:
        return Outcome(None, action=action)
    first, *others = step.attempt_ids
    return Outcome(first, step.field, action, others=tuple(others),
                   step=undoing.described(session, step, undone=action == "undo"))


def undo(session: Session, reviewer: str, expected: int | None = None) -> Outcome:
    """Revert the reviewer's latest step (across restarts: the stacks are stored); with
    ``expected`` (the step the menu named), that step or nothing (``StepMoved``)."""
    return _moved(session, undoing.undo(session, reviewer, expected), "undo")


def redo(session: Session, reviewer: str, expected: int | None = None) -> Outcome:
    """Re-apply the step the latest undo reverted (``expected``: as for ``undo``)."""
    return _moved(session, undoing.redo(session, reviewer, expected), "redo")


def undo_state(session: Session, reviewer: str) -> tuple[int, int]:
    """How many steps can be undone and redone (for enabling the menu entries)."""
    return undoing.undo_counts(session, reviewer)
