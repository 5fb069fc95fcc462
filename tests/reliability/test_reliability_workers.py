"""``reviewer flag``'s scoring processes end with it, however it ends.

Killed outright (SIGKILL), terminated (SIGTERM) or hung up (SIGHUP: the terminal closed),
the command used to leave its workers running for ever, each holding the database and
a deleted WAL open. Ctrl-C (the whole process group) stops the command and its workers
with one line. The command is held at
its first write (the test holds the store's write lock), so its two workers are alive
and idle when the signal comes, whatever the speed of the machine.

A Ctrl-C that lands at a narrow moment is sent from inside the command
(``interrupt_driver.py``, run with ``python -m`` as the suite runs the CLI): as the
second worker is started, before the pool has the thread that runs it, the command
printed its line and never ended; as a worker starts, before its set-up ignores Ctrl-C,
the worker printed a traceback and the command exited 70; just after a unit of work
committed, it said "internal error" (exit 70); inside an ``eval`` while the modules
load, it printed its line and died by SIGINT (exit -2). Eighth hostile pass, 19.
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

import pytest

from reviewer.contradiction.flagging import CHUNK
from reviewer.errors import INTERRUPTED
from reviewer.ingest.importer import import_run
from reviewer.store import open_store
from tests.support.run_files import record, write_catalog, write_jsonl

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")]
ROOT = Path(__file__).resolve().parents[2]
DRIVER = "tests.reliability.interrupt_driver"  # run as the suite runs the CLI: python -m
INTERRUPTED_LINE = ("reviewer: interrupted; the step in progress was not saved (what was "
                    "saved before is kept)")
GUARD_S = 120  # only keeps a regression from hanging the suite


@pytest.fixture(scope="module")
def big_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """More attempts than one chunk: ``flag`` then scores in worker processes."""
    folder = tmp_path_factory.mktemp("workers")
    rows = [record(f"conv-{i:04d}", 1, 1, demande="non") for i in range(CHUNK + 100)]
    path = folder / "big.sqlite3"
    store = open_store(str(path))
    try:
        import_run(store, write_jsonl(folder / "run.jsonl", rows),
                   catalog_path=write_catalog(folder / "catalog.json"))
    finally:
        store.close()
    return path


@pytest.fixture
def db(big_db: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "store.sqlite3"
    shutil.copy(big_db, copy)
    return copy


def children(pid: int) -> set[int]:
    """Live processes whose parent is ``pid``."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            state = _stat(int(entry))
            if state is not None and state[1] == pid and state[0] != "Z":
                found.add(int(entry))
    return found


def alive(pid: int) -> bool:
    """Running (a zombie nobody reaps, as in some containers, is dead)."""
    state = _stat(pid)
    return state is not None and state[0] != "Z"


def _stat(pid: int) -> tuple[str, int, int] | None:
    """State, parent id and process group of ``pid``."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1]), int(fields[2])


def group(pgid: int) -> set[int]:
    """Live processes of the process group ``pgid`` (a command started in a session of
    its own, and its workers)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            state = _stat(int(entry))
            if state is not None and state[2] == pgid and state[0] != "Z":
                found.add(int(entry))
    return found


def wait_for(condition: object, what: str) -> None:
    deadline = time.monotonic() + GUARD_S
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


class HeldFlag:
    """``reviewer flag --workers 2`` waiting on the write lock with both workers started."""

    def __init__(self, db: Path) -> None:
        self.lock: sqlite3.Connection | None = sqlite3.connect(db, isolation_level=None)
        self.lock.execute("BEGIN IMMEDIATE")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ui.cli", "--db", str(db), "flag", "--workers", "2"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True, env={**os.environ, "REVIEWER_BUSY_TIMEOUT_MS": "600000"})
        wait_for(lambda: len(children(self.proc.pid)) >= 2 or self.proc.poll() is not None,
                 "the workers never started")
        self.workers = children(self.proc.pid)

    def release(self) -> None:
        """Let go of the write lock: the command carries on."""
        if self.lock is not None:
            self.lock.execute("ROLLBACK")
            self.lock.close()
            self.lock = None

    def close(self) -> tuple[str, str]:
        self.release()
        if self.proc.poll() is None:
            self.proc.wait(timeout=GUARD_S)
        for pid in self.workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        return self.proc.communicate(timeout=GUARD_S)


@pytest.fixture
def held(db: Path) -> Iterator[HeldFlag]:
    flag = HeldFlag(db)
    try:
        assert flag.proc.poll() is None and len(flag.workers) == 2, flag.close()
        yield flag
    finally:
        if flag.proc.poll() is None:
            os.killpg(flag.proc.pid, signal.SIGKILL)
        flag.close()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP],
                         ids=["SIGKILL", "SIGTERM", "SIGHUP"])
def test_workers_end_when_flag_is_killed(held: HeldFlag, sig: signal.Signals) -> None:
    held.proc.send_signal(sig)  # the command only, not its process group
    held.proc.wait(timeout=GUARD_S)
    wait_for(lambda: not any(alive(pid) for pid in held.workers),
             f"workers {sorted(p for p in held.workers if alive(p))} outlived their parent")


def test_ctrl_c_stops_flag_and_its_workers_with_one_line(held: HeldFlag) -> None:
    os.killpg(held.proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole foreground group
    held.release()
    _, err = held.close()
    assert "Traceback" not in err, err
    assert held.proc.returncode == INTERRUPTED, err
    assert [line for line in err.splitlines() if line.startswith("reviewer:")] == [
        INTERRUPTED_LINE], err
    wait_for(lambda: not any(alive(pid) for pid in held.workers), "workers outlived Ctrl-C")


@pytest.mark.parametrize("moment", ["second-worker", "worker-start", "commit", "loading"])
def test_ctrl_c_at_a_narrow_moment_stops_flag_with_one_line(db: Path, moment: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", DRIVER, moment, "--db", str(db), "flag", "--workers", "2"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    try:
        _, err = proc.communicate(timeout=GUARD_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate(timeout=GUARD_S)
        pytest.fail(f"flag went on for {GUARD_S} s after Ctrl-C; it said: {err}")
    finally:
        try:
            wait_for(lambda: not group(proc.pid), "workers outlived Ctrl-C")
        finally:
            for pid in group(proc.pid):
                os.kill(pid, signal.SIGKILL)
    assert "Traceback" not in err, err
    assert proc.returncode == INTERRUPTED, err
    assert [line for line in err.splitlines() if line.strip()] == [INTERRUPTED_LINE], err
