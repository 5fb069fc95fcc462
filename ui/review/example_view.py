"""The example pane: conversation, graded response, verdicts, checks, decisions.

Everything from the data is shown as plain text: labels are ``Qt.PlainText``, text views
use ``setPlainText`` and highlights are character formats, so an answer containing
``<img src=x>`` shows those characters.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QTableView,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from reviewer.review.example import ExampleView
from ui.review.example_models import (
    MATCH_BG,
    CheckModel,
    HighlightDelegate,
    VerdictModel,
    fit_height,
    setup_table,
    stretch,
)
from ui.widgets_util import plain, rich_tooltip

ROLE_STYLE = {
    "user": ("#e3f2fd", Qt.AlignmentFlag.AlignRight),
    "assistant": ("#f1f3f4", Qt.AlignmentFlag.AlignLeft),
    "system": ("#fff8e1", Qt.AlignmentFlag.AlignLeft),
}


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


class PlainTextView(QTextEdit):
    """Read-only plain text that grows to its content and highlights spans."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setAcceptRichText(False)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().contentsChanged.connect(self._fit)

    def show_text(self, text: str, spans: list[tuple[int, int, str]] | None = None,
                  colour: QColor = MATCH_BG) -> None:
        """Show ``text`` (never as HTML) with ``spans`` highlighted."""
        self.setPlainText(text)
        selections = []
        length = len(text)
        for start, end, tip in spans or []:
            if not 0 <= start < end <= length:
                continue
            sel = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.document())
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            fmt = QTextCharFormat()
            fmt.setBackground(colour)
            fmt.setFontWeight(700)
            fmt.setToolTip(rich_tooltip(tip))
            sel.cursor = cursor
            sel.format = fmt
            selections.append(sel)
        self.setExtraSelections(selections)
        self._fit()

    def _fit(self) -> None:
        self.document().setTextWidth(self.viewport().width())
        height = int(self.document().size().height()) + 2 * self.frameWidth() + 4
        self.setFixedHeight(max(height, 28))

    def resizeEvent(self, event: Any) -> None:
        """Re-wrap at the new width."""
        super().resizeEvent(event)
        self._fit()


class Bubble(QFrame):
    """One chat message."""

    def __init__(self, role: str, text: str) -> None:
        super().__init__()
        colour, _ = ROLE_STYLE.get(role, ROLE_STYLE["assistant"])
        self.setObjectName("bubble")
        self.setStyleSheet(f"#bubble {{ background: {colour}; border-radius: 8px; }}")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.setSpacing(2)
        who = plain_label(role, selectable=False)
        who.setStyleSheet("color: #607d8b; font-size: 11px;")
        self.body = plain_label(text)
        layout.addWidget(who)
        layout.addWidget(self.body)


