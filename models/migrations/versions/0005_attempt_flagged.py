"""attempts.flagged: whether any reading of the attempt's verdicts is flagged, kept by triggers

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# What the queue showed and filtered on before this column: a flagged reading, of any tier,
# on any verdict of the attempt.
ANY_FLAG = (
    "EXISTS (SELECT 1 FROM verdicts v JOIN contradiction_flags f ON f.verdict_id = v.id "
    "WHERE v.attempt_id = attempts.id AND f.flagged)"
)
QUEUE_COLUMNS = ["accepted", "contradiction_score", "conversation_id", "turn", "attempt",
                 "run_id"]

# Every writer of readings (the rules pass, the import hook, the LLM tier's ORM rows, a
# cascade) goes through these, so the column cannot drift from the readings. A new flagged
# reading sets it (a first pass writes ~1 flagged reading in 60, the rest cost nothing);
# a removed one, or one whose flag changed, recomputes it for its attempt (an update that
# leaves the flag as it was, like most of a rules rerun's, costs nothing).
_SQLITE_TRIGGERS = (
    "CREATE TRIGGER tr_flags_flag_insert AFTER INSERT ON contradiction_flags "
    "WHEN NEW.flagged BEGIN "
    "UPDATE attempts SET flagged = 1 WHERE id = "
    "(SELECT attempt_id FROM verdicts WHERE id = NEW.verdict_id) AND NOT flagged; END",
    "CREATE TRIGGER tr_flags_flag_delete AFTER DELETE ON contradiction_flags "
    f"WHEN OLD.flagged BEGIN UPDATE attempts SET flagged = {ANY_FLAG} WHERE id = "
    "(SELECT attempt_id FROM verdicts WHERE id = OLD.verdict_id); END",
    "CREATE TRIGGER tr_flags_flag_update AFTER UPDATE OF flagged, verdict_id "
    "ON contradiction_flags WHEN OLD.flagged IS NOT NEW.flagged "
    "OR OLD.verdict_id IS NOT NEW.verdict_id BEGIN "
    f"UPDATE attempts SET flagged = {ANY_FLAG} WHERE id IN "
    "(SELECT attempt_id FROM verdicts WHERE id IN (OLD.verdict_id, NEW.verdict_id)); END",
)
_POSTGRESQL_FUNCTION = f"""
CREATE FUNCTION attempts_flagged_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.flagged THEN
            UPDATE attempts SET flagged = TRUE WHERE id =
                (SELECT attempt_id FROM verdicts WHERE id = NEW.verdict_id) AND NOT flagged;
        END IF;
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        IF OLD.flagged THEN
            UPDATE attempts SET flagged = {ANY_FLAG} WHERE id =
                (SELECT attempt_id FROM verdicts WHERE id = OLD.verdict_id);
        END IF;
        RETURN NULL;
    END IF;
    UPDATE attempts SET flagged = {ANY_FLAG} WHERE id IN
        (SELECT attempt_id FROM verdicts WHERE id IN (OLD.verdict_id, NEW.verdict_id));
    RETURN NULL;
END $$
"""
_POSTGRESQL_TRIGGERS = (
    "CREATE TRIGGER tr_flags_flag_write AFTER INSERT OR DELETE ON contradiction_flags "
    "FOR EACH ROW EXECUTE FUNCTION attempts_flagged_sync()",
    "CREATE TRIGGER tr_flags_flag_update AFTER UPDATE OF flagged, verdict_id "
    "ON contradiction_flags FOR EACH ROW WHEN (OLD.flagged IS DISTINCT FROM NEW.flagged "
    "OR OLD.verdict_id IS DISTINCT FROM NEW.verdict_id) "
    "EXECUTE FUNCTION attempts_flagged_sync()",
)


def upgrade() -> None:
    # The queue showed each row's flag by probing its dozen verdicts' readings, and the
    # "flagged only" filter probed them for every attempt it walked past: with the flag
    # on the attempt, in the queue index, the walk answers both from the index.
    op.add_column("attempts", sa.Column("flagged", sa.Boolean(), nullable=False,
                                        server_default=sa.false()))
    op.execute("UPDATE attempts SET flagged = TRUE WHERE id IN (SELECT v.attempt_id FROM "
               "verdicts v JOIN contradiction_flags f ON f.verdict_id = v.id WHERE f.flagged)")
    op.drop_index("ix_attempts_queue", table_name="attempts")
    op.create_index("ix_attempts_queue", "attempts", [*QUEUE_COLUMNS, "flagged"])
    if op.get_bind().dialect.name == "sqlite":
        for statement in _SQLITE_TRIGGERS:
            op.execute(statement)
        # Statistics for the planner (bounded sample) so the new index is picked.
        op.execute("PRAGMA analysis_limit = 1000")
        op.execute("ANALYZE")
    else:
        op.execute(_POSTGRESQL_FUNCTION)
        for statement in _POSTGRESQL_TRIGGERS:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in ("tr_flags_flag_insert", "tr_flags_flag_delete", "tr_flags_flag_update"):
            op.execute(f"DROP TRIGGER {name}")
    else:
        for name in ("tr_flags_flag_write", "tr_flags_flag_update"):
            op.execute(f"DROP TRIGGER {name} ON contradiction_flags")
        op.execute("DROP FUNCTION attempts_flagged_sync()")
    op.drop_index("ix_attempts_queue", table_name="attempts")
    op.create_index("ix_attempts_queue", "attempts", QUEUE_COLUMNS)
    # A plain ALTER (SQLite 3.35+): a batch copy would drop the table, and with foreign keys
    # on that deletes every verdict and reading through their cascades.
    op.drop_column("attempts", "flagged")
