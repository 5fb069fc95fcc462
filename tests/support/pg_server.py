"""A throwaway PostgreSQL cluster for the tests that run on both backends.

``PgServer.start()`` runs Debian's ``initdb`` into a temporary folder (as the ``postgres``
user when we are root: PostgreSQL refuses to run as root), starts it with ``pg_ctl`` on a
free port of 127.0.0.1 only, and migrates a template database once. Each test then gets
its own database copied from that template (``CREATE DATABASE … TEMPLATE``), which is
much faster than migrating again, so tests stay isolated.

The cluster is stopped (``pg_ctl stop -m fast``) by the session fixture's finalizer, at
interpreter exit and on SIGTERM; if the test process dies harder than that (segfault,
SIGKILL), a small watchdog process stops it. Its folder is removed.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import psycopg

from reviewer.store import open_store

TEMPLATE = "reviewer_template"
MISSING = "PostgreSQL binaries not found (install Debian's postgresql package)"


class PgUnavailable(RuntimeError):
    """No PostgreSQL binaries (or no user to run them as): the PostgreSQL half is skipped."""


class PgStartError(RuntimeError):
    """The binaries are there but the cluster did not start: a real failure, not a skip."""


def find_bindir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``: ``$REVIEWER_PG_BINDIR``, Debian's newest
    ``/usr/lib/postgresql/*/bin``, or ``PATH``."""
    env = os.environ.get("REVIEWER_PG_BINDIR")
    if env:  # explicit choice: no fallback, so a wrong value is reported, not ignored
        folder = Path(env)
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
        raise PgUnavailable(f"{MISSING}: no initdb/pg_ctl in $REVIEWER_PG_BINDIR={env}")
    candidates: list[Path] = []
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                    key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0)
    candidates += [Path(p) for p in reversed(debian)]
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise PgUnavailable(f"{MISSING}: no initdb/pg_ctl under /usr/lib/postgresql/*/bin or PATH")


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# Runs in its own session next to the tests: when the test process dies without cleaning
# up (segfault, SIGKILL), it is re-parented, and the watchdog stops the cluster.
WATCHDOG = """
import os, shutil, subprocess, sys, time
parent, folder, data, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
while os.getppid() == parent and os.path.isdir(data):
    time.sleep(0.5)
if os.path.isdir(data):
    subprocess.run([*cmd, "-D", data, "-m", "immediate", "-w", "stop"], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)
"""


def _exit_cleanly_on_sigterm() -> None:
    """Turn SIGTERM (a CI timeout, ``kill``) into SystemExit so that the fixture's finalizer
    and atexit stop the cluster instead of leaving a postgres process behind."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        def _raise(signum: int, _frame: object) -> None:
            raise SystemExit(128 + signum)

        signal.signal(signal.SIGTERM, _raise)


class PgServer:
    """One throwaway cluster; ``database()`` hands out fresh migrated databases."""

    def __init__(self) -> None:
        self.bindir = find_bindir()
        self.folder: Path | None = None
        self.data: Path | None = None
        self.port = 0
        self._as_postgres = os.geteuid() == 0
        self._counter = itertools.count(1)
        self._running = False
        self._watchdog: subprocess.Popen[bytes] | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        if self._as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)

    def start(self) -> None:
        """initdb + pg_ctl start + migrated template; stops what it began if a step fails."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        if self._as_postgres:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise PgUnavailable(f"{MISSING}: running as root and there is no postgres "
                                    "user to run the server as") from None
        self.folder = Path(tempfile.mkdtemp(prefix="reviewer-pg-"))
        self.data = self.folder / "data"
        self.data.mkdir()
        if self._as_postgres:
            for path in (self.folder, self.data):
                os.chown(path, owner.pw_uid, owner.pw_gid)
        atexit.register(self.stop)
        _exit_cleanly_on_sigterm()
        init = self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres",
                         "--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync")
        if init.returncode != 0:
            raise PgStartError(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
        self.port = free_port()
        # Throwaway data: no fsync, and only 127.0.0.1 plus a socket inside our folder.
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.data} "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                   "-c max_connections=200")
        started = self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", options,
                            "-l", str(self.data / "server.log"), "-w", "-t", "60", "start")
        if started.returncode != 0:
            log = (self.data / "server.log")
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise PgStartError(f"pg_ctl start failed: {started.stderr.strip()} {tail}")
        self._running = True
        self._start_watchdog()
        self._execute(f'CREATE DATABASE "{TEMPLATE}"')
        store = open_store(self.url(TEMPLATE))
        store.close()

    def _start_watchdog(self) -> None:
        assert self.folder is not None and self.data is not None
        pg_ctl = [str(self.bindir / "pg_ctl")]
        if self._as_postgres:
            pg_ctl = ["runuser", "-u", "postgres", "--", *pg_ctl]
        self._watchdog = subprocess.Popen(
            [sys.executable, "-c", WATCHDOG, str(os.getpid()), str(self.folder),
             str(self.data), *pg_ctl],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,  # survives a kill of the test's process group
        )

    def stop(self) -> None:
        """Stop the cluster (fast shutdown) and remove its folder; safe to call twice."""
        if self._running and self.data is not None:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast",
                      "-w", "stop")
            self._running = False
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
        if self._watchdog is not None:
            self._watchdog.terminate()
            self._watchdog.wait(timeout=10)
            self._watchdog = None

    # -- databases -------------------------------------------------------------------------

    def url(self, database: str, user: str = "postgres") -> str:
        """SQLAlchemy URL of a database of this cluster."""
        return f"postgresql+psycopg://{user}@127.0.0.1:{self.port}/{database}"

    def _execute(self, sql: str, database: str = "postgres") -> None:
        # CREATE/DROP DATABASE cannot run inside a transaction: autocommit.
        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres",
                             dbname=database, autocommit=True) as conn:
            conn.execute(sql.encode())

    def execute(self, sql: str, database: str = "postgres") -> None:
        """Run one administrative statement as the superuser (autocommit)."""
        self._execute(sql, database)

    def database(self, *, empty: bool = False) -> str:
        """A new database (migrated, unless ``empty``); returns its name."""
        name = f"test_{next(self._counter)}"
        template = "template0" if empty else TEMPLATE
        self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return name

    def drop(self, name: str) -> None:
        """Drop a test database, closing whatever connections a failed test left open."""
        self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
