"""What each review key does in the main window, and when it runs.

``ReviewKeys.handlers()`` gives the keyboard table's review and navigation entries their
actions (the window adds its own: settings, help, second opinions …). Every key goes
through the window's ``KeyQueue`` (``key_queue.py``): a key that acts on the shown
attempt runs once the pane shows the current attempt as it stands, keys typed meanwhile
wait behind it, and nothing is lost or applied to another attempt than slow typing would.

Accepting: ``A`` on an attempt the filter would still refuse (its verdicts and checks,
with the reviewer's overrides, still refuse it) opens the accept question in the pane
instead of accepting: ``A`` again accepts anyway, ``F`` flips the refusing verdicts (and
marks the failed checks false positives) then accepts, as one step, Esc does neither.
``Shift+A`` rescues: it flips exactly the contradictions that would change the decision
and accepts, one step. Any other key closes the question: it is about that moment only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject, Qt

from reviewer.review.visible import plain as visible
from ui.review.commands import ReviewCommands
from ui.review.example_view import ExamplePane
from ui.review.filter_bar import FilterBar
from ui.review.inline import NOTE_EDIT_LIMIT
from ui.review.key_queue import KeyQueue
from ui.review.queue_view import QueueView
from ui.review.text_widgets import number
from ui.review.undo_text import where
from ui.shortcuts import CRITERION_KEYS, shortcut

# Keys that answer or leave the accept question open (the others close it).
KEEP_QUESTION = frozenset({"accept", "false_positive", "back", "help", "scroll_down",
                           "scroll_up", "earlier", "system_prompt", "whole_text"})


class ReviewKeys(QObject):
    """The review window's keys (see the module docstring)."""

    def __init__(self, *, pane: ExamplePane, queue: QueueView, filters: FilterBar,
                 commands: ReviewCommands, keys: KeyQueue,
                 current: Callable[[], int | None], auto_advance: Callable[[], bool],
                 notice: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pane, self.queue, self.filters = pane, queue, filters
        self.commands, self.keys = commands, keys
        self.current, self.auto_advance, self.notice = current, auto_advance, notice
        pane.flip_verdict.connect(lambda row: self.submit(
            "Space", partial(commands.toggle_criterion, row + 1)))
        pane.flip_check.connect(lambda row: self.submit(
            "Space", partial(commands.flip_check, row)))

    def handlers(self) -> dict[str, Callable[[], None]]:
        """The actions of the review and navigation keys, by keyboard-table name."""
        c, q, p = self.commands, self.queue, self.pane
        on_view: dict[str, Callable[[], None]] = {
            "accept": self._accept, "rescue": self._rescue,
            "reject": partial(self._decide, "reject"),
            "false_positive": self._false_positive, "note": self._note,
            "verdict_cursor": self._cursor, "earlier": self._earlier,
            "system_prompt": self._system_prompt, "whole_text": self._whole_text,
        }
        for n, _key in enumerate(CRITERION_KEYS, start=1):
            on_view[f"criterion{n}"] = partial(c.toggle_criterion, n)
        moving: dict[str, Callable[[], None]] = {
            "next": partial(q.go, 1), "previous": partial(q.go, -1),
            "next_unreviewed": lambda: q.go_unreviewed(self.current()),
            "undo": c.undo, "redo": c.redo,
        }
        now: dict[str, Callable[[], None]] = {
            "back": self.back, "scroll_down": partial(p.scroll_page, 1),
            "scroll_up": partial(p.scroll_page, -1),
        }
        out: dict[str, Callable[[], None]] = {}
        for name, fn in on_view.items():
            out[name] = partial(self._key, name, fn, True)
        for name, fn in moving.items():
            out[name] = partial(self._key, name, fn, False)
        for name, fn in now.items():
            out[name] = partial(self._now, name, fn)
        return out

    # --- dispatch --------------------------------------------------------------------
    def submit(self, key: str, fn: Callable[[], None], needs_view: bool = True,
               name: str = "") -> None:
        """Queue ``fn`` as the key ``key`` (its name in messages; ``name``: the action's,
        when it has one; see ``KeyQueue.submit``). Undo and Redo wait for the menu they
        act on to be current.

        A key on the shown attempt that comes from outside an open note (a toolbar or
        menu click, a key typed with the focus in the pane) first saves the note, as
        leaving the attempt does. Eleventh hostile pass, V2: the key waited behind the
        open note, every key after it (Ctrl+Q too) was held, and closing the window
        stored the note then a Reject nobody had seen. The Note action itself gives the
        keyboard back to the note."""
        editor = self.pane.note_editor
        if name in ("undo", "redo") and editor.editing:
            self._refuse_with_note(name)
            return
        if needs_view and editor.editing:
            if name == "note":
                editor.setFocus(Qt.FocusReason.OtherFocusReason)
                return
            editor.keep()
        self.keys.submit(key, partial(self._run, name, fn), needs_view=needs_view,
                         needs_settled=name in ("undo", "redo"))

    def _refuse_with_note(self, name: str) -> None:
        """Undo or Redo from the menu or the toolbar while a note is open does nothing,
        and says so (Ctrl+Z typed in the note undoes its typing). It used to undo the
        step the menu named, then store the note over the redo it had just made: Redo
        gone, and "Note saved" the only line (eleventh hostile pass, V8 (5)). Saving the
        note first would make the note the step to undo instead of the one named."""
        line = (self.tr("Not undone: a note is open; Enter saves it, Esc drops it, then "
                        "undo") if name == "undo" else
                self.tr("Not redone: a note is open; Enter saves it, Esc drops it, then "
                        "redo"))
        self.commands.error.emit(line)

    def _key(self, name: str, fn: Callable[[], None], needs_view: bool) -> None:
        self.submit(shortcut(name).keys[0], fn, needs_view, name)

    def _now(self, name: str, fn: Callable[[], None]) -> None:
        self._run(name, fn)

    def _run(self, name: str, fn: Callable[[], None]) -> None:
        if name not in KEEP_QUESTION:
            self.pane.question_box.close_question()
        fn()

    def _advance(self) -> None:
        if self.auto_advance():
            self.queue.go(1)

    # --- the keys --------------------------------------------------------------------
    def _decide(self, decision: str) -> None:
        if self.commands.decide(decision):
            self._advance()

    def _accept(self) -> None:
        view, question = self.pane.view, self.pane.question_box
        aid = self.current()
        if view is None or aid is None:
            return
        live = self.pane.live_decision(view)
        if question.asking(aid):
            question.close_question()
            self._decide("accept")
        elif not live.accepted:
            question.ask(aid, live.reasons)
        else:
            self._decide("accept")

    def _rescue(self) -> None:
        self.pane.question_box.close_question()
        if self.commands.rescue():
            self._advance()

    def _false_positive(self) -> None:
        question = self.pane.question_box
        if question.asking(self.current()):
            question.close_question()
            if self.commands.accept_overriding():
                self._advance()
        else:
            self.commands.toggle_false_positive()

    def _note(self) -> None:
        view = self.pane.view
        if view is not None and len(view.review.note or "") > NOTE_EDIT_LIMIT:
            self.commands.error.emit(self.tr(
                "The note on %1 is %2 characters long, too long to edit here: W shows it "
                "whole, and reviewer decide KEY --note replaces it").replace(
                    "%1", visible(where(view.key))).replace(
                    "%2", number(len(view.review.note or ""))))
            return
        self.pane.edit_note()

    def _cursor(self) -> None:
        if not self.pane.enter_cursor():
            self.notice(self.tr("No verdict or check on this attempt"))

    def _earlier(self) -> None:
        if not self.pane.earlier.show_earlier():
            self.notice(self.tr("The whole conversation is shown"))

    def _system_prompt(self) -> None:
        if not self.pane.earlier.toggle_system():
            self.notice(self.tr("This conversation has no system prompt"))

    def _whole_text(self) -> None:
        self.pane.show_whole_text()

    def back(self) -> None:
        """Esc (or Go → Back to the queue): close the question, leave the cursor, the
        filters or the search (clearing it), and give the keyboard back to the queue.

        Esc typed in the note editor is the editor's and drops the note (``dropped``,
        ``note_dropped``). This action with a note open came from elsewhere (the menu, a
        key typed outside the editor): the note is kept (see below)."""
        question = self.pane.question_box
        if question.isVisible():
            question.close_question()
            self.notice(self.tr("Not accepted"))
            return
        editor = self.pane.note_editor
        if editor.editing and not editor.hasFocus():
            # Esc leaves the filters or the search, not the note typed meanwhile: it
            # dropped the note without a word (eleventh hostile pass, V1). The keyboard
            # goes back to the note, still open with its text.
            self.filters.clear_search()
            editor.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        if editor.editing:
            # The menu's "Back to the queue" with the keyboard in the note: saved, as
            # leaving the note any way but Esc typed in it (twelfth hostile pass, P12-2).
            editor.keep()
        else:
            self.filters.clear_search()
        self.queue.focus()
        self.keys.drain()  # keys typed while the note was open

    def note_dropped(self) -> None:
        """Esc typed in the note editor dropped the note: the note line as stored comes
        back, and the keyboard goes to the queue."""
        self.pane.close_note()
        self.queue.focus()
        self.keys.drain()  # keys typed while the note was open
