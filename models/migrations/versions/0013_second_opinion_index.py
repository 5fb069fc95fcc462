"""verdicts: a partial index of the attempts that have a second opinion

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

# Every export walk (``reviewer.exports.walk``) starts by listing the attempts that have a
# second opinion: they alone need the filter rule replayed. Without an index that is a
# scan of every verdict (1.2 million in a season: 10 ms of a 10,000-attempt export, ten
# times that at 100,000) for the few rows a reviewer asked for. Partial, so it holds only
# those rows and costs the import nothing. ``origin`` is in it although it is constant:
# SQLite 3.40 checks the condition again on each row, and without the column in the index
# it preferred scanning the unique index (measured: 6 ms against 0.03 ms at 10,000).
WHERE = "origin = 'second_opinion'"


def upgrade() -> None:
    op.create_index("ix_verdicts_second_opinion", "verdicts", ["attempt_id", "origin"],
                    sqlite_where=sa.text(WHERE), postgresql_where=sa.text(WHERE))


def downgrade() -> None:
    op.drop_index("ix_verdicts_second_opinion", table_name="verdicts")
