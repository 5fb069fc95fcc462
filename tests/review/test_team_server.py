"""The roles and grants of docs/team.md, run as written on the throwaway PostgreSQL server."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, select, text

from models import Attempt
from reviewer.cli.main import main as cli
from reviewer.errors import ReadOnlyError, StoreError
from reviewer.ingest.importer import import_run
from reviewer.review.decisions import Change
from reviewer.review.team import decide, seen_versions
from reviewer.store.database import _alembic_config, current_revision, head_revision, open_store
from tests.support.pg_server import PgServer
from tests.support.run_files import sample_rows, write_catalog, write_jsonl

pytestmark = pytest.mark.postgres

DOC = Path(__file__).resolve().parents[2] / "docs" / "team.md"


def doc_sql(prefix: str) -> list[list[str]]:
    """The statements of each ``sql`` block of the guide, with names made unique."""
    blocks = re.findall(r"```sql\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    out = []
    for block in blocks:
        for old in ("reviews", "alice", "bob"):
            block = block.replace(old, f"{prefix}{old}")
        out.append([s.strip() for s in block.split(";\n") if s.strip()])
    return out


def team_database(pg_server: PgServer, prefix: str) -> str:
    """The roles, grants and database of docs/team.md, names prefixed; the database."""
    db = f"{prefix}reviews"
    as_server, in_database = doc_sql(prefix)
    for statement in as_server:
        pg_server.execute(statement)
    for statement in in_database:
        pg_server.execute(statement, database=db)
    return db


def test_documented_grants_let_reviewers_work_and_only_the_owner_migrate(
    pg_server: PgServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = f"t{uuid.uuid4().hex[:6]}_"
    db = team_database(pg_server, p)
    owner, alice, bob = (pg_server.url(db, f"{p}{who}") for who in ("reviews_owner", "alice",
                                                                     "bob"))
    try:
        # The owner creates the schema by opening the store.
        open_store(owner).close()

        # A reviewer imports, decides, reads the queue and the stats: no DDL needed.
        store = open_store(alice)
        try:
            import_run(store, write_jsonl(tmp_path / "r.jsonl", sample_rows(1)),
                       catalog_path=write_catalog(tmp_path / "c.json"))
            with store.session() as s:
                aid = s.scalars(select(Attempt.id).order_by(Attempt.id)).first()
                assert aid is not None
                seen = seen_versions(s, aid, "alice")
            with store.session() as s:
                decide(s, "alice", Change(aid, "decision", "accept"), seen_others=seen)
            # …but cannot change the schema.
            with pytest.raises(ReadOnlyError, match="permission denied"), \
                    store.session() as s:
                s.execute(text("CREATE TABLE notes (body text)"))
        finally:
            store.close()

        bob_store = open_store(bob)
        try:
            with bob_store.session() as s:
                told = decide(s, "bob", Change(aid, "decision", "reject"), seen_others={})
            assert [(c.other.reviewer, c.disagrees) for c in told.conflicts] == [("alice", True)]
        finally:
            bob_store.close()
        assert cli(["--db", bob, "--reviewer", "bob", "stats", "--json"]) == 0
        figures = json.loads(capsys.readouterr().out)["reviewers"]
        assert figures["decided"] == {"alice": 1, "bob": 1}

        # A schema older than the app: a reviewer cannot upgrade it, nothing changes…
        engine = create_engine(owner)
        with engine.begin() as conn:
            cfg = _alembic_config()
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0001")
        engine.dispose()
        with pytest.raises(StoreError, match=r"rolled back, nothing changed: .*owner"):
            open_store(alice)
        # …until the owner opens it.
        upgraded = open_store(owner)
        try:
            assert current_revision(upgraded.engine) == head_revision()
        finally:
            upgraded.close()
        open_store(alice).close()
    finally:
        pg_server.drop(db)
