"""Every failure is one line: each command of the CLI under each injected fault prints no
traceback, one ``reviewer: …`` line naming the cause, and the exit code of its kind.

The matrix runs each fault in one driver process (tests/reliability/cli_driver.py, the
console script's ``main`` called per command with its own stdout and stderr); faults are
real (tests/reliability/faults.py). Exit codes: reviewer.errors (0 done, 1 could not
finish, 2 bad input, 3 read-only, 4 disk full, 70 internal error, 130 interrupted).
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reviewer.errors import BAD_INPUT, DISK_FULL, FAILED, INTERRUPTED, READ_ONLY
from tests.reliability.faults import (
    DB_NAME,
    INPUT_KINDS,
    KEY,
    ROOT,
    Files,
    file_commands,
    fresh_copy,
    judge_commands,
    make_files,
    make_read_only,
    make_writable,
    mount_prefix,
    readers,
    run_driver,
    unprivileged_prefix,
    writers,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Files:
    return make_files(tmp_path_factory.mktemp("faults") / "template")


@pytest.fixture
def files(template: Files, tmp_path: Path) -> Iterator[Files]:
    copy = fresh_copy(template, tmp_path / "work")
    yield copy
    for path in (copy.store_dir, copy.db, copy.root / "in"):  # let pytest clean up
        if path.exists():
            make_writable(path)


def problems(results: list[dict[str, Any]], names: list[str],
             expected: dict[str, set[int]]) -> list[str]:
    """What breaks the promise, per command: a traceback, an escaped exception, other than
    one ``reviewer:`` line on failure, an exit code outside the expected kinds."""
    found = []
    for name, result in zip(names, results, strict=True):
        code, err = result["code"], result["err"]
        lines = err.splitlines()
        if result["escaped"]:
            found.append(f"{name}: exception escaped main: {result['escaped'][-300:]}")
        elif "Traceback" in err:
            found.append(f"{name}: traceback on stderr: {err[-400:]}")
        elif code not in expected[name]:
            found.append(f"{name}: exit {code}, expected {sorted(expected[name])}: {err!r}")
        elif code != 0 and (len(lines) != 1 or not lines[0].startswith("reviewer: ")):
            found.append(f"{name}: not one 'reviewer:' line: {err!r}")
    return found


def matrix(f: Files, writer_codes: set[int], reader_codes: set[int]
           ) -> tuple[list[str], list[list[str]], dict[str, set[int]]]:
    """Every store command with the exit codes allowed under a fault."""
    named = {**writers(f), **readers(f), **judge_commands(f)}
    expected = {name: writer_codes for name in writers(f)}
    expected |= {name: reader_codes for name in readers(f)}
    expected["rejudge"] = {FAILED} | writer_codes  # the judge fails; its record may not
    return list(named), list(named.values()), expected


def check(results: list[dict[str, Any]], names: list[str], expected: dict[str, set[int]],
          cause: str) -> None:
    """No problem, and every command failing with the fault's kind names its cause."""
    found = problems(results, names, expected)
    kind = max(max(codes) for codes in expected.values())
    found += [f"{name}: the line does not say {cause!r}: {result['err']!r}"
              for name, result in zip(names, results, strict=True)
              if result["code"] == kind and name != "rejudge" and cause not in result["err"]]
    assert not found, "\n".join(found)


def test_read_only_database_file(files: Files) -> None:
    make_read_only(files.db)
    names, commands, expected = matrix(files, {READ_ONLY}, {0})
    results = run_driver(files.root, commands, prefix=unprivileged_prefix())
    check(results, names, expected, "the database file is read-only")


def test_read_only_folder_where_sqlite_makes_its_wal(files: Files) -> None:
    # Readers read (fifth hostile pass, P26): nobody can write the folder, so the store is
    # opened immutable, without the -shm SQLite could not create there.
    make_read_only(files.store_dir)
    names, commands, expected = matrix(files, {READ_ONLY}, {0})
    results = run_driver(files.root, commands, prefix=unprivileged_prefix())
    check(results, names, expected, f"the folder {files.store_dir} is read-only")


def _tmpfs_setup(files: Files, *, fill: bool, read_only: bool) -> str:
    """Shell lines mounting a tmpfs on the store folder with the store copied in."""
    side = files.root / "side"
    side.mkdir()
    os.replace(files.db, side / DB_NAME)
    size_kib = (side / DB_NAME).stat().st_size // 1024 + 512
    steps = [f"mount -t tmpfs -o size={size_kib}k reviewer-test {files.store_dir}",
             f"cp {side / DB_NAME} {files.db}"]
    if fill:  # every block taken: the next page SQLite writes has no room
        steps.append(f"(cat /dev/zero > {files.store_dir}/filler 2>/dev/null; true)")
    if read_only:
        steps.append(f"mount -o remount,ro {files.store_dir}")
    return " && ".join(steps)


