"""Undo and Redo, and what they would do next, for the menus ("Undo: reject recette-009/2/2").

``undo`` takes back the reviewer's latest step still in effect (one command, or every
command of a ``CommandGroup``) by applying each command's inverse, newest first, as
events of action ``undo`` that revert it; ``redo`` re-applies the latest undone step the
same way (action ``redo``). The stacks live in the store (``reviewer.review.stacks``):
both survive restarts and are read with one query.

``undo_steps(session, reviewer)`` names the step the next undo would revert and the one
the next redo would re-apply, each as an ``UndoStep`` the UI turns into a translated
label; ``undo_counts`` says how many steps each stack holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Text, case, cast, distinct, func, select
from sqlalchemy.orm import Session, aliased

from models import Attempt, AuditEvent, Conversation, Run, UndoCursor
from reviewer.keys import AttemptKey
from reviewer.review import stacks
from reviewer.review.commands import ReviewCommand, command_for, command_of_kind, perform_all
from reviewer.review.rows import ConflictError, get_decision, snapshot

StepKind = Literal["decision", "note", "criterion", "check", "group"]


@dataclass(frozen=True, slots=True)
class Step:
    """The audit events one undo or redo wrote (in the order written)."""

    events: tuple[AuditEvent, ...]

    # An undo writes its inverses newest first: the step's first change, in the order
    # the reviewer made them (a bulk step's first attempt in the queue), is written last.
    reverted: bool = False

    @property
    def attempt_id(self) -> int:
        """The attempt of the step's first change, as the reviewer made it (the one to
        show: after undoing a bulk step, where the reviewer was, not its last row)."""
        return self.attempt_ids[0]

    @property
    def attempt_ids(self) -> tuple[int, ...]:
        """Every attempt the step changed, in the order the reviewer changed them."""
        events = reversed(self.events) if self.reverted else self.events
        return tuple(dict.fromkeys(e.attempt_id for e in events))

    @property
    def field(self) -> str | None:
        """The field changed, None when the step changed several."""
        return self.events[0].field if len(self.events) == 1 else None


class StepMoved(ConflictError):
    """The step on top of the stack is not the one the caller named (``expected``):
    another window or process of this reviewer changed the history since the caller's
    menu was read. Nothing was changed; ``now`` is the step on top now (None: none)."""

    def __init__(self, action: str, now: UndoStep | None) -> None:
        done = "undone" if action == "undo" else "redone"
        then = f"the step to {action} is now {now.label} ({action} again to take it)" \
            if now is not None else f"nothing is left to {action}"
        super().__init__(f"not {done}: the {action} history was changed in another "
                         f"window or process; {then}", {})
        self.action, self.now = action, now


def _move(session: Session, reviewer: str, stack: stacks.Stack, action: str,
          expected: int | None) -> Step | None:
    """Take the top step of ``stack`` back (undo) or re-apply it (redo); with
    ``expected`` (the step a menu named: ``UndoStep.top``) only if it is still on top."""
    seen = stacks.tops(session, reviewer).top(stack)
    if expected is not None and seen != expected:
        steps = undo_steps(session, reviewer)
        raise StepMoved(action, steps.undo if stack == "undo" else steps.redo)
    if seen is None:
        return None
    step = stacks.step_events(session, seen)
    if not step:  # its attempt was deleted with its trail: nothing left to take back
        return None
    # Undoing events newest first; each stored event's inverse puts back its ``old``
    # (for an undo event, that is the value its redo sets again).
    inverses = [(ReviewCommand.from_event(e).inverse(e.old), e.id) for e in reversed(step)]
    written = perform_all(session, reviewer, inverses, action=action)
    cursor = stacks.lock(session, reviewer)
    if (cursor.undo_top if stack == "undo" else cursor.redo_top) != seen:
        # Another window or process of this reviewer moved the stack between our first
        # read and the lock: the step just reverted may not be the top any more.
        raise ConflictError(
            f"the undo history of {reviewer} changed in another window meanwhile; "
            f"nothing was changed, try the {action} again",
            snapshot(get_decision(session, step[0].attempt_id, reviewer)),
        )
    stacks.pop(cursor, stack, step)
    stacks.push(cursor, "redo" if stack == "undo" else "undo", written)
    return Step(tuple(written), reverted=action == "undo")


def undo(session: Session, reviewer: str, expected: int | None = None) -> Step | None:
    """Revert the reviewer's latest step still in effect; None when nothing to undo.
    ``expected``: the step the caller showed (``StepMoved`` when it is not on top)."""
    return _move(session, reviewer, "undo", "undo", expected)


def redo(session: Session, reviewer: str, expected: int | None = None) -> Step | None:
    """Re-apply the step the latest undo reverted; None when nothing to redo.
    ``expected``: as for ``undo``."""
    return _move(session, reviewer, "redo", "redo", expected)


def undo_counts(session: Session, reviewer: str) -> tuple[int, int]:
    """How many steps can be undone and redone (one primary-key lookup)."""
    found = stacks.tops(session, reviewer)
    return found.undo_depth, found.redo_depth


# The value of a bulk step that set its field to several values (see ``UndoStep``).
MIXED: Any = object()


@dataclass(frozen=True, slots=True)
class UndoStep:
    """One reviewer step as Undo/Redo would apply it.

    ``value`` is what the change set (for a redo: sets again; for an undo: the value being
    undone), ``target`` the criterion or check id for overrides. A grouped step (several
    changes taken back at once) has kind ``"group"``, ``count`` changes over ``attempts``
    attempts, the first change's attempt as ``key``, and no target or value. A bulk step
    (``reviewer.review.bulk``: one field set on each of ``attempts`` attempts) keeps its
    field's kind, target and value — ``MIXED`` when it set several values, as a criterion
    flipped against the judge both ways — with ``attempts`` > 1.
    """

    kind: StepKind
    key: AttemptKey
    target: str | None
    value: Any
    count: int = 1
    attempts: int = 1
    top: int | None = None  # the step's first event: what an undo or redo expects on top

    @property
    def label(self) -> str:
        """An English description: "reject recette-009/2/2", "G-DEMANDE → met on …"."""
        where = str(self.key)
        if self.kind == "group":
            scope = where if self.attempts == 1 else f"{self.attempts} attempts"
            return f"{self.count} changes on {scope}"
        if self.bulk:
            where = f"{self.attempts} attempts"
            if self.value is MIXED:
                return f"flip {self.target} on {where}"
        return command_of_kind(self.kind, self.target, self.value).label_at(where)

    @property
    def bulk(self) -> bool:
        """True for one field set on several attempts (a bulk action)."""
        return self.kind != "group" and self.attempts > 1


@dataclass(frozen=True, slots=True)
class UndoSteps:
    """The next undo and redo (None when there is nothing to undo or redo)."""

    undo: UndoStep | None
    redo: UndoStep | None


def _top_columns(top: Any, *, redo: bool) -> tuple[list[Any], list[Any]]:
    """The columns describing one stack's top step, and the joins that reach them."""
    event = aliased(AuditEvent)
    attempt, conv, run = aliased(Attempt), aliased(Conversation), aliased(Run)
    members = aliased(AuditEvent)

    def in_group(column: Any) -> Any:
        # Correlated count over the (partial) group index; 0 for a single-event step.
        return (select(column).where(members.group_id == event.group_id)
                .correlate(event).scalar_subquery())

    # A bulk step sets one field on many attempts. Its shape, in one aggregate: 0 when
    # the step changed several fields, else how many values it set that field to (1:
    # "accept 20 attempts"; 2: a criterion flipped both ways). A redo re-applies its
    # undo's old values, an undo takes back the new ones.
    value = func.coalesce(cast(members.old if redo else members.new, Text), "null")
    shape = case((func.min(members.field) == func.max(members.field),
                  func.count(distinct(value))), else_=0)
    columns = [event.id, event.field, event.old, event.new, event.group_id, run.name, conv.name,
               attempt.turn, attempt.attempt, in_group(func.count()),
               in_group(func.count(distinct(members.attempt_id))), in_group(shape)]
    joins = [(event, event.id == top), (attempt, attempt.id == event.attempt_id),
             (conv, conv.id == attempt.conversation_id), (run, run.id == attempt.run_id)]
    return columns, joins


