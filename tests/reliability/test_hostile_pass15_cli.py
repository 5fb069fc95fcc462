"""Fifteenth hostile pass, the command line: a PostgreSQL connection that stalls, and a
kernel file as an input.

P15-5: through a proxy that stopped forwarding (the socket open, nothing coming back),
``decide --from-csv`` waited for ever with no word, and Ctrl-C did not end it (psycopg
spent up to 10 s trying to cancel over the same stalled route, then logged two lines
under ours). Here the real command runs against the test server through
``tests.support.stalling_proxy``, which stops forwarding once the command sends its
first write.

P15-11: ``/proc/kmsg`` (a regular file of size 0 whose read waits for the next kernel
message) as the input of ``decide --from-csv``, ``import``, ``grade``… waited for ever.
Reading it here would take messages from the system's log, so the commands are given
kernel files that answer at once (``/proc/self/status``, a sysfs file): the refusal is
decided before any read, by the file system the file is on.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from reviewer.input_bytes import special_file
from tests.support.cli import one_line, run
from tests.support.pg_server import PgServer
from tests.support.run_files import imported_store, sample_rows, write_catalog, write_jsonl
from tests.support.stalling_proxy import StallingProxy

ROOT = Path(__file__).resolve().parents[2]
INTERRUPTED = ("reviewer: interrupted; the step in progress was not saved (what was saved "
               "before is kept)")
# The test's own bound on each wait: a command still running then has hung.
WAIT_S = 120

@pytest.fixture
def database(pg_server: PgServer, tmp_path: Path) -> Iterator[str]:
    """A database of the test server holding the sample run; its name."""
    name = pg_server.database()
    try:
        assert run(["--db", pg_server.url(name), "import", "--catalog",
                    str(write_catalog(tmp_path / "c.json")),
                    str(write_jsonl(tmp_path / "run.jsonl", sample_rows()))]) == 0
        yield name
    finally:
        pg_server.drop(name)


def decisions_csv(tmp_path: Path) -> Path:
    """A CSV rejecting every attempt of the sample run."""
    keys = [f"{r['run']}/{r['conversation']}/{r['turn']}/{r['attempt']}" for r in sample_rows()]
    path = tmp_path / "big.csv"
    path.write_text("key,decision,note\n" + "".join(f"{k},reject,stalled\n" for k in keys),
                    encoding="utf-8")
    return path


def decide(url: str, csv: Path, tmp_path: Path, **env: str) -> subprocess.Popen[str]:
    """``reviewer --db URL decide --from-csv CSV`` started as a process of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "--db", url, "decide", "--from-csv", str(csv)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "HOME": str(tmp_path), **env})


def stored(server: PgServer, name: str) -> int:
    """How many decisions the database holds, asked of the server directly."""
    with psycopg.connect(host="127.0.0.1", port=server.port, user="postgres",
                         dbname=name) as conn:
        row = conn.execute("SELECT count(*) FROM review_decisions").fetchone()
    assert row is not None
    return int(row[0])


def ended(proc: subprocess.Popen[str]) -> tuple[int, list[str]]:
    """The command's exit code and stderr lines, once it ended (killed if it hung)."""
    try:
        _out, err = proc.communicate(timeout=WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"still waiting {WAIT_S} s later")
    return proc.returncode, err.splitlines()


def via(server: PgServer, name: str, proxy: StallingProxy) -> str:
    return server.url(name).replace(f":{server.port}/", f":{proxy.port}/")


@pytest.mark.postgres
@pytest.mark.slow
def test_ctrl_c_ends_a_command_whose_server_stalled_in_one_line(
        pg_server: PgServer, database: str, tmp_path: Path) -> None:
    with StallingProxy(pg_server.port, stall_on=b"INSERT INTO") as proxy:
        proc = decide(via(pg_server, database, proxy), decisions_csv(tmp_path), tmp_path)
        assert proxy.stalled.wait(WAIT_S), "the command never wrote"
        proc.send_signal(signal.SIGINT)
        code, lines = ended(proc)
    assert (code, lines) == (130, [INTERRUPTED])
    assert stored(pg_server, database) == 0  # all or nothing: none


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.parametrize(("stall_on", "new_ones_too", "outcome"), [
    (b"INSERT INTO", True, "; the change in progress was not saved"),
    (b"COMMIT", True, " after the commit was sent: the change in progress may or may not "
                      "have been saved; look before doing it again"),
    # Only the command's own connection stalls: the server, answering a new one, says
    # the session has finished its statement (the answer was lost on the way).
    (b"INSERT INTO", False, "; the change in progress was not saved"),
], ids=["write", "commit", "one connection"])
def test_a_server_that_stopped_answering_is_one_line_not_a_hang(
        pg_server: PgServer, database: str, tmp_path: Path, stall_on: bytes,
        new_ones_too: bool, outcome: str) -> None:
    with StallingProxy(pg_server.port, stall_on=stall_on,
                       new_ones_too=new_ones_too) as proxy:
        proc = decide(via(pg_server, database, proxy), decisions_csv(tmp_path), tmp_path,
                      REVIEWER_PG_SILENCE_S="1")
        code, lines = ended(proc)
        assert proxy.stalled.is_set()
    assert code == 1, lines
    assert len(lines) == 1, lines
    said = re.fullmatch(rf"reviewer: the PostgreSQL server at 127\.0\.0\.1:{proxy.port} has "
                        rf"not answered for \d+ s{re.escape(outcome)}", lines[0])
    assert said, lines[0]
    assert stored(pg_server, database) == 0  # the commit never reached the server


