"""Eleventh hostile pass: a folder given as ``--db`` while standard error is a file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select

from models import Attempt
from reviewer.ingest.importer import import_run
from reviewer.store import Store, open_store
from reviewer.store.database import fill_new_store, sqlite_path
from tests.support.cli import one_line, run
from tests.support.run_files import sample_rows, write_catalog, write_jsonl


def reviewer(args: list[str], stderr: Path, home: Path) -> tuple[int, str]:
    """``reviewer ARGS`` with standard error on the regular file ``stderr``."""
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_DATA_HOME": str(home / "data")}
    env.pop("REVIEWER_DB", None)
    with stderr.open("w") as err:
        done = subprocess.run([sys.executable, "-m", "ui.cli", *args], stdout=subprocess.DEVNULL,
                              stderr=err, env=env, timeout=120, check=False)
    return done.returncode, stderr.read_text()


@pytest.mark.parametrize("where", ["the root folder", "the folder holding stderr"])
def test_a_folder_as_db_is_one_line_whatever_stderr_is(tmp_path: Path, where: str) -> None:
    # V3: `--db /` was "internal error (ValueError: PosixPath('/') has an empty name)",
    # exit 70. V4: `--db /tmp` with standard error on a file under /tmp exited 2 with no
    # line at all: the folder was taken for the store, and stderr for one of its files.
    folder = Path("/") if where == "the root folder" else tmp_path
    code, err = reviewer(["--db", str(folder), "stats"], tmp_path / "err.txt", tmp_path)
    assert code == 2, err
    assert err.splitlines() == [f"reviewer: {folder}: is a folder, not a database file; give "
                                "a database file (reviewer import makes a new one where there "
                                "is none)"]


@pytest.mark.parametrize("content", [b"[]", b"\x00\x01binary", b"[" * 5000 + b"]" * 5000,
                                     b'{"not": "a run record"}\n'])
def test_a_failed_first_import_leaves_no_store_behind(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    # V5: a run file that is not a run made an empty store and refused the import, then
    # `stats` read "0 attempts" from it: the mistyped path read as an empty store.
    run_file = tmp_path / "run.jsonl"
    run_file.write_bytes(content)
    db = tmp_path / "new.db"
    line = one_line(capsys, run(["--db", str(db), "import", str(run_file)]), 2)
    assert str(run_file) in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.jsonl"]
    line = one_line(capsys, run(["--db", str(db), "stats"]), 2)
    assert "no database" in line or "does not exist" in line, line


def test_a_first_import_that_works_makes_the_store(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_file = write_jsonl(tmp_path / "run.jsonl", sample_rows())
    db = tmp_path / "new.db"
    assert run(["--db", str(db), "import", "--catalog",
                str(write_catalog(tmp_path / "catalog.json")), str(run_file)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{len(sample_rows())} new"), out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog.json", "new.db", "run.jsonl"]
    store = open_store(str(db), create=False)
    with store.session() as s:
        assert s.scalar(select(func.count(Attempt.id))) == len(sample_rows())
    store.close()


def test_a_store_made_by_another_process_meanwhile_is_kept_and_imported_into(
        tmp_path: Path) -> None:
    # Two first imports at once: the one that finishes second finds a store in place. It
    # keeps that store (someone's work may be in it) and its own filled copy is dropped.
    db = tmp_path / "race.db"
    run_file = write_jsonl(tmp_path / "run.jsonl", sample_rows())
    catalog = write_catalog(tmp_path / "catalog.json")

    def fill(store: Store) -> int:
        other = open_store(str(db))  # the other process, quicker
        import_run(other, run_file, catalog_path=catalog)
        other.close()
        return 1

    assert fill_new_store(str(db), fill) == (False, None)
    kept = open_store(str(db), create=False)
    with kept.session() as s:
        assert s.scalar(select(func.count(Attempt.id))) == len(sample_rows())
    kept.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog.json", "race.db",
                                                          "run.jsonl"]


@pytest.mark.parametrize("kind", ["decisions", "dataset"])
def test_an_export_says_which_folder_it_made(
        filled_store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        kind: str) -> None:
    # V6: `export decisions /nonexist/dir/x.jsonl` made `/nonexist/dir/` without a word,
    # so a typo in a folder name built a new tree that looked like success. The folders
    # are still made (an export into a new folder is ordinary), and the line names the
    # outermost one, where the typo would be.
    out = tmp_path / "nx" / "deeper" / "x.jsonl"
    assert run(["--db", filled_store.url, "export", kind, str(out)]) == 0
    line = capsys.readouterr().out.strip()
    assert line.endswith(f"(made the folder {tmp_path / 'nx'})"), line
    assert out.is_file()
    assert run(["--db", filled_store.url, "export", kind, str(out)]) == 0
    assert "made the folder" not in capsys.readouterr().out


@pytest.mark.parametrize("command", ["import", "import --catalog", "decide --from-csv"])
def test_the_open_store_given_as_an_input_is_named_as_such(
        filled_store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        command: str) -> None:
    # V8(2): `import c.db` on the open c.db said "c.db:1: not valid UTF-8 (byte 106)".
    db = str(sqlite_path(filled_store.url))
    link = tmp_path / "link.jsonl"
    link.symlink_to(db)
    args = {"import": ["import", str(link)],
            "import --catalog": ["import", "--catalog", db, str(link)],
            "decide --from-csv": ["decide", "--reviewer", "ann", "--from-csv", db]}[command]
    line = one_line(capsys, run(["--db", db, *args]), 2)
    assert "is the open database (--db)" in line, line


@pytest.mark.parametrize("args", [["decisions", ""], ["dataset", " "],
                                  ["dataset", "--split", "valid=0.1", ""]])
def test_an_empty_output_path_is_named_empty(
        filled_store: Store, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    # V8(3): `export decisions ''` said "cannot write : it is a folder".
    line = one_line(capsys, run(["--db", filled_store.url, "export", *args]), 2)
    assert "an empty path names no" in line, line
