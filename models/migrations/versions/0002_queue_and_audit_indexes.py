"""queue and audit indexes

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The review queue sorts refused attempts by contradiction score, then in run order.
    op.create_index(
        "ix_attempts_queue",
        "attempts",
        ["accepted", "contradiction_score", "conversation_id", "turn"],
    )
    # Undo history and exports read the audit trail per attempt.
    op.create_index("ix_audit_events_attempt", "audit_events", ["attempt_id"])


def downgrade() -> None:
    op.drop_index("ix_audit_events_attempt", table_name="audit_events")
    op.drop_index("ix_attempts_queue", table_name="attempts")
