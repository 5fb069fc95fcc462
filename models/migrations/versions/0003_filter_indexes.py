"""indexes for the queue filters at scale

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # "Flagged only" starts from the flagged readings (about one verdict in a hundred)
    # instead of scanning every flag; verdict_id makes the index covering.
    op.create_index(
        "ix_contradiction_flags_flagged", "contradiction_flags", ["flagged", "verdict_id"]
    )
    # "Failed check X" starts from the failed results of that check's versions.
    op.create_index(
        "ix_check_results_check_version", "check_results", ["check_version_id", "passed"]
    )
    if op.get_bind().dialect.name == "sqlite":
        # Statistics for the planner (bounded sample), so existing stores pick the new
        # indexes where they help and only there.
        op.execute("PRAGMA analysis_limit = 1000")
        op.execute("ANALYZE")


def downgrade() -> None:
    op.drop_index("ix_check_results_check_version", table_name="check_results")
    op.drop_index("ix_contradiction_flags_flagged", table_name="contradiction_flags")
