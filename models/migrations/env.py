"""Alembic environment: runs on the connection the store hands over (no ini URL)."""

from __future__ import annotations

from alembic import context

from models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only used programmatically
    raise RuntimeError("reviewer migrations run through reviewer.store, not the alembic CLI")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
