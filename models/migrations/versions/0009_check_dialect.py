"""check_versions.dialect: the regex dialect a check's patterns are written in

Revision ID: 0009
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every version stored so far ran with Python's regex package: python, as before.
    op.add_column("check_versions", sa.Column("dialect", sa.String(length=12), nullable=False,
                                              server_default="python"))


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite >= 3.35): a batch copy of the table would drop the
    # check_versions that check_results point at, which the foreign keys refuse.
    op.drop_column("check_versions", "dialect")