def test_full_disk(files: Files) -> None:
    names, commands, expected = matrix(files, {DISK_FULL}, {0, DISK_FULL})
    setup = _tmpfs_setup(files, fill=True, read_only=False)
    results = run_driver(files.root, commands, prefix=mount_prefix(), shell_setup=setup)
    check(results, names, expected, "the disk is full")


def test_read_only_file_system(files: Files) -> None:
    names, commands, expected = matrix(files, {READ_ONLY}, {0})  # readers read (P26)
    setup = _tmpfs_setup(files, fill=False, read_only=True)
    results = run_driver(files.root, commands, prefix=mount_prefix(), shell_setup=setup)
    check(results, names, expected, "mounted read-only")


def test_file_size_limit(files: Files) -> None:
    # 64 KiB: SQLite's shared-memory index (32 KiB) fits, a run's import does not.
    names, commands, expected = matrix(files, {0, DISK_FULL}, {0, DISK_FULL})
    expected["import"] = {DISK_FULL}
    results = run_driver(files.root, commands, fsize=64 * 1024)
    check(results, names, expected, "file size limit")


def _snapshots(files: Files) -> tuple[Path, Path]:
    """Copies of the store taken while it is open, its last decision still in its
    write-ahead log, as a snapshot or a backup of a live store has it: one with its
    ``-shm`` beside it, one without."""
    from reviewer.cli.main import main

    holder = sqlite3.connect(files.db)  # open: the last close would fold the log in
    try:
        holder.execute("SELECT count(*) FROM runs").fetchone()
        assert main(writers(files)["decide"]) == 0
        assert Path(f"{files.db}-wal").stat().st_size > 0
        copies = []
        for name, suffixes in (("snapshot", ("", "-wal", "-shm")), ("no-index", ("", "-wal"))):
            (files.root / name).mkdir()
            for suffix in suffixes:
                shutil.copyfile(f"{files.db}{suffix}", files.root / name / f"{DB_NAME}{suffix}")
            copies.append(files.root / name / DB_NAME)
    finally:
        holder.close()
    return copies[0], copies[1]


def test_a_store_on_a_read_only_mount_is_read_with_its_last_changes(
        files: Files, capsys: pytest.CaptureFixture[str]) -> None:
    # Fifth hostile pass, P26: on a read-only mount even `export decisions -`, `queue`
    # and `stats` refused, exit 3. A snapshot holding changes in its write-ahead log is
    # read through its -shm, read-only (an immutable open would miss the last decision);
    # one whose -shm is missing cannot be read there: the line says to copy it.
    from reviewer.cli.main import main

    snapshot, no_index = _snapshots(files)
    capsys.readouterr()
    assert main(["--db", str(files.db), "export", "decisions", "-"]) == 0
    decisions = capsys.readouterr().out
    assert '"ines"' in decisions  # the decision made while the snapshot was taken
    setup = " && ".join(f"mount --bind {f} {f} && mount -o remount,bind,ro {f}"
                        for f in (snapshot.parent, no_index.parent))
    db, bare = ["--db", str(snapshot)], ["--db", str(no_index)]
    decide = [*db, "decide", KEY, "--reject", "--reviewer", "zoe"]
    results = run_driver(files.root, [
        [*db, "export", "decisions", "-"], [*db, "queue", "--limit", "5"],
        [*db, "stats", "--json"], decide, [*bare, "stats"]],
        prefix=mount_prefix(), shell_setup=setup)
    export, queue, stats, decide, unreadable = results
    for result in (queue, stats):
        assert (result["code"], result["err"], result["escaped"]) == (0, "", None), result
    assert (export["code"], export["err"]) == (0, "3 audit events → -\n"), export
    assert export["out"] == decisions
    assert decide["code"] == READ_ONLY and decide["err"] == (
        f"reviewer: {snapshot}: the file system holding the database is mounted read-only; "
        "the change in progress was not saved\n")
    assert unreadable["code"] == READ_ONLY and unreadable["err"] == (
        f"reviewer: {no_index}: cannot be read here: the file system holding it is mounted "
        f"read-only, and its write-ahead log {DB_NAME}-wal holds changes SQLite reads only "
        f"through {DB_NAME}-shm, which it cannot create; nothing was changed. Copy the "
        "database with its -wal file to a writable folder and open the copy\n")


