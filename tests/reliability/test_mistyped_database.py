"""A ``--db`` that names no store, or a store with options: nothing is made, nothing is
replaced, one ``reviewer:`` line says so (issue 18, fifth hostile pass: P40, P42, P43).

P40: a mistyped path, or the NFD twin of an NFC file name, made an empty store; ``queue``
printed nothing and exited 0, and ``export dataset good.jsonl`` replaced a good dataset
with 0 examples. Only ``import`` and ``demo`` (which put a run in) and ``contradictions
--llm`` (whose store is its judge cache) make a new SQLite file; the app makes only the
default store, on its first start. P42: ``sqlite:///PATH?mode=ro`` was ignored with a raw
SAWarning and the write went through. P43: ``sqlite:///PATH?mode=ro&uri=true`` opened a
new empty store named ``PATH?mode=ro``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import select

from models import ReviewDecision
from reviewer.cli.common import MAKE_A_STORE
from reviewer.cli.main import build_parser
from reviewer.errors import BAD_INPUT, FAILED
from reviewer.store import open_store
from tests.reliability.faults import (
    KEY,
    Files,
    console,
    fresh_copy,
    make_files,
    readers,
    writers,
)
from tests.reliability.test_hostile_inputs import counts, one_line, run
from tests.support.pg_server import PgServer


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Files:
    return make_files(tmp_path_factory.mktemp("mistyped") / "files")


@pytest.fixture
def files(template: Files, tmp_path: Path) -> Files:
    """A fresh copy of the store for each test (the template is built once)."""
    return fresh_copy(template, tmp_path / "copy")


def listing(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` with its bytes: what a refused command must leave alone."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# -- options after '?' in a sqlite:/// URL (P42, P43) --------------------------------------

def test_a_read_only_option_is_refused_not_ignored_while_writing(files: Files) -> None:
    # P42: "SAWarning: Query string argument(s) 'mode' are not accepted by the pysqlite
    # driver and are being ignored" (two lines naming database.py), then the decision
    # was stored: the reviewer asked for read-only and got a write.
    url = f"sqlite:///{files.db}?mode=ro"
    before = counts(files.db)
    proc = console("--db", url, "decide", KEY, "--accept", "--reviewer", "ines")
    assert proc.returncode == BAD_INPUT, proc.stderr
    assert proc.stderr == (
        f"reviewer: --db {url!r}: options after '?' are not accepted in a SQLite URL; give "
        "the file's path (or sqlite:///PATH without them); to keep a store from being "
        "changed, make its file read-only (chmod a-w FILE)\n")
    assert proc.stdout == ""
    assert counts(files.db) == before


@pytest.mark.parametrize("argv", [["export", "decisions", "-"], ["queue"]],
                         ids=["export", "queue"])
def test_a_sqlite_uri_option_opens_no_new_store_beside_the_real_one(
        files: Files, argv: list[str]) -> None:
    # P43: `?mode=ro&uri=true` opened a new 266 KB store named `reviewer.sqlite3?mode=ro`
    # and exported "0 audit events", exit 0.
    url = f"sqlite:///{files.db}?mode=ro&uri=true"
    before = listing(files.store_dir)
    proc = console("--db", url, *argv)
    assert proc.returncode == BAD_INPUT, proc.stderr
    assert proc.stderr.startswith(f"reviewer: --db {url!r}: options after '?' are not "
                                  "accepted in a SQLite URL; ")
    assert proc.stderr.count("\n") == 1 and proc.stdout == ""
    assert listing(files.store_dir) == before


# -- a path where there is no store (P40) -------------------------------------------------

def store_commands(f: Files, db: str) -> dict[str, list[str]]:
    """Every command that reads or changes the store, on ``db``: none may make it."""
    found = {**readers(f, db), **writers(f, db),
             "export dataset": ["--db", db, "export", "dataset", str(f.output("d.jsonl"))],
             "rejudge": ["--db", db, "rejudge", "--attempt", KEY, "--host",
                         "http://127.0.0.1:9", "--retries", "0", "--timeout", "2"],
             "rejudge --reassess": ["--db", db, "rejudge", "--reassess"]}
    del found["import"]  # it makes the store (MAKE_A_STORE)
    return found


NEEDS_A_STORE = sorted(store_commands(Files(Path("f")), "db"))
NO_STORE = {"grade", "lint-graders", "calibrate", "verify-export"}
"""Commands that read files only: ``--db`` means nothing to them."""


def test_every_command_makes_a_store_needs_one_or_has_none() -> None:
    # A new command is tested below, or said to make a store, or to use none.
    parser = build_parser()
    words = next(a for a in parser._actions
                 if isinstance(a, argparse._SubParsersAction)).choices
    tested = {name.split()[0] for name in NEEDS_A_STORE}
    assert set(words) == tested | MAKE_A_STORE | NO_STORE
    assert not tested & MAKE_A_STORE and not NO_STORE & (tested | MAKE_A_STORE)


@pytest.mark.parametrize("name", NEEDS_A_STORE)
def test_a_command_given_no_store_makes_none_and_says_so(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    # P40: `--db typo.db queue` printed nothing, exit 0, and left a 266 KB typo.db.
    work = tmp_path / "work"
    work.mkdir()
    for db in (work / "typo.db", work / "missing" / "typo.db"):
        err = one_line(capsys, run(store_commands(files, str(db))[name]), BAD_INPUT)
        assert err == f"reviewer: no database at {db} (import a run first, or check the path)"
        assert list(work.iterdir()) == []  # no file, no -wal, -shm or -journal, no folder
    assert not any(files.root.joinpath("out").iterdir())


def test_a_mistyped_db_in_a_script_is_an_error_not_an_empty_queue(tmp_path: Path) -> None:
    # P40, as the pass ran it: the console script, a typo, nothing else in the folder.
    proc = console("--db", str(tmp_path / "typo.db"), "queue")
    assert proc.returncode == BAD_INPUT, proc.stderr
    assert proc.stderr == (f"reviewer: no database at {tmp_path / 'typo.db'} (import a run "
                           "first, or check the path)\n")
    assert proc.stdout == "" and list(tmp_path.iterdir()) == []


def test_the_nfd_twin_of_a_store_replaces_no_dataset(files: Files, tmp_path: Path) -> None:
    # P40: the NFD spelling of an NFC name (pasted from macOS) made an empty store, and
    # `export dataset good.jsonl` from it replaced 118 examples with 0, exit 0.
    nfc = files.store_dir / "caf\u00e9.db"
    nfd = files.store_dir / "cafe\u0301.db"
    files.db.rename(nfc)
    good = tmp_path / "good.jsonl"
    assert console("--db", str(nfc), "export", "dataset", str(good)).returncode == 0
    dataset, manifest = good.read_bytes(), Path(f"{good}.manifest.json").read_bytes()
    assert dataset.count(b"\n") > 5
    before = listing(files.store_dir)
    proc = console("--db", str(nfd), "export", "dataset", str(good))
    assert proc.returncode == BAD_INPUT, proc.stderr
    assert proc.stderr == (f"reviewer: no database at {nfd} (a file beside it, {nfc.name}, "
                           "has the same name spelt with other Unicode code points, NFC or "
                           "NFD: type the name again or complete it with Tab)\n")
    assert good.read_bytes() == dataset
    assert Path(f"{good}.manifest.json").read_bytes() == manifest
    assert listing(files.store_dir) == before and not nfd.exists()


def test_the_default_store_is_made_by_import_not_by_a_reader(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # No --db: a reader on a store never made says there is none yet, and makes nothing;
    # import makes it. $REVIEWER_DB is a path the reviewer typed: never made by a reader.
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.delenv("REVIEWER_DB", raising=False)
    default = data / "reviewer" / "reviewer.sqlite3"
    for argv in (["queue"], ["stats"], ["export", "decisions", str(tmp_path / "d.jsonl")]):
        err = one_line(capsys, run(argv), BAD_INPUT)
        assert err == (f"reviewer: no database yet at {default} (the default store): import "
                       "a run first (reviewer import RUN.jsonl, or reviewer demo), or name a "
                       "database with --db")
    assert not data.exists() and not (tmp_path / "d.jsonl").exists()
    assert run(["import", str(files.input("new_run.jsonl")),
                "--catalog", str(files.input("new_catalog.json"))]) == 0
    capsys.readouterr()
    assert default.is_file()
    assert run(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attempts"] == 1

    missing = tmp_path / "elsewhere" / "reviews.db"
    monkeypatch.setenv("REVIEWER_DB", str(missing))
    err = one_line(capsys, run(["stats"]), BAD_INPUT)
    assert err == (f"reviewer: no database at {missing}, named by $REVIEWER_DB (import a run "
                   "first, or check the path)")
    assert not missing.parent.exists()


def test_import_makes_a_new_store_where_it_is_told(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The commands meant to make a store still do, in a folder made for it.
    db = tmp_path / "new" / "store.db"
    assert run(["--db", str(db), "import", str(files.input("new_run.jsonl")),
                "--catalog", str(files.input("new_catalog.json"))]) == 0
    assert capsys.readouterr().out.startswith("1 new, 0 already present")
    assert run(["--db", str(db), "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attempts"] == 1


@pytest.mark.postgres
def test_on_postgresql_the_server_makes_databases_and_an_empty_one_gets_its_schema(
        pg_server: PgServer, capsys: pytest.CaptureFixture[str]) -> None:
    # The server owns creation: a mistyped database name is its one line, and nothing is
    # made; an empty database (the team's owner made it, docs/team.md) gets its schema
    # from its first command, which then finds it empty.
    err = one_line(capsys, run(["--db", pg_server.url("no_such_reviews"), "queue"]), FAILED)
    assert 'database "no_such_reviews" does not exist' in err
    with psycopg.connect(host="127.0.0.1", port=pg_server.port, user="postgres",
                         dbname="postgres") as conn:
        assert conn.execute("SELECT count(*) FROM pg_database WHERE datname = "
                            "'no_such_reviews'").fetchone() == (0,)
    name = pg_server.database(empty=True)
    try:
        assert run(["--db", pg_server.url(name), "stats", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["attempts"] == 0
        assert run(["--db", pg_server.url(name), "queue"]) == 0
        assert capsys.readouterr() == ("", "")
    finally:
        pg_server.drop(name)


def test_an_empty_file_is_no_store_until_an_import_fills_it(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A copy that failed on a full disk, or a `touch`: read as an empty store, it would
    # have exported 0 examples over a good dataset, exit 0.
    empty = tmp_path / "copy-of-store.db"
    empty.touch()
    for argv in (["queue"], ["export", "dataset", str(tmp_path / "d.jsonl")]):
        err = one_line(capsys, run(["--db", str(empty), *argv]), BAD_INPUT)
        assert err == (f"reviewer: no database at {empty}: the file is empty (import a run "
                       "first, or check the path)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy", "copy-of-store.db"]
    assert empty.stat().st_size == 0
    assert run(["--db", str(empty), "import", str(files.input("new_run.jsonl")),
                "--catalog", str(files.input("new_catalog.json"))]) == 0
    capsys.readouterr()
    assert run(["--db", str(empty), "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attempts"] == 1


# -- a PostgreSQL URL whose port is mistyped (seventh hostile pass T1) -----------------------

@pytest.mark.parametrize(("url", "shown", "why"), [
    ("postgresql+psycopg://u@127.0.0.1:abc/x", "postgresql+psycopg://u@127.0.0.1:abc/x",
     "the port 'abc' is not a number"),
    ("postgresql+psycopg://u@127.0.0.1:/x", "postgresql+psycopg://u@127.0.0.1:/x",
     "the port after ':' is empty"),
    ("postgresql+psycopg://u@[::1:5432/x", "postgresql+psycopg://u@[::1:5432/x",
     "the '[' of an IPv6 address is never closed"),
    ("postgresql+psycopg://u:s3cret@h:5o32/x", "postgresql+psycopg://u:***@h:5o32/x",
     "the port '5o32' is not a number"),
], ids=["letters", "empty", "unclosed bracket", "with a password"])
def test_a_mistyped_port_is_bad_input_naming_it(
        capsys: pytest.CaptureFixture[str], url: str, shown: str, why: str) -> None:
    # T1: SQLAlchemy's make_url raised a bare ValueError (int() of the port): "internal
    # error (ValueError: invalid literal for int() …)", exit 70, before any connection.
    line = one_line(capsys, run(["--db", url, "stats"]), BAD_INPUT)
    assert line == f"reviewer: --db {shown}: not a valid database URL ({why})"
    assert "s3cret" not in line


# -- a PostgreSQL host that cannot be a host name (eighth hostile pass T5) -----------------

LONG_LABEL = "a" * 64
LONG_HOST = "b" * 300
EMPTY = "has an empty part between dots (two dots in a row, or a dot first)"


@pytest.mark.parametrize(("url", "host", "why"), [
    ("postgresql+psycopg://u@x..com:1/x", "x..com", EMPTY),
    ("postgresql+psycopg://u@.:1/x", ".", EMPTY),
    (f"postgresql+psycopg://u@{LONG_LABEL}.com:1/x", f"{LONG_LABEL}.com",
     "has a part of 64 characters between dots (at most 63)"),
    (f"postgresql+psycopg://u@{LONG_HOST}:1/x", f"{LONG_HOST[:80]}…",
     "has a part of 300 characters between dots (at most 63)"),
    ("postgresql+psycopg://u@127.0.0.1,x..com:1/x", "x..com", EMPTY),
    ("postgresql+psycopg://u@/x?host=x..com", "x..com", EMPTY),
    ("postgresql+psycopg://u@/x?host=127.0.0.1,x..com&port=1,2", "x..com", EMPTY),
    ("postgresql+psycopg://u@/x?host=127.0.0.1:1&host=x..com:2", "x..com", EMPTY),
], ids=["two dots", "a dot alone", "a 64-character label", "a 300-character host",
        "host list", "?host=", "?host= list", "?host= twice"])
def test_a_host_that_cannot_be_a_host_name_is_bad_input_naming_it(
        capsys: pytest.CaptureFixture[str], url: str, host: str, why: str) -> None:
    # T5: psycopg resolved it with socket.getaddrinfo, whose IDNA encoding raised a bare
    # UnicodeError ("label empty or too long"): "internal error", exit 70.
    line = one_line(capsys, run(["--db", url, "stats"]), BAD_INPUT)
    assert line == f"reviewer: --db {url}: not a valid database URL (the host '{host}' {why})"


def test_a_socket_folder_as_host_is_no_host_name_to_check(
        capsys: pytest.CaptureFixture[str]) -> None:
    # A host starting with / is the folder of the server's socket: dots are the path's.
    line = one_line(capsys, run(["--db", "postgresql+psycopg://u@/x?host=/no..such/dir",
                                 "stats"]), FAILED)
    assert "not a valid database URL" not in line and "/no..such/dir" in line


def test_a_host_name_only_the_connection_sees_is_one_line_not_an_internal_error(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # No host in the URL: libpq and psycopg take $PGHOST, which the URL check cannot see.
    # Its UnicodeError is the connection's failure, one line, not an internal error.
    monkeypatch.setenv("PGHOST", "x..com")
    line = one_line(capsys, run(["--db", "postgresql+psycopg://u@/x", "stats"]), FAILED)
    assert line.startswith("reviewer: postgresql+psycopg://u@/x: cannot open the database (")
    assert "'x..com'" in line and "internal error" not in line


# -- a control character in a PostgreSQL URL (eighth hostile pass P2) ----------------------

@pytest.fixture
def pg_url(pg_server: PgServer, tmp_path: Path) -> Iterator[str]:
    """The URL of the reliability store (a run, one decision) on a database of the
    throwaway server, which listens on a port of its own (never 5432)."""
    name = pg_server.database()
    url = pg_server.url(name)
    try:
        make_files(tmp_path / "files", url)
        yield url
    finally:
        pg_server.drop(name)


def decisions(url: str) -> list[tuple[str, str | None]]:
    """The decisions of the store at ``url``: what a refused command must leave alone."""
    store = open_store(url)
    try:
        with store.session() as s:
            return [(str(row.decision), row.note) for row in s.scalars(
                select(ReviewDecision).order_by(ReviewDecision.id))]
    finally:
        store.close()


@pytest.mark.postgres
@pytest.mark.parametrize(("where", "why"), [
    ("user", "the user name holds a NUL character, U+0000"),
    ("password", "the password holds a NUL character, U+0000"),
    ("database", "the database name holds a NUL character, U+0000"),
    ("database, before ?port=", "the database name holds a NUL character, U+0000"),
    ("option", "the option 'application_name' holds a NUL character, U+0000"),
    ("line feed", "the database name holds a control character, U+000A"),
])
def test_a_control_character_in_a_postgresql_url_is_refused_before_connecting(
        pg_url: str, pg_server: PgServer, capsys: pytest.CaptureFixture[str],
        where: str, why: str) -> None:
    # P2: libpq reads its settings as a C string, so a NUL (%00) ended them there: every
    # setting after it was dropped, the port first, and the command went to port 5432 (a
    # server there could have been another database). A NUL in a later option dropped
    # only what followed, and the decision was written with no lock timeout.
    url = pg_url
    base = f"postgresql+psycopg://postgres@127.0.0.1:{pg_server.port}"
    name = url.rsplit("/", 1)[1]
    bad = {"user": f"postgresql+psycopg://post%00gres@127.0.0.1:{pg_server.port}/{name}",
           "password": f"postgresql+psycopg://postgres:s3%00cret@127.0.0.1:{pg_server.port}"
                       f"/{name}",
           "database": f"{base}/%00{name}",
           "database, before ?port=": f"{base}/{name}%00?port={pg_server.port}",
           "option": f"{url}?application_name=a%00b",
           "line feed": f"{base}/{name}%0A"}[where]
    shown = bad.replace(":s3%00cret@", ":***@")
    before = decisions(url)
    line = one_line(capsys, run(["--db", bad, "decide", KEY, "--reject", "--note", "nul",
                                 "--reviewer", "ines"]), BAD_INPUT)
    assert line == f"reviewer: --db {shown}: not a valid database URL ({why})"
    assert "s3" not in line
    assert decisions(url) == before
    # The same store by its URL without the character: the server's own port is used.
    assert run(["--db", url, "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attempts"] > 0


def test_a_nul_in_a_sqlite_file_name_is_bad_input(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # No file name holds a NUL: os.stat raised "embedded null byte", an internal error.
    url = f"sqlite:///{tmp_path}/a%00b.db"
    line = one_line(capsys, run(["--db", url, "stats"]), BAD_INPUT)
    assert line == (f"reviewer: --db {url}: not a valid database URL (the file name holds a "
                    "NUL character, U+0000)")
    assert list(tmp_path.iterdir()) == []
