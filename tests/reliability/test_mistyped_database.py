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

from pathlib import Path

import pytest

from reviewer.errors import BAD_INPUT
from tests.reliability.faults import KEY, Files, console, fresh_copy, make_files
from tests.reliability.test_hostile_inputs import counts


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
