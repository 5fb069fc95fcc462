"""The store behaves the same on SQLite and PostgreSQL: migrations, refusals, types."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, select, text

from models import Attempt, AuditEvent, Base, ReviewDecision, Run
from reviewer.errors import StoreError
from reviewer.ingest.importer import import_run
from reviewer.review.decisions import Change, apply_change
from reviewer.store.database import (
    Store,
    _alembic_config,
    current_revision,
    head_revision,
    open_store,
)
from reviewer.store.search import search_ids
from tests.support.pg_server import PgServer
from tests.support.run_files import record, sample_rows, write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends


@pytest.fixture
def empty_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A database with nothing in it (no schema) on the backend under test."""
    if backend != "postgresql":
        yield f"sqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    name = server.database(empty=True)
    try:
        yield server.url(name)
    finally:
        server.drop(name)


def migrate_to(url: str, revision: str) -> None:
    """Bring an empty database to an older revision and put a run in it."""
    engine = create_engine(url)
    with engine.begin() as conn:
        cfg = _alembic_config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        conn.execute(text("INSERT INTO runs (name, imported_at) "
                          "VALUES ('ancien', '2026-10-01 00:00:00+00')"))
    engine.dispose()


def scalar(url: str, sql: str) -> object:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text(sql)).scalar()
    finally:
        engine.dispose()


# Created by migration 0012 on PostgreSQL only (models/migrations/env.py leaves them out
# of autogenerate the same way).
PG_ONLY_INDEXES = ("ix_attempts_queue_desc", "ix_review_decisions_page")


def _search_index(diff: tuple[object, ...]) -> bool:
    """A difference that is the search index's table or one of its indexes, or
    PostgreSQL's own queue index (migration 0012)."""
    kind, obj = diff[0], diff[1]
    if kind == "remove_index" and getattr(obj, "name", "") in PG_ONLY_INDEXES:
        return True
    table = obj if kind == "remove_table" else getattr(obj, "table", None)
    name = getattr(table, "name", "")
    return kind in ("remove_table", "remove_index") and str(name).startswith("attempt_search")


def test_empty_database_is_migrated_to_head_and_matches_the_models(empty_url: str) -> None:
    store = open_store(empty_url)
    try:
        assert current_revision(store.engine) == head_revision()
        with store.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            drift = [d for d in compare_metadata(context, Base.metadata)
                     # The search index (SQLite's FTS5 table, PostgreSQL's tsvector table
                     # and its GIN index) and PostgreSQL's queue index in its own order are
                     # created by the migrations on purpose, outside the models.
                     if not _search_index(d)]
        assert drift == []
    finally:
        store.close()
    reopened = open_store(empty_url)  # already at head: nothing to do
    reopened.close()


def test_older_database_is_upgraded_and_keeps_its_data(empty_url: str) -> None:
    migrate_to(empty_url, "0001")
    store = open_store(empty_url)
    try:
        with store.session() as s:
            assert list(s.scalars(select(Run.name))) == ["ancien"]
        assert current_revision(store.engine) == head_revision()
    finally:
        store.close()


def test_failed_upgrade_changes_nothing(empty_url: str) -> None:
    migrate_to(empty_url, "0001")
    # Something else took the name of an index the next migration creates.
    engine = create_engine(empty_url)
    with engine.begin() as conn:
        conn.execute(text("CREATE INDEX ix_attempts_queue ON runs (name)"))
    engine.dispose()
    with pytest.raises(StoreError, match=r"schema upgrade failed, (database restored|rolled back)"):
        open_store(empty_url)
    assert scalar(empty_url, "SELECT version_num FROM alembic_version") == "0001"
    assert scalar(empty_url, "SELECT name FROM runs") == "ancien"


def test_newer_schema_and_foreign_tables_are_refused(db_url: str, empty_url: str) -> None:
    open_store(db_url).close()
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999_from_the_future'"))
    engine.dispose()
    with pytest.raises(StoreError, match="newer than this version of reviewer"):
        open_store(db_url)
    assert scalar(db_url, "SELECT version_num FROM alembic_version") == "9999_from_the_future"

    engine = create_engine(empty_url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE contacts (name TEXT)"))
    engine.dispose()
    with pytest.raises(StoreError, match="no reviewer schema version"):
        open_store(empty_url)


def test_timestamps_read_back_in_utc_and_json_round_trips(tmp_path: Path, store: Store) -> None:
    import_run(store, write_jsonl(tmp_path / "r.jsonl", sample_rows(1)),
               catalog_path=write_catalog(tmp_path / "c.json"))
    paris = timezone(timedelta(hours=1))
    with store.session() as s:
        run = s.scalars(select(Run)).one()
        run.imported_at = datetime(2026, 11, 30, 9, 30, tzinfo=paris)
        aid = s.scalars(select(Attempt.id)).first()
        assert aid is not None
        apply_change(s, "zoé", Change(aid, "criterion:G-DEMANDE", True))
        apply_change(s, "zoé", Change(aid, "note", "« évènement » 🚧 ok"))
    with store.session() as s:
        run = s.scalars(select(Run)).one()
        # The same instant, given back in UTC whatever the backend or the server's zone.
        assert run.imported_at == datetime(2026, 11, 30, 8, 30, tzinfo=UTC)
        assert run.imported_at.utcoffset() == timedelta(0)
        row = s.scalars(select(ReviewDecision)).one()
        assert row.updated_at.tzinfo is not None
        assert (row.criteria, row.note) == ({"G-DEMANDE": True}, "« évènement » 🚧 ok")
        events = s.scalars(select(AuditEvent).order_by(AuditEvent.id)).all()
        assert [(e.old, e.new) for e in events] == [(None, True), ("", "« évènement » 🚧 ok")]
        assert all(e.at.utcoffset() == timedelta(0) for e in events)


def test_search_folds_accents_and_capitals(tmp_path: Path, store: Store) -> None:
    rows = [record("c1", response="ÉVÉNEMENT SONORE à 23 h."),
            record("c2", response="Notez chaque Événement."),
            record("c3", rationale="Répond À CÔTÉ.")]
    import_run(store, write_jsonl(tmp_path / "a.jsonl", rows),
               catalog_path=write_catalog(tmp_path / "c.json"))
    with store.session() as s:
        ids = list(s.scalars(select(Attempt.id).order_by(Attempt.id)))
        assert search_ids(s, "evenement") == ids[:2]
        assert search_ids(s, "événement sonore") == ids[:1]
        assert search_ids(s, "a cote") == ids[2:]
