"""The example pane, in a reviewer's reading order.

1. the attempt's name, the contradiction badge, and the accept question when one is open;
2. side by side: the question (the last user message) above the graded answer, and why
   the filter refused it with what it would decide now, your decision and note (edited
   in place), the other reviewers, the cut the refusal caused;
3. the judge's verdicts and the deterministic checks (the verdict cursor walks both);
4. the earlier conversation, the system prompt collapsed (``conversation_view.py``).

Everything from the data is shown as plain text with its hidden characters revealed
(``text_widgets.py``). The pane scrolls from the keyboard (``scroll_page``; PageUp and
PageDown once clicked). It reads nothing itself: the window hands it each loaded
``ExampleView`` and the search's words.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from reviewer.review.example import ExampleView
from reviewer.review.search_hits import hit_spans, search_terms
from reviewer.review.visible import listed
from reviewer.review.visible import plain as visible
from reviewer.rule.filter import Decision
from ui.plural import english
from ui.review.conversation_view import (
    Bubble,
    EarlierConversation,
    aligned,
    split_question,
)
from ui.review.cursor_table import CursorTable
from ui.review.example_models import (
    CELL_LIMIT,
    CheckModel,
    HighlightDelegate,
    VerdictModel,
    fit_height,
    setup_table,
    stretch,
)
from ui.review.full_text import FullTextWindow
from ui.review.inline import AcceptQuestion, NoteEditor
from ui.review.text_widgets import PlainTextView, plain_label, section_title
from ui.widgets_util import named, rich_tooltip

__all__ = ["Bubble", "ExamplePane", "plain_label"]
PAGE_OVERLAP = 40  # pixels of the previous screen kept in view when paging


class ExamplePane(QScrollArea):
    """The right side of the window (see the module docstring).

    Signals:
        flip_verdict(int): the verdict cursor (or a double click) flips this verdict row.
        flip_check(int): the cursor (or a double click) flips this check row's mark.
    """

    flip_verdict = Signal(int)
    flip_check = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        # Clicked, it takes PageUp/PageDown/arrows; Tab never stops here.
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.view: ExampleView | None = None
        self.terms: tuple[str, ...] = ()
        self._earlier_due: tuple[int, tuple[Any, ...]] | None = None
        self.current_checks = False  # "filter would now" with the current check versions
        self.whole: FullTextWindow | None = None  # the whole texts (W), once asked for
        inner = QWidget()
        inner.setObjectName("pane_inner")
        self.setWidget(inner)
        col = QVBoxLayout(inner)
        col.setContentsMargins(12, 8, 12, 12)
        col.setSpacing(4)
        col.addLayout(self._header())
        self.question_box = AcceptQuestion()
        col.addWidget(self.question_box)
        top = QHBoxLayout()
        top.setSpacing(12)
        top.addLayout(self._reading_column(), 3)
        top.addWidget(self._decisions_box(), 2, Qt.AlignmentFlag.AlignTop)
        col.addLayout(top)
        self._tables(col)
        col.addWidget(section_title(self.tr("Earlier conversation")))
        self.earlier = EarlierConversation()
        col.addWidget(self.earlier)
        col.addStretch(1)
        self.show_empty()

    # --- construction ----------------------------------------------------------------
    def _header(self) -> QHBoxLayout:
        self.title = plain_label(bold=True)
        self.title.setStyleSheet("font-size: 15px;")
        self.flag_badge = plain_label(wrap=False, selectable=False)
        self.flag_badge.setStyleSheet(
            "background: #b3261e; color: white; border-radius: 6px; padding: 2px 8px;")
        self.flag_badge.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.flag_badge)
        return top

    def _reading_column(self) -> QVBoxLayout:
        left = QVBoxLayout()
        left.setSpacing(4)
        self.question_title = section_title(self.tr("Question (the last user message)"))
        left.addWidget(self.question_title)
        self.question_holder = QVBoxLayout()
        self.question_holder.setContentsMargins(0, 0, 0, 0)
        left.addLayout(self.question_holder)
        self.question: Bubble | None = None
        left.addWidget(section_title(self.tr("Graded response")))
        # What the answer view leaves out of an enormous answer, and how to see it all:
        # above the answer, read before it.
        self.response_note = named(plain_label(), "response_note")
        self.response_note.setStyleSheet("color: #b35c00;")
        left.addWidget(self.response_note)
        self.response = PlainTextView()
        self.response.setObjectName("response")
        left.addWidget(self.response)
        self.scores_line = plain_label()
        self.scores_line.setStyleSheet("color: #455a64;")
        left.addWidget(self.scores_line)
        return left

    def _decisions_box(self) -> QFrame:
        box = QFrame()
        box.setObjectName("decisions")
        box.setStyleSheet("#decisions { background: #fafafa; border: 1px solid #e0e0e0; "
                          "border-radius: 6px; }")
        layout = QVBoxLayout(box)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(section_title(self.tr("Why refused, and what now")))
        self.filter_line = plain_label()
        self.live_line = plain_label()
        self.review_line = plain_label()
        self.note_line = plain_label()
        self.note_line.setStyleSheet("color: #4a148c;")
        self.note_editor = NoteEditor()
        self.others_line = named(plain_label(), "others_line")
        self.cut_line = plain_label()
        self.cut_line.setStyleSheet("color: #b3261e;")
        self.failures_line = plain_label()
        self.failures_line.setStyleSheet("color: #b3261e;")
        for w in (self.filter_line, self.live_line, self.review_line, self.note_line,
                  self.note_editor, self.others_line, self.cut_line, self.failures_line):
            layout.addWidget(w)
        return box

    def _tables(self, col: QVBoxLayout) -> None:
        col.addWidget(section_title(self.tr(
            "Judge verdicts (1–9 and 0 flip rows 1–10; V: a cursor on every row)")))
        self.verdict_model = VerdictModel(self)
        self.verdicts = named(CursorTable(), "verdicts")
        self.verdicts.setModel(self.verdict_model)
        setup_table(self.verdicts)
        self.verdicts.setItemDelegateForColumn(5, HighlightDelegate(self.verdicts))
        self.verdicts.setItemDelegateForColumn(7, HighlightDelegate(self.verdicts))
        self.verdict_widths = stretch(
            self.verdicts, 5, {0: 24, 1: 100, 2: 62, 3: 44, 4: 150, 6: 110, 7: 180})
        col.addWidget(self.verdicts)
        # One line per open contradiction: what the verdict means, what the rationale says.
        self.flags_line = plain_label()
        self.flags_line.setObjectName("flags_line")
        self.flags_line.setStyleSheet("color: #b3261e;")
        col.addWidget(self.flags_line)

        col.addWidget(section_title(self.tr(
            "Deterministic checks (F marks a failed one a false positive)")))
        self.check_model = CheckModel(self)
        self.checks = named(CursorTable(), "checks")
        self.checks.setModel(self.check_model)
        setup_table(self.checks)
        self.checks.setItemDelegateForColumn(4, HighlightDelegate(self.checks))
        stretch(self.checks, 4, {0: 110, 1: 70, 2: 160, 3: 200})
        col.addWidget(self.checks)
        self.verdicts.flip_requested.connect(self.flip_verdict)
        self.checks.flip_requested.connect(self.flip_check)
        self.verdicts.left_below.connect(lambda: self._cursor_to(self.checks, 0))
        self.checks.left_above.connect(
            lambda: self._cursor_to(self.verdicts, self.verdict_model.rowCount() - 1))

    def resizeEvent(self, event: Any) -> None:
        """Rows wrap differently at a new width: fit the tables again once laid out."""
        super().resizeEvent(event)
        QTimer.singleShot(0, self._refit)

    def _refit(self) -> None:
        fit_height(self.verdicts)
        fit_height(self.checks)

    # --- content ---------------------------------------------------------------------
    def show_empty(self, message: str | None = None) -> None:
        """Nothing selected (``message``: why, e.g. "No match for …")."""
        self.view = None
        self.title.setText(message or self.tr("No attempt selected"))
        self.flag_badge.hide()
        self.question_box.close_question()
        self.note_editor.keep()  # a note being typed is saved, not lost (Z1)
        for label in (self.filter_line, self.live_line, self.review_line, self.note_line,
                      self.others_line, self.cut_line, self.failures_line, self.scores_line,
                      self.flags_line):
            label.setText("")
            label.hide()
        self._set_question(None)
        self._earlier_due = None
        self.earlier.show_messages(())
        self.response.show_text("")
        self.verdict_model.set_rows(())
        self.check_model.set_rows((), "")

    def show_example(self, view: ExampleView) -> None:
        """Fill the pane from a loaded example (the same attempt again: keep the place)."""
        same = self.view is not None and self.view.attempt_id == view.attempt_id
        self.view = view
        self.title.setText(visible(str(view.key)))
        self.flag_badge.setText(self.tr("⚠ judge contradicts itself"))
        # The badge: an open contradiction that would change the filter's decision (the
        # queue's ⚑ for this reviewer); quieter ones are only marked in the table.
        self.flag_badge.setVisible(view.badge)
        if not self.question_box.asking(view.attempt_id):
            self.question_box.close_question()
        if self.note_editor.attempt_id != view.attempt_id:
            self.note_editor.keep()  # typed for the attempt left: saved there (Z1)
        self._show_decisions(view)
        if not same:
            question, earlier = split_question(view.context)
            self._set_question(question)
            # Below the fold: built on the next turn of the event loop, once what is read
            # first has been laid out and painted (the loop is never blocked by both).
            self.earlier.show_messages(())
            self._earlier_due = (view.attempt_id, earlier)
            QTimer.singleShot(0, self, self._show_earlier_conversation)
            self.response.show_text(view.response, view.match_spans)
        self._show_hits()
        self._show_scores(view)
        rows = (self.verdicts.row, self.checks.row)
        self.verdict_model.set_rows(view.verdicts)
        # No second opinion in any row: its column as narrow as its title (L1).
        self.verdict_widths.set_empty(frozenset() if any(v.second_opinion for v in view.verdicts)
                                      else frozenset({7}))
        self._show_flags(view)
        self.check_model.set_rows(view.checks, view.response)
        if same:  # a flip reloads the attempt: the cursor stays on its row
            self.verdicts.place(rows[0])
            self.checks.place(rows[1])
        else:  # a new attempt under the cursor: its first row
            for table in (self.verdicts, self.checks):
                if table.hasFocus():
                    table.place(0)
        fit_height(self.verdicts)
        fit_height(self.checks)
        if not same:
            self.verticalScrollBar().setValue(0)

    def _show_flags(self, view: ExampleView) -> None:
        """The explanation of each open contradiction, decision-changing ones first."""
        open_flags = sorted((v for v in view.verdicts if v.open_flag),
                            key=lambda v: not v.decision_changing)
        lines = ["⚠ " + self.verdict_model.explanation(v) if v.decision_changing
                 else self.verdict_model.explanation(v) for v in open_flags]
        self.flags_line.setText("\n".join(lines))
        self.flags_line.setVisible(bool(lines))

    @property
    def pending(self) -> bool:
        """True while the earlier conversation of the shown attempt is still to be built."""
        return self._earlier_due is not None

    def _show_earlier_conversation(self) -> None:
        due, self._earlier_due = self._earlier_due, None
        if due is not None and self.view is not None and self.view.attempt_id == due[0]:
            self.earlier.show_messages(due[1])

    def _set_question(self, message: Any) -> None:
        if self.question is not None:
            holder = self.question.parentWidget()
            if holder is not None:
                holder.hide()
                holder.deleteLater()
            self.question = None
        self.question_title.setVisible(message is not None)
        if message is not None:
            self.question = Bubble(message.role, message.content)
            self.question_holder.addWidget(aligned(self.question))

    def show_whole_text(self) -> bool:
        """Open the shown attempt's texts whole in a plain viewer (False: none shown)."""
        if self.view is None:
            return False
        if self.whole is None:
            self.whole = FullTextWindow(self)
        self.whole.show_view(self.view)
        return True

    def set_search(self, query: str) -> None:
        """Highlight the words of the queue's search in the answer and the rationales."""
        self.terms = search_terms(query)
        self.verdict_model.set_terms(self.terms)
        self._show_hits()

    def _show_hits(self) -> None:
        view = self.response
        # Only the shown part is searched: the words of a megabyte are not highlighted.
        view.show_hits(hit_spans(view.stored[:view.shown_part.end], self.terms))
        note = view.cut_note()
        self.response_note.setText(note)
        self.response_note.setVisible(bool(note))

    def set_current_checks(self, on: bool) -> None:
        """Replay "the filter would now" with each check's newest evaluated version."""
        self.current_checks = on
        if self.view is not None:
            self._show_live(self.view)

    def live_decision(self, view: ExampleView) -> Decision:
        """What the pane says the filter would now decide (with the current check
        versions when the reviewer asked for them): what the accept question reads."""
        current = view.live_current if self.current_checks else None
        return current or view.live

    def _show_live(self, view: ExampleView) -> None:
        current = view.live_current if self.current_checks else None
        decision = current or view.live
        word = {True: self.tr("accepted"), False: self.tr("refused")}
        if current is not None:
            text = self.tr("With the current check versions, second opinions and your "
                           "overrides, the filter would now: %1").replace(
                "%1", word[decision.accepted])
        else:
            text = self.tr("With second opinions and your overrides, the filter would "
                           "now: %1").replace("%1", word[decision.accepted])
        changed = decision.accepted != view.accepted
        if changed:
            text += "  ⟵ " + self.tr("changed")
        if view.live_current is not None and current is None \
                and view.live_current.accepted != view.live.accepted:
            # Asked for or not, the reviewer learns that a saved version changes it.
            text += "\n" + self.tr("With the current check versions: %1").replace(
                "%1", word[view.live_current.accepted])
        self.live_line.setText(text)
        self.live_line.setStyleSheet("color: #1b6e3a; font-weight: bold;" if changed else "")
        self.live_line.show()

    def _show_decisions(self, view: ExampleView) -> None:
        verdict = self.tr("accepted") if view.accepted else self.tr("refused")
        reasons = "\n  • ".join(visible(r, CELL_LIMIT) for r in view.reasons)
        self.filter_line.setText(self.tr("Filter: %1").replace("%1", verdict)
                                 + (f"\n  • {reasons}" if reasons else ""))
        self.filter_line.show()
        self._show_live(view)
        decided = {"accept": self.tr("accept"), "reject": self.tr("reject")}.get(
            view.review.decision or "", self.tr("not reviewed yet"))
        self.review_line.setText(self.tr("Your decision: %1").replace("%1", decided))
        self.review_line.show()
        # The note as a rationale cell: its first CELL_LIMIT characters, more in the
        # tooltip, N edits it whole. Its first 2,000 stretched the decisions box over the
        # whole height and pushed the verdicts off screen (fourth hostile pass, G8).
        note = view.review.note
        self.note_line.setText(self.tr("Note: %1").replace("%1", visible(note, CELL_LIMIT)))
        self.note_line.setToolTip(rich_tooltip(visible(note)) if len(note) > CELL_LIMIT
                                  else "")
        self.note_line.setVisible(bool(view.review.note) and not self.note_editor.editing)
        others = ", ".join(
            f"{listed(visible(o.reviewer))}: "
            + {"accept": self.tr("accept"), "reject": self.tr("reject")}.get(
                o.decision or "", self.tr("no decision"))
            for o in view.others
        )
        self.others_line.setText(self.tr("Other reviewers: %1").replace("%1", others))
        self.others_line.setVisible(bool(view.others))
        self._show_cut(view)
        failures = "\n".join(self.tr("Second opinion failed: %1").replace("%1", visible(f))
                             for f in view.judge_failures)
        self.failures_line.setText(failures)
        self.failures_line.setVisible(bool(failures))

    def _show_cut(self, view: ExampleView) -> None:
        if view.cut is not None:
            if view.cut.planned is not None:
                lost = view.cut.lost or 0
                text = self.tr("This refusal ended the conversation at turn %1 of %2 planned "
                               "(%3).")
                text = text.replace("%1", str(view.cut.turn)).replace(
                    "%2", str(view.cut.planned)).replace(
                    "%3", english(self.tr("%n turn(s) lost", None, lost), lost))
            else:
                text = self.tr("This refusal ended the conversation at turn %1.").replace(
                    "%1", str(view.cut.turn))
            self.cut_line.setText(text)
        self.cut_line.setVisible(view.cut is not None)

    def _show_scores(self, view: ExampleView) -> None:
        if not view.grader_scores:
            self.scores_line.hide()
            return
        parts = [f"{name} = {'—' if score is None else f'{score:.2f}'}"
                 for name, score in view.grader_scores.items()]
        self.scores_line.setText(self.tr("Against the reference: %1").replace(
            "%1", ", ".join(parts)))
        self.scores_line.show()

    # --- the note, edited in place ---------------------------------------------------
    def edit_note(self) -> bool:
        """Open the note editor on the shown attempt (False when none is shown)."""
        if self.view is None:
            return False
        self.note_line.hide()
        self.note_editor.start(self.view.attempt_id, self.view.review.note)
        return True

    def close_note(self) -> None:
        """Close the note editor without saving."""
        self.note_editor.cancel()
        if self.view is not None:
            self.note_line.setVisible(bool(self.view.review.note))

    # --- keyboard --------------------------------------------------------------------
    def enter_cursor(self) -> bool:
        """Put the verdict cursor on the first verdict (or check); False when there is none."""
        self.ensureWidgetVisible(self.verdicts)
        return self.verdicts.enter(0) or self.checks.enter(0)

    def _cursor_to(self, table: CursorTable, row: int) -> None:
        if table.enter(row):
            self.ensureWidgetVisible(table, 0, 60)

    def scroll_page(self, direction: int) -> None:
        """Scroll a screen down (1) or up (−1), keeping a little of the last one in view."""
        bar = self.verticalScrollBar()
        step = max(self.viewport().height() - PAGE_OVERLAP, 40)
        bar.setValue(bar.value() + direction * step)
