"""Undo stacks stored as a per-reviewer cursor and step links; grouped steps

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

BATCH = 5000


def upgrade() -> None:
    # Until now the undo and redo stacks were rebuilt by replaying a reviewer's whole
    # trail after every keystroke. Now each step on a stack links to the one below it and
    # one row per reviewer holds both tops and depths; grouped steps share a group id.
    op.add_column("audit_events", sa.Column("group_id", sa.Integer(), nullable=True))
    op.add_column("audit_events", sa.Column("below_id", sa.Integer(), nullable=True))
    op.create_index("ix_audit_events_group", "audit_events", ["group_id"],
                    sqlite_where=sa.text("group_id IS NOT NULL"),
                    postgresql_where=sa.text("group_id IS NOT NULL"))
    op.create_table(
        "undo_cursors",
        sa.Column("reviewer", sa.String(length=200), nullable=False),
        sa.Column("undo_top", sa.Integer(), nullable=True),
        sa.Column("undo_depth", sa.Integer(), nullable=False),
        sa.Column("redo_top", sa.Integer(), nullable=True),
        sa.Column("redo_depth", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["undo_top"], ["audit_events.id"],
                                name=op.f("fk_undo_cursors_undo_top_audit_events"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["redo_top"], ["audit_events.id"],
                                name=op.f("fk_undo_cursors_redo_top_audit_events"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("reviewer", name=op.f("pk_undo_cursors")),
    )
    _backfill(op.get_bind())


def replay_trail(actions: Iterable[tuple[int, str]]) -> tuple[list[int], list[int]]:
    """The undo and redo stacks of one reviewer's trail, as the code before 0006 rebuilt
    them (a frozen copy: this migration must keep meaning what it meant)."""
    undo: list[int] = []
    redo: list[int] = []
    for event_id, action in actions:
        if action == "undo":
            if undo:
                undo.pop()
            redo.append(event_id)
        elif action == "redo":
            if redo:
                redo.pop()
            undo.append(event_id)
        else:
            undo.append(event_id)
            redo.clear()
    return undo, redo


def _links(stack: list[int]) -> Iterator[dict[str, int]]:
    for below, above in zip(stack, stack[1:], strict=False):
        yield {"event": above, "below": below}


def _backfill(conn: Any) -> None:
    rows = conn.execute(sa.text(
        "SELECT reviewer, id, action FROM audit_events ORDER BY reviewer, id"))
    links: list[dict[str, int]] = []
    cursors: list[dict[str, Any]] = []
    for reviewer, events in groupby(rows, key=lambda r: r[0]):
        undo, redo = replay_trail((event_id, action) for _, event_id, action in events)
        links += [*_links(undo), *_links(redo)]
        cursors.append({"reviewer": reviewer, "undo_top": undo[-1] if undo else None,
                        "undo_depth": len(undo), "redo_top": redo[-1] if redo else None,
                        "redo_depth": len(redo)})
    update = sa.text("UPDATE audit_events SET below_id = :below WHERE id = :event")
    for start in range(0, len(links), BATCH):
        conn.execute(update, links[start:start + BATCH])
    if cursors:
        conn.execute(sa.text(
            "INSERT INTO undo_cursors (reviewer, undo_top, undo_depth, redo_top, redo_depth) "
            "VALUES (:reviewer, :undo_top, :undo_depth, :redo_top, :redo_depth)"), cursors)


def downgrade() -> None:
    # The trail itself is unchanged: the code before 0006 rebuilds its stacks from it (a
    # grouped step then undoes one event at a time).
    op.drop_table("undo_cursors")
    op.drop_index("ix_audit_events_group", table_name="audit_events")
    # Plain ALTERs (SQLite 3.35+), as in 0005: a batch copy would cascade-delete.
    op.drop_column("audit_events", "below_id")
    op.drop_column("audit_events", "group_id")
