"""Huge and odd stored texts never freeze the review pane (the hostile pass's six cases).

``reviewer import`` accepts a megabyte answer, question or rationale, 100,000 hidden
characters, a check pattern matching 30,000 times. Shown whole, each kept the GUI thread
busy from 10 s to over 4 minutes (QTextEdit laying out a megabyte line, an extra
selection per marker and per match, the table sizing rows around a megabyte rationale,
a label wrapping a megabyte question). The pane now lays out a bounded part of each text
and says so; W opens the whole texts in a plain viewer that lays out what is on screen.

Each test shows a hostile attempt on a real SQLite store the way a reviewer reaches it
(J from a short attempt), opens it whole (W), and leaves it (K), while ``GapMeter``
measures the event loop: its longest gap in GUI-thread CPU time stays under a second
(see tests/ui/test_long_conversation.py).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QApplication

from models import Attempt
from reviewer.ingest.importer import import_run
from reviewer.review import example as example_module
from reviewer.review.actions import set_note
from reviewer.review.visible import HIGHLIGHT_LIMIT, LABEL_LIMIT, SHOWN_LIMIT
from reviewer.store import Store
from tests.support.qt import GapMeter, idle
from tests.support.run_files import CATALOG, record, write_catalog, write_jsonl
from tests.support.stores import attempt_id
from tests.ui.test_ui_review import key
from ui.review.example_models import CELL_LIMIT
from ui.review.full_text import PIECE, FullTextWindow
from ui.review.text_widgets import MARK_BG, MATCH_BG
from ui.review.window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints",
                                        "does not support raise")
RUN = "2026-10-14-ministral-8b"
HOSTILE = f"{RUN}/hostile/1/1"


def n(count: int) -> str:
    return QLocale().toString(count)


def cut_note(total: int) -> str:
    return f"Showing the first {n(SHOWN_LIMIT)} of {n(total)} characters — W shows the " \
        "whole text"


def hostile_store(store: Store, tmp_path: Path, hostile: dict[str, Any],
                  pattern: str | None = None) -> Store:
    """``store`` with a short refused attempt first in the queue, then ``hostile``."""
    catalog = copy.deepcopy(CATALOG)
    if pattern is not None:
        catalog["checks"][0].update(pattern=pattern, flags="")
    rows = [record("a-courte", 1, 1, demande="non", response="Oui."), hostile]
    import_run(store, write_jsonl(tmp_path / "run.jsonl", rows),
               catalog_path=write_catalog(tmp_path / "catalog.json", catalog))
    return store


class Visit:
    """J to the hostile attempt, W to its whole texts, K back: under a GapMeter."""

    def __init__(self, qtbot: Any, window: MainWindow) -> None:
        self.qtbot, self.w = qtbot, window
        self.meter = GapMeter()

    def show(self) -> None:
        assert self.w.pane.title.text().endswith("/a-courte/1/1")
        with self.qtbot.waitSignal(self.w.example_shown, timeout=60000):
            key(self.w, Qt.Key.Key_J)
        idle(self.qtbot, self.w, timeout=60000)
        self.qtbot.wait(200)  # painted and laid out inside the measured window
        assert self.w.pane.title.text() == HOSTILE

    def whole(self) -> FullTextWindow:
        key(self.w, Qt.Key.Key_W)
        viewer = self.w.pane.whole
        assert viewer is not None and viewer.isVisible()
        self.qtbot.wait(200)
        return viewer

    def leave(self) -> None:
        whole = self.w.pane.whole
        if whole is not None and whole.isVisible():
            key(self.w, Qt.Key.Key_Escape)  # closes the viewer
            assert not whole.isVisible()
        self.w.activateWindow()
        self.w.queue.focus()
        self.qtbot.waitUntil(lambda: QApplication.focusWidget() is not None
                             and QApplication.focusWidget().window() is self.w)
        with self.qtbot.waitSignal(self.w.example_shown, timeout=60000):
            key(self.w, Qt.Key.Key_K)
        idle(self.qtbot, self.w, timeout=60000)
        self.qtbot.wait(100)
        assert self.w.pane.title.text().endswith("/a-courte/1/1")


@pytest.fixture
def visit(qtbot: Any, record_property: Callable[[str, object], None],
          request: pytest.FixtureRequest) -> Iterator[Callable[[MainWindow], Visit]]:
    """A ``Visit`` whose meter runs from J to the end of the test's checks, then asserts
    the loop never stalled (the figures are printed and recorded)."""
    made: list[Visit] = []

    def make(window: MainWindow) -> Visit:
        v = Visit(qtbot, window)
        v.meter.start()
        made.append(v)
        return v

    yield make
    for v in made:
        v.meter.check(record_property, request.node.name)


def test_a_one_megabyte_one_line_answer_shows_its_start_and_opens_whole(
        make_window: Callable[[Store], MainWindow], visit: Callable[[MainWindow], Visit],
        store: Store, tmp_path: Path) -> None:
    answer = "mot " * 125_000 + "x" * 500_000  # 1 MB, one line, half of it one word
    w = make_window(hostile_store(store, tmp_path, record(
        "hostile", demande="non", response=answer)))
    v = visit(w)
    v.show()
    pane = w.pane
    assert pane.response.toPlainText() == answer[:SHOWN_LIMIT]
    assert pane.response_note.isVisible()
    assert pane.response_note.text() == cut_note(len(answer))
    viewer = v.whole()
    assert viewer.tabs.tabText(0) == "Answer"
    # The whole text, reachable (its line in pieces the viewer lays out one by one).
    assert viewer.page(0).toPlainText().replace("\n", "") == answer
    assert viewer.page(0).blockCount() == len(answer) // PIECE
    v.leave()
    assert not pane.response_note.isVisible()
    # The stored text keeps every byte (only the display is bounded).
    with store.session() as s:
        assert s.get_one(Attempt, attempt_id(store, HOSTILE)).response == answer


def test_100000_hidden_characters_are_markers_in_the_shown_part(
        make_window: Callable[[Store], MainWindow], visit: Callable[[MainWindow], Visit],
        store: Store, tmp_path: Path) -> None:
    answer = "a\u202eb\u200b" * 50_000  # 100,000 bidi and zero-width characters
    w = make_window(hostile_store(store, tmp_path, record(
        "hostile", demande="non", response=answer)))
    v = visit(w)
    v.show()
    shown = w.pane.response.toPlainText()
    assert len(shown) <= SHOWN_LIMIT and shown.startswith("a⟨U+202E⟩b⟨U+200B⟩a")
    assert "\u202e" not in shown and "\u200b" not in shown
    marks = w.pane.response.selections_of(MARK_BG)
    assert len(marks) == shown.count("⟨") and marks[:2] == ["⟨U+202E⟩", "⟨U+200B⟩"]
    cut = w.pane.response.shown_part.cut
    assert cut is not None and w.pane.response_note.text() == \
        f"Showing the first {n(cut)} of {n(len(answer))} characters — W shows the whole text"
    viewer = v.whole()
    whole = viewer.page(0).toPlainText().replace("\n", "")
    assert whole.count("⟨U+202E⟩") == 50_000 and whole.count("⟨U+200B⟩") == 50_000
    v.leave()


def test_30000_check_matches_highlight_the_first_thousand(
        make_window: Callable[[Store], MainWindow], visit: Callable[[MainWindow], Visit],
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Finding 50,000 matches took longer than the pane's time bound on a loaded machine
    # (two test workers and a build): the pane then said "pattern too slow" and nothing
    # was highlighted. The bound is not what this test is about: it is lifted here.
    monkeypatch.setattr(example_module, "MATCH_TIMEOUT_S", 60.0)
    answer = "Le chien aboie encore le soir.\n" * 10_000  # 310 KB, 50,000 "e"
    w = make_window(hostile_store(store, tmp_path, record(
        "hostile", demande="non", commerce_passed=False, response=answer), pattern="e"))
    v = visit(w)
    v.show()
    pane = w.pane
    total = answer.count("e")
    highlighted = pane.response.selections_of(MATCH_BG)
    assert highlighted == ["e"] * HIGHLIGHT_LIMIT
    assert pane.response_note.text() == cut_note(len(answer)) + "\n" + \
        f"Check matches: {n(HIGHLIGHT_LIMIT)} highlighted, {n(total - HIGHLIGHT_LIMIT)} not"
    matches = pane.check_model.index(0, 3).data()
    assert matches.startswith("« e », « e »") and matches.endswith(f"and {n(total - 20)} more")
    v.whole()
    v.leave()


def test_a_one_megabyte_question_of_zero_width_spaces_shows_its_start(
        make_window: Callable[[Store], MainWindow], visit: Callable[[MainWindow], Visit],
        store: Store, tmp_path: Path) -> None:
    question = "question\u200b" * 50_000 + "x" * 550_000  # 1 MB, 50,000 U+200B
    hostile = record("hostile", demande="non")
    hostile["messages"][1]["content"] = question
    w = make_window(hostile_store(store, tmp_path, hostile))
    v = visit(w)
    v.show()
    bubble = w.pane.question
    assert bubble is not None
    assert bubble.body.text().startswith("question⟨U+200B⟩question")
    assert len(bubble.body.text()) <= SHOWN_LIMIT
    assert bubble.note.isVisible()
    assert bubble.note.text().startswith("Showing the first ") and \
        bubble.note.text().endswith(f" of {n(len(question))} characters — W shows the whole "
                                    "text")
    viewer = v.whole()
    viewer.tabs.setCurrentIndex(1)
    assert viewer.tabs.tabText(1) == "Question"
    assert viewer.page(1).toPlainText().replace("\n", "").count("⟨U+200B⟩") == 50_000
    v.leave()


def test_one_megabyte_rationales_are_cut_in_their_cells(
        make_window: Callable[[Store], MainWindow], visit: Callable[[MainWindow], Visit],
        store: Store, tmp_path: Path) -> None:
    first, second = "raison " * 150_000, "autre " * 170_000  # 1 MB each
    hostile = record("hostile", demande="non", rationale=first)
    hostile["judge"]["verdicts"][1]["rationale"] = second
    w = make_window(hostile_store(store, tmp_path, hostile))
    # A laptop's width, not the 800 px test screen's: there the Rationale column lay
    # wholly past the table's right edge, so the rows' height said nothing (L1).
    w.fits_screen = False
    w.resize(1280, 900)
    v = visit(w)
    v.show()
    model = w.pane.verdict_model
    cell = model.index(0, model.COLS.index("rationale"))
    assert cell.data() == first[:CELL_LIMIT] + "…"
    tip = cell.data(Qt.ItemDataRole.ToolTipRole)
    assert "W shows the whole text" in tip and len(tip) < 5_000
    assert len(w.pane.filter_line.text()) < 2 * CELL_LIMIT
    assert w.pane.verdicts.height() < 1_000  # the rows fit what they show
    viewer = v.whole()
    viewer.tabs.setCurrentIndex(2)
    assert viewer.tabs.tabText(2) == "Rationale G-DEMANDE"
    assert viewer.page(2).toPlainText().replace("\n", "") == first
    v.leave()


def test_a_one_megabyte_answer_of_40000_lines_shows_its_start(
        make_window: Callable[[Store], MainWindow], visit: Callable[[MainWindow], Visit],
        store: Store, tmp_path: Path) -> None:
    answer = "".join(f"ligne {i} d'une réponse interminable ici\n" for i in range(40_000))
    assert len(answer) > 1_000_000
    w = make_window(hostile_store(store, tmp_path, record(
        "hostile", demande="non", response=answer)))
    v = visit(w)
    v.show()
    assert w.pane.response.toPlainText() == answer[:SHOWN_LIMIT]
    # The first line of the note; the second counts the D-3114 matches ("ligne 13114")
    # past the shown part.
    assert w.pane.response_note.text().split("\n")[0] == cut_note(len(answer))
    viewer = v.whole()
    assert viewer.page(0).blockCount() == 40_001
    v.leave()


def test_a_5000_character_word_in_the_note_and_answer_keeps_the_pane_readable(
        make_window: Callable[[Store], MainWindow], visit: Callable[[MainWindow], Visit],
        store: Store, tmp_path: Path) -> None:
    """Fourth hostile pass, G8: a note of one long word made its label as wide as the
    word; the question disappeared and the answer was squeezed into a 90 px column."""
    word = "note" * 1_250  # 5,000 characters, no space
    hostile = record("hostile", demande="non", response="réponse" + "x" * 5_000)
    hostile_store(store, tmp_path, hostile)
    w = make_window(store)
    # The first start's size: the offscreen screen (800 x 800) is smaller, and the window
    # now opens fitted to it (U12), where the pane is narrow whatever the note holds.
    w.resize(1500, 950)
    aid = attempt_id(store, HOSTILE)
    with store.session() as s:
        set_note(s, w.reviewer, aid, word)
    v = visit(w)
    v.show()
    pane = w.pane
    assert pane.note_line.isVisible()
    assert pane.note_line.text() == f"Note: {word[:CELL_LIMIT]}…"  # as a rationale cell
    assert word[:LABEL_LIMIT - 1] in pane.note_line.toolTip()
    assert pane.note_line.minimumSizeHint().width() < 500  # it wraps anywhere
    question = pane.question
    assert question is not None and question.isVisible()
    assert question.body.width() > 200 and question.body.height() > 0
    assert pane.response.width() > 300  # the answer keeps its column
    assert pane.question_title.width() >= pane.question_title.minimumSizeHint().width()
    v.leave()
