"""A signal ends the app in a bounded time whatever its worker thread is blocked on
(fifteenth hostile pass, P15-3 and P15-5).

The whole app as the console script starts it (``tests/support/gui_process.py``), on the
test PostgreSQL behind a proxy that stops forwarding at the decision's first write
(``tests/support/stalling_proxy.py``): the socket stays open and nothing comes back, so the
worker thread waits in C for ever. SIGTERM (or SIGINT, SIGHUP) used to be deaf there:
the window waited for the worker inside its close, then Python's exit waited for Qt's
thread pools; the decision was stored late when traffic resumed. Now the quit waits a
bounded time, says what it did not wait for, and the process ends with the signal's
code; what the stalled transaction held is rolled back, never stored.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from reviewer.store import Store
from tests.support.gui_process import gui_started
from tests.support.pg_server import PgServer
from tests.support.stalling_proxy import StallingProxy
from tests.ui.test_ui_review import RUN, stored

ROOT = Path(__file__).resolve().parents[2]
ON = "recette-004/2/1"
CLOSED = "the window was closed as by its close button"

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
@pytest.mark.postgres
@pytest.mark.parametrize(("sig", "code", "said"), [
    (signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted"),
    (None, 1, None)], ids=["SIGTERM", "SIGINT", "Ctrl+Q"])
def test_the_app_ends_while_the_database_is_silent(
        filled_store: Store, pg_server: PgServer, tmp_path: Path,
        sig: signal.Signals | None, code: int, said: str | None) -> None:
    # Ctrl+Q: the quit ends too, rc 1 (the decision may not have been stored).
    proxy = StallingProxy(pg_server.port).start()
    proxy.hold_at(b"INSERT", b"UPDATE")  # the decision's write is never answered
    try:
        with gui_started(proxy.url(filled_store.url), f"{RUN}/{ON}", "at-once",
                         *(["quit"] if sig is None else []),
                         env={"XDG_CONFIG_HOME": str(tmp_path / "config"),
                              "REVIEWER_QUIT_WAIT_MS": "1000"}) as proc:
            proxy.stalled.wait(60)
            assert proxy.stalled.is_set()
            if sig is not None:
                os.kill(proc.pid, sig)
            ended = proc.wait(timeout=90)  # it waited for as long as the proxy did
            errors = proc.stderr.read() if proc.stderr is not None else ""
    finally:
        proxy.close()  # once the app is gone
    assert ended == code, errors
    ours = [line for line in errors.splitlines()  # the offscreen plugin's own note aside
            if "propagateSizeHints" not in line]
    assert ours == [*([f"reviewer: {said}; {CLOSED}"] if said else []),
                    f"reviewer: quit without waiting any longer for: Accept of {ON} (no "
                    "answer within 1 s); it may not have been stored"], errors
    assert stored(filled_store, ON)["decision"] is None
