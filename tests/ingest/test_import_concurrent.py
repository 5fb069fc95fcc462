"""Two imports of the same new run at once (fifth hostile pass, P45).

Both look for the run, find none, and both add it; the second to commit was refused by
the unique index: ``reviewer: database error: UNIQUE constraint failed: runs.name``, exit
1. The race is made certain here: the command under test (in this process) is stopped
just before it adds the run, while the other import runs to its end in its own process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, func, select

from models import Attempt, Run
from reviewer.cli.main import main as cli
from reviewer.errors import StoreError
from reviewer.ingest.importer import import_run
from reviewer.store import Store
from tests.support.run_files import sample_rows, write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends

ROOT = Path(__file__).resolve().parents[2]
NEW_RUN = "run-big"


@pytest.fixture
def new_run(store: Store, db_url: str, tmp_path: Path) -> Path:
    """A store holding one run and the catalog; a file of another run, not imported."""
    first = write_jsonl(tmp_path / "first.jsonl", sample_rows(2))
    catalog = write_catalog(tmp_path / "catalog.json")
    assert cli(["--db", db_url, "import", str(first), "--catalog", str(catalog)]) == 0
    rows = sample_rows(3)
    for row in rows:
        row["run"] = NEW_RUN
    return write_jsonl(tmp_path / "big.jsonl", rows)


@pytest.fixture
def other_import_first(db_url: str, new_run: Path) -> Iterator[list[Any]]:
    """Just before this process adds the new run, another process imports it whole."""
    done: list[Any] = []

    def before(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if done or not statement.lstrip().upper().startswith("INSERT INTO RUNS"):
            return
        done.append(subprocess.run(
            [sys.executable, "-m", "ui.cli", "--db", db_url, "import", str(new_run)],
            capture_output=True, text=True, cwd=ROOT, timeout=300,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}))

    event.listen(Engine, "before_cursor_execute", before)
    try:
        yield done
    finally:
        event.remove(Engine, "before_cursor_execute", before)


def attempts_of(store: Store, run: str) -> int:
    with store.session() as s:
        return s.scalar(select(func.count()).select_from(Attempt).join(Run)
                        .where(Run.name == run)) or 0


def test_the_second_import_of_a_new_run_finds_it_present(
        store: Store, db_url: str, new_run: Path, other_import_first: list[Any],
        capsys: pytest.CaptureFixture[str]) -> None:
    code = cli(["--db", db_url, "import", str(new_run)])
    out, err = capsys.readouterr()
    assert other_import_first, "the other import never ran"
    assert other_import_first[0].returncode == 0, other_import_first[0].stderr
    assert other_import_first[0].stdout.strip() == "12 new, 0 already present"
    # It waited for the other one, then read its file again: all there already.
    assert (code, out.strip(), err) == (0, "0 new, 12 already present", "")
    assert attempts_of(store, NEW_RUN) == 12


def test_a_run_read_from_a_pipe_says_to_import_it_again(
        store: Store, db_url: str, new_run: Path, other_import_first: list[Any],
        tmp_path: Path) -> None:
    # A pipe cannot be read a second time: one line saying what happened and what to do.
    # The command line refuses a pipe before reading (eighth hostile pass, H4); a caller
    # of import_run may still hand it one.
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    content = new_run.read_bytes()

    def feed() -> None:
        with open(fifo, "wb") as pipe:
            pipe.write(content)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        with pytest.raises(StoreError) as refused:
            import_run(store, fifo)
    finally:
        if writer.is_alive():  # the import never opened the pipe: let the writer go
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        writer.join(timeout=60)
    assert other_import_first and other_import_first[0].returncode == 0
    assert str(refused.value) == (f"{fifo}: another import was storing the same records at "
                                  "the same time; nothing was imported from this file: run "
                                  "the import again")
    assert attempts_of(store, NEW_RUN) == 12  # the other import's, whole
