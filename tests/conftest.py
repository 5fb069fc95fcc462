"""Shared pytest fixtures, and the test session's own home folder.

Before anything reads a user folder, HOME and every XDG folder point into a temporary
directory for the whole session (subprocesses inherit it): the app's settings, data and
Qt's test-mode folders never land in the real home. ``_real_home_untouched`` fails any
test that still writes the app's files there.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# GUI tests run without a display; set before any QApplication exists.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REAL_HOME = Path.home()
SESSION_HOME = Path(tempfile.mkdtemp(prefix="reviewer-test-home-"))
for _var, _sub in (("HOME", "."), ("XDG_CONFIG_HOME", ".config"),
                   ("XDG_DATA_HOME", ".local/share"), ("XDG_CACHE_HOME", ".cache"),
                   ("XDG_STATE_HOME", ".local/state"), ("XDG_RUNTIME_DIR", "run")):
    (SESSION_HOME / _sub).mkdir(parents=True, exist_ok=True)
    os.environ[_var] = str((SESSION_HOME / _sub).resolve())
os.chmod(SESSION_HOME / "run", 0o700)  # Qt refuses a runtime folder others can read

import faulthandler  # noqa: E402 - after the folders are redirected
import sys  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from typing import IO  # noqa: E402

import pytest  # noqa: E402

from reviewer.store import Store, open_store  # noqa: E402
from tests.support.fake_ollama import FakeOllama  # noqa: E402
from tests.support.pg_server import PgServer, PgUnavailable  # noqa: E402
from tests.support.stores import fill_store  # noqa: E402

BOTH_BACKENDS = "both_backends"
# Where the app (QSettings, platformdirs, Qt's test mode) would write in a real home.
APP_PATHS = (".config/reviewer", ".config/reviewer.conf", ".local/share/reviewer",
             ".qttest", ".cache/reviewer")


def _home_state() -> set[tuple[str, int, int]]:
    """Every file of the app's folders in the real home, with its mtime and size."""
    state: set[tuple[str, int, int]] = set()
    for rel in APP_PATHS:
        top = REAL_HOME / rel
        paths = [top] if top.is_file() else [p for p in top.rglob("*") if p.is_file()] \
            if top.is_dir() else []
        for path in paths:
            st = path.stat()
            state.add((str(path), st.st_mtime_ns, st.st_size))
    return state


@pytest.fixture(autouse=True)
def _real_home_untouched() -> Iterator[None]:
    """A test that writes the app's files into the real home folder fails."""
    before = _home_state()
    yield
    after = _home_state()
    assert after == before, f"the test wrote into the real home: {sorted(after - before)}"


@pytest.fixture(autouse=True)
def _qt_tests_live_in_tests_ui(request: pytest.FixtureRequest) -> None:
    """Widgets are tested under tests/ui/, whose conftest guards against leaks."""
    if "qapp" in request.fixturenames:
        assert "ui" in Path(str(request.path)).relative_to(Path(__file__).parent).parts[:1], \
            "a test using Qt belongs in tests/ui/ (its leak guards run there)"


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    """A started fake Ollama server on 127.0.0.1 (tests/support/fake_ollama.py), closed after."""
    server = FakeOllama()
    try:
        yield server
    finally:
        server.close()


# pytest-timeout (300 s, signal method) fails a test that hangs in Python code, but a
# hang inside C (a Qt wait, a lock taken by a C library, a teardown after that failure)
# never returns to the interpreter: CI then sat silent until its own limit. This
# watchdog runs on its own thread: past HARD_STOP_S for one test (or AT_EXIT_S after
# the last), it prints every thread's stack to the real stderr and ends the run (exit 1).
HARD_STOP_S = 420
AT_EXIT_S = 180
_watchdog_out: list[IO[str]] = []


def pytest_configure(config: pytest.Config) -> None:
    """Keep a copy of the real stderr: the test's own is captured into a file."""
    _watchdog_out.append(os.fdopen(os.dup(sys.__stderr__.fileno()), "w"))


def _arm_watchdog(seconds: int) -> None:
    if _watchdog_out:
        faulthandler.dump_traceback_later(seconds, exit=True, file=_watchdog_out[0])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Arm the watchdog for one test: setup, call and teardown."""
    _arm_watchdog(HARD_STOP_S)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def pytest_unconfigure(config: pytest.Config) -> None:
    """After the last test: the interpreter's exit (atexit hooks, threads) is bounded too."""
    _arm_watchdog(AT_EXIT_S)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run the tests marked ``both_backends`` that use a store (``db_url``, ``store`` or
    ``backend``) on SQLite and PostgreSQL."""
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker(
        BOTH_BACKENDS
    ):
        metafunc.parametrize(
            "backend",
            ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
            indirect=True,
        )


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` unless the test is parametrised over both backends."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The throwaway PostgreSQL cluster (tests/support/pg_server.py), started on first use only."""
    try:
        server = PgServer()
        server.start()
    except PgUnavailable as exc:
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def db_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """URL of a fresh store: a real SQLite file in the test's temporary folder, or a new
    migrated database on the throwaway PostgreSQL server."""
    if backend != "postgresql":
        yield f"sqlite:///{tmp_path / 'reviewer.sqlite3'}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    name = server.database()
    try:
        yield server.url(name)
    finally:
        server.drop(name)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """An opened, migrated store on a real SQLite file."""
    opened = open_store(db_url)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def filled_store(store: Store, tmp_path: Path) -> Store:
    """The test store with ``tests.support.stores.small_run`` imported."""
    return fill_store(store, tmp_path)
