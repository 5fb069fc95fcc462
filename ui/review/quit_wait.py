"""The quit's wait for the background work: bounded, with the event loop free.

A quit (Ctrl+Q, the close button, a signal) waits for the work asked for (a decision on
its way is stored before the store closes), but never without bound: the window blocked
inside ``closeEvent`` for as long as a worker did, deaf to keys, clicks and SIGTERM, and
a worker blocked in C never comes back (fifteenth hostile pass: P15-3, an export opening
a FIFO no one reads; P15-5, a PostgreSQL connection that stays open and silent).

Now the close first waits a moment, as before (an ordinary write answers in
milliseconds); then the window stays up, its event loop free, saying what it waits for
and for how long at most, refusing the review keys (``MainWindow._unless_quitting``).
Once everything has answered the window closes; at the task manager's deadline
(``TaskManager.begin_quit``) it stops waiting, says on standard error what it did not
wait for, and closes; ``ui/app.py`` then ends the process even though a worker thread
is still blocked (SQLite and PostgreSQL roll back what it had not committed).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget

from ui.tasks import TaskManager

QUICK_MS = 1000  # waited inside closeEvent, as before: an ordinary answer comes by then
POLL_MS = 100


class QuitWait(QObject):
    """Holds the window's close while the background work answers, for a bounded time."""

    def __init__(self, window: QWidget, tasks: TaskManager, *,
                 say: Callable[[str], None], abandoning: Callable[[], None]) -> None:
        super().__init__(window)
        self._window, self._tasks = window, tasks
        self._say, self._abandoning = say, abandoning
        self.active = False  # the window waits, shown, its keys refused
        self.abandoned = False  # the deadline passed: the window closes anyway
        self._poll = QTimer(self)
        self._poll.setObjectName("quit_poll")
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._look)

    def start(self) -> None:
        """A quit was asked for and waits for something (a note, a bulk action)."""
        self._tasks.begin_quit()
        if not self.active:
            self.active = True
            self._poll.start()

    def let_close(self) -> bool:
        """Whether ``closeEvent`` may close now; else the wait goes on, shown.

        Every thread done is enough here, as before: answers still on their way are
        dropped once the window is closed (``TaskManager.shutdown``)."""
        if self.abandoned:
            self._stop()
            return True
        if self.active:
            if self._tasks.wait(0):
                self._done()
                return True
            self._tell()
            return False
        self._tasks.begin_quit()
        if self._tasks.wait(min(QUICK_MS, self._tasks.quit_left_ms)):
            self._done()
            return True
        self.start()
        self._tell()
        return False

    def _done(self) -> None:
        """Everything answered: the next quit (another window's) has its whole wait."""
        self._stop()
        self._tasks.end_quit()

    def give_up(self) -> None:
        """The quit was refused (a note or a bulk action not stored): the app stays."""
        self._stop()
        self._tasks.end_quit()

    def _stop(self) -> None:
        self.active = False
        self._poll.stop()

    def _tell(self) -> None:
        named = self._tasks.unanswered()
        seconds = str(max(1, round(self._tasks.quit_left_ms / 1000)))
        if named:
            line = self.tr("Closing once this is done (%1 s at most): %2").replace(
                "%1", seconds).replace("%2", ", ".join(named))
        else:
            line = self.tr("Closing once the database answers (%1 s at most)…").replace(
                "%1", seconds)
        self._say(line)

    def _look(self) -> None:
        if self._tasks.idle:
            self._stop()
            self._window.close()
        elif self._tasks.quit_left_ms == 0:
            self._stop()
            self.abandoned = True
            self._tasks.say_abandoned()
            self._abandoning()
            self._window.close()