class ExamplePane(QScrollArea):
    """The right side of the window."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.view: ExampleView | None = None
        inner = QWidget()
        self.setWidget(inner)
        col = QVBoxLayout(inner)
        col.setContentsMargins(12, 8, 12, 12)
        col.setSpacing(4)

        self.title = plain_label(bold=True)
        self.title.setStyleSheet("font-size: 15px;")
        self.flag_badge = plain_label(wrap=False, selectable=False)
        self.flag_badge.setStyleSheet(
            "background: #b3261e; color: white; border-radius: 6px; padding: 2px 8px;")
        self.flag_badge.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.flag_badge)
        col.addLayout(top)

        self.filter_line = plain_label()
        self.live_line = plain_label()
        self.review_line = plain_label()
        self.note_line = plain_label()
        self.note_line.setStyleSheet("color: #4a148c;")
        self.others_line = plain_label()
        self.others_line.setObjectName("others_line")
        self.cut_line = plain_label()
        self.cut_line.setStyleSheet("color: #b3261e;")
        self.failures_line = plain_label()
        self.failures_line.setStyleSheet("color: #b3261e;")
        box = QFrame()
        box.setObjectName("decisions")
        box.setStyleSheet("#decisions { background: #fafafa; border: 1px solid #e0e0e0; "
                          "border-radius: 6px; }")
        box_layout = QVBoxLayout(box)
        box_layout.setContentsMargins(8, 6, 8, 6)
        for w in (self.filter_line, self.live_line, self.review_line, self.note_line,
                  self.others_line, self.cut_line, self.failures_line):
            box_layout.addWidget(w)
        col.addWidget(box)

        col.addWidget(section_title(self.tr("Graded response")))
        self.response = PlainTextView()
        self.response.setObjectName("response")
        col.addWidget(self.response)
        self.scores_line = plain_label()
        self.scores_line.setStyleSheet("color: #455a64;")
        col.addWidget(self.scores_line)

        col.addWidget(section_title(self.tr("Judge verdicts (keys 1–9 toggle)")))
        self.verdict_model = VerdictModel(self)
        self.verdicts = QTableView()
        self.verdicts.setObjectName("verdicts")
        self.verdicts.setModel(self.verdict_model)
        setup_table(self.verdicts)
        self.verdicts.setItemDelegateForColumn(5, HighlightDelegate(self.verdicts))
        self.verdicts.setItemDelegateForColumn(7, HighlightDelegate(self.verdicts))
        stretch(self.verdicts, 5, {0: 24, 1: 100, 2: 24, 3: 44, 4: 84, 6: 120, 7: 200})
        col.addWidget(self.verdicts)

        col.addWidget(section_title(self.tr("Deterministic checks (F marks a false positive)")))
        self.check_model = CheckModel(self)
        self.checks = QTableView()
        self.checks.setObjectName("checks")
        self.checks.setModel(self.check_model)
        setup_table(self.checks)
        self.checks.setItemDelegateForColumn(4, HighlightDelegate(self.checks))
        stretch(self.checks, 4, {0: 110, 1: 70, 2: 160, 3: 200})
        col.addWidget(self.checks)

        # The context comes last: the graded answer and the verdicts are what a reviewer
        # reads first on every example; the conversation is there when it is needed.
        col.addWidget(section_title(self.tr("Conversation so far")))
        self.bubbles = QVBoxLayout()
        self.bubbles.setSpacing(4)
        col.addLayout(self.bubbles)
        col.addStretch(1)
        self.show_empty()

    def resizeEvent(self, event: Any) -> None:
        """Rows wrap differently at a new width: fit the tables again once laid out."""
        super().resizeEvent(event)
        QTimer.singleShot(0, self._refit)

    def _refit(self) -> None:
        fit_height(self.verdicts)
        fit_height(self.checks)

    def show_empty(self) -> None:
        """Nothing selected."""
        self.view = None
        self.title.setText(self.tr("No attempt selected"))
        self.flag_badge.hide()
        for label in (self.filter_line, self.live_line, self.review_line, self.note_line,
                      self.others_line, self.cut_line, self.failures_line, self.scores_line):
            label.setText("")
            label.hide()
        self._clear_bubbles()
        self.response.show_text("")
        self.verdict_model.set_rows(())
        self.check_model.set_rows((), "")

    def _clear_bubbles(self) -> None:
        while self.bubbles.count():
            item = self.bubbles.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()

    def show_example(self, view: ExampleView) -> None:
        """Fill the pane from a loaded example."""
        same = self.view is not None and self.view.attempt_id == view.attempt_id
        self.view = view
        self.title.setText(str(view.key))
        self.flag_badge.setText(self.tr("⚠ judge contradicts itself"))
        self.flag_badge.setVisible(view.flagged)
        self._show_decisions(view)
        if not same:
            self._clear_bubbles()
            for m in view.context:
                self._add_bubble(m.role, m.content)
            self.response.show_text(view.response, view.match_spans)
        self._show_scores(view)
        self.verdict_model.set_rows(view.verdicts)
        self.check_model.set_rows(view.checks, view.response)
        fit_height(self.verdicts)
        fit_height(self.checks)
        if not same:
            self.verticalScrollBar().setValue(0)

    def _add_bubble(self, role: str, text: str) -> None:
        bubble = Bubble(role, text)
        row = QHBoxLayout()
        _, align = ROLE_STYLE.get(role, ROLE_STYLE["assistant"])
        if align == Qt.AlignmentFlag.AlignRight:
            row.addStretch(1)
            row.addWidget(bubble, 4)
        else:
            row.addWidget(bubble, 4)
            row.addStretch(1)
        holder = QWidget()
        holder.setLayout(row)
        row.setContentsMargins(0, 0, 0, 0)
        self.bubbles.addWidget(holder)

    def _show_decisions(self, view: ExampleView) -> None:
        verdict = self.tr("accepted") if view.accepted else self.tr("refused")
        reasons = "\n  • ".join(view.reasons)
        self.filter_line.setText(self.tr("Filter: %1").replace("%1", verdict)
                                 + (f"\n  • {reasons}" if reasons else ""))
        self.filter_line.show()
        live = self.tr("accepted") if view.live.accepted else self.tr("refused")
        text = self.tr("With second opinions and your overrides, the filter would now: %1") \
            .replace("%1", live)
        if view.decision_changed:
            text += "  ⟵ " + self.tr("changed")
        self.live_line.setText(text)
        self.live_line.setStyleSheet(
            "color: #1b6e3a; font-weight: bold;" if view.decision_changed else "")
        self.live_line.show()
        decided = {"accept": self.tr("accept"), "reject": self.tr("reject")}.get(
            view.review.decision or "", self.tr("not reviewed yet"))
        self.review_line.setText(self.tr("Your decision: %1").replace("%1", decided))
        self.review_line.show()
        self.note_line.setText(self.tr("Note: %1").replace("%1", view.review.note))
        self.note_line.setVisible(bool(view.review.note))
        others = ", ".join(
            f"{o.reviewer}: "
            + {"accept": self.tr("accept"), "reject": self.tr("reject")}.get(
                o.decision or "", self.tr("no decision"))
            for o in view.others
        )
        self.others_line.setText(self.tr("Other reviewers: %1").replace("%1", others))
        self.others_line.setVisible(bool(view.others))
        if view.cut is not None:
            if view.cut.planned is not None:
                text = self.tr("This refusal ended the conversation at turn %1 of %2 planned "
                               "(%3 turns lost).")
                text = text.replace("%1", str(view.cut.turn)).replace(
                    "%2", str(view.cut.planned)).replace("%3", str(view.cut.lost))
            else:
                text = self.tr("This refusal ended the conversation at turn %1.").replace(
                    "%1", str(view.cut.turn))
            self.cut_line.setText(text)
        self.cut_line.setVisible(view.cut is not None)
        failures = "\n".join(self.tr("Second opinion failed: %1").replace("%1", f)
                             for f in view.judge_failures)
        self.failures_line.setText(failures)
        self.failures_line.setVisible(bool(failures))

    def _show_scores(self, view: ExampleView) -> None:
        if not view.grader_scores:
            self.scores_line.hide()
            return
        parts = [f"{name} = {'—' if score is None else f'{score:.2f}'}"
                 for name, score in view.grader_scores.items()]
        self.scores_line.setText(self.tr("Against the reference: %1").replace(
            "%1", ", ".join(parts)))
        self.scores_line.show()
