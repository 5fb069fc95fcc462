"""One review action over many attempts: previewed, written as one step, undone as one.

A bulk action is one of the reviewer's own actions applied to every attempt of a scope —
the queue's current filter, or rows the reviewer selected:

* ``accept`` / ``reject``: the reviewer's decision;
* ``flip`` a criterion: the verdict the rule uses set against the judge's reading (first
  opinion, rescued by a second opinion or not), the override the ``1``–``9`` keys store;
* ``false_positive`` on a check: its failed hit marked as a false positive (``F``).

``plan_bulk`` reads the scope and says, before anything is stored, what would change on
which attempt (the stored value, the new one, and whether the filter would accept the
attempt before and after: the replay rule of ``reviewer.rule``, nothing restated) and
what is left alone and why (already accepted, no verdict on that criterion, …).
``apply_bulk`` plans again inside the write's own transaction, refuses with
``StalePreview`` when that is no longer the plan the reviewer saw, and writes the
changes as one ``CommandGroup``: one audit event per attempt, one Undo for all of them.

Attempts are read by chunks, so a scope of a season's refusals never sits in memory as
ORM objects at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Attempt, Conversation, ReviewDecision, Run
from reviewer.changes import Changes
from reviewer.errors import BadInputError, ReviewerError
from reviewer.keys import AttemptKey
from reviewer.review.commands import (
    CommandGroup,
    MarkFalsePositive,
    OverrideCriterion,
    ReviewCommand,
    SetDecision,
)
from reviewer.review.identity import known_reviewer, stored_name
from reviewer.review.queue import QueueFilter, queue_ids
from reviewer.review.undo import MIXED, UndoStep
from reviewer.rule.replay import (
    FALSE_POSITIVE,
    Overrides,
    effective_verdicts,
    load_attempts,
    replay,
)

BulkKind = Literal["accept", "reject", "flip", "false_positive"]
BULK_KINDS: tuple[BulkKind, ...] = ("accept", "reject", "flip", "false_positive")
# Why an attempt of the scope is left alone (the preview counts each).
Skip = Literal["already_accepted", "already_rejected", "no_verdict", "already_flipped",
               "no_failed_check", "already_marked"]
CHUNK = 500


class StalePreview(ReviewerError):
    """The attempts changed between the preview and the write: nothing was written."""


@dataclass(frozen=True, slots=True)
class BulkAction:
    """What to do: a kind, and the criterion (``flip``) or check (``false_positive``)."""

    kind: BulkKind
    target: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in BULK_KINDS:
            raise BadInputError(f"unknown bulk action {self.kind!r}")
        if (self.kind in ("flip", "false_positive")) != bool(self.target):
            raise BadInputError(f"bulk {self.kind}: a criterion or check id is "
                                f"{'needed' if self.target is None else 'not used'}")


@dataclass(frozen=True, slots=True)
class Scope:
    """The attempts an action applies to: every attempt of a queue filter, or given ids."""

    filter: QueueFilter | None = None
    attempt_ids: tuple[int, ...] = ()

    @classmethod
    def of_filter(cls, f: QueueFilter) -> Scope:
        """Every attempt the queue shows under ``f``."""
        return cls(filter=f)

    @classmethod
    def of_rows(cls, attempt_ids: Iterable[int]) -> Scope:
        """These attempts (the rows the reviewer selected), in the order given."""
        return cls(attempt_ids=tuple(dict.fromkeys(attempt_ids)))

    def ids(self, session: Session) -> list[int]:
        """The attempt ids, in queue order for a filter."""
        if self.filter is not None:
            return queue_ids(session, self.filter)
        return list(self.attempt_ids)


@dataclass(frozen=True, slots=True)
class PlannedChange:
    """One attempt's change: the value stored now, the command, and what the filter
    would decide (with this reviewer's overrides) before and after it."""

    key: AttemptKey
    command: ReviewCommand
    old: Any
    accepted_before: bool
    accepted_after: bool

    @property
    def attempt_id(self) -> int:
        """The attempt changed."""
        return self.command.attempt_id


@dataclass(frozen=True, slots=True)
class BulkPlan:
    """What a bulk action would do on its scope (nothing is stored by planning)."""

    action: BulkAction
    in_scope: int
    changes: tuple[PlannedChange, ...]
    skipped: Mapping[Skip, int]

    @property
    def count(self) -> int:
        """How many attempts the action would change."""
        return len(self.changes)

    @property
    def empty(self) -> bool:
        """True when the action would change nothing."""
        return not self.changes

    @property
    def accepted_after(self) -> int:
        """How many changed attempts the filter would accept after the change."""
        return sum(c.accepted_after for c in self.changes)

    @property
    def rescued(self) -> int:
        """How many changed attempts go from refused to accepted by the filter."""
        return sum(c.accepted_after and not c.accepted_before for c in self.changes)

    @property
    def step(self) -> UndoStep | None:
        """The undo step the write will be, as the Edit menu will name it (None: empty)."""
        if not self.changes:
            return None
        first = self.changes[0]
        values = {c.command.value for c in self.changes}
        value = first.command.value if len(values) == 1 else MIXED
        return UndoStep(first.command.kind, first.key, first.command.target, value,
                        self.count, self.count)

    @property
    def label(self) -> str:
        """An English description: "accept 20 attempts", "G-DEMANDE → met on 3 attempts"."""
        step = self.step
        return f"nothing to {self.action.kind}" if step is None else step.label

    def fingerprint(self) -> tuple[tuple[int, str, Any, Any], ...]:
        """What the preview promised: each attempt, field, stored value and new value."""
        return tuple((c.attempt_id, c.command.field, _jsonish(c.old), _jsonish(c.command.value))
                     for c in self.changes)


def _jsonish(value: Any) -> Any:
    # Stored JSON maps come back as dicts; a fingerprint compares plain values.
    return tuple(sorted(value.items())) if isinstance(value, dict) else value


@dataclass(frozen=True, slots=True)
class BulkOutcome:
    """What ``apply_bulk`` wrote: the plan and the attempts changed, first one first."""

    plan: BulkPlan
    attempt_ids: tuple[int, ...]

    @property
    def attempt_id(self) -> int | None:
        """The first attempt changed (None when nothing was)."""
        return self.attempt_ids[0] if self.attempt_ids else None

    @property
    def changes(self) -> Changes:
        """Every attempt changed: their queue rows and the undo menu refresh."""
        if not self.attempt_ids:
            return Changes()
        return Changes(attempts=frozenset(self.attempt_ids), decisions=True)


def _chunks(ids: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(ids), size):
        yield ids[start:start + size]


def _keys(session: Session, ids: Sequence[int]) -> dict[int, AttemptKey]:
    rows = session.execute(
        select(Attempt.id, Run.name, Conversation.name, Attempt.turn, Attempt.attempt)
        .join(Conversation, Conversation.id == Attempt.conversation_id)
        .join(Run, Run.id == Attempt.run_id)
        .where(Attempt.id.in_(list(ids))))
    return {aid: AttemptKey(run, conv, turn, n) for aid, run, conv, turn, n in rows}


def _decisions(session: Session, ids: Sequence[int], reviewer: str) -> dict[int, ReviewDecision]:
    return {d.attempt_id: d for d in session.scalars(
        select(ReviewDecision).where(ReviewDecision.reviewer == reviewer,
                                     ReviewDecision.attempt_id.in_(list(ids))))}


def _command(action: BulkAction, attempt: Attempt,
             overrides: Overrides) -> ReviewCommand | Skip:
    """The command for one attempt, or why it is left alone."""
    aid = attempt.id
    if action.kind == "flip":
        assert action.target is not None
        verdict = next((v for v in effective_verdicts(attempt.verdicts, overrides=overrides)
                        if v.criterion_id == action.target), None)
        if verdict is None:
            return "no_verdict"
        if verdict.met != verdict.judged:
            return "already_flipped"
        return OverrideCriterion(aid, action.target, not verdict.judged)
    if action.kind == "false_positive":
        assert action.target is not None
        failed = any(r.check_version.check_id == action.target and not r.passed
                     for r in attempt.check_results)
        if not failed:
            return "no_failed_check"
        command = MarkFalsePositive(aid, action.target, True)
        return "already_marked" if overrides.checks.get(action.target) == command.value \
            else command
    return SetDecision(aid, action.kind)


def _plan_attempt(action: BulkAction, attempt: Attempt, key: AttemptKey,
                  row: ReviewDecision | None) -> PlannedChange | Skip:
    overrides = Overrides.of(row)
    command = _command(action, attempt, overrides)
    if isinstance(command, str):
        return command
    old = command.read(row)
    if isinstance(command, SetDecision) and old == command.value:
        return "already_accepted" if old == "accept" else "already_rejected"
    before = replay(attempt, overrides=overrides).accepted
    after_overrides = _with(overrides, command)
    after = before if after_overrides is overrides else \
        replay(attempt, overrides=after_overrides).accepted
    return PlannedChange(key, command, old, before, after)


def _with(overrides: Overrides, command: ReviewCommand) -> Overrides:
    """The overrides once ``command`` is applied (the same object when it sets none)."""
    if isinstance(command, OverrideCriterion) and command.met is not None:
        return Overrides({**overrides.criteria, command.criterion_id: command.met},
                         overrides.checks)
    if isinstance(command, MarkFalsePositive) and command.marked:
        return Overrides(overrides.criteria,
                         {**overrides.checks, command.check_id: FALSE_POSITIVE})
    return overrides


def plan_bulk(session: Session, reviewer: str, action: BulkAction, scope: Scope, *,
              chunk: int | None = None) -> BulkPlan:
    """What ``action`` would change on ``scope`` for ``reviewer`` (nothing is written)."""
    known_reviewer(session, stored_name(reviewer))
    ids = scope.ids(session)
    changes: list[PlannedChange] = []
    skipped: dict[Skip, int] = {}
    found = 0
    for part in _chunks(ids, chunk or CHUNK):
        attempts = {a.id: a for a in load_attempts(session, part)}
        keys, rows = _keys(session, part), _decisions(session, part, reviewer)
        for aid in part:
            attempt = attempts.get(aid)
            if attempt is None:  # deleted since the rows were selected
                continue
            found += 1
            planned = _plan_attempt(action, attempt, keys[aid], rows.get(aid))
            if isinstance(planned, str):
                skipped[planned] = skipped.get(planned, 0) + 1
            else:
                changes.append(planned)
        # The attempts are not needed any more; a large scope must not pile them up.
        session.expunge_all()
    return BulkPlan(action, found, tuple(changes), skipped)


def apply_bulk(session: Session, reviewer: str, plan: BulkPlan, scope: Scope) -> BulkOutcome:
    """Write the previewed plan as one undoable step (one audit event per attempt).

    The plan is made again in this transaction: if the scope's attempts or this
    reviewer's decisions changed since the preview, ``StalePreview`` and nothing written.
    """
    now = plan_bulk(session, reviewer, plan.action, scope)
    if now.fingerprint() != plan.fingerprint():
        raise StalePreview(
            f"the attempts changed since the preview ({plan.count} changes previewed, "
            f"{now.count} now); nothing was changed, preview again")
    if now.empty:
        return BulkOutcome(now, ())
    CommandGroup(tuple(c.command for c in now.changes)).apply(session, reviewer)
    return BulkOutcome(now, tuple(c.attempt_id for c in now.changes))
