"""PostgreSQL faults the seventh blind hostile pass found, on the throwaway server: a row
lock held by a stopped process, a database not in UTF-8, a reviewer first on an empty
database. Each is one ``reviewer: …`` line with the exit code of its kind."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import select

from models import ReviewDecision
from reviewer.cli.main import main
from reviewer.errors import FAILED, READ_ONLY
from reviewer.store import Store, open_store
from tests.support.feedback_stores import attempt_id, key, load_backtest_store
from tests.support.pg_server import PgServer

pytestmark = pytest.mark.postgres
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pg_store(pg_server: PgServer, tmp_path: Path) -> Iterator[tuple[str, Store]]:
    name = pg_server.database()
    url = pg_server.url(name)
    store = open_store(url)
    try:
        load_backtest_store(store, tmp_path)
        yield url, store
    finally:
        store.close()
        pg_server.drop(name)


def test_a_row_locked_by_a_stopped_session_is_busy_not_a_hang(
        pg_store: tuple[str, Store], pg_server: PgServer,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Seventh hostile pass, H1: a `decide --from-csv` stopped with Ctrl+Z holds its rows'
    locks; `decide` by the same reviewer waited with no limit (SQLite says "busy" after
    its busy timeout). An open transaction holding the lock is the same case."""
    url, store = pg_store
    monkeypatch.setenv("REVIEWER_BUSY_TIMEOUT_MS", "300")
    aid = attempt_id(store, key(6))
    holder = psycopg.connect(host="127.0.0.1", port=pg_server.port, user="postgres",
                             dbname=url.rsplit("/", 1)[1])
    holder.execute("SELECT id FROM attempts WHERE id = %s FOR UPDATE", (aid,))
    # Only a guard against the old behaviour hanging the suite: the lock is let go after
    # a minute, and the old code then stored the decision (exit 0, not the busy line).
    guard = threading.Timer(60, holder.rollback)
    guard.start()
    try:
        code = main(["--db", url, "--reviewer", "bot0", "decide", key(6), "--accept",
                     "--note", "h1"])
    finally:
        guard.cancel()
        guard.join()
        holder.rollback()
        holder.close()
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"reviewer: {url}: the database is busy (another session is writing the same "
        "rows); the change in progress was not saved, try again"], err
    assert code == FAILED
    with store.session() as s:
        assert s.scalars(select(ReviewDecision).where(
            ReviewDecision.reviewer == "bot0")).first() is None
    # The lock released, the same command stores the decision.
    assert main(["--db", url, "--reviewer", "bot0", "decide", key(6), "--accept",
                 "--note", "h1"]) == 0
    with store.session() as s:
        row = s.scalars(select(ReviewDecision).where(ReviewDecision.reviewer == "bot0")).one()
        assert (row.attempt_id, row.decision, row.note) == (aid, "accept", "h1")


