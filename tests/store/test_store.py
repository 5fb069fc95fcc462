"""Opening the store: migrations with a backup, refusals that leave files untouched."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, func, select, text

from models import Attempt, Check
from reviewer.errors import StoreError
from reviewer.ingest.importer import import_run
from reviewer.store.database import (
    Store,
    _alembic_config,
    _known_revisions,
    head_revision,
    open_store,
)
from tests.support.run_files import sample_rows, write_catalog, write_jsonl


def make_old_database(path: Path, revision: str) -> None:
    """A database at an older schema revision, with data in it."""
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        cfg = _alembic_config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    engine.dispose()
    # Insert rows with the plain sqlite3 module: the ORM models describe the newest schema.
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO runs (id, name, imported_at) VALUES (1, 'ancien', '2026-10-01')")
    conn.commit()
    conn.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_older_database_is_upgraded_after_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    make_old_database(path, "0001")
    store = open_store(str(path))
    try:
        with store.session() as s:
            assert s.scalar(select(func.count()).select_from(Attempt)) == 0
        backups = list(tmp_path.glob("old.sqlite3.bak-0001-*"))
        assert len(backups) == 1
        old = sqlite3.connect(backups[0])
        assert old.execute("SELECT version_num FROM alembic_version").fetchone() == ("0001",)
        assert old.execute("SELECT name FROM runs").fetchall() == [("ancien",)]
        old.close()
        new = sqlite3.connect(path)
        assert new.execute("SELECT version_num FROM alembic_version").fetchone() == (
            head_revision(),
        )
        new.close()
    finally:
        store.close()


def test_failed_upgrade_restores_the_backup(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    make_old_database(path, "0001")
    # Something else already took the name the next migration creates: the upgrade fails.
    conn = sqlite3.connect(path)
    conn.execute("CREATE INDEX ix_attempts_queue ON runs (name)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="schema upgrade failed, database restored"):
        open_store(str(path))
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == ("0001",)
    assert conn.execute("SELECT name FROM runs").fetchall() == [("ancien",)]
    conn.close()


def test_newer_schema_is_refused_untouched(tmp_path: Path, db_url: str) -> None:
    store = open_store(db_url)
    store.close()
    path = Path(db_url.removeprefix("sqlite:///"))
    conn = sqlite3.connect(path)
    conn.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(StoreError, match="newer than this version of reviewer"):
        open_store(db_url)
    assert digest(path) == before


@pytest.mark.parametrize("content", [b"not a database at all\n" * 10, b"\x00\xff" * 600])
def test_file_that_is_not_a_database_is_refused_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(content)
    with pytest.raises(StoreError, match="not a reviewer database"):
        open_store(str(path))
    assert path.read_bytes() == content
    assert not list(tmp_path.glob("notes.sqlite3-*"))


def test_foreign_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="no reviewer schema version"):
        open_store(str(path))


def test_another_programs_file_with_a_hot_journal_is_left_for_it(tmp_path: Path) -> None:
    # dl16: it was reported as "the database is read-only", which it was not.
    other = sqlite3.connect(tmp_path / "app.db", isolation_level=None)
    other.execute("PRAGMA journal_mode = DELETE")
    other.execute("CREATE TABLE notes (x)")
    other.execute("PRAGMA cache_size = 1")  # spill the transaction into the file
    other.execute("BEGIN")
    other.executemany("INSERT INTO notes VALUES (?)", [("x" * 500,)] * 2000)
    crashed = tmp_path / "crashed.db"  # the file and its journal as a crash leaves them
    shutil.copyfile(tmp_path / "app.db", crashed)
    shutil.copyfile(tmp_path / "app.db-journal", tmp_path / "crashed.db-journal")
    other.execute("ROLLBACK")
    other.close()
    before = crashed.read_bytes(), (tmp_path / "crashed.db-journal").read_bytes()
    with pytest.raises(StoreError, match=r"another program was interrupted while writing "
                       r"this file \(its unfinished transaction is in crashed.db-journal\)"):
        open_store(str(crashed))
    assert (crashed.read_bytes(), (tmp_path / "crashed.db-journal").read_bytes()) == before


def test_sqlite_runs_with_wal_and_foreign_keys(store: Store) -> None:
    with store.session() as s:
        assert s.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert s.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_reviewer_db_environment_variable_selects_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "from-env.sqlite3"
    monkeypatch.setenv("REVIEWER_DB", str(path))
    store = open_store()
    try:
        import_run(
            store,
            write_jsonl(tmp_path / "r.jsonl", sample_rows(1)),
            catalog_path=write_catalog(tmp_path / "c.json"),
        )
    finally:
        store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM attempts").fetchone() == (4,)
    conn.close()


def test_head_read_from_the_migration_files_is_alembics_head() -> None:
    """Start-up reads the head from the migrations' own lines instead of loading Alembic;
    a new migration whose header this reading misses would leave stores un-migrated."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(_alembic_config())
    assert head_revision() == script.get_current_head()
    assert _known_revisions() == {rev.revision for rev in script.walk_revisions()}


