"""Each reviewer's undo and redo stacks, stored so that reading them costs one lookup.

A *step* is what one Undo takes back: the audit events one command wrote (one event, or
several sharing ``AuditEvent.group_id``), named by its first event. A stack is a chain of
steps, each first event linking to the step below (``AuditEvent.below_id``); the
reviewer's ``UndoCursor`` row holds both tops and both depths. A new change pushes its
step on the undo stack and empties the redo stack (the cursor forgets it); an undo moves
a step from the undo stack to the redo stack as the undo's own events, a redo back.
Everything is in the store, so undo survives restarts; nothing re-reads the trail.

Concurrency: every step locks the reviewer's cursor row *after* writing its decision
rows (``lock``). On PostgreSQL that is a row lock; on SQLite the unit of work already
holds the single write lock by then, so the row it reads is current. Writers of the same
reviewer are thus serialised on the cursor, and decision rows are always locked before
it, in every kind of step, so two of them never wait for each other in a circle.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import AuditEvent, UndoCursor

Stack = Literal["undo", "redo"]


@dataclass(frozen=True, slots=True)
class Tops:
    """A reviewer's two stacks as read (not locked): top steps and depths."""

    undo_top: int | None = None
    undo_depth: int = 0
    redo_top: int | None = None
    redo_depth: int = 0

    def top(self, stack: Stack) -> int | None:
        """The first event of the step the next undo (or redo) would take."""
        return self.undo_top if stack == "undo" else self.redo_top


def tops(session: Session, reviewer: str) -> Tops:
    """Both stacks' tops and depths: one primary-key lookup."""
    row = session.execute(
        select(UndoCursor.undo_top, UndoCursor.undo_depth, UndoCursor.redo_top,
               UndoCursor.redo_depth).where(UndoCursor.reviewer == reviewer)
    ).one_or_none()
    return Tops() if row is None else Tops(*row)


def lock(session: Session, reviewer: str) -> UndoCursor:
    """The reviewer's cursor row, locked until the unit of work ends (created if missing).

    Call it once this unit of work has written its decision rows (module docstring).
    """
    stmt: Any = (select(UndoCursor).where(UndoCursor.reviewer == reviewer)
                 .with_for_update().execution_options(populate_existing=True))
    row: UndoCursor | None = session.scalar(stmt)
    if row is None:
        # A first step of this reviewer in two sessions at once: one insert wins, the other
        # does nothing and then waits for (and reads) the winner's row.
        # The backend's INSERT … ON CONFLICT, its dialect imported here: SQLAlchemy's
        # PostgreSQL dialect brings every driver's module, for nothing on SQLite.
        backend = "postgresql" if session.get_bind().dialect.name == "postgresql" else "sqlite"
        dialect: Any = importlib.import_module(f"sqlalchemy.dialects.{backend}")
        session.execute(dialect.insert(UndoCursor.__table__)
                        .values(reviewer=reviewer, undo_depth=0, redo_depth=0)
                        .on_conflict_do_nothing())
        row = session.scalar(stmt)
    assert row is not None
    return row


def step_events(session: Session, first_id: int) -> list[AuditEvent]:
    """The events of the step whose first event is ``first_id``, in the order written."""
    first = session.get(AuditEvent, first_id)
    if first is None or first.group_id is None:
        return [] if first is None else [first]
    return list(session.scalars(
        select(AuditEvent).where(AuditEvent.group_id == first.group_id).order_by(AuditEvent.id)
    ))


def push(cursor: UndoCursor, stack: Stack, step: Sequence[AuditEvent]) -> None:
    """Put a step (its events, first first) on top of a stack."""
    first = step[0]
    if stack == "undo":
        first.below_id, cursor.undo_top = cursor.undo_top, first.id
        cursor.undo_depth += 1
    else:
        first.below_id, cursor.redo_top = cursor.redo_top, first.id
        cursor.redo_depth += 1


def pop(cursor: UndoCursor, stack: Stack, step: Sequence[AuditEvent]) -> None:
    """Take the top step (its events) off a stack."""
    below = step[0].below_id
    if stack == "undo":
        cursor.undo_top, cursor.undo_depth = below, max(cursor.undo_depth - 1, 0)
    else:
        cursor.redo_top, cursor.redo_depth = below, max(cursor.redo_depth - 1, 0)


def clear_redo(cursor: UndoCursor) -> None:
    """A new change: what was undone can no longer be redone (its chain is dropped)."""
    cursor.redo_top, cursor.redo_depth = None, 0