@pytest.mark.postgres
@pytest.mark.slow
def test_a_statement_the_server_is_still_running_is_not_cut_short(
        pg_server: PgServer, database: str, tmp_path: Path) -> None:
    # Its answer is long in coming (a lock held by another session here; a long import,
    # export or migration elsewhere), and the server, looked at from outside, says it is
    # running it: the command waits for it, however long.
    holder = psycopg.connect(host="127.0.0.1", port=pg_server.port, user="postgres",
                             dbname=database)
    try:
        holder.execute("LOCK TABLE audit_events IN ACCESS EXCLUSIVE MODE")
        with StallingProxy(pg_server.port) as proxy:
            proc = decide(via(pg_server, database, proxy), decisions_csv(tmp_path),
                          tmp_path, REVIEWER_PG_SILENCE_S="1",
                          REVIEWER_BUSY_TIMEOUT_MS="600000")
            waiting_since = connections_once_blocked(pg_server, database, proxy, proc)
            # Two looks from outside made, the first of them answered: the command kept
            # waiting.
            deadline = time.monotonic() + WAIT_S
            while proxy.connections < waiting_since + 2:
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline, "the server was never looked at"
                time.sleep(0.05)
            holder.commit()
            code, lines = ended(proc)
    finally:
        holder.close()
    assert code == 0, lines
    assert stored(pg_server, database) == len(sample_rows())


def connections_once_blocked(server: PgServer, name: str, proxy: StallingProxy,
                             proc: subprocess.Popen[str]) -> int:
    """The proxy's count of connections once the command waits on the lock."""
    deadline = time.monotonic() + WAIT_S
    with psycopg.connect(host="127.0.0.1", port=server.port, user="postgres", dbname=name,
                         autocommit=True) as conn:
        while True:
            count = proxy.connections
            row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE "
                               "wait_event_type = 'Lock' AND datname = %s", (name,)).fetchone()
            if row is not None and row[0] > 0:
                return count
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the command never waited on the lock"
            time.sleep(0.05)


SYSFS_FILE = Path("/sys/devices/system/cpu/online")
KERNEL_FILES = [(Path("/proc/self/status"), "proc"),
                pytest.param(SYSFS_FILE, "sysfs", marks=pytest.mark.skipif(
                    not SYSFS_FILE.is_file(), reason="no sysfs here"))]


@pytest.mark.parametrize(("path", "system"), KERNEL_FILES, ids=["proc", "sysfs"])
@pytest.mark.parametrize(("command", "what"), [
    (["decide", "--from-csv", "{}"], "a CSV of decisions"),
    (["import", "{}"], "a run file"),
    (["grade", "exact", "{}"], "a JSON lines file"),
    (["prompt", "set", "juge", "{}"], "a prompt template"),
], ids=["decide", "import", "grade", "prompt"])
def test_a_kernel_file_as_an_input_is_refused_before_it_is_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], path: Path, system: str,
        command: list[str], what: str) -> None:
    argv = ["--db", str(tmp_path / "k.db"), *(a.format(path) for a in command)]
    assert one_line(capsys, run(argv), 2) == (
        f"reviewer: {path}: is a kernel interface ({system} file system), not a file; "
        f"give {what} saved as a file")
    assert not (tmp_path / "k.db").exists()


@pytest.mark.skipif(not Path("/proc/kmsg").exists(), reason="no /proc/kmsg here")
def test_proc_kmsg_is_a_kernel_interface_without_reading_it() -> None:
    # Only its status is looked at: its read would wait, and take the kernel's messages.
    assert special_file(Path("/proc/kmsg")) == "a kernel interface (proc file system)"


def test_verify_export_refuses_a_member_linked_to_a_kernel_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # verify-export vy/k.jsonl whose member was a link to /proc/kmsg waited for ever.
    out = tmp_path / "split"
    assert run(["--db", imported_store(tmp_path), "export", "dataset", str(out),
                "--split", "valid=0.5"]) == 0
    capsys.readouterr()
    (out / "valid.jsonl").unlink()
    (out / "valid.jsonl").symlink_to("/proc/self/status")
    assert one_line(capsys, run(["verify-export", str(out)]), 1) == (
        f"reviewer: {out / 'valid.jsonl'}: listed by manifest.json but it is a kernel "
        "interface (proc file system), not a regular file: export again")