def _step(row: Any, *, redo: bool) -> UndoStep | None:
    top, field, old, new, group_id, run, conv, turn, attempt, count, attempts, shape = row
    if field is None:
        return None
    key = AttemptKey(run, conv, turn, attempt)
    bulk = shape and count == attempts > 1
    if group_id is not None and not bulk:
        return UndoStep("group", key, None, None, count, attempts, top)
    # A redo re-applies what its undo reverted: the undo event's old value.
    command = command_for(0, field, old if redo else new)
    if group_id is not None:
        # One field on each of several attempts: a bulk action ("accept 20 attempts").
        return UndoStep(command.kind, key, command.target,
                        command.value if shape == 1 else MIXED, count, attempts, top)
    return UndoStep(command.kind, key, command.target, command.value, top=top)


def undo_steps_query(reviewer: str) -> Any:
    """The one statement ``undo_steps`` runs: the cursor row and both top steps."""
    undo_cols, undo_joins = _top_columns(UndoCursor.undo_top, redo=False)
    redo_cols, redo_joins = _top_columns(UndoCursor.redo_top, redo=True)
    stmt: Any = select(*undo_cols, *redo_cols).select_from(UndoCursor)
    for target, on in (*undo_joins, *redo_joins):
        stmt = stmt.outerjoin(target, on)
    return stmt.where(UndoCursor.reviewer == reviewer)


def described(session: Session, step: Step, *, undone: bool) -> UndoStep:
    """The step an undo (``undone``) or a redo just wrote, named as the menus name it: the
    change taken back (the undo events' ``old``) or applied again (the redo events' ``new``)."""
    first = step.events[0]
    run, conv, turn, attempt = session.execute(
        select(Run.name, Conversation.name, Attempt.turn, Attempt.attempt)
        .join(Conversation, Attempt.conversation_id == Conversation.id)
        .join(Run, Attempt.run_id == Run.id)
        .where(Attempt.id == first.attempt_id)
    ).one()
    key = AttemptKey(run, conv, turn, attempt)
    if len(step.events) > 1:
        return UndoStep("group", key, None, None, len(step.events), len(step.attempt_ids))
    command = command_for(0, first.field, first.old if undone else first.new)
    return UndoStep(command.kind, key, command.target, command.value)


def undo_steps(session: Session, reviewer: str) -> UndoSteps:
    """What the reviewer's next undo and redo would do (one query)."""
    row = session.execute(undo_steps_query(reviewer)).one_or_none()
    if row is None:
        return UndoSteps(None, None)
    width = len(row) // 2
    return UndoSteps(_step(row[:width], redo=False), _step(row[width:], redo=True))
