"""The example pane's text widgets: plain labels, section titles, the highlighted answer.

Everything from the data is shown as plain text: labels are ``Qt.PlainText``, the answer
view uses ``setPlainText`` and highlights are extra selections, so an answer containing
``<img src=x>`` shows those characters. Characters that hide or reorder text are shown as
``⟨U+202E⟩`` markers (``reviewer.review.visible``), in the answer view with their own
style so they cannot pass for text.

A stored text can be a megabyte on one line. The answer view lays out its first
``SHOWN_LIMIT`` characters and at most ``HIGHLIGHT_LIMIT`` highlights; ``cut_note()`` says
what was left out (the whole text opens in ``full_text.FullTextWindow``, key W). The
markers' style is written into the document (linear), not drawn as extra selections
(each of which Qt walks on every edit and every paint).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale, QSize, Qt
from PySide6.QtGui import QColor, QResizeEvent, QTextCharFormat, QTextCursor, QTextOption
from PySide6.QtWidgets import QLabel, QSizePolicy, QTextEdit, QWidget

from reviewer.review.visible import HIGHLIGHT_LIMIT, SHOWN_LIMIT, Shown, breakable, shown
from ui.widgets_util import plain, rich_tooltip

MATCH_BG = QColor("#ffab91")  # a check's pattern matched here
HIT_BG = QColor("#b3e5fc")  # the search's words
MARK_FG = QColor("#ad1457")  # a revealed hidden character
MARK_BG = QColor("#fce4ec")
Highlight = tuple[int, int, str]  # stored start, stored end, tooltip
FITTED_LINES = 6  # the most lines a FittedLabel takes


class WrappingLabel(QLabel):
    """A label whose word wrap also breaks a long run without spaces.

    A run has no place to break, so a wrapped label asked for the run's whole width
    and a 5,000-character note squeezed the pane's answer into a narrow column and hid
    the question (fourth hostile pass, G8). The text laid out gets a zero-width break
    opportunity every ``BREAK_RUN`` characters of such a run (``visible.breakable``);
    ``text()`` is still the text given.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._given = ""

    def setText(self, text: str) -> None:
        """Show ``text``, breakable when the label wraps."""
        self._given = text
        super().setText(breakable(text) if self.wordWrap() else text)

    def text(self) -> str:
        """The text given (without the break opportunities added for the layout)."""
        return self._given

    def clear(self) -> None:
        """No text (QLabel's own clear would leave ``text()`` saying the old one)."""
        self.setText("")

    def setWordWrap(self, on: bool) -> None:
        """Wrap (or not), laying out the given text again."""
        super().setWordWrap(on)
        self.setText(self._given)


class FittedLabel(WrappingLabel):
    """A wrapping label that asks for the height its text takes at its width.

    A status bar's layout does not ask its labels for a height for their width, so a
    wrapped line kept one line's height and its end was never seen: the part naming the
    keys that were not applied (fourteenth hostile pass, P14-2).
    """

    def setText(self, text: str) -> None:
        """Show ``text`` and take the height it needs."""
        super().setText(text)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A new width may need another height."""
        super().resizeEvent(event)
        self._fit()

    def hasHeightForWidth(self) -> bool:
        """No: the layout asked it at a width of its own choosing (a few pixels, for a
        label that takes the space left) and gave the status bar half the window."""
        return False

    def sizeHint(self) -> QSize:
        """QLabel's width; the height of the text at the label's own width."""
        return QSize(super().sizeHint().width(), self.minimumHeight())

    def minimumSizeHint(self) -> QSize:
        """As narrow as QLabel allows; the height of the text at the label's width."""
        return QSize(super().minimumSizeHint().width(), self.minimumHeight())

    def _fit(self) -> None:
        width = self.width()
        needed = max(self.heightForWidth(width), 0) if self.text() and width > 0 else 0
        # A line quoting a huge name stops at FITTED_LINES lines; its tooltip has it all.
        most = FITTED_LINES * self.fontMetrics().lineSpacing() + 2 * self.margin()
        fitted = min(needed, most)
        if fitted != self.minimumHeight():
            self.setMinimumHeight(fitted)
            self.updateGeometry()
        self.setToolTip(rich_tooltip(self.text()) if needed > most else "")


def plain_label(text: str = "", *, bold: bool = False, wrap: bool = True,
                selectable: bool = True) -> QLabel:
    """A label that never interprets its text as HTML, and wraps long runs (see
    ``WrappingLabel``)."""
    label = plain(WrappingLabel())
    label.setText(text)
    label.setWordWrap(wrap)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if bold:
        font = label.font()
        font.setBold(True)
        label.setFont(font)
    return label