def test_opening_a_store_at_head_does_not_load_alembic(tmp_path: Path) -> None:
    """The app's start-up: a store already at head is opened without Alembic (a sixth of
    the start before the first paint)."""
    path = tmp_path / "at-head.sqlite3"
    open_store(str(path)).close()  # created and migrated here
    code = ("import sys; from reviewer.store import open_store; "
            f"s = open_store({str(path)!r}); s.close(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'mako')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


def test_a_store_left_half_made_by_an_older_version_says_so(tmp_path: Path) -> None:
    # Sixth hostile pass, U2: older versions built a new store in place, and a kill left
    # its tables without a schema version: "has tables but no reviewer schema version;
    # refusing to touch it", for good, with nothing a reviewer could act on.
    path = tmp_path / "half.sqlite3"
    open_store(str(path)).close()
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DELETE FROM alembic_version")
    conn.close()
    content = path.read_bytes()
    with pytest.raises(StoreError) as refused:
        open_store(str(path))
    assert str(refused.value) == (
        f"{path}: was left half-made by an interrupted first start (tables, no schema "
        "version, not one row); it holds no decision: delete it (and its -wal and -shm "
        "files, if any) and start again (left untouched)")
    assert path.read_bytes() == content
    # A row anywhere: not provably empty, so not called half-made.
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("INSERT INTO checks (id, position) VALUES ('c', 1)")
    conn.close()
    with pytest.raises(StoreError, match="has tables but no reviewer schema version"):
        open_store(str(path))


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_write_into_a_database_file_deleted_while_open_is_refused(
        tmp_path: Path, how: str) -> None:
    # Sixth hostile pass, U6: the app said "Rejected … Ctrl+Z to undo" for every key
    # after `rm r.db r.db-wal r.db-shm`, and the work went with the unlinked file.
    path = tmp_path / "r.sqlite3"
    store = open_store(str(path))
    try:
        with store.session() as s:
            s.execute(text("INSERT INTO checks (id, position) VALUES ('before', 1)"))
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        if how == "replaced":
            open_store(str(tmp_path / "other.sqlite3")).close()
            (tmp_path / "other.sqlite3").rename(path)
        with pytest.raises(StoreError) as refused, store.session() as s:
            s.execute(text("INSERT INTO checks (id, position) VALUES ('lost', 2)"))
        assert str(refused.value) == (
            f"{path}: the database file was deleted or replaced while open: nothing was "
            "saved; close reviewer and open the database again (what was decided since it "
            "went is lost with the old file)")
        with pytest.raises(StoreError, match="deleted or replaced"), store.session() as s:
            s.add(Check(id="orm", position=3))  # an ORM change, flushed at the commit
        with store.session() as s:  # a unit that only reads is not refused
            assert s.execute(text("SELECT count(*) FROM checks")).scalar() == 1
    finally:
        store.close()
