"""contradiction_flags.decisive: the flags that would change the filter's decision

Revision ID: 0011
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0009"
branch_labels = None
depends_on = None

# The badge (``attempts.flagged``) now shows a contradiction only when reading the verdict
# the way its rationale reads would change the filter's decision
# (reviewer.contradiction.decisive): a flagged reading that is decisive. The rules pass
# stores that with each reading.
ANY_DECISIVE = (
    "EXISTS (SELECT 1 FROM verdicts v JOIN contradiction_flags f ON f.verdict_id = v.id "
    "WHERE v.attempt_id = attempts.id AND f.decisive AND f.flagged)"
)
ANY_FLAG = (
    "EXISTS (SELECT 1 FROM verdicts v JOIN contradiction_flags f ON f.verdict_id = v.id "
    "WHERE v.attempt_id = attempts.id AND f.flagged)"
)


def _sqlite_triggers(badge: str, columns: str, any_: str) -> tuple[str, ...]:
    # As in 0005, on what now makes the badge (``badge``, over ``columns``).
    new, old = badge.replace("@", "NEW."), badge.replace("@", "OLD.")
    return (
        "CREATE TRIGGER tr_flags_flag_insert AFTER INSERT ON contradiction_flags "
        f"WHEN {new} BEGIN "
        "UPDATE attempts SET flagged = 1 WHERE id = "
        "(SELECT attempt_id FROM verdicts WHERE id = NEW.verdict_id) AND NOT flagged; END",
        "CREATE TRIGGER tr_flags_flag_delete AFTER DELETE ON contradiction_flags "
        f"WHEN {old} BEGIN UPDATE attempts SET flagged = {any_} WHERE id = "
        "(SELECT attempt_id FROM verdicts WHERE id = OLD.verdict_id); END",
        f"CREATE TRIGGER tr_flags_flag_update AFTER UPDATE OF {columns}, verdict_id "
        f"ON contradiction_flags WHEN ({old}) IS NOT ({new}) "
        "OR OLD.verdict_id IS NOT NEW.verdict_id BEGIN "
        f"UPDATE attempts SET flagged = {any_} WHERE id IN "
        "(SELECT attempt_id FROM verdicts WHERE id IN (OLD.verdict_id, NEW.verdict_id)); END",
    )


def _postgresql_function(badge: str, any_: str) -> str:
    new, old = badge.replace("@", "NEW."), badge.replace("@", "OLD.")
    return f"""
CREATE FUNCTION attempts_flagged_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF {new} THEN
            UPDATE attempts SET flagged = TRUE WHERE id =
                (SELECT attempt_id FROM verdicts WHERE id = NEW.verdict_id) AND NOT flagged;
        END IF;
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        IF {old} THEN
            UPDATE attempts SET flagged = {any_} WHERE id =
                (SELECT attempt_id FROM verdicts WHERE id = OLD.verdict_id);
        END IF;
        RETURN NULL;
    END IF;
    UPDATE attempts SET flagged = {any_} WHERE id IN
        (SELECT attempt_id FROM verdicts WHERE id IN (OLD.verdict_id, NEW.verdict_id));
    RETURN NULL;
END $$
"""


def _postgresql_triggers(badge: str, columns: str) -> tuple[str, ...]:
    new, old = badge.replace("@", "NEW."), badge.replace("@", "OLD.")
    return (
        "CREATE TRIGGER tr_flags_flag_write AFTER INSERT OR DELETE ON contradiction_flags "
        "FOR EACH ROW EXECUTE FUNCTION attempts_flagged_sync()",
        f"CREATE TRIGGER tr_flags_flag_update AFTER UPDATE OF {columns}, verdict_id "
        f"ON contradiction_flags FOR EACH ROW WHEN (({old}) IS DISTINCT FROM ({new}) "
        "OR OLD.verdict_id IS DISTINCT FROM NEW.verdict_id) "
        "EXECUTE FUNCTION attempts_flagged_sync()",
    )


def _drop_triggers() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in ("tr_flags_flag_insert", "tr_flags_flag_delete", "tr_flags_flag_update"):
            op.execute(f"DROP TRIGGER {name}")
    else:
        for name in ("tr_flags_flag_write", "tr_flags_flag_update"):
            op.execute(f"DROP TRIGGER {name} ON contradiction_flags")
        op.execute("DROP FUNCTION attempts_flagged_sync()")


def _create_triggers(badge: str, columns: str, any_: str) -> None:
    if op.get_bind().dialect.name == "sqlite":
        for statement in _sqlite_triggers(badge, columns, any_):
            op.execute(statement)
    else:
        op.execute(_postgresql_function(badge, any_))
        for statement in _postgresql_triggers(badge, columns):
            op.execute(statement)


def upgrade() -> None:
    _drop_triggers()
    # A plain ALTER (SQLite 3.35+ for the downgrade's DROP COLUMN): a batch copy would
    # drop the table and, with foreign keys on, cascade.
    op.add_column("contradiction_flags", sa.Column("decisive", sa.Boolean(), nullable=False,
                                                   server_default=sa.false()))
    # Until the next `reviewer flag` computes which flags change the decision, every
    # stored rules flag keeps its badge, as before this revision (the LLM tier's readings
    # never badged an attempt by themselves in the new reading).
    op.execute("UPDATE contradiction_flags SET decisive = flagged WHERE tier = 'rules'")
    op.execute(f"UPDATE attempts SET flagged = {ANY_DECISIVE}")
    _create_triggers("(@decisive AND @flagged)", "decisive, flagged", ANY_DECISIVE)


def downgrade() -> None:
    _drop_triggers()
    op.drop_column("contradiction_flags", "decisive")
    op.execute(f"UPDATE attempts SET flagged = {ANY_FLAG}")
    _create_triggers("@flagged", "flagged", ANY_FLAG)