def number(n: int) -> str:
    """``20,000`` as the application's language writes it."""
    return QLocale().toString(n)


def cut_text(view: Shown) -> str:
    """"Showing the first 20,000 of 1,000,000 characters — W shows the whole text", or ""
    when the whole text is shown."""
    if view.cut is None:
        return ""
    return QCoreApplication.translate(
        "PlainTextView", "Showing the first %1 of %2 characters — W shows the whole text"
    ).replace("%1", number(view.cut)).replace("%2", number(view.total))


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
        # A line without a space wraps too (the view has no horizontal scroll bar); Qt
        # wraps "anywhere" in quadratic time, cheap on the bounded part shown here.
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.document().contentsChanged.connect(self._fit)
        self.stored = ""
        self._shown = shown("")
        self._matches: list[Highlight] = []
        self._hits: Sequence[tuple[int, int]] = ()
        self.matches_left = 0  # check matches not highlighted (past the cut or the limit)
        self.hits_left = 0

    @property
    def shown_part(self) -> Shown:
        """The part of the stored text shown (``cut``, ``total``: what was left out)."""
        return self._shown

    def show_text(self, text: str, spans: list[Highlight] | None = None) -> None:
        """Show ``text`` (never as HTML; its first ``SHOWN_LIMIT`` characters) with the
        check matches ``spans`` highlighted (the first ``HIGHLIGHT_LIMIT`` shown)."""
        # Before the document changes: every selection's cursor follows each edit.
        self.setExtraSelections([])
        self.stored = text
        self._shown = shown(text, SHOWN_LIMIT)
        self._matches = list(spans or [])
        self._hits = ()
        self.setPlainText(self._shown.text)
        self._style_marks()
        self._highlight()
        self._fit()

    def show_hits(self, hits: Sequence[tuple[int, int]]) -> None:
        """Highlight the search's words (stored spans) on top of the matches."""
        self._hits = hits
        self._highlight()

    def cut_note(self) -> str:
        """What the view leaves out, in one translated line ("" when nothing)."""
        lines = [cut_text(self._shown)]
        if self.matches_left:
            lines.append(self.tr("Check matches: %1 highlighted, %2 not").replace(
                "%1", number(len(self._matches) - self.matches_left)).replace(
                "%2", number(self.matches_left)))
        return "\n".join(line for line in lines if line)

    def _style_marks(self) -> None:
        """The markers' own colours, written into the document."""
        if not self._shown.marks:
            return
        mark = _format(MARK_BG, bold=False, foreground=MARK_FG)
        doc = self.document()
        doc.setUndoRedoEnabled(False)
        cursor = QTextCursor(doc)
        cursor.beginEditBlock()  # laid out once, at the end, not after every marker
        for start, end in self._shown.marks:
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(mark)
        cursor.endEditBlock()

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
        view = self._shown
        formats: dict[str, QTextCharFormat] = {}
        matches, self.matches_left = view.clip([(s, e) for s, e, _ in self._matches],
                                               HIGHLIGHT_LIMIT)
        tips = [tip for s, e, tip in self._matches if 0 <= s < min(e, view.end)]
        for (start, end), tip in zip(matches, tips, strict=False):
            fmt = formats.get(tip)
            if fmt is None:
                fmt = formats[tip] = _format(MATCH_BG, tip=tip)
            selections.append(self._selection(start, end, fmt))
        hits, self.hits_left = view.clip(list(self._hits), HIGHLIGHT_LIMIT)
        hit = _format(HIT_BG)
        selections += [self._selection(start, end, hit) for start, end in hits]
        self.setExtraSelections(selections)

    @property
    def match_selections(self) -> list[QTextEdit.ExtraSelection]:
        """The selections of the check matches (not the search's or the markers')."""
        return [s for s in self.extraSelections() if s.format.background().color() == MATCH_BG]

    def selections_of(self, colour: QColor) -> list[str]:
        """The shown text of every highlight of one colour (what a reviewer sees marked):
        the extra selections, and the markers' formats in the document."""
        found = [s.cursor.selectedText() for s in self.extraSelections()
                 if s.format.background().color() == colour]
        block = self.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                if fragment.charFormat().background().color() == colour:
                    found += [m + "⟩" for m in fragment.text().split("⟩") if m]
                it += 1
            block = block.next()
        return found

    def _fit(self) -> None:
        self.document().setTextWidth(self.viewport().width())
        height = int(self.document().size().height()) + 2 * self.frameWidth() + 4
        self.setFixedHeight(max(height, 28))

    def resizeEvent(self, event: Any) -> None:
        """Re-wrap at the new width."""
        super().resizeEvent(event)
        self._fit()
