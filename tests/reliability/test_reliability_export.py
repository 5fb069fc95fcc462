"""Exports are written to a temporary file and renamed: a failed export leaves no partial
file, no temporary file, and the previous export (dataset and manifest) as it was.

The failures are real, not mocked writers: the file system refusing to grow the file
midway (a size limit set on the exporting process, as a full disk does), a stored row
that cannot be read halfway through the walk, a folder standing where the file goes.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from select import select as select_fds

import pytest
from sqlalchemy import func, select

from models import Attempt
from reviewer.cli.main import main as cli
from reviewer.errors import ReviewerError
from reviewer.exports.manifest import manifest_path, verify
from reviewer.exports.run import run_export
from reviewer.ingest.importer import import_run
from reviewer.outputs import check_output
from reviewer.review.decisions import Change, apply_change
from reviewer.store import Store
from reviewer.store.database import backup_sqlite
from tests.reliability.faults import console
from tests.support.run_files import record, write_catalog, write_jsonl
from tests.support.stores import attempt_id

ROOT = Path(__file__).resolve().parents[2]
PREVIOUS = "previous export\n"
KEY = "2026-10-14-ministral-8b/conv-007/1/1"
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


@pytest.mark.parametrize("kind", ["dataset", "preference", "golden", "decisions", "resume",
                                  "catalog"])
def test_folder_in_the_way_is_one_clear_line(
    big_store: Store, db_url: str, tmp_path: Path, kind: str,
    capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exports" / "out.jsonl"
    out.mkdir(parents=True)

    # Refused as bad input before anything is written (issue 18: exit 2, one line).
    assert cli(["--db", db_url, "export", kind, str(out)]) == 2

    err = capsys.readouterr().err
    assert err.startswith(f"reviewer: cannot write {out}: ") and err.count("\n") == 1
    assert [p.name for p in out.parent.iterdir()] == ["out.jsonl"] and out.is_dir()


# --- Issue 18: outputs that cannot hurt --------------------------------------------------
# Each of these failed before the output guard: the export (or the rejects file) was
# renamed over whatever path it was given.

KINDS = ["dataset", "preference", "golden", "catalog", "resume", "decisions"]


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file of a folder with the SHA-256 of its bytes (symlinks as their target)."""
    out = {}
    for path in sorted(folder.iterdir()):
        if path.is_symlink():
            out[path.name] = "-> " + os.readlink(path)
        elif path.is_file():
            out[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def database_path(db_url: str) -> Path:
    return Path(db_url.removeprefix("sqlite:///"))


def one_line(err: str, out: str, why: str) -> None:
    assert err == f"reviewer: cannot write {out}: {why}; nothing was written\n"


@pytest.mark.parametrize("kind", KINDS)
def test_export_onto_the_open_database_is_refused(
        big_store: Store, db_url: str, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    db = database_path(db_url)
    before = fingerprint(db.parent)

    assert cli(["--db", db_url, "export", kind, str(db)]) == 2

    one_line(capsys.readouterr().err, str(db), f"it is the open database ({db})")
    assert fingerprint(db.parent) == before  # every decision still there, byte for byte


@pytest.mark.parametrize("name", ["reviewer.sqlite3-wal", "reviewer.sqlite3-shm",
                                  "reviewer.sqlite3-journal", "link", "hardlink",
                                  "sub/../reviewer.sqlite3", "backup"])
def test_export_onto_the_databases_files_is_refused(
        big_store: Store, db_url: str, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    db = database_path(db_url)
    (db.parent / "sub").mkdir()
    if name == "link":
        (db.parent / "link").symlink_to(db)
    elif name == "hardlink":
        os.link(db, db.parent / "hardlink")
    elif name == "backup":
        name = backup_sqlite(db, "0006").name  # the copy an upgrade keeps
    before = fingerprint(db.parent)
    out = db.parent / name

    assert cli(["--db", db_url, "export", "golden", str(out)]) == 2

    err = capsys.readouterr().err
    assert err.startswith(f"reviewer: cannot write {out}: it is ") and err.count("\n") == 1
    assert "database" in err
    assert fingerprint(db.parent) == before


def test_skip_bad_onto_the_database_is_refused_and_nothing_is_imported(
        store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_jsonl(tmp_path / "run.jsonl", [record("c1", 1, 1), "not json"])
    catalog = write_catalog(tmp_path / "catalog.json")
    db = database_path(db_url)
    before = fingerprint(db.parent)

    assert cli(["--db", db_url, "import", str(run), "--catalog", str(catalog),
                "--skip-bad", str(db)]) == 2

    one_line(capsys.readouterr().err, str(db), f"it is the open database ({db})")
    assert fingerprint(db.parent) == before


@pytest.mark.both_backends
@pytest.mark.parametrize("which", ["run", "catalog", "run through a symlink"])
def test_skip_bad_onto_an_input_is_refused(
        store: Store, db_url: str, tmp_path: Path, which: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    run = write_jsonl(inputs / "br.jsonl", [record("c1", 1, 1), "not json"])
    catalog = write_catalog(inputs / "catalog.json")
    out = {"run": run, "catalog": catalog, "run through a symlink": inputs / "alias"}[which]
    if which == "run through a symlink":
        out.symlink_to(run)
    before = fingerprint(inputs)

    assert cli(["--db", db_url, "import", str(run), "--catalog", str(catalog),
                "--skip-bad", str(out)]) == 2

    given = catalog if which == "catalog" else run
    one_line(capsys.readouterr().err, str(out), f"it is an input of this command ({given})")
    assert fingerprint(inputs) == before
    with store.session() as s:  # nothing imported either
        assert s.scalar(select(func.count()).select_from(Attempt)) == 0


def _read_fifo(fd: int, done: threading.Event, into: bytearray) -> None:
    """Read until the writer is done and the pipe is drained (a FIFO without a writer
    reads as end of file, before the export opens it as after it closes it)."""
    while True:
        ready, _, _ = select_fds([fd], [], [], 0.05)
        chunk = os.read(fd, 65536) if ready else b""
        if chunk:
            into += chunk
        elif done.is_set():
            return
        elif ready:
            time.sleep(0.01)  # no writer yet


@pytest.mark.parametrize("kind", ["dataset", "golden"])
def test_export_to_a_fifo_writes_into_it(big_store: Store, db_url: str, tmp_path: Path,
                                         kind: str) -> None:
    regular = tmp_path / "regular.jsonl"
    assert cli(["--db", db_url, "export", kind, str(regular)]) == 0
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, so the export can open
    received = bytearray()
    done = threading.Event()
    thread = threading.Thread(target=_read_fifo, args=(reader, done, received))
    thread.start()
    try:
        assert cli(["--db", db_url, "export", kind, str(fifo)]) == 0
    finally:
        done.set()
        thread.join(timeout=60)
        os.close(reader)

    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the FIFO, not a file renamed over it
    assert bytes(received) == regular.read_bytes()
    assert not (tmp_path / "pipe.manifest.json").exists()  # a stream has no manifest
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".pipe.")]


def test_a_character_device_is_a_stream_and_never_renamed_over() -> None:
    # Checked, not written: no test writes to the real /dev/null.
    checked = check_output(Path("/dev/null"))
    assert checked.stream and checked.target == Path("/dev/null")


def test_export_to_standard_output(big_store: Store, db_url: str, tmp_path: Path) -> None:
    regular = tmp_path / "regular.jsonl"
    assert cli(["--db", db_url, "export", "dataset", str(regular)]) == 0
    proc = console("--db", db_url, "export", "dataset", "-", text=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == regular.read_bytes()
    assert proc.stderr.decode().startswith("60 examples") and b"manifest" not in proc.stderr
    assert not (ROOT / "-").exists() and not (ROOT / "-.manifest.json").exists()


def test_a_symlink_stays_a_link_and_its_target_is_replaced(
        big_store: Store, db_url: str, tmp_path: Path) -> None:
    real = tmp_path / "shared" / "train.jsonl"
    real.parent.mkdir()
    real.write_text(PREVIOUS, encoding="utf-8")
    link = tmp_path / "train.jsonl"
    link.symlink_to(real)

    assert cli(["--db", db_url, "export", "dataset", str(link)]) == 0

    assert link.is_symlink() and link.resolve() == real
    assert real.read_text(encoding="utf-8").count("\n") == 60
    assert verify(link).lines == 60  # its manifest sits beside the name that was given
    assert sorted(p.name for p in real.parent.iterdir()) == ["train.jsonl"]


@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_a_new_export_follows_the_umask_and_an_old_one_keeps_its_mode(
        big_store: Store, db_url: str, tmp_path: Path, umask: int) -> None:
    old = tmp_path / "old.jsonl"
    old.write_text(PREVIOUS, encoding="utf-8")
    os.chmod(old, 0o664)
    previous_mask = os.umask(umask)
    try:
        assert cli(["--db", db_url, "export", "dataset", str(tmp_path / "new.jsonl")]) == 0
        assert cli(["--db", db_url, "export", "golden", str(old)]) == 0
    finally:
        os.umask(previous_mask)
    assert stat.S_IMODE(os.stat(tmp_path / "new.jsonl").st_mode) == 0o666 & ~umask
    assert stat.S_IMODE(os.stat(manifest_path(tmp_path / "new.jsonl")).st_mode) \
        == 0o666 & ~umask
    assert stat.S_IMODE(os.stat(old).st_mode) == 0o664  # teammates keep their access
    assert old.read_text(encoding="utf-8") != PREVIOUS


# Kill the export right after its Nth rename, as SIGKILL or a power cut can.
KILLED_AFTER_RENAME = """
import os, signal, sys
after = int(sys.argv[1])
real, done = os.replace, [0]
def replace(*args, **kwargs):
    real(*args, **kwargs)
    done[0] += 1
    if done[0] == after:
        os.kill(os.getpid(), signal.SIGKILL)
os.replace = replace
from ui.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.slow
@pytest.mark.parametrize(("split", "renames"), [(False, 1), (False, 2), (True, 1),
                                                (True, 2), (True, 3)])
def test_killed_between_renames_the_manifest_never_vouches_for_other_files(
        big_store: Store, db_url: str, tmp_path: Path, split: bool, renames: int) -> None:
    out = tmp_path / ("folder" if split else "train.jsonl")
    extra = ["--split", "valid=0.2"] if split else []
    assert cli(["--db", db_url, "export", "dataset", str(out), *extra]) == 0
    with big_store.session() as s:  # the next export differs: one answer rejected
        apply_change(s, "associe", Change(attempt_id(big_store, KEY), "decision", "reject"))
    old = fingerprint(out if split else tmp_path)

    proc = subprocess.run([sys.executable, "-c", KILLED_AFTER_RENAME, str(renames), "--db",
                           db_url, "export", "dataset", str(out), *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr

    check = console("verify-export", str(out))
    files = 3 if split else 2  # files of the unit (train, valid; dataset), manifest last
    if renames < files:  # some files are new, the manifest is the old one: caught
        assert check.returncode == 1, check.stdout
        assert "does not match" in check.stderr and check.stderr.count("\n") == 1
    else:
        assert check.returncode == 0, check.stderr
    assert fingerprint(out if split else tmp_path) != old  # the first rename did happen