@pytest.mark.parametrize("encoding", ["SQL_ASCII", "LATIN1"])
def test_a_database_not_in_utf8_is_refused_in_one_line_untouched(
        pg_server: PgServer, encoding: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Seventh hostile pass, T4: SQL_ASCII was an internal error (TypeError) on every
    command; LATIN1 an internal error (UnicodeEncodeError) on `demo`, or on importing any
    text Latin-1 cannot hold (curly quotes, "€", a decomposed accent)."""
    name = f"enc_{encoding.lower()}_{uuid.uuid4().hex[:8]}"
    pg_server.execute(f"CREATE DATABASE {name} ENCODING '{encoding}' LC_COLLATE 'C' "
                      "LC_CTYPE 'C' TEMPLATE template0")
    url = pg_server.url(name)
    try:
        for command in (["demo"], ["stats"]):
            assert main(["--db", url, *command]) == FAILED
            assert capsys.readouterr().err.splitlines() == [
                f"reviewer: {url}: this database is in {encoding}; reviewer needs a UTF8 "
                f"database: createdb -E UTF8 -T template0 NAME (move an existing one with "
                "pg_dump and pg_restore); nothing was changed"]
        assert public_tables(pg_server, name) == 0
    finally:
        pg_server.drop(name)


def public_tables(pg_server: PgServer, database: str) -> int:
    """How many tables the database's public schema holds (0: nothing was made)."""
    with psycopg.connect(host="127.0.0.1", port=pg_server.port, user="postgres",
                         dbname=database) as conn:
        row = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
                           ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_reviewer_first_on_a_database_without_schema_is_sent_to_its_owner(
        pg_server: PgServer, capsys: pytest.CaptureFixture[str]) -> None:
    """Seventh hostile pass, P1: a reviewer (no CREATE on schema public, docs/team.md §1)
    opening the database before its owner read "schema upgrade failed, rolled back,
    nothing changed: permission denied for schema public"."""
    from tests.review.test_team_server import team_database

    p = f"p{uuid.uuid4().hex[:6]}_"
    db = team_database(pg_server, p)
    alice = pg_server.url(db, f"{p}alice")
    try:
        assert main(["--db", alice, "stats"]) == READ_ONLY
        assert capsys.readouterr().err.splitlines() == [
            f"reviewer: {alice}: this database has no reviewer schema yet, and {p}alice may "
            "not create it; its owner must create it once, with any command (reviewer --db "
            f"postgresql+psycopg://{p}reviews_owner@127.0.0.1:{pg_server.port}/{db} stats; "
            "docs/team.md, section 2); nothing was changed"]
        assert public_tables(pg_server, db) == 0
    finally:
        pg_server.drop(db)
        for who in ("alice", "bob", "reviews_team", "reviews_owner"):
            pg_server.execute(f"DROP ROLE IF EXISTS {p}{who}")


# -- ninth hostile pass, P3: PostgreSQL wording ----------------------------------------------


@pytest.fixture
def role(pg_store: tuple[str, Store], pg_server: PgServer) -> Iterator[tuple[str, str]]:
    """A reviewer role (login, reads and writes the tables, no DDL) on the loaded store:
    its name and its URL."""
    url, _ = pg_store
    db = url.rsplit("/", 1)[1]
    name = f"r{uuid.uuid4().hex[:8]}"
    pg_server.execute(f"CREATE ROLE {name} LOGIN")
    for grant in ("GRANT USAGE ON SCHEMA public TO {r}",
                  "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {r}",
                  "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {r}"):
        pg_server.execute(grant.format(r=name), database=db)
    try:
        yield name, pg_server.url(db, name)
    finally:
        pg_server.execute(f"DROP OWNED BY {name}", database=db)
        pg_server.execute(f"DROP ROLE {name}")


def schemas(pg_server: PgServer, database: str) -> list[str]:
    with psycopg.connect(host="127.0.0.1", port=pg_server.port, user="postgres",
                         dbname=database) as conn:
        return [str(r[0]) for r in conn.execute(
            "SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' "
            "AND nspname <> 'information_schema' ORDER BY 1")]


def test_a_search_path_naming_no_schema_is_said_not_upgraded(
        role: tuple[str, str], pg_store: tuple[str, Store], pg_server: PgServer,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ninth hostile pass, P3 (a): ``ALTER ROLE bob SET search_path = nonexist``, then
    ``queue`` (a read) said "schema upgrade failed, rolled back, nothing changed: no
    schema has been selected to create in"."""
    name, url = role
    db = url.rsplit("/", 1)[1]
    pg_server.execute(f"ALTER ROLE {name} SET search_path = nonexist")
    before = (schemas(pg_server, db), public_tables(pg_server, db))
    capsys.readouterr()
    assert main(["--db", url, "queue"]) == FAILED
    assert capsys.readouterr().err.splitlines() == [
        f"reviewer: {url}: the search_path of role {name} (nonexist) names no schema that "
        "exists, so the reviewer tables cannot be found (they are in schema public); reset "
        f"it (ALTER ROLE {name} RESET search_path) or set it to that schema; nothing was "
        "changed"]
    assert (schemas(pg_server, db), public_tables(pg_server, db)) == before
    pg_server.execute(f"ALTER ROLE {name} RESET search_path")
    assert main(["--db", url, "queue", "--limit", "1"]) == 0


def test_a_decision_written_meanwhile_names_its_attempt(
        role: tuple[str, str], pg_store: tuple[str, Store]) -> None:
    """Ninth hostile pass, P3 (b): two ``decide --from-csv`` of one reviewer at once said
    "the decision of bob on this attempt was written by another session". Here the other
    session commits the same reviewer's first decision between this one's read and write."""
    from sqlalchemy import event

    from reviewer.review.decisions import Change, ConflictError
    from reviewer.review.team import decide

    url, store = pg_store
    aid = attempt_id(store, key(6))

    done: list[int] = []

    def meanwhile(*_: object) -> None:
        if not done:  # once, before this session's first write
            done.append(main(["--db", url, "--reviewer", "bob", "decide", key(6), "--reject"]))

    with pytest.raises(ConflictError) as caught, store.session() as session:
        event.listen(session, "before_flush", meanwhile)
        decide(session, "bob", Change(aid, "decision", "accept"))
    assert done == [0]
    assert str(caught.value) == (f"the decision of bob on {key(6)} was written by another "
                                 "session meanwhile; nothing was changed")
    with store.session() as s:
        assert s.scalars(select(ReviewDecision.decision).where(
            ReviewDecision.reviewer == "bob")).all() == ["reject"]


def test_a_statement_timeout_is_named_not_cannot_open(
        role: tuple[str, str], pg_store: tuple[str, Store], pg_server: PgServer,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ninth hostile pass, P3 (c): ``statement_timeout=1ms`` said "cannot open the
    database (canceling statement due to statement timeout)". A lock held on the schema
    stamp makes the open's first read wait past the millisecond, every time."""
    name, url = role
    db = url.rsplit("/", 1)[1]
    pg_server.execute(f"ALTER ROLE {name} SET statement_timeout = '1ms'")
    holder = psycopg.connect(host="127.0.0.1", port=pg_server.port, user="postgres",
                             dbname=db)
    try:
        holder.execute("LOCK TABLE alembic_version IN ACCESS EXCLUSIVE MODE")
        capsys.readouterr()
        assert main(["--db", url, "queue"]) == FAILED
    finally:
        holder.rollback()
        holder.close()
    assert capsys.readouterr().err.splitlines() == [
        f"reviewer: {url}: a statement was cancelled by the server's statement_timeout "
        f"(1ms, set for role {name}); nothing was changed; raise it or reset it (ALTER ROLE "
        f"{name} RESET statement_timeout)"]


def test_four_first_commands_on_a_new_database_all_make_the_schema_once(
        pg_server: PgServer, tmp_path: Path) -> None:
    """Tenth hostile pass, Z5: four `demo` at once on a new PostgreSQL database: three
    failed on PostgreSQL's "duplicate key value … pg_type_typname_nsp_index" (each made
    the schema in its own transaction). Schema creation is serialised: one makes it, the
    others find it made."""
    name = pg_server.database(empty=True)
    url = pg_server.url(name)
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"),
           "XDG_DATA_HOME": str(tmp_path / "d")}
    env.pop("REVIEWER_DB", None)
    try:
        runs = [subprocess.Popen([sys.executable, "-m", "ui.cli", "--db", url, "demo"],
                                 cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for _ in range(4)]
        results = [(p.wait(timeout=300), p.stderr.read() if p.stderr else "") for p in runs]
        for p in runs:
            for stream in (p.stdout, p.stderr):
                if stream is not None:
                    stream.close()
        assert [code for code, _ in results] == [0, 0, 0, 0], results
        assert public_tables(pg_server, name) > 0
    finally:
        pg_server.drop(name)
