"""Review keys typed faster than the pane loads: kept in order, applied when they can be.

A reviewer who knows the queue types ahead: ``A`` then ``1`` before the next attempt has
even appeared. A key that acts on the shown attempt (accept, reject, a flip, a false
positive, a rescue, the note) needs the pane to show *that* attempt as it stands after
the writes already asked for; until it does, the key waits here, and so does every key
typed after it (navigation too), so the result is the one slow typing would give. Keys
that need no pane (moving through the queue) run at once when nothing waits.

``ready()`` (the window's) says whether the pane shows the current attempt fresh;
``moving()`` whether the queue is still on its way to an attempt. The window calls
``drain()`` whenever either may have become true. A key that can no longer apply (the
attempt could not be read) is refused with a visible message, never dropped silently;
so are the keys typed after a decision whose write failed (``mark``, ``after``): the
window goes back to that attempt, and the failure's line names them.

A key never waits for something that is not on its way. When the first key waits for the
pane and nothing is moving, ``stalled()`` (the window's) is asked: the attempt's last read
failed, so the window reads it again, and the key runs once it is shown or is refused
with the read's failure. Ninth hostile pass, K2/K3: with PostgreSQL gone, the R typed
after a failed reject waited for a pane that nothing would ever load, every key after it
(J, Ctrl+Q) was held behind it, and the next mouse click on a row replayed the R's on
that row and the rows after it.

Undo and Redo take back the step the Edit menu names, so they wait (``needs_settled``)
until ``settled()``: the window's writes answered and the menu read again after them.
Without the wait, Ctrl+Z typed right after A named the step before A, and was refused as
if another window had changed the history.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

RAN_KEPT = 100  # keys remembered after they ran (a write answers within them)


@dataclass(frozen=True, slots=True)
class Key:
    """One typed action: its name (for messages), what it does, whether it needs the pane."""

    name: str
    run: Callable[[], None]
    needs_view: bool
    needs_settled: bool = False


class KeyQueue(QObject):
    """The window's review keys, in the order typed.

    Signals:
        refused(str): keys were dropped; the one-line reason (with the keys' names).
    """

    refused = Signal(str)

    def __init__(self, ready: Callable[[], bool], moving: Callable[[], bool],
                 parent: QObject | None = None, *,
                 settled: Callable[[], bool] = lambda: True,
                 stalled: Callable[[], None] = lambda: None) -> None:
        super().__init__(parent)
        self._ready = ready
        self._moving = moving
        self._settled = settled
        self._stalled = stalled
        self._waiting: deque[Key] = deque()
        # The keys run lately, numbered: which ones a failed write came before (K1).
        self._ran: deque[tuple[int, str]] = deque(maxlen=RAN_KEPT)
        self._count = 0
        self._draining = False
        self._front: int | None = None  # inside in_turn(): where the next key goes

    def submit(self, name: str, run: Callable[[], None], *, needs_view: bool = True,
               needs_settled: bool = False) -> None:
        """Run the key now if it can run and nothing waits before it; else keep it."""
        key = Key(name, run, needs_view, needs_settled)
        if self._front is None:
            self._waiting.append(key)
        else:
            self._waiting.insert(self._front, key)
            self._front += 1
        self.drain()

    @contextmanager
    def in_turn(self) -> Iterator[None]:
        """Keys submitted inside go before the keys still waiting: a key replayed by
        ``TypeAhead`` that turns out to be an action takes the place it was typed in."""
        outer, self._front = self._front, 0
        try:
            yield
        finally:
            self._front = outer

    def _can_run(self, key: Key) -> bool:
        if self._moving() or (key.needs_settled and not self._settled()):
            return False
        return self._ready() if key.needs_view else True

    def drain(self) -> None:
        """Run the waiting keys, in order, as long as the next one can run."""
        if self._draining:  # a key's own effects call back here: the loop goes on below
            return
        self._draining = True
        try:
            while self._waiting and self._can_run(self._waiting[0]):
                key = self._waiting.popleft()
                self._count += 1
                self._ran.append((self._count, key.name))
                key.run()
        finally:
            self._draining = False
        if self._waiting and self._waiting[0].needs_view and not self._moving():
            self._stalled()  # may read the attempt again (see the module docstring)

    @property
    def waiting(self) -> list[str]:
        """The names of the keys waiting, in order."""
        return [k.name for k in self._waiting]

    def mark(self) -> int:
        """Where the keys run so far end (for ``after``)."""
        return self._count

    def after(self, mark: int) -> list[str]:
        """The names of the keys run since ``mark``, then of the keys still waiting, which
        are dropped: a write asked before them failed, and the window goes back to its
        attempt, so none of them applies as typed (seventh hostile pass, K1). The caller
        names them in its line."""
        names = [name for count, name in self._ran if count > mark] + self.waiting
        self._waiting.clear()
        return names

    def drop(self) -> list[str]:
        """Drop every waiting key; their names, for the caller's line."""
        names = self.waiting
        self._waiting.clear()
        return names

    def refuse(self, reason: str) -> None:
        """Drop every waiting key and say so (``reason`` names why)."""
        if not self._waiting:
            return
        names = ", ".join(self.waiting)
        self._waiting.clear()
        self.refused.emit(self.tr("Not applied: %1 (%2)").replace("%1", names)
                          .replace("%2", reason))
