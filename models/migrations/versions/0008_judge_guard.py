"""the second-opinion guard's outcome on each verdict, a reasoning model's thoughts with
its reply

Revision ID: 0008
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTERs (SQLite 3.35+ drops columns too): a batch copy of ``verdicts`` would
    # drop the table, and with foreign keys on that deletes every reading by cascade.
    # Existing second opinions keep applying, as they did: ``reviewer rejudge
    # --reassess`` puts them through the guard.
    op.add_column("verdicts", sa.Column("applied", sa.Boolean(), nullable=False,
                                        server_default=sa.true()))
    op.add_column("verdicts", sa.Column("unreliable_reason", sa.Text(), nullable=True))
    op.add_column("judge_requests", sa.Column("thinking", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("judge_requests", "thinking")
    op.drop_column("verdicts", "unreliable_reason")
    op.drop_column("verdicts", "applied")
