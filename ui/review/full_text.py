"""The whole texts of an attempt, in a plain viewer that never blocks the window (key W).

The pane lays out the first part of an enormous text (``reviewer.review.visible``); this
window shows each text whole: the answer, the question, every rationale, in tabs
(Ctrl+Tab moves between them, Esc closes). Each is a ``QPlainTextEdit``, which lays out
only the lines on screen, filled when its tab is first shown. Hidden characters are
written as ``⟨U+202E⟩`` markers here too (as plain text, without their colour); the
stored text is unchanged.

Qt lays out a line (a block) whole, whatever part of it is on screen: a megabyte line
cost over half a second of the GUI thread. So a line longer than ``PIECE`` characters
is shown in pieces of ``PIECE``, each on its own line, and the window says so.
"""

from __future__ import annotations

import regex
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QPlainTextEdit,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from reviewer.review.example import ExampleView
from reviewer.review.visible import plain as visible
from reviewer.review.visible import shown
from ui.review.conversation_view import split_question
from ui.review.text_widgets import number
from ui.widgets_util import named, plain

PIECE = 10_000  # characters of a line laid out as one (a longer one is shown in pieces)
_LONG = regex.compile(rf"[^\n]{{{PIECE}}}(?=[^\n])")


def in_pieces(text: str) -> str:
    """``text`` with a line break after every ``PIECE`` characters of a longer line."""
    return str(_LONG.sub(lambda m: m.group() + "\n", text))


class FullTextWindow(QDialog):
    """The texts of one attempt, whole, one tab each (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModal(False)
        self.resize(900, 700)
        self.tabs = named(QTabWidget(), "full_text_tabs")
        self.tabs.currentChanged.connect(self._fill)
        self.note = named(plain(QLabel()), "full_text_note")
        self.note.setText(self.tr("Lines longer than %1 characters are shown in pieces of "
                                  "%1, one under the other.").replace(
                                      "%1", number(PIECE)))
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.note)
        self.texts: list[str] = []

    def show_view(self, view: ExampleView) -> None:
        """Show the texts of ``view`` (the answer's tab first) and raise the window."""
        self.setWindowTitle(self.tr("Whole texts of %1").replace("%1", visible(str(view.key))))
        question, _ = split_question(view.context)
        texts = [(self.tr("Answer"), view.response)]
        if question is not None:
            texts.append((self.tr("Question"), question.content))
        for v in view.verdicts:
            texts.append((self.tr("Rationale %1").replace("%1", visible(v.criterion_id)),
                          v.rationale))
            if v.second_opinion is not None:
                texts.append((self.tr("Second opinion %1").replace(
                    "%1", visible(v.criterion_id)), v.second_opinion.rationale))
        self.tabs.blockSignals(True)
        while self.tabs.count():
            old = self.tabs.widget(0)
            self.tabs.removeTab(0)
            if old is not None:
                old.deleteLater()
        if view.review.note:  # a note too long for the editor is read here (P15-6)
            texts.append((self.tr("Your note"), view.review.note))
        self.texts = [text for _, text in texts]
        for title, _ in texts:
            page = QPlainTextEdit()
            page.setReadOnly(True)
            # At word boundaries only: wrapping a megabyte word "anywhere" costs Qt
            # quadratic time (23 s); unwrapped, it scrolls sideways.
            page.setWordWrapMode(QTextOption.WrapMode.WordWrap)
            page.setProperty("filled", False)
            self.tabs.addTab(page, title)
        self.tabs.blockSignals(False)
        self.tabs.setCurrentIndex(0)
        self._fill(0)
        self.show()
        self.raise_()
        self.activateWindow()
        self.tabs.currentWidget().setFocus(Qt.FocusReason.OtherFocusReason)

    def page(self, index: int) -> QPlainTextEdit:
        """The viewer of tab ``index``."""
        page = self.tabs.widget(index)
        assert isinstance(page, QPlainTextEdit)
        return page

    def _fill(self, index: int) -> None:
        """Fill a tab the first time it is shown (laid out as it scrolls into view)."""
        if not 0 <= index < len(self.texts):
            return
        page = self.page(index)
        if not page.property("filled"):
            page.setProperty("filled", True)
            page.setPlainText(in_pieces(shown(self.texts[index]).text))
