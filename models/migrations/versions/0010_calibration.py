"""Grader calibration: grading files and the human scores of their answers

Revision ID: 0010
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "calibration_sets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("source", sa.Text(), nullable=True),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("imported_by", sa.String(length=200), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_calibration_sets")),
        sa.UniqueConstraint("digest", name=op.f("uq_calibration_sets_digest")),
    )
    op.create_table(
        "calibration_rows",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("set_id", sa.Integer(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("group_index", sa.Integer(), nullable=False),
        sa.Column("group_label", sa.String(length=500), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["set_id"], ["calibration_sets.id"],
                                name=op.f("fk_calibration_rows_set_id_calibration_sets"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_calibration_rows")),
        sa.UniqueConstraint("set_id", "line", name=op.f("uq_calibration_rows_set_id_line")),
    )
    op.create_index("ix_calibration_rows_set_group", "calibration_rows",
                    ["set_id", "group_index", "position"])
    op.create_table(
        "calibration_scores",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("row_id", sa.Integer(), nullable=False),
        sa.Column("reviewer", sa.String(length=200), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("mode", sa.String(length=10), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("mode in ('score', 'rank')",
                           name=op.f("ck_calibration_scores_mode_valid")),
        sa.ForeignKeyConstraint(["row_id"], ["calibration_rows.id"],
                                name=op.f("fk_calibration_scores_row_id_calibration_rows"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_calibration_scores")),
        sa.UniqueConstraint("row_id", "reviewer",
                            name=op.f("uq_calibration_scores_row_id_reviewer")),
    )
    op.create_table(
        "calibration_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("row_id", sa.Integer(), nullable=False),
        sa.Column("reviewer", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(length=10), nullable=False),
        sa.Column("old", sa.JSON(), nullable=True),
        sa.Column("new", sa.JSON(), nullable=True),
        sa.Column("step", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["row_id"], ["calibration_rows.id"],
                                name=op.f("fk_calibration_events_row_id_calibration_rows"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_calibration_events")),
    )
    op.create_index("ix_calibration_events_reviewer", "calibration_events", ["reviewer", "id"])
    op.create_index("ix_calibration_events_row", "calibration_events", ["row_id"])


def downgrade() -> None:
    op.drop_index("ix_calibration_events_row", table_name="calibration_events")
    op.drop_index("ix_calibration_events_reviewer", table_name="calibration_events")
    op.drop_table("calibration_events")
    op.drop_table("calibration_scores")
    op.drop_index("ix_calibration_rows_set_group", table_name="calibration_rows")
    op.drop_table("calibration_rows")
    op.drop_table("calibration_sets")
