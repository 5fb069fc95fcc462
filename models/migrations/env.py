"""Alembic environment: runs on the connection the store hands over (no ini URL)."""

from __future__ import annotations

from alembic import context

from models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only used programmatically
    raise RuntimeError("reviewer migrations run through reviewer.store, not the alembic CLI")



def include_object(
    obj: object, name: str | None, type_: str, reflected: bool, compare_to: object
) -> bool:
    """Leave the search index (SQLite's FTS5 table, PostgreSQL's tsvector table and its GIN
    index, all created by raw SQL) out of autogenerate."""
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