def test_a_folder_others_may_write_is_not_read_unlocked(files: Files) -> None:
    # The user may not write the folder, but its group may: another process may be
    # writing the store, so it is not opened immutable (pages read while they are
    # written); the -shm that would let SQLite read it safely cannot be made. One line.
    files.store_dir.chmod(0o575)
    results = run_driver(files.root, [readers(files)["stats"]],
                         prefix=unprivileged_prefix())
    assert results[0]["code"] == READ_ONLY, results
    assert results[0]["err"] == (
        f"reviewer: {files.db}: cannot be read here: the folder {files.store_dir} is "
        f"read-only for you but not for others, who may be writing the database, and "
        f"SQLite must create {DB_NAME}-shm beside it to read it safely; nothing was "
        "changed. Copy it to a writable folder and open the copy\n")


def test_an_older_store_in_a_read_only_folder_says_it_must_be_upgraded(
        files: Files) -> None:
    # A store is read where it lies only at this reviewer's schema: an upgrade writes it,
    # and its backup copy beside it.
    from reviewer.store.database import head_revision
    from tests.store.test_store import make_old_database

    old = files.root / "old" / "old.sqlite3"
    old.parent.mkdir()
    make_old_database(old, "0001")
    make_read_only(old.parent)
    try:
        results = run_driver(files.root, [["--db", str(old), "stats"]],
                             prefix=unprivileged_prefix())
    finally:
        make_writable(old.parent)
    assert results[0]["code"] == READ_ONLY, results
    assert results[0]["err"] == (
        f"reviewer: {old}: this store has schema 0001 and this reviewer must upgrade it to "
        f"{head_revision()}, which writes beside it, in a read-only place; nothing was "
        "changed. Copy it to a writable folder and open the copy\n")
    assert sorted(p.name for p in old.parent.iterdir()) == ["old.sqlite3"]


