"""The review keys as operations on the shown attempt: A, R, 1–9, F, N, Ctrl+Z, Ctrl+Shift+Z.

Each is an ordered write of the app's task manager running one function of
``reviewer.review.actions`` (committed at once: no Save button). The commands drive no
widget of the window: they say by signal what the reviewer should see (a notice, an
error line, an attempt to show again); the refresh itself comes from the operation's
``Changes`` through the task manager's ``changed``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from reviewer.review import actions as review_actions
from reviewer.review.decisions import ConflictError
from reviewer.store import Session
from ui.review.dialogs import NoteDialog
from ui.review.example_view import ExamplePane
from ui.tasks import TaskManager

Operation = Callable[[Session], review_actions.Outcome]


class ReviewCommands(QObject):
    """The reviewer's actions on the attempt ``current()`` that ``pane`` shows.

    Signals:
        notice(str): a short status-bar message ("No criterion 4 here", "Nothing to undo").
        error(str): one line: the action failed, or others decided meanwhile.
        stored(): an action was stored without conflict (the error line clears).
        show_attempt(int): show this attempt: undo/redo show what they changed, a failed
            action goes back to the attempt it was about so it can be retried.
        reload(): the shown attempt changed under the reviewer (stale version): read it.
        dialog_closed(): the note dialog closed; the keys must reach the window again.
    """

    notice = Signal(str)
    error = Signal(str)
    stored = Signal()
    show_attempt = Signal(int)
    reload = Signal()
    dialog_closed = Signal()

    def __init__(self, tasks: TaskManager, pane: ExamplePane, current: Callable[[], int | None],
                 reviewer: Callable[[], str], parent: QWidget) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.pane = pane
        self.current = current
        self.reviewer = reviewer
        self.dialog_parent = parent
        self.note_dialog: NoteDialog | None = None

    def _write(self, op: Operation, *, back_to: int | None = None,
               verb: str | None = None) -> None:
        """``back_to``: the attempt to show again if the action fails (the window may have
        moved on already). ``verb``: undo/redo, which show the attempt they changed."""
        self.tasks.write(op, partial(self._written, verb),
                         partial(self._failed, back_to=back_to), owner=self)

    def _written(self, verb: str | None, outcome: review_actions.Outcome) -> None:
        if outcome.attempt_id is None:
            if verb is not None:
                self.notice.emit(self.tr("Nothing to %1").replace("%1", verb))
            return
        if verb is not None and outcome.attempt_id != self.current():
            self.show_attempt.emit(outcome.attempt_id)
        if outcome.conflicts:
            # Another reviewer decided meanwhile: say so; the pane now shows both.
            self.error.emit("; ".join(outcome.conflicts))
        else:
            self.stored.emit()

    def _failed(self, exc: BaseException, back_to: int | None = None) -> None:
        current = self.current()
        if back_to is not None and back_to != current:
            self.show_attempt.emit(back_to)
        elif isinstance(exc, ConflictError) and current is not None:
            self.reload.emit()
        self.error.emit(str(exc))

    def decide(self, decision: str) -> bool:
        """Accept or reject the current attempt; False when there is none."""
        aid, view, reviewer = self.current(), self.pane.view, self.reviewer()
        if aid is None:
            return False
        # What the other reviewers had decided when this attempt was shown: a decision
        # written since then is reported instead of silently sitting next to ours.
        seen = view.seen_others if view is not None and view.attempt_id == aid else None
        self._write(lambda s: review_actions.decide(s, reviewer, aid, decision,
                                                  seen_others=seen), back_to=aid)
        return True

    def toggle_criterion(self, n: int) -> None:
        """Flip the n-th verdict of the table."""
        view = self.pane.view
        if view is None or self.current() != view.attempt_id:
            return
        if not 1 <= n <= len(view.verdicts):
            self.notice.emit(self.tr("No criterion %1 here").replace("%1", str(n)))
            return
        criterion, aid, reviewer = view.verdicts[n - 1].criterion_id, view.attempt_id, \
            self.reviewer()
        self._write(lambda s: review_actions.toggle_criterion(s, reviewer, aid, criterion))

    def toggle_false_positive(self) -> None:
        """Mark (or unmark) the selected failed check, else the first failed one."""
        view = self.pane.view
        if view is None:
            return
        selected = self.pane.checks.currentIndex()
        candidates = [c for c in view.checks if not c.passed]
        if selected.isValid() and not view.checks[selected.row()].passed:
            candidates = [view.checks[selected.row()]]
        if not candidates:
            self.notice.emit(self.tr("No failed check on this attempt"))
            return
        check, aid, reviewer = candidates[0].check_id, view.attempt_id, self.reviewer()
        self._write(lambda s: review_actions.toggle_false_positive(s, reviewer, aid, check))

    def edit_note(self) -> None:
        """Write the note of the shown attempt (Enter saves)."""
        view = self.pane.view
        if view is None:
            return
        dialog = NoteDialog(view.review.note, self.dialog_parent)
        self.note_dialog = dialog
        try:
            if dialog.exec() != NoteDialog.DialogCode.Accepted:
                return
            text, aid, reviewer = dialog.text(), view.attempt_id, self.reviewer()
        finally:
            self.note_dialog = None
            dialog.deleteLater()
            self.dialog_closed.emit()
        self._write(lambda s: review_actions.set_note(s, reviewer, aid, text))

    def undo(self) -> None:
        """Undo the latest change (even one made before a restart)."""
        reviewer = self.reviewer()
        self._write(lambda s: review_actions.undo(s, reviewer), verb=self.tr("undo"))

    def redo(self) -> None:
        """Redo the latest undone change."""
        reviewer = self.reviewer()
        self._write(lambda s: review_actions.redo(s, reviewer), verb=self.tr("redo"))
