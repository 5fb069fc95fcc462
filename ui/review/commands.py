"""The review keys as operations on the shown attempt: A, Shift+A, R, 1–9 and 0, F, N, undo.

Each is an ordered write of the app's task manager running one function of
``reviewer.review.actions`` (committed at once: no Save button). The commands drive no
widget of the window: they say by signal what the reviewer should see (what was done,
in the status bar, with how to undo it; an error line; an attempt to show again); the
refresh itself comes from the operation's ``Changes`` through the task manager's
``changed``.

The window runs these only when the pane shows the current attempt as it stands
(``ui/review/key_queue.py``), so the row a number key names and the check F marks are
the ones on screen; ``in_flight`` counts the writes not answered yet, which is part of
that "as it stands".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QWidget

from reviewer.review import actions as review_actions
from reviewer.review.decisions import ConflictError
from reviewer.review.example import ExampleView
from reviewer.review.undo import StepMoved, UndoStep, UndoSteps
from reviewer.review.visible import plain as visible
from reviewer.store import Session
from ui.review.example_view import ExamplePane
from ui.review.key_queue import KeyQueue
from ui.review.undo_text import step_text, where
from ui.shortcuts import shortcut
from ui.tasks import TaskManager

Operation = Callable[[Session], review_actions.Outcome]
Said = Callable[[review_actions.Outcome], str | None]


def undo_key() -> str:
    """The Undo key as the platform writes it ("Ctrl+Z")."""
    return QKeySequence(shortcut("undo").keys[0]).toString(
        QKeySequence.SequenceFormat.NativeText)


class ReviewCommands(QObject):
    """The reviewer's actions on the attempt ``current()`` that ``pane`` shows.

    Signals:
        notice(str): what an action did ("Accepted recette-009/2/2 — Ctrl+Z to undo"), or
            why it did nothing ("No criterion 4 here", "Nothing to undo").
        error(str): one line: the action failed, or others decided meanwhile.
        stored(): an action was stored without conflict (the error line clears).
        show_attempt(int): show this attempt: undo/redo show what they changed, a failed
            action goes back to the attempt it was about so it can be retried.
        reload(): the shown attempt changed under the reviewer (stale version): read it.
        settled(): a write answered (the window may run the keys waiting for it).
        history_moved(): an undo or redo changed nothing because another window had
            changed the history: the Edit menu must be read again.
        note_refused(int, str): the note typed for this attempt could not be stored; its
            text, to be put back in the note editor (the window goes back there).
        keys_dropped(str): a failed write dropped the keys typed after it; their names
            (its ``error`` line names them too).
    """

    notice = Signal(str)
    error = Signal(str)
    stored = Signal()
    show_attempt = Signal(int)
    reload = Signal()
    settled = Signal()
    history_moved = Signal()
    note_refused = Signal(int, str)
    keys_dropped = Signal(str)

    def __init__(self, tasks: TaskManager, pane: ExamplePane, current: Callable[[], int | None],
                 reviewer: Callable[[], str], parent: QWidget) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.pane = pane
        self.current = current
        self.reviewer = reviewer
        self.in_flight = 0
        # The window's key queue: a failed decision names the keys typed after it.
        self.typed: KeyQueue | None = None
        # What the Edit menu names (the window sets it): an undo or redo takes back
        # that step or nothing (sixth hostile pass, U1).
        self.menu_steps = UndoSteps(None, None)

    # --- writing ---------------------------------------------------------------------
    def _write(self, op: Operation, *, back_to: int | None = None,
               verb: str | None = None, said: Said | None = None,
               failed: str | None = None, refused: Callable[[], None] | None = None) -> None:
        """``back_to``: the attempt to show again if the action fails (the window may have
        moved on already). ``verb``: undo/redo, which show the attempt they changed.
        ``said``: the status-bar line once stored; ``failed``: the action as a failure
        names it ("Reject of recette-001/2/1"); ``refused``: called when it fails, and
        then the keys typed after it are dropped and named, whatever attempt is shown."""
        self.in_flight += 1
        mark = self.typed.mark() if self.typed is not None else None
        self.tasks.write(op, partial(self._written, verb, said),
                         partial(self._failed, back_to=back_to, failed=failed, mark=mark,
                                 refused=refused),
                         owner=self, what=failed)

    def _written(self, verb: str | None, said: Said | None,
                 outcome: review_actions.Outcome) -> None:
        self.in_flight -= 1
        try:
            self._report(verb, said, outcome)
        finally:
            self.settled.emit()

    def _report(self, verb: str | None, said: Said | None,
                outcome: review_actions.Outcome) -> None:
        if outcome.attempt_id is None:
            if verb is not None:
                self.notice.emit(self.tr("Nothing to %1").replace("%1", verb))
            elif said is not None and (line := said(outcome)):
                self.notice.emit(line)
            return
        if verb is not None and outcome.attempt_id != self.current():
            self.show_attempt.emit(outcome.attempt_id)
        if outcome.conflicts:
            # Another reviewer decided meanwhile: say so; the pane now shows both.
            self.error.emit("; ".join(outcome.conflicts))
            return
        self.stored.emit()
        if said is not None and (line := said(outcome)):
            self.notice.emit(line)

    def _failed(self, exc: BaseException, back_to: int | None = None,
                failed: str | None = None, mark: int | None = None,
                refused: Callable[[], None] | None = None) -> None:
        self.in_flight -= 1
        try:
            if refused is not None:
                refused()
            if isinstance(exc, StepMoved):
                self.error.emit(self._moved_elsewhere(exc))
                self.history_moved.emit()
                return
            current, line, after = self.current(), str(exc), []
            if back_to is not None and back_to != current:
                # Back to the refused attempt: the keys typed after the action did not
                # apply as typed; the line names them (seventh hostile pass, K1).
                if self.typed is not None and mark is not None:
                    after = self.typed.after(mark)
                self.show_attempt.emit(back_to)
            elif isinstance(exc, ConflictError) and current is not None:
                self.reload.emit()
            if refused is not None and not after and self.typed is not None \
                    and mark is not None:
                # The note is back in its editor: a key typed after it (a toolbar Reject)
                # would wait behind it for ever (thirteenth hostile pass, P13-1).
                after = self.typed.after(mark)
            if failed is not None:
                line = self.tr("%1 not saved: %2").replace("%1", failed).replace("%2", line)
            if after:
                line += "; " + self.tr("not applied, typed after it: %1").replace(
                    "%1", " ".join(after))
            self.error.emit(line)
            if after:
                self.keys_dropped.emit(" ".join(after))
        finally:
            self.settled.emit()

    def _shown(self) -> ExampleView | None:
        """The pane's attempt, if it is the current one (else the key has nothing to act on)."""
        view = self.pane.view
        return view if view is not None and view.attempt_id == self.current() else None

    def _undoable(self, text: str) -> str:
        return self.tr("%1 — %2 to undo").replace("%1", text).replace("%2", undo_key())

    # --- decisions -------------------------------------------------------------------
    def decide(self, decision: str) -> bool:
        """Accept or reject the current attempt; False when there is none."""
        aid, reviewer = self.current(), self.reviewer()
        if aid is None:
            return False
        view = self._shown()
        # What the other reviewers had decided when this attempt was shown: a decision
        # written since then is reported instead of silently sitting next to ours.
        seen = view.seen_others if view is not None else None
        at = where(view.key) if view is not None else str(aid)
        text = (self.tr("Accepted %1") if decision == "accept"
                else self.tr("Rejected %1")).replace("%1", visible(at))
        failed = (self.tr("Accept of %1") if decision == "accept"
                  else self.tr("Reject of %1")).replace("%1", visible(at))
        # And this reviewer's own, as shown: another window (or the CLI) may have stored
        # one since, which this decision replaces (fifteenth hostile pass, P15-13 (8)).
        own: tuple[str | None, ...] = (view.review.decision,) if view is not None else ()
        self._write(lambda s: review_actions.decide(s, reviewer, aid, decision,
                                                  seen_others=seen, seen_own=own),
                    back_to=aid, said=partial(self._decided, text), failed=failed)
        return True

    def _decided(self, text: str, outcome: review_actions.Outcome) -> str:
        """"Accepted recette-033/2/1 — Ctrl+Z to undo", naming a decision of this
        reviewer's, stored elsewhere since the attempt was shown, that it replaced."""
        if outcome.replaced is not None:
            text += self.tr(", replacing your %1 stored meanwhile elsewhere (another window "
                            "or the command line)").replace(
                                "%1", self.tr("accept") if outcome.replaced == "accept"
                                else self.tr("reject"))
        return self._undoable(text)

    def rescue(self) -> bool:
        """Flip the contradictions that would change the decision and accept (one step);
        False (and a notice) when the shown attempt has none open."""
        view = self._shown()
        if view is None:
            return False
        if not view.rescue_flips:
            self.notice.emit(self.tr("Nothing to rescue here: no open contradiction would "
                                     "change the filter's decision"))
            return False
        aid, reviewer = view.attempt_id, self.reviewer()
        self._write(lambda s: review_actions.rescue(s, reviewer, aid), back_to=aid,
                    said=partial(self._rescued, view),
                    failed=self.tr("Rescue of %1").replace("%1", visible(where(view.key))))
        return True

    def _rescued(self, view: ExampleView, outcome: review_actions.Outcome) -> str:
        if outcome.attempt_id is None:
            return self.tr("Nothing to rescue here: no open contradiction would change the "
                           "filter's decision")
        return self._undoable(self.tr("Rescued %1: flipped %2 and accepted").replace(
            "%1", visible(where(view.key))).replace("%2", ", ".join(outcome.flipped)))

    def accept_overriding(self) -> bool:
        """Flip every verdict that still refuses, mark every failed check a false positive,
        and accept: one step (the answer "F" to the accept question)."""
        view = self._shown()
        if view is None:
            return False
        aid, reviewer = view.attempt_id, self.reviewer()
        self._write(lambda s: review_actions.accept_overriding(s, reviewer, aid),
                    back_to=aid, said=partial(self._overridden, view))
        return True

    def _overridden(self, view: ExampleView, outcome: review_actions.Outcome) -> str:
        changed = [*outcome.flipped, *outcome.marked]
        return self._undoable(self.tr("Accepted %1, flipping %2").replace(
            "%1", visible(where(view.key))).replace("%2", ", ".join(changed)))

    # --- verdicts and checks ---------------------------------------------------------
    def toggle_criterion(self, n: int) -> None:
        """Flip the n-th verdict of the table (1-based)."""
        view = self._shown()
        if view is None:
            return
        if not 1 <= n <= len(view.verdicts):
            self.notice.emit(self.tr("No criterion %1 here").replace("%1", str(n)))
            return
        row = view.verdicts[n - 1]
        aid, reviewer = view.attempt_id, self.reviewer()
        criterion = row.criterion_id
        # The domain stores the flip, or removes an override (back to the judge's verdict).
        value = None if row.override is not None else not row.effective
        step = UndoStep("criterion", view.key, criterion, value)
        self._write(lambda s: review_actions.toggle_criterion(s, reviewer, aid, criterion),
                    said=lambda _o: self._undoable(step_text(step)))

    def flip_check(self, row: int) -> None:
        """Mark (or unmark) the check of this row of the table."""
        view = self._shown()
        if view is None or not 0 <= row < len(view.checks):
            return
        check = view.checks[row]
        if check.passed:
            self.notice.emit(self.tr("%1 passed: there is no hit to mark").replace(
                "%1", visible(check.check_id)))
            return
        aid, reviewer, cid = view.attempt_id, self.reviewer(), check.check_id
        step = UndoStep("check", view.key, cid, not check.false_positive)
        self._write(lambda s: review_actions.toggle_false_positive(s, reviewer, aid, cid),
                    said=lambda _o: self._undoable(step_text(step)))

    def toggle_false_positive(self) -> None:
        """Mark (or unmark) the check under the cursor if it failed, else the first failed."""
        view = self._shown()
        if view is None:
            return
        failed = [i for i, c in enumerate(view.checks) if not c.passed]
        row = self.pane.checks.row
        if 0 <= row < len(view.checks) and not view.checks[row].passed:
            failed = [row]
        if not failed:
            self.notice.emit(self.tr("No failed check on this attempt"))
            return
        self.flip_check(failed[0])

    # --- note ------------------------------------------------------------------------
    def save_note(self, attempt_id: int, text: str, at: str) -> None:
        """Store the note typed for ``attempt_id`` (``at``: its name in a failure line).

        A note that cannot be stored (a full disk, a busy or read-only store) is named,
        the window goes back to its attempt, and its text is put back in the editor
        (``note_refused``): it was thrown away, with a line naming no note, and "try
        again" meant typing it again from memory (twelfth hostile pass, P12-3)."""
        reviewer = self.reviewer()
        self._write(lambda s: review_actions.set_note(s, reviewer, attempt_id, text),
                    back_to=attempt_id, said=lambda _o: self.tr("Note saved"),
                    failed=self.tr("Note on %1").replace("%1", at),
                    refused=partial(self.note_refused.emit, attempt_id, text))

    # --- undo ------------------------------------------------------------------------
    def undo(self) -> None:
        """Undo the change the Edit menu names (even one made before a restart)."""
        reviewer, shown = self.reviewer(), self.menu_steps.undo
        expected = shown.top if shown is not None else None
        self._write(lambda s: review_actions.undo(s, reviewer, expected),
                    verb=self.tr("undo"), said=partial(self._moved, self.tr("Undone: %1")),
                    failed=self._step_named(self.tr("Undo of %1"), self.tr("Undo"), shown))

    def redo(self) -> None:
        """Redo the change the Edit menu names."""
        reviewer, shown = self.reviewer(), self.menu_steps.redo
        expected = shown.top if shown is not None else None
        self._write(lambda s: review_actions.redo(s, reviewer, expected),
                    verb=self.tr("redo"), said=partial(self._moved, self.tr("Redone: %1")),
                    failed=self._step_named(self.tr("Redo of %1"), self.tr("Redo"), shown))

    @staticmethod
    def _step_named(named: str, bare: str, step: UndoStep | None) -> str:
        """"Undo of reject recette-004/2/1": a refused undo says which change stayed; the
        bare store error replaced the line it followed and named nothing (fourteenth
        hostile pass, P14-3)."""
        return named.replace("%1", visible(step_text(step))) if step is not None else bare

    def _moved_elsewhere(self, exc: StepMoved) -> str:
        """Why an undo or redo did nothing: another window changed the history."""
        if exc.now is None:
            if exc.action == "undo":
                return self.tr("Not undone: another window changed the undo history; "
                               "nothing is left to undo.")
            return self.tr("Not redone: another window changed the redo history; "
                           "nothing is left to redo.")
        if exc.action == "undo":
            line = self.tr("Not undone: another window changed the undo history; the last "
                           "change is now %1. Press %2 again to undo it.")
        else:
            line = self.tr("Not redone: another window changed the redo history; the "
                           "change to redo is now %1. Press %2 again to redo it.")
        key = QKeySequence(shortcut(exc.action).keys[0]).toString(
            QKeySequence.SequenceFormat.NativeText)
        return line.replace("%1", visible(step_text(exc.now))).replace("%2", key)

    @staticmethod
    def _moved(text: str, outcome: review_actions.Outcome) -> str | None:
        if outcome.step is None:
            return None
        return text.replace("%1", visible(step_text(outcome.step)))
