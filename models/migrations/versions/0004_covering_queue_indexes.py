"""covering indexes for the queue's page walk and filter probes

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A queue page walks the attempts in (accepted, score) order until it has 200 matches.
    # With every column the order and the joins need in the index, the walk never reads
    # an attempt's row (messages and answer: about a page each) for a row it skips.
    op.drop_index("ix_attempts_queue", table_name="attempts")
    op.create_index(
        "ix_attempts_queue",
        "attempts",
        ["accepted", "contradiction_score", "conversation_id", "turn", "attempt", "run_id"],
    )
    # The criterion filter's probe ("this attempt has a refusing filter verdict on one of
    # these versions") answered from the index: ``met`` would otherwise need the verdict's
    # row. Same leading columns as the unique constraint, so the planner prefers it.
    op.create_index(
        "ix_verdicts_attempt_met",
        "verdicts",
        ["attempt_id", "criterion_version_id", "origin", "met"],
    )
    # The failed-check filter's probe, the same way.
    op.create_index(
        "ix_check_results_attempt_passed",
        "check_results",
        ["attempt_id", "check_version_id", "passed"],
    )
    if op.get_bind().dialect.name == "sqlite":
        # Statistics for the planner (bounded sample) so the new indexes are picked.
        op.execute("PRAGMA analysis_limit = 1000")
        op.execute("ANALYZE")


def downgrade() -> None:
    op.drop_index("ix_check_results_attempt_passed", table_name="check_results")
    op.drop_index("ix_verdicts_attempt_met", table_name="verdicts")
    op.drop_index("ix_attempts_queue", table_name="attempts")
    op.create_index(
        "ix_attempts_queue",
        "attempts",
        ["accepted", "contradiction_score", "conversation_id", "turn"],
    )
