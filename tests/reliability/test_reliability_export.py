"""Exports are written to a temporary file and renamed: a failed export leaves no partial
file, no temporary file, and the previous export (dataset and manifest) as it was.

The failures are real, not mocked writers: the file system refusing to grow the file
midway (a size limit set on the exporting process, as a full disk does), a stored row
that cannot be read halfway through the walk, a folder standing where the file goes.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from reviewer.cli.main import main as cli
from reviewer.errors import ReviewerError
from reviewer.exports.dataset import manifest_path
from reviewer.exports.run import run_export
from reviewer.ingest.importer import import_run
from reviewer.store import Store
from tests.support.run_files import record, write_catalog, write_jsonl

ROOT = Path(__file__).resolve().parents[2]
PREVIOUS = "previous export\n"
ANSWER = "Notez la date, l'heure et la durée de chaque épisode de bruit. " * 40

# Run the console script with a maximum file size: writing past it fails with EFBIG, the
# way a full disk fails with ENOSPC (SIGXFSZ ignored, so the write reports the error).
LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from ui.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.fixture
def big_store(store: Store, tmp_path: Path) -> Store:
    """Sixty accepted conversations with long answers (a dataset of about 200 KB)."""
    rows = [record(f"conv-{i:03d}", 1, 1, response=ANSWER) for i in range(60)]
    import_run(store, write_jsonl(tmp_path / "run.jsonl", rows),
               catalog_path=write_catalog(tmp_path / "catalog.json"))
    return store


@pytest.fixture
def previous(tmp_path: Path) -> Path:
    """A previous export and its manifest in an export folder."""
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "train.jsonl"
    out.write_text(PREVIOUS, encoding="utf-8")
    manifest_path(out).write_text('{"previous": true}\n', encoding="utf-8")
    return out


def assert_previous_export_intact(out: Path) -> None:
    assert out.read_text(encoding="utf-8") == PREVIOUS
    assert manifest_path(out).read_text(encoding="utf-8") == '{"previous": true}\n'
    assert sorted(p.name for p in out.parent.iterdir()) == [
        "train.jsonl", "train.jsonl.manifest.json"]  # no temporary file left


@pytest.mark.slow
def test_file_system_refusing_to_grow_the_file_midway(
    big_store: Store, db_url: str, previous: Path, tmp_path: Path
) -> None:
    whole = tmp_path / "whole.jsonl"
    assert cli(["--db", db_url, "export", "dataset", str(whole)]) == 0
    size = whole.stat().st_size
    limit = size // 2
    assert limit > 65536  # above what SQLite needs to open the store (its 32 KB index)

    proc = subprocess.run(
        [sys.executable, "-c", LIMITED, str(limit), "--db", db_url, "export", "dataset",
         str(previous)], capture_output=True, text=True, cwd=ROOT, timeout=120)

    assert proc.returncode == 4, proc.stderr  # disk full (reviewer.errors.DISK_FULL)
    assert proc.stderr == (f"reviewer: cannot write {previous}: File too large; nothing was "
                           "written (any previous file is left as it was)\n")
    assert_previous_export_intact(previous)


def test_unreadable_row_halfway_through_the_export(
    big_store: Store, previous: Path
) -> None:
    # The last conversation's stored messages are damaged: the walk fails on it, after
    # every other example has been written to the temporary file.
    db = sqlite3.connect(big_store.url.removeprefix("sqlite:///"))
    db.execute("UPDATE attempts SET messages = '[{\"role\": \"user\", \"cont' "
               "WHERE id = (SELECT max(id) FROM attempts)")
    db.commit()
    db.close()

    with pytest.raises(ValueError), big_store.session() as s:
        run_export(s, "dataset", previous)

    assert_previous_export_intact(previous)


def test_manifest_failing_keeps_the_previous_pair(big_store: Store, previous: Path) -> None:
    # A folder where the manifest goes: the dataset is complete, the manifest cannot be
    # renamed into place, so neither file is replaced (never a new dataset with an old
    # manifest).
    manifest_path(previous).unlink()
    manifest_path(previous).mkdir()

    with pytest.raises(ReviewerError, match=r"cannot write .*manifest"), \
            big_store.session() as s:
        run_export(s, "dataset", previous)

    assert previous.read_text(encoding="utf-8") == PREVIOUS
    assert sorted(p.name for p in previous.parent.iterdir()) == [
        "train.jsonl", "train.jsonl.manifest.json"]
    assert not any(manifest_path(previous).iterdir())


@pytest.mark.parametrize("kind", ["golden", "decisions", "resume", "catalog"])
def test_folder_in_the_way_is_one_clear_line(
    big_store: Store, db_url: str, tmp_path: Path, kind: str,
    capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exports" / "out.jsonl"
    out.mkdir(parents=True)

    assert cli(["--db", db_url, "export", kind, str(out)]) == 2  # bad input: a folder

    err = capsys.readouterr().err
    assert err.startswith(f"reviewer: cannot write {out}: ") and err.count("\n") == 1
    assert [p.name for p in out.parent.iterdir()] == ["out.jsonl"] and out.is_dir()
