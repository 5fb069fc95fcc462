"""The pane's contradiction flags: the badge, the flag cell and the one-line explanation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from models import Attempt, Verdict
from reviewer.contradiction.flagging import flag_attempts
from reviewer.keys import AttemptKey
from reviewer.store import Store
from tests.support.qt import idle
from tests.support.stores import attempt_id
from ui.review.window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
RUN = "2026-10-14-ministral-8b"
Maker = Callable[[Store], MainWindow]
FLAG = 6  # the verdict table's "Contradiction" column


def show(qtbot: Any, window: MainWindow, name: str) -> None:
    with qtbot.waitSignal(window.example_shown, timeout=10000):
        window.select_key(AttemptKey.parse(f"{RUN}/{name}"))
    idle(qtbot, window)


@pytest.fixture
def flagged_store(filled_store: Store) -> Store:
    """The small run flagged as an import flags it, with one more contradiction: on
    recette-003/2/2 (refused by a failed check) G-DEMANDE is "non" while its rationale
    says the request was answered."""
    quiet = attempt_id(filled_store, f"{RUN}/recette-003/2/2")
    with filled_store.session() as s:
        demande = s.scalars(select(Verdict).where(Verdict.attempt_id == quiet,
                                                  Verdict.origin == "filter")
                            .order_by(Verdict.position)).first()
        assert demande is not None and demande.met
        demande.met = False
        s.flush()
        flag_attempts(s, s.scalars(select(Attempt.id)))
    return filled_store


def test_a_flag_is_explained_and_goes_once_the_reviewer_flips_it(
    qtbot: Any, make_window: Maker, flagged_store: Store,
) -> None:
    w = make_window(flagged_store)
    show(qtbot, w, "recette-003/2/1")
    pane, model = w.pane, w.pane.verdict_model
    # G-DEMANDE "non" whose rationale says the request was answered: it alone refuses.
    assert pane.flag_badge.isVisible()
    assert model.index(0, FLAG).data().startswith("⚠ contradiction ")
    assert pane.flags_line.isVisible()
    line = pane.flags_line.text()
    assert line.startswith("⚠ G-DEMANDE non = not met (")
    assert "; the rationale says: « " in line and "répond" in line and "\n" not in line
    tip = model.index(0, FLAG).data(Qt.ItemDataRole.ToolTipRole)
    assert "would change the filter" in tip
    def queue_mark() -> str:
        return str(w.model.index(w.queue.currentIndex().row(), 0).data())

    assert queue_mark().endswith("⚑")
    # The reviewer reads it as its rationale does: the flag is resolved, the badge goes.
    QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_1)
    idle(qtbot, w)
    assert model.index(0, 4).data() == "yes ✎"
    assert model.index(0, FLAG).data() == "✓ resolved"
    assert "Resolved" in model.index(0, FLAG).data(Qt.ItemDataRole.ToolTipRole)
    assert not pane.flag_badge.isVisible()
    assert not pane.flags_line.isVisible()
    assert not queue_mark().endswith("⚑")


def test_a_contradiction_that_changes_nothing_is_marked_quietly(
    qtbot: Any, make_window: Maker, flagged_store: Store,
) -> None:
    w = make_window(flagged_store)
    # The same contradiction, but a failed check refuses the attempt anyway.
    show(qtbot, w, "recette-003/2/2")
    pane, model = w.pane, w.pane.verdict_model
    cell = model.index(0, FLAG)
    assert cell.data().startswith("contradiction ")
    assert cell.data(Qt.ItemDataRole.BackgroundRole) is None
    assert "would not change" in cell.data(Qt.ItemDataRole.ToolTipRole)
    assert not pane.flag_badge.isVisible()
    assert pane.flags_line.text().startswith("G-DEMANDE non = not met (")
