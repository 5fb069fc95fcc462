"""The note being typed when the window is asked to close: stored first, then it closes.

Quitting (Ctrl+Q, the close button, a signal) with a note being typed saves it, as Enter
would (seventh hostile pass, Q1). The write used to be queued inside ``closeEvent``, which
then waited for the task thread and closed whatever the answer: a note the store could
not take (a full disk, a read-only mount, PostgreSQL gone, another process holding the
SQLite lock) was dropped without a word, and under a lock the window sat dead for the
busy timeout first (twelfth hostile pass, P12-1 and P12-5).

Now the close waits, with the event loop free, for the note's own answer, the note shown
in its editor but held (neither editable nor dropped: keys typed meanwhile went to the
search box, and Esc there dropped the note, P13-4). Stored: the window closes. Refused:
the window stays open with the note editable again and a line saying so (Esc drops the
note, then quitting closes); keys typed while it waited are dropped and named. A close a
signal asked for (``must_close``: SIGTERM, SIGHUP, Ctrl-C in the terminal) cannot wait
for the reviewer: the window closes, and the note's text is written on standard error,
so it is not lost.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from reviewer.review import actions as review_actions
from ui.review.inline import NoteEditor
from ui.tasks import TaskManager


class NoteAtClose(QObject):
    """Holds the window's close while the note typed is being stored (see the module)."""

    def __init__(self, window: QWidget, tasks: TaskManager, editor: NoteEditor, *,
                 reviewer: Callable[[], str], name_of: Callable[[int], str],
                 refused: Callable[[int, str, str], None]) -> None:
        super().__init__(window)
        self._window, self._tasks, self._editor = window, tasks, editor
        self._reviewer, self._name_of, self._refused_to = reviewer, name_of, refused
        self.must_close = False  # a signal asked: the window closes whatever the answer
        self.saving = False
        self._pending: tuple[int, str] | None = None  # the note being stored

    def holds(self) -> bool:
        """Whether the close must wait: a note typed is now being stored (the window
        closes once it is), or one already is."""
        if self.saving:
            return True
        unsaved = self._editor.unsaved()
        if unsaved is None:
            return False
        attempt_id, text = unsaved
        self._editor.hold()  # shown while it is stored; keys typed meanwhile change nothing
        self.saving = True
        self._pending = (attempt_id, text)
        reviewer = self._reviewer()
        self._tasks.write(lambda s: review_actions.set_note(s, reviewer, attempt_id, text),
                          self._stored, partial(self._refused, attempt_id, text),
                          owner=self, what=self.tr("Note on %1").replace(
                              "%1", self._name_of(attempt_id)))
        return True

    def abandon(self) -> None:
        """The quit stopped waiting for the database (``QuitWait``): the note's text is
        written on standard error, as for a refusal after a signal, so it is not lost."""
        if not self.saving or self._pending is None:
            return
        attempt_id, text = self._pending
        self.saving = False
        print(f"reviewer: {self._name_of(attempt_id)}: the note was: {text}",
              file=sys.stderr, flush=True)

    def _stored(self, _outcome: object) -> None:
        self.saving = False
        self._pending = None
        self._editor.release()
        self._editor.cancel()
        self._window.close()

    def _refused(self, attempt_id: int, text: str, exc: BaseException) -> None:
        self.saving = False
        self._pending = None
        self._editor.release()
        line = self.tr("Note on %1 not saved: %2").replace(
            "%1", self._name_of(attempt_id)).replace("%2", str(exc).splitlines()[0])
        if self.must_close:
            print(f"reviewer: {line}; the note was: {text}", file=sys.stderr, flush=True)
            self._editor.cancel()
            self._window.close()
            return
        self._refused_to(attempt_id, text, self.tr(
            "%1 — the app stays open: Esc drops the note, then quit again").replace(
            "%1", line))
