"""Two processes on one SQLite file: the second waits or says the file is busy; no corruption."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from models import Attempt
from reviewer.errors import StoreError
from reviewer.ingest.importer import import_run
from reviewer.review.decisions import Change, apply_change, get_decision
from reviewer.store import open_store
from tests.support.run_files import sample_rows, write_catalog, write_jsonl

# Another process takes the write lock, says so, holds it, then commits.
HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("UPDATE runs SET source = 'other process'")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
"""


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    path = tmp_path / "shared.sqlite3"
    store = open_store(str(path))
    import_run(store, write_jsonl(tmp_path / "r.jsonl", sample_rows(1)),
               catalog_path=write_catalog(tmp_path / "c.json"))
    store.close()
    return path


def hold_lock(path: Path, seconds: float) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), str(seconds)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def test_busy_file_is_reported_and_nothing_is_half_written(
    db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REVIEWER_BUSY_TIMEOUT_MS", "100")
    store = open_store(str(db_file))
    try:
        with store.session() as s:
            aid = s.scalars(select(Attempt.id)).first()
        assert aid is not None
        holder = hold_lock(db_file, 3)
        with pytest.raises(StoreError, match="busy"), store.session() as s:
            apply_change(s, "alice", Change(aid, "decision", "accept"))
        assert holder.wait(timeout=30) == 0
        with store.session() as s:
            assert get_decision(s, aid, "alice") is None
            apply_change(s, "alice", Change(aid, "decision", "accept"))
    finally:
        store.close()
    conn = sqlite3.connect(db_file)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("SELECT count(*) FROM review_decisions").fetchone() == (1,)
    assert conn.execute("SELECT count(*) FROM audit_events").fetchone() == (1,)
    conn.close()


def test_second_writer_waits_for_a_short_lock(db_file: Path) -> None:
    store = open_store(str(db_file))
    try:
        with store.session() as s:
            aid = s.scalars(select(Attempt.id)).first()
        assert aid is not None
        holder = hold_lock(db_file, 0.5)
        with store.session() as s:
            apply_change(s, "alice", Change(aid, "decision", "reject"))
        assert holder.wait(timeout=30) == 0
        with store.session() as s:
            row = get_decision(s, aid, "alice")
            assert row is not None and row.decision == "reject"
    finally:
        store.close()
