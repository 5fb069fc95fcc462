"""The bulk action dialog: one action over the current filter or the selected rows.

The reviewer picks the scope (every attempt of the queue's filter, or the rows selected
with Shift+arrows) and the action (accept, reject, flip a criterion, mark a check's hit
as a false positive); each choice is previewed at once — how many attempts change, which
ones and how, what the filter would decide after, what is left alone and why — by
``reviewer.review.bulk.plan_bulk`` on the task manager. Nothing is stored until Apply
(Enter); the write is one transaction on the task manager's ordered thread, one undo step.
Every widget has a mnemonic, so the dialog is used from the keyboard alone. The app's
Quit key (Ctrl+Q) works here too: the window closes the dialog and quits, or, while an
apply is under way, quits once it is stored (``MainWindow.quit``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QRadioButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewer.review.bulk import (
    BulkAction,
    BulkKind,
    BulkOutcome,
    BulkPlan,
    PlannedChange,
    Scope,
    Skip,
    StalePreview,
    apply_bulk,
    plan_bulk,
)
from reviewer.review.commands import MarkFalsePositive, OverrideCriterion, SetDecision
from reviewer.review.queue import QueueFilter, filter_choices
from ui.review.action_builder import key_text
from ui.review.undo_text import step_text
from ui.shortcuts import shortcut
from ui.tasks import TaskManager
from ui.widgets_util import named, plain

# The preview lists this many changes; the count above it says how many there are.
PREVIEW_ROWS = 200


def capitalised(text: str) -> str:
    """"accept 20 attempts" → "Accept 20 attempts" (a sentence of its own)."""
    return text[:1].upper() + text[1:]


class BulkDialog(QDialog):
    """A bulk action, previewed, then applied as one undoable step.

    Signals:
        applied(object, str): the ``BulkOutcome`` written and what it did, translated
            ("Accept 20 attempts"), for the status bar.
        apply_failed(): the apply was refused (a stale preview, a database error):
            nothing was stored, the dialog stays with a new preview.
        quit_asked(): the app's Quit key was typed in the dialog (the window's own
            shortcut does not reach a window behind a modal dialog).
    """

    applied = Signal(object, str)
    apply_failed = Signal()
    quit_asked = Signal()

    def __init__(self, tasks: TaskManager, reviewer: str, queue_filter: QueueFilter,
                 selected: list[int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("bulk_dialog")
        self.setWindowTitle(self.tr("Bulk action"))
        self.setMinimumSize(720, 520)
        self.tasks = tasks
        self.reviewer = reviewer
        self.queue_filter = queue_filter
        self.selected = list(selected)
        self.plan: BulkPlan | None = None
        self.applying = False
        self._generation = 0
        self._pending_error = ""  # shown under the next preview (a refused apply)
        self._ready = False  # the first preview waits for the criteria and checks
        layout = QVBoxLayout(self)
        layout.addWidget(self._scope_box())
        layout.addWidget(self._action_box())
        layout.addWidget(self._preview_box(), 1)
        self.buttons = QDialogButtonBox()
        self.apply_button = named(QPushButton(self.tr("Apply")), "bulk_apply")
        self.apply_button.setDefault(True)
        self.buttons.addButton(self.apply_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.apply)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._quit_action()
        self._defaults()
        self.tasks.query(filter_choices, self._choices, self._failed, owner=self)

    # --- construction ----------------------------------------------------------------
    def _scope_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Attempts"))
        col = QVBoxLayout(box)
        self.scope_filter = named(QRadioButton(self.tr("Every attempt of the &filter")),
                                  "bulk_scope_filter")
        self.scope_rows = named(QRadioButton(
            self.tr("The %n &selected rows", "", len(self.selected))), "bulk_scope_rows")
        self.scope_rows.setEnabled(len(self.selected) > 1)
        for button in (self.scope_filter, self.scope_rows):
            col.addWidget(button)
            button.toggled.connect(self._toggled)
        return box

    def _action_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Action"))
        grid = QGridLayout(box)
        self.action_group = QButtonGroup(self)
        self.criterion_box = named(QComboBox(), "bulk_criterion")
        self.check_box = named(QComboBox(), "bulk_check")
        texts: tuple[tuple[BulkKind, str, QComboBox | None], ...] = (
            ("accept", self.tr("&Accept"), None),
            ("reject", self.tr("&Reject"), None),
            ("flip", self.tr("F&lip criterion (against the judge)"), self.criterion_box),
            ("false_positive", self.tr("Mark the check's hit as a false &positive"),
             self.check_box),
        )
        self.kind_buttons: dict[BulkKind, QRadioButton] = {}
        for row, (kind, text, combo) in enumerate(texts):
            button = named(QRadioButton(text), f"bulk_{kind}")
            self.action_group.addButton(button)
            self.kind_buttons[kind] = button
            grid.addWidget(button, row, 0)
            button.toggled.connect(self._toggled)
            if combo is not None:
                grid.addWidget(combo, row, 1)
                combo.currentIndexChanged.connect(self._combo_changed)
        grid.setColumnStretch(1, 1)
        return box

    def _preview_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Preview (nothing is stored before Apply)"))
        col = QVBoxLayout(box)
        self.summary = plain(named(QLabel(), "bulk_summary"))
        self.summary.setWordWrap(True)
        self.table = named(QTableWidget(0, 3), "bulk_preview")
        self.table.setHorizontalHeaderLabels(
            [self.tr("Attempt"), self.tr("Change"), self.tr("The filter would then")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Enter stays with Apply
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.more = plain(named(QLabel(), "bulk_more"))
        self.error = plain(named(QLabel(), "bulk_error"))
        self.error.setStyleSheet("color: #b3261e;")
        self.error.setWordWrap(True)
        for w in (self.summary, self.table, self.more, self.error):
            col.addWidget(w)
        col.setStretch(1, 1)
        return box

    def _quit_action(self) -> None:
        """Ctrl+Q from any widget of the dialog asks the window to quit (eighth hostile
        pass, Q3: typed during an apply, it was dropped without a word)."""
        action = QAction(self)
        action.setObjectName("action_bulk_quit")
        action.setShortcuts([QKeySequence(k) for k in shortcut("quit").keys])
        # The dialog's window: while it applies every widget is disabled, none has focus.
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(self.quit_asked)
        self.addAction(action)

    def say(self, line: str) -> None:
        """Add ``line`` under the summary (what the window will do once the apply ends)."""
        lines = self.summary.text().splitlines()
        if line not in lines:
            self.summary.setText("\n".join((*lines, line)))

    def _defaults(self) -> None:
        """Rows when several are selected, else the filter; the filter's criterion or
        check when it names one (the refusals it shows are what to act on), else accept."""
        (self.scope_rows if self.scope_rows.isEnabled() else self.scope_filter).setChecked(True)
        kind: BulkKind = "flip" if self.queue_filter.criterion else \
            "false_positive" if self.queue_filter.check else "accept"
        self.kind_buttons[kind].setChecked(True)

    def _choices(self, choices: dict[str, list[str]]) -> None:
        for combo, values, wanted in (
                (self.criterion_box, choices["criteria"], self.queue_filter.criterion),
                (self.check_box, choices["checks"], self.queue_filter.check)):
            combo.blockSignals(True)
            combo.clear()
            for value in values:
                combo.addItem(value, value)
            if wanted in values:
                combo.setCurrentIndex(values.index(wanted))
            combo.blockSignals(False)
        self._ready = True
        self._choice_changed()

    # --- what is chosen --------------------------------------------------------------
    def scope(self) -> Scope:
        """The attempts chosen."""
        if self.scope_rows.isChecked():
            return Scope.of_rows(self.selected)
        return Scope.of_filter(self.queue_filter)

    def action(self) -> BulkAction | None:
        """The action chosen (None while its criterion or check list is still empty)."""
        kind = next((k for k, b in self.kind_buttons.items() if b.isChecked()), None)
        if kind is None:
            return None
        combo = {"flip": self.criterion_box, "false_positive": self.check_box}.get(kind)
        if combo is None:
            return BulkAction(kind)
        target = combo.currentData()
        return None if target is None else BulkAction(kind, str(target))

    def _combo_changed(self, _index: int) -> None:
        self._choice_changed()

    def _toggled(self, checked: bool) -> None:
        # A radio button going off is followed by the one going on: preview once.
        if checked:
            self._choice_changed()

    def _choice_changed(self) -> None:
        """Preview what is chosen now (an answer to an older choice is dropped)."""
        if self.applying or not self._ready:
            return
        self._generation += 1
        self.plan = None
        self.apply_button.setEnabled(False)
        self.criterion_box.setEnabled(self.kind_buttons["flip"].isChecked())
        self.check_box.setEnabled(self.kind_buttons["false_positive"].isChecked())
        action, scope, reviewer = self.action(), self.scope(), self.reviewer
        if action is None:
            return
        generation = self._generation
        self.summary.setText(self.tr("Previewing…"))
        self.tasks.query(lambda s: plan_bulk(s, reviewer, action, scope),
                         lambda plan: self._previewed(generation, plan), self._failed,
                         owner=self)

    # --- preview ---------------------------------------------------------------------
    def _previewed(self, generation: int, plan: BulkPlan) -> None:
        if generation != self._generation:
            return
        self.plan = plan
        self.error.setText(self._pending_error)
        self._pending_error = ""
        self.summary.setText("\n".join(self._summary_lines(plan)))
        self._fill(plan.changes[:PREVIEW_ROWS])
        hidden = plan.count - min(plan.count, PREVIEW_ROWS)
        self.more.setText(self.tr("… and %n more", "", hidden) if hidden else "")
        self.apply_button.setEnabled(not plan.empty)

    def _summary_lines(self, plan: BulkPlan) -> list[str]:
        step = plan.step
        lines = [capitalised(step_text(step)) if step is not None
                 else self.tr("Nothing to change.")]
        lines.append(self.tr("%n attempts in the scope", "", plan.in_scope))
        for skip, count in plan.skipped.items():
            lines.append(self.skip_text(skip, count))
        if plan.empty:
            return lines
        if plan.action.kind in ("accept", "reject"):
            refused = plan.count - plan.accepted_after
            if plan.action.kind == "accept" and refused:
                # Issue 21's trap: an accept that leaves the override out of the figures.
                lines.append(self.tr("%n of them are still refused by the filter: your "
                                     "decision does not flip a verdict or a check", "",
                                     refused))
        else:
            lines.append(self.tr("The filter would then accept %n of them", "",
                                 plan.accepted_after))
        return lines

    def skip_text(self, skip: Skip, count: int) -> str:
        """Why ``count`` attempts of the scope are left alone."""
        texts = {
            "already_accepted": self.tr("%n already accepted: left alone", "", count),
            "already_rejected": self.tr("%n already rejected: left alone", "", count),
            "no_verdict": self.tr("%n without a verdict on this criterion: left alone", "",
                                  count),
            "already_flipped": self.tr("%n already flipped: left alone", "", count),
            "no_failed_check": self.tr("%n where this check did not fail: left alone", "",
                                       count),
            "already_marked": self.tr("%n already marked: left alone", "", count),
        }
        return texts[skip]

    def _fill(self, changes: tuple[PlannedChange, ...]) -> None:
        # Sized once when filled: a column sized to its contents measures every row
        # again at each cell set, seconds for 200 rows.
        self.table.setUpdatesEnabled(False)
        self.table.setRowCount(len(changes))
        for row, change in enumerate(changes):
            k = change.key
            cells = (f"{k.conversation}/{k.turn}/{k.attempt}", self.change_text(change),
                     self.outcome_text(change))
            for col, text in enumerate(cells):
                self.table.setItem(row, col, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.table.setUpdatesEnabled(True)

    def change_text(self, change: PlannedChange) -> str:
        """One attempt's change: "none → accept", "G-DEMANDE: no → yes"."""
        command = change.command
        if isinstance(command, SetDecision):
            words = {"accept": self.tr("accept"), "reject": self.tr("reject")}
            old = words.get(str(change.old), self.tr("no decision"))
            return f"{old} → {words[str(command.decision)]}"
        if isinstance(command, OverrideCriterion):
            yes, no = self.tr("yes"), self.tr("no")
            before, after = (no, yes) if command.met else (yes, no)
            return self.tr("%1: %2 → %3").replace("%1", command.criterion_id) \
                .replace("%2", before).replace("%3", after)
        assert isinstance(command, MarkFalsePositive)
        return self.tr("%1: failed → false positive").replace("%1", command.check_id)

    def outcome_text(self, change: PlannedChange) -> str:
        """What the filter decides (with this reviewer's overrides) before → after."""
        word = {True: self.tr("accepted"), False: self.tr("refused")}
        if change.accepted_before == change.accepted_after:
            return word[change.accepted_after]
        return f"{word[change.accepted_before]} → {word[change.accepted_after]}"

    # --- apply -----------------------------------------------------------------------
    def apply(self) -> None:
        """Store the previewed plan (Enter); the dialog closes once it is written."""
        plan, scope, reviewer = self.plan, self.scope(), self.reviewer
        if plan is None or plan.empty or self.applying:
            return
        self.applying = True
        for w in (self.apply_button, self.scope_filter, self.scope_rows,
                  *self.kind_buttons.values(), self.criterion_box, self.check_box):
            w.setEnabled(False)
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setEnabled(False)
        self.summary.setText("\n".join((
            self.tr("Applying to %n attempts…", "", plan.count),
            self.tr("This cannot be stopped now: the dialog closes once they are stored, "
                    "and %1 then takes them back.")
            .replace("%1", key_text(shortcut("undo"))))))
        self.error.clear()  # a refusal's line is stale under "Applying…" (P15-12)
        self.tasks.write(lambda s: apply_bulk(s, reviewer, plan, scope), self._applied,
                         self._apply_failed, owner=self,
                         what=self.tr("Bulk action on %n attempts", "", plan.count))

    def reject(self) -> None:
        """Esc, Cancel or the close button: nothing stored before Apply. Once Apply is
        pressed the write is one transaction on its way, which nothing can stop: the
        dialog stays, saying so, until it is stored (seventh hostile pass, B1: Esc closed
        it as if cancelled, and the attempts were stored anyway, with no line)."""
        if self.applying:
            return
        super().reject()

    def _applied(self, outcome: BulkOutcome) -> None:
        step = outcome.plan.step
        self.applied.emit(outcome, capitalised(step_text(step)) if step is not None else "")
        self.accept()

    def _apply_failed(self, exc: BaseException) -> None:
        self.applying = False
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setEnabled(True)
        self.scope_filter.setEnabled(True)
        self.scope_rows.setEnabled(len(self.selected) > 1)
        for button in self.kind_buttons.values():
            button.setEnabled(True)
        if isinstance(exc, StalePreview):
            self._pending_error = self.tr("The attempts changed since the preview: "
                                          "nothing was stored. Here is the new preview.")
        else:
            self._pending_error = str(exc).splitlines()[0] if str(exc) \
                else type(exc).__name__
        self._choice_changed()  # the new preview, to look at before applying again
        self.apply_failed.emit()

    def _failed(self, exc: BaseException) -> None:
        self.error.setText(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
