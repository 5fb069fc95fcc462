"""The example pane's text widgets: plain labels, section titles, the highlighted answer.

Everything from the data is shown as plain text: labels are ``Qt.PlainText``, the answer
view uses ``setPlainText`` and highlights are extra selections, so an answer containing
``<img src=x>`` shows those characters. Characters that hide or reorder text are shown as
``⟨U+202E⟩`` markers (``reviewer.review.visible``), in the answer view with their own
style so they cannot pass for text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QLabel, QSizePolicy, QTextEdit, QWidget

from reviewer.review.visible import shown
from ui.widgets_util import plain, rich_tooltip

MATCH_BG = QColor("#ffab91")  # a check's pattern matched here
HIT_BG = QColor("#b3e5fc")  # the search's words
MARK_FG = QColor("#ad1457")  # a revealed hidden character
MARK_BG = QColor("#fce4ec")
Highlight = tuple[int, int, str]  # stored start, stored end, tooltip


def plain_label(text: str = "", *, bold: bool = False, wrap: bool = True,
                selectable: bool = True) -> QLabel:
    """A label that never interprets its text as HTML."""
    label = plain(QLabel())
    label.setText(text)
    label.setWordWrap(wrap)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if bold:
        font = label.font()
        font.setBold(True)
        label.setFont(font)
    return label


def section_title(text: str) -> QLabel:
    """A heading between sections of the pane."""
    label = plain_label(text, bold=True, selectable=False)
    label.setStyleSheet("color: #37474f; margin-top: 8px; font-size: 13px;")
    return label


def _format(background: QColor, *, bold: bool = True, foreground: QColor | None = None,
            tip: str = "") -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setBackground(background)
    if bold:
        fmt.setFontWeight(700)
    if foreground is not None:
        fmt.setForeground(foreground)
    if tip:
        fmt.setToolTip(rich_tooltip(tip))
    return fmt


class PlainTextView(QTextEdit):
    """Read-only plain text that grows to its content and highlights spans.

    Spans are given on the stored text; the view shows the text with hidden characters
    revealed and moves the spans with it.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setAcceptRichText(False)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().contentsChanged.connect(self._fit)
        self.stored = ""
        self._shown = shown("")
        self._matches: list[Highlight] = []
        self._hits: Sequence[tuple[int, int]] = ()

    def show_text(self, text: str, spans: list[Highlight] | None = None) -> None:
        """Show ``text`` (never as HTML) with the check matches ``spans`` highlighted."""
        self.stored = text
        self._shown = shown(text)
        self._matches = list(spans or [])
        self._hits = ()
        self.setPlainText(self._shown.text)
        self._highlight()
        self._fit()

    def show_hits(self, hits: Sequence[tuple[int, int]]) -> None:
        """Highlight the search's words (stored spans) on top of the matches."""
        self._hits = hits
        self._highlight()

    def _selection(self, start: int, end: int, fmt: QTextCharFormat) -> QTextEdit.ExtraSelection:
        sel = QTextEdit.ExtraSelection()
        cursor = QTextCursor(self.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        sel.cursor = cursor
        sel.format = fmt
        return sel

    def _highlight(self) -> None:
        selections = []
        length, view = len(self.stored), self._shown
        for start, end, tip in self._matches:
            if 0 <= start < end <= length:
                selections.append(self._selection(*view.span(start, end),
                                                  _format(MATCH_BG, tip=tip)))
        for start, end in self._hits:
            if 0 <= start < end <= length:
                selections.append(self._selection(*view.span(start, end), _format(HIT_BG)))
        mark = _format(MARK_BG, bold=False, foreground=MARK_FG)
        selections += [self._selection(s, e, mark) for s, e in view.marks]
        self.setExtraSelections(selections)

    @property
    def match_selections(self) -> list[QTextEdit.ExtraSelection]:
        """The selections of the check matches (not the search's or the markers')."""
        return [s for s in self.extraSelections() if s.format.background().color() == MATCH_BG]

    def selections_of(self, colour: QColor) -> list[str]:
        """The shown text of every highlight of one colour (what a reviewer sees marked)."""
        return [s.cursor.selectedText() for s in self.extraSelections()
                if s.format.background().color() == colour]

    def _fit(self) -> None:
        self.document().setTextWidth(self.viewport().width())
        height = int(self.document().size().height()) + 2 * self.frameWidth() + 4
        self.setFixedHeight(max(height, 28))

    def resizeEvent(self, event: Any) -> None:
        """Re-wrap at the new width."""
        super().resizeEvent(event)
        self._fit()
