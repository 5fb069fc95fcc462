"""Alembic environment: runs on the connection the store hands over (no ini URL)."""

from __future__ import annotations

from alembic import context

from models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only used programmatically
    raise RuntimeError("reviewer migrations run through reviewer.store, not the alembic CLI")



# Created by migration 0012 on PostgreSQL only (the queue's order read in one direction,
# a page row's decision from the index alone).
PG_ONLY_INDEXES = ("ix_attempts_queue_desc", "ix_review_decisions_page")


def include_object(
    obj: object, name: str | None, type_: str, reflected: bool, compare_to: object
) -> bool:
    """Leave the search index (SQLite's FTS5 table, PostgreSQL's tsvector table and its GIN
    index, all created by raw SQL) and PostgreSQL's own queue index out of autogenerate."""
    if type_ == "index" and name in PG_ONLY_INDEXES:
        return False
    if type_ == "index":
        table = getattr(obj, "table", None)
        name = getattr(table, "name", None)
    return not (type_ in ("table", "index") and name is not None
                and name.startswith("attempt_search"))


context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    include_object=include_object,
)
with context.begin_transaction():
    context.run_migrations()
