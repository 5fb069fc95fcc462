"""Second opinions from the window: background batch, progress, cancel, Ollama errors.

The judge is the fake Ollama server of tests/support/fake_ollama.py, reached through the real
client; the batch runs on the window's background pool while the reviewer keeps working.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from models import Attempt, ContradictionFlag, JudgeFailure, Verdict
from reviewer.ingest.importer import import_run
from reviewer.keys import AttemptKey
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.qt import idle
from tests.support.run_files import record, write_catalog, write_jsonl
from ui.review.window import MainWindow
from ui.settings import Settings

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
RUN = "2026-10-14-ministral-8b"
SAYS = "L'assistant répond directement à la demande de la personne numéro {}."
YES = {"verdicts": [{"criterion": "G-DEMANDE", "rationale": "Elle répond bien à la demande.",
                      "verdict": "oui"}]}


@pytest.fixture
def doubted_store(store: Store, tmp_path: Path) -> Store:
    """Six refusals by G-DEMANDE "non" with a rationale that says the opposite, flagged
    (each the only reason its attempt is refused, so the flag changes the decision)."""
    rows = [record(f"recette-{i:03d}", 1, 1, demande="non", rationale=SAYS.format(i),
                   response=f"Réponse numéro {i} : notez la date et l'heure.")
            for i in range(1, 7)]
    import_run(store, write_jsonl(tmp_path / "run.jsonl", rows),
               catalog_path=write_catalog(tmp_path / "catalog.json"))
    with store.session() as s:
        for attempt in s.scalars(select(Attempt)):
            verdict = s.scalars(select(Verdict).where(Verdict.attempt_id == attempt.id)).first()
            assert verdict is not None
            s.add(ContradictionFlag(verdict_id=verdict.id, tier="rules", score=0.9,
                                    flagged=True, decisive=True,
                                    evidence="répond directement"))
            attempt.contradiction_score = 0.9
    return store


@pytest.fixture
def judged_window(make_window: Callable[[Store], MainWindow], ui_settings: Settings,
                  fake_ollama: FakeOllama, doubted_store: Store) -> MainWindow:
    ui_settings.q.setValue("ollama/host", fake_ollama.url)
    ui_settings.q.setValue("ollama/model", fake_ollama.model)
    return make_window(doubted_store)


def test_second_opinion_for_one_attempt(qtbot: Any, judged_window: MainWindow,
                                        fake_ollama: FakeOllama) -> None:
    w = judged_window
    fake_ollama.reply_json(YES)
    assert w.pane.title.text() == f"{RUN}/recette-001/1/1"
    with qtbot.waitSignal(w.second.finished, timeout=20000) as finished:
        QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_S)
    idle(qtbot, w)
    assert finished.args[0].startswith("Second opinions: 1 asked, 1 now accepted, 0 failed")
    assert len(fake_ollama.chat_requests) == 1
    assert w.pane.verdict_model.index(0, 7).data() == "yes : Elle répond bien à la demande."
    assert w.pane.live_line.text().endswith("accepted  ⟵ changed")
    assert not w.jobs.bar.isVisible()
    assert w.error_label.text() == ""


def test_batch_for_all_flagged_shows_progress_and_cancels(
        qtbot: Any, judged_window: MainWindow, fake_ollama: FakeOllama) -> None:
    w = judged_window
    fake_ollama.responder = lambda _request: Reply.json(YES, delay=0.4)
    maxima: list[int] = []
    w.second.progressed.connect(lambda _done, total: maxima.append(total))
    QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_S,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: w.jobs.bar.isVisible() and w.jobs.bar.value() >= 1, timeout=20000)
    assert w.jobs.bar.maximum() == 6 and 6 in maxima
    # The window keeps working while the judge thinks.
    QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_J)
    qtbot.waitUntil(lambda: w.pane.title.text() == f"{RUN}/recette-002/1/1", timeout=5000)
    typing_into = QApplication.focusWidget()
    with qtbot.waitSignal(w.second.finished, timeout=20000) as finished:
        qtbot.mouseClick(w.jobs.cancel_button, Qt.MouseButton.LeftButton)
    idle(qtbot, w)
    # The keyboard stays where it was: once the button hid, it went to the search box,
    # and the next "?" became a search (twelfth hostile pass, P12-9).
    assert QApplication.focusWidget() is typing_into is not None
    summary = finished.args[0]
    assert summary.endswith("cancelled")
    asked = int(summary.split(": ")[1].split(" asked")[0])
    assert 1 <= asked < 6
    assert len(fake_ollama.chat_requests) < 6
    assert not w.jobs.bar.isVisible() and not w.jobs.cancel_button.isVisible()


def test_closing_during_a_batch_abandons_a_judge_that_never_answers(
        qtbot: Any, judged_window: MainWindow, fake_ollama: FakeOllama) -> None:
    """Fourth hostile pass, G6: the window closed, but the process waited for the judge's
    two 120 s timeouts (Qt's pools wait for their threads). Closing abandons the request."""
    w = judged_window
    fake_ollama.responder = lambda _request: Reply.json(YES, delay=600)  # never, here
    w.second_opinion_all()
    qtbot.waitUntil(lambda: len(fake_ollama.chat_requests) >= 1, timeout=20000)
    started = time.monotonic()
    w.close()  # what Alt+F4 does; then the app shuts its task manager down
    assert w.tasks.shutdown()  # every thread joined
    assert time.monotonic() - started < 3.0
    assert w.tasks.pool.activeThreadCount() == w.tasks.long_pool.activeThreadCount() == 0
    qtbot.waitUntil(lambda: w.tasks.idle, timeout=2000)  # the dropped answers arrived
    with w.tasks.store.session() as s:  # the app closing is no judge failure
        assert s.scalars(select(Verdict).where(Verdict.origin == "second_opinion")).all() == []
        assert s.scalars(select(JudgeFailure)).all() == []
    assert "Second opinion failed" not in w.error_label.text()


def test_ollama_errors_are_one_line_not_a_dialog_storm(
        qtbot: Any, judged_window: MainWindow, fake_ollama: FakeOllama) -> None:
    w = judged_window
    fake_ollama.responder = lambda _request: Reply.error(400, "invalid options: num_ctx")
    before = {id(x) for x in QApplication.topLevelWidgets() if x.isVisible()}
    with qtbot.waitSignal(w.second.finished, timeout=30000):
        w.second_opinion_all()
    idle(qtbot, w)
    text = w.error_label.text()
    assert text.startswith(f"Second opinion failed: {RUN}/recette-0")
    assert "invalid options: num_ctx" in text and text.endswith("(+5)")
    assert "\n" not in text
    assert {id(x) for x in QApplication.topLevelWidgets() if x.isVisible()} == before
    # The failure is kept with the attempt and shown in its pane.
    w.select_key(AttemptKey.parse(f"{RUN}/recette-001/1/1"))
    qtbot.waitUntil(lambda: w.pane.failures_line.isVisible(), timeout=5000)
    assert "invalid options: num_ctx" in w.pane.failures_line.text()


def test_unreachable_judge_stops_the_batch(qtbot: Any, make_window: Any, ui_settings: Settings,
                                           doubted_store: Store) -> None:
    ui_settings.q.setValue("ollama/host", "http://127.0.0.1:9")  # nothing listens there
    w = make_window(doubted_store)
    with qtbot.waitSignal(w.second.finished, timeout=60000):
        w.second_opinion_all()
    idle(qtbot, w)
    assert w.error_label.text().startswith("Second opinion stopped: ")
    assert "127.0.0.1:9" in w.error_label.text()


def test_second_opinion_says_why_it_was_not_asked(
        qtbot: Any, make_window: Any, ui_settings: Settings, fake_ollama: FakeOllama,
        store: Store, tmp_path: Path) -> None:
    rows = [record("recette-001", 1, 1, demande="non", invente="oui")]  # a fault refuses too
    import_run(store, write_jsonl(tmp_path / "run.jsonl", rows),
               catalog_path=write_catalog(tmp_path / "catalog.json"))
    ui_settings.q.setValue("ollama/host", fake_ollama.url)
    w = make_window(store)
    with qtbot.waitSignal(w.second.finished, timeout=20000) as finished:
        QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_S)
    assert finished.args[0].endswith("a check or a failure criterion also refuses it")
    assert "0 asked" in finished.args[0] and fake_ollama.chat_requests == []


def test_an_unreliable_second_opinion_is_marked_and_its_reasoning_shown_on_demand(
    qtbot: Any, judged_window: MainWindow, fake_ollama: FakeOllama, ui_settings: Settings
) -> None:
    import json

    w = judged_window
    ui_settings.q.setValue("ollama/think", "true")  # the Settings option
    w.apply_settings(Settings(ui_settings.q).load())
    fake_ollama.reply_thinking("La réponse donne la démarche.", json.dumps(
        {"verdicts": [{"criterion": "G-DEMANDE", "rationale": "Oui", "verdict": "oui"}]}))
    with qtbot.waitSignal(w.second.finished, timeout=20000):
        QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_S)
    idle(qtbot, w)
    assert fake_ollama.chat_requests[0]["think"] is True
    cell = w.pane.verdict_model.index(0, 7)
    assert cell.data() == "⚠ unreliable — not applied — yes : Oui"
    tip = cell.data(Qt.ItemDataRole.ToolTipRole)
    assert "Not applied: the rationale is only « Oui »" in tip
    assert "Judge&#x27;s reasoning: La réponse donne la démarche." in tip  # escaped markup
    assert not w.pane.live_line.text().endswith("⟵ changed")  # the decision did not move
