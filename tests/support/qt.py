"""Fixtures and helpers of the GUI tests (import the fixtures into a test module).

* settings live in a temporary folder (never the user's real settings);
* every UI test fails if it leaves a top-level widget or a running thread behind;
* ``make_window`` opens a real MainWindow on a real SQLite store and waits until it shows
  its first example.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QSettings, QStandardPaths, QThreadPool
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from models import Attempt, ContradictionFlag, Verdict
from reviewer.ingest.importer import import_run
from reviewer.keys import AttemptKey
from reviewer.review.queue import attempt_id_for
from reviewer.store import Store
from tests.support.run_files import record, sample_rows, write_catalog, write_jsonl
from ui.review.queue_model import Role
from ui.review.window import MainWindow
from ui.settings import APPLICATION, ORGANIZATION, Settings

CONTRADICTION = "L'assistant répond directement à la demande et explique la démarche."


@pytest.fixture
def ui_settings(tmp_path: Path) -> Iterator[Settings]:
    """Settings stored under the test's temporary folder."""
    QStandardPaths.setTestModeEnabled(True)
    folder = tmp_path / "settings"
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)
    settings = Settings(QSettings(str(folder / "reviewer.ini"), QSettings.Format.IniFormat))
    settings.q.setValue("reviewer", "claire")
    yield settings


@pytest.fixture
def no_leaks(qapp: QApplication) -> Iterator[None]:
    """Fail the test if it leaves a top-level widget or a busy thread pool behind."""
    before = set(map(id, QApplication.topLevelWidgets()))
    yield
    for w in QApplication.topLevelWidgets():
        if id(w) not in before:
            w.close()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QApplication.processEvents()
    left = [w for w in QApplication.topLevelWidgets()
            if id(w) not in before and w.isVisible()]
    assert not left, f"widgets left open: {left}"
    assert QThreadPool.globalInstance().waitForDone(5000)
    assert QThreadPool.globalInstance().activeThreadCount() == 0


def small_run(tmp_path: Path, conversations: int = 8) -> tuple[Path, Path]:
    """A run with accepted attempts, refusals of every kind and self-contradicting verdicts.

    Per conversation: turn 1 accepted; turn 2 refused three times (G-DEMANDE "non" whose
    rationale says the request was answered, a D-COMMERCE hit, an E-INVENTE fault), so
    the conversation stops at turn 2 of 4 planned.
    """
    rows = sample_rows(conversations)
    for row in rows:
        if row["turn"] == 2 and row["attempt"] == 1:
            row["judge"]["verdicts"][0]["rationale"] = CONTRADICTION
            row["reasons"] = [f"G-DEMANDE non tenu : {CONTRADICTION}"]
        row["turns_planned"] = 4
    rows[-1] = record("recette-999", 1, 1, response="Un événement sonore <img src=x> <b>gras</b>",
                      demande="non", rationale="Réponse <b>hors sujet</b> <img src=x>")
    run = write_jsonl(tmp_path / "run.jsonl", rows)
    return run, write_catalog(tmp_path / "catalog.json")


@pytest.fixture
def filled_store(store: Store, tmp_path: Path) -> Store:
    """The test store with :func:`small_run` imported."""
    run, catalog = small_run(tmp_path)
    import_run(store, run, catalog_path=catalog)
    return store


def attempt_id(store: Store, key: str) -> int:
    """The id of the attempt named ``RUN/CONVERSATION/TURN/ATTEMPT``."""
    with store.session() as s:
        found = attempt_id_for(s, AttemptKey.parse(key))
    if found is None:
        raise KeyError(key)
    return found


def flag(store: Store, key: str, score: float) -> None:
    """Store a rules-tier contradiction flag the way the detector does."""
    aid = attempt_id(store, key)
    with store.session() as s:
        verdict = s.scalars(select(Verdict).where(Verdict.attempt_id == aid)).first()
        assert verdict is not None
        s.add(ContradictionFlag(verdict_id=verdict.id, tier="rules", score=score,
                                flagged=True, evidence="répond directement"))
        s.get_one(Attempt, aid).contradiction_score = score


def wait_ready(qtbot: Any, window: MainWindow, timeout: int = 30000) -> None:
    """Wait until the window has no background work left and shows an example."""
    qtbot.waitUntil(window.ready, timeout=timeout)


def idle(qtbot: Any, window: MainWindow, timeout: int = 30000) -> None:
    """Wait until every background operation of the window has reported back."""
    qtbot.waitUntil(lambda: window.ops.pending == 0 and not window.model.loading,
                    timeout=timeout)


def decisions(window: MainWindow) -> dict[str, str | None]:
    """Key -> decision of every loaded queue row, as the model exposes them."""
    m = window.model
    return {m.index(r, 0).data(Role.Key): m.index(r, 0).data(Role.Decision)
            for r in range(m.rowCount())}


@pytest.fixture
def make_window(qtbot: Any, ui_settings: Settings, no_leaks: None
                ) -> Iterator[Callable[[Store], MainWindow]]:
    """Open main windows on a store; each is closed (and its threads joined) after."""
    opened: list[MainWindow] = []

    def make(store: Store) -> MainWindow:
        window = MainWindow(store, ui_settings)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        wait_ready(qtbot, window)
        opened.append(window)
        return window

    yield make
    for window in opened:
        window.close()
        window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