def test_busy_database(files: Files) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], "
         "isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); "
         "sys.stdin.read()", str(files.db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        names, commands, expected = matrix(files, {FAILED}, {0})
        results = run_driver(files.root, commands, env={"REVIEWER_BUSY_TIMEOUT_MS": "100"})
    finally:
        holder.communicate("", timeout=60)
    check(results, names, expected, "the database is busy")


# -- input files ---------------------------------------------------------------------

def _bad_inputs(files: Files) -> dict[str, Path]:
    folder = files.root / "in"
    latin1 = folder / "latin1"
    latin1.write_bytes("key,decision,note\nr/c/1/1,accept,café\n".encode("latin-1"))
    nul = folder / "nul"
    nul.write_bytes(b'{"response": "a\x00b", "expected": "a"}\n')
    unreadable = folder / "unreadable"
    unreadable.write_text("x\n", "utf-8")
    unreadable.chmod(0)
    (folder / "a-folder").mkdir()
    return {"missing": folder / "missing", "a folder": folder / "a-folder",
            "unreadable": unreadable, "not UTF-8": latin1, "NUL byte": nul}


def test_bad_input_files_are_one_line_naming_the_file(files: Files) -> None:
    bad = _bad_inputs(files)
    names, commands = [], []
    for fault, path in bad.items():
        for kind in INPUT_KINDS:
            names.append(f"{kind} input, {fault}")
            commands.append(file_commands(files, path, kind))
    expected = {name: {BAD_INPUT} for name in names}
    results = run_driver(files.root, commands, prefix=unprivileged_prefix())
    found = problems(results, names, expected)
    found += [f"{name}: the line does not name the file: {r['err']!r}"
              for name, r, argv in zip(names, results, commands, strict=True)
              if r["code"] == BAD_INPUT and argv[-1] not in r["err"]]
    assert not found, "\n".join(found)


def test_latin1_csv_names_the_file_and_line(files: Files,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from reviewer.cli.main import main

    csv = files.root / "in" / "latin1.csv"
    csv.write_bytes(b"key,decision,note\n" + b"r/c/1/1,accept,caf\xe9\n")
    assert main(["--db", str(files.db), "decide", "--from-csv", str(csv)]) == BAD_INPUT
    assert capsys.readouterr().err == (f"reviewer: {csv}:2: not UTF-8 (byte 0xE9 at column "
                                       "19); save the file as UTF-8\n")


# -- Ctrl-C and --debug ------------------------------------------------------------------

def _open_fds(pid: int) -> set[str]:
    try:
        return {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
    except OSError:
        return set()


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc")
@pytest.mark.parametrize("name", ["decide", "import", "flag", "stats", "queue",
                                  "export decisions", "backtest"])
def test_ctrl_c_is_one_line_and_exit_130(files: Files, name: str) -> None:
    """The command is held on the store (another connection keeps it locked in exclusive
    mode, so even reads wait), interrupted, then let go: it must stop with one line."""
    argv = {**writers(files), **readers(files)}[name]
    holder = sqlite3.connect(files.db, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    proc = subprocess.Popen([sys.executable, "-m", "ui.cli", *argv], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "REVIEWER_BUSY_TIMEOUT_MS": "60000"})
    try:
        deadline = time.monotonic() + 120  # only a guard against a hang
        while str(files.db) not in _open_fds(proc.pid) and proc.poll() is None:
            assert time.monotonic() < deadline, "the command never opened the store"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    _out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err, err
    assert proc.returncode == INTERRUPTED, err
    assert err.splitlines()[-1].startswith("reviewer: interrupted"), err
    assert len([line for line in err.splitlines() if line.startswith("reviewer:")]) == 1


def test_debug_prints_the_traceback_and_the_line(
        files: Files, capsys: pytest.CaptureFixture[str]) -> None:
    from reviewer.cli.main import main

    holder = sqlite3.connect(files.db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        os.environ["REVIEWER_BUSY_TIMEOUT_MS"] = "50"
        code = main(["--debug", "--db", str(files.db), "decide", *writers(files)["decide"][3:]])
    finally:
        os.environ.pop("REVIEWER_BUSY_TIMEOUT_MS", None)
        holder.rollback()
        holder.close()
    err = capsys.readouterr().err
    assert code == FAILED
    assert "Traceback (most recent call last)" in err
    assert err.splitlines()[-1].startswith("reviewer: ") and "busy" in err.splitlines()[-1]


def test_an_unexpected_exception_is_one_line_exit_70(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewer.cli.commands.agreement import stats
    from reviewer.cli.main import main

    def broken(_args: Any) -> int:
        raise RuntimeError("a bug\nwith two lines")

    monkeypatch.setattr(stats, "run", broken)  # what the command registers as its func
    assert main(["stats"]) == 70
    assert capsys.readouterr().err == ("reviewer: internal error (RuntimeError: a bug); rerun "
                                       "with --debug and report the traceback\n")


def test_a_new_store_on_a_full_disk_is_disk_full_and_leaves_no_half_store(
        tmp_path: Path) -> None:
    # fl08, fl10: the demo on a disk that filled during the schema's creation said exit 1,
    # and the half-made file (tables, no schema version) was then refused for good.
    folder = tmp_path / "small"
    folder.mkdir()
    db = folder / "new.sqlite3"
    setup = f"mount -t tmpfs -o size=300k reviewer-test {folder}"
    results = run_driver(tmp_path, [["--db", str(db), "demo"], ["--db", str(db), "demo"]],
                         prefix=mount_prefix(), shell_setup=setup)
    # The second demo finds no half-made store to refuse: it tries afresh, and says why.
    for result in results:
        assert result["code"] == DISK_FULL and result["escaped"] is None, result
        assert result["err"] == ("reviewer: schema upgrade failed, the new database file "
                                 "was removed: database or disk is full\n"), result


_INTERRUPTED_IN_POOL_RESET = """
import sys
from sqlalchemy import event
from sqlalchemy.pool import Pool
from reviewer.cli.main import main

@event.listens_for(Pool, "reset")
def _reset(*_args):  # Ctrl-C landing while the pool hands a connection back
    raise KeyboardInterrupt

sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("debug", [False, True])
def test_ctrl_c_during_the_pool_reset_is_still_one_line(files: Files, debug: bool) -> None:
    """SQLAlchemy logs an exception in its pool's reset ("Exception during reset or
    similar") with the traceback; with no logging set up, Python printed it on stderr
    before our line (seen once in ``flag``'s Ctrl-C test on a loaded machine)."""
    argv = ["--debug"] * debug + ["--db", str(files.db), "stats"]
    proc = subprocess.run([sys.executable, "-c", _INTERRUPTED_IN_POOL_RESET, *argv],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == INTERRUPTED, proc.stderr
    assert proc.stderr.splitlines()[-1].startswith("reviewer: interrupted"), proc.stderr
    assert ("Traceback" in proc.stderr) is debug, proc.stderr
