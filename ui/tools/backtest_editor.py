"""Regex editor with a live back-test: type a pattern, see which hits disappear or appear.

Typing restarts a 300 ms timer; when it fires, the pattern is compiled on the GUI thread
(an invalid one is reported inline at once) and the back-test (``reviewer.backtest``) runs
on a background thread. A newer pattern cancels the run in progress; a result that
arrives for an older pattern is dropped. Each text is searched with a time bound, so a
catastrophic pattern is stopped and reported ("pattern stopped after 0.5 s on KEY …")
while the window stays responsive. Choosing a key in either list shows that response
with the current pattern's matches struck through in red and the new pattern's
underlined in green. Save stores a new version of the check with a one-line reason.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from reviewer.agreement.confusion import Confusion
from reviewer.catalog.spec import CheckSpec
from reviewer.changes import Changes
from reviewer.errors import ReviewerError
from reviewer.keys import AttemptKey
from reviewer.revise.backtest import BacktestResult, Cancelled, backtest
from reviewer.revise.editors import (
    ChecksState,
    Preview,
    SavedVersion,
    check_preview,
    checks_state,
    save_check_version,
)
from reviewer.rule.checks import CheckPattern, PatternError, compile_check
from ui.tasks import LongTask, TaskManager, Work
from ui.widgets_util import named, plain, rich_tooltip

DEBOUNCE_MS = 300
TIMEOUT_S = 0.5
BUDGET_S = 30.0


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.0%}"


def figures_text(label: str, c: Confusion) -> str:
    """One line of agreement figures for a pattern."""
    kappa = "n/a" if c.kappa is None else f"{c.kappa:.2f}"
    return (f"{label}: {c.fp} hits on accepted, {c.fn} misses on refused, {c.tp} confirmed "
            f"hits — false-failure rate {_pct(c.false_failure_rate)}, coverage "
            f"{_pct(c.coverage)}, kappa {kappa}")


Spans = list[tuple[int, int]]


def highlighted(text: str, old: Spans, new: Spans) -> str:
    """HTML of ``text``: old matches struck through in red, new ones underlined in green."""
    marks = [0] * len(text)
    for spans, bit in ((old, 1), (new, 2)):
        for start, end in spans:
            for i in range(start, end):
                marks[i] |= bit
    styles = {0: "", 1: "background:#ffcdd2;text-decoration:line-through",
              2: "background:#c8e6c9;text-decoration:underline",
              3: "background:#fff59d;text-decoration:underline"}
    out: list[str] = []
    i = 0
    while i < len(text):
        j = i
        while j < len(text) and marks[j] == marks[i]:
            j += 1
        chunk = html.escape(text[i:j]).replace("\n", "<br>")
        out.append(f'<span style="{styles[marks[i]]}">{chunk}</span>' if marks[i] else chunk)
        i = j
    return "".join(out)


def preview_page(preview: Preview) -> str:
    """The preview's HTML; ``pre-wrap`` shows runs of spaces and indentation as they are."""
    return (f'<div style="white-space:pre-wrap">'
            f'{highlighted(preview.text, preview.old, preview.new)}</div>')


class BacktestEditor(QWidget):
    """Edit a check's pattern, flags, mode and ``when``; back-test live; save a version.

    Back-tests and previews are long jobs of the app's task manager (a newer pattern
    cancels the running one); saving is an ordered write. When the reviewers' decisions
    change (they are the labels of the figures) the back-test runs again: at once if the
    editor is the active window, else when it next becomes active.

    Signals:
        result_shown(): the lists and figures show the latest pattern's result.
        error_shown(str): the inline error (invalid pattern, timeout).
        saved(str, int): check id, new version.
        preview_shown(str): the key whose response the preview shows.
    """

    result_shown = Signal()
    error_shown = Signal(str)
    saved = Signal(str, int)
    preview_shown = Signal(str)

    def __init__(self, tasks: TaskManager, reviewer: str, parent: QWidget | None = None,
                 check_id: str | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.reviewer = reviewer
        self.specs: dict[str, CheckSpec] = {}
        self.versions: dict[str, int] = {}
        self.result: BacktestResult | None = None
        self.highlights: tuple[Spans, Spans] = ([], [])
        self._generation = 0
        self._task: LongTask | None = None
        self._outdated = False
        self._initial = check_id
        self.setWindowTitle(self.tr("Regex back-test"))
        self._build()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.run_now)
        for edit in (self.pattern, self.flags, self.when):
            edit.textChanged.connect(self._edited)
        self.mode.currentIndexChanged.connect(self._edited)
        self.check_box.currentIndexChanged.connect(self._check_chosen)
        self.reason.textChanged.connect(self._update_save)
        self.save_button.clicked.connect(self.save)
        for widget in (self.removed, self.added):
            widget.currentTextChanged.connect(self.show_attempt)
        tasks.changed.connect(self._changed)
        self.reload()

    # --- construction --------------------------------------------------------------------
    def _build(self) -> None:
        self.check_box = named(QComboBox(), "check_box")
        self.current = plain(named(QLabel(), "current_pattern"))
        self.current.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.pattern = named(QLineEdit(), "pattern")
        self.flags = named(QLineEdit(), "flags")
        self.flags.setMaximumWidth(80)
        self.flags.setPlaceholderText("i m s x")
        self.mode = named(QComboBox(), "mode")
        self.mode.addItem(self.tr("forbid (fails on a match)"), "forbid")
        self.mode.addItem(self.tr("require (fails without a match)"), "require")
        self.when = named(QLineEdit(), "when")
        self.when.setPlaceholderText(self.tr("require: only when the last user message matches"))
        self.error = plain(named(QLabel(), "error_label"))
        self.error.setStyleSheet("color: #b00020")
        self.error.setWordWrap(True)
        self.status = plain(named(QLabel(), "status_label"))
        self.removed = named(QListWidget(), "removed_list")
        self.added = named(QListWidget(), "added_list")
        self.figures = plain(named(QLabel(), "figures"))
        self.figures.setWordWrap(True)
        self.figures.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview = named(QTextEdit(), "preview")
        self.preview.setReadOnly(True)
        self.reason = named(QLineEdit(), "reason")
        self.reason.setPlaceholderText(self.tr("Why this change (one line, required to save)"))
        self.save_button = named(QPushButton(self.tr("Save as new version")), "save")
        self.save_button.setEnabled(False)

        form = QFormLayout()
        form.addRow(self.tr("Check"), self.check_box)
        form.addRow(self.tr("Current"), self.current)
        form.addRow(self.tr("Pattern"), self.pattern)
        row = QHBoxLayout()
        row.addWidget(self.flags)
        row.addWidget(self.mode)
        form.addRow(self.tr("Flags, mode"), row)
        form.addRow(self.tr("When"), self.when)
        lists = QHBoxLayout()
        for title, widget in ((self.tr("Hits that disappear"), self.removed),
                              (self.tr("Hits that appear"), self.added)):
            col = QVBoxLayout()
            col.addWidget(QLabel(title))
            col.addWidget(widget)
            lists.addLayout(col)
        save_row = QHBoxLayout()
        save_row.addWidget(self.reason, 1)
        save_row.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.status)
        layout.addLayout(lists, 1)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.figures)
        layout.addLayout(save_row)

    # --- loading -------------------------------------------------------------------------
    def reload(self) -> None:
        """Read the checks' current versions (in the background)."""
        self.tasks.query(checks_state, self._loaded, self._failed_load, owner=self)

    def _changed(self, changes: Changes) -> None:
        if not self.isVisible():
            return
        if changes.catalog and not self._changed_fields():
            self.reload()  # a new version stored elsewhere; nothing typed here is lost
        elif changes.decisions and self.check_box.currentData():
            # The reviewers' labels changed, and the figures with them.
            if self.isActiveWindow():
                self._timer.start()
            else:
                self._outdated = True

    def changeEvent(self, event: QEvent) -> None:
        """Back-test again if decisions changed while another window was active."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow() \
                and self._outdated and self.isVisible():
            self._outdated = False
            self._timer.start()

    def _loaded(self, state: ChecksState) -> None:
        self.specs, self.versions = state.specs, state.versions
        wanted = self._initial or self.check_box.currentData()
        self.check_box.blockSignals(True)
        self.check_box.clear()
        for cid in self.specs:
            self.check_box.addItem(cid, cid)
        self.check_box.blockSignals(False)
        index = self.check_box.findData(wanted) if wanted else 0
        self.check_box.setCurrentIndex(max(index, 0))
        self._check_chosen()

    def _failed_load(self, exc: BaseException) -> None:
        self.show_error(str(exc) or type(exc).__name__)

    def _check_chosen(self) -> None:
        spec = self.specs.get(self.check_box.currentData() or "")
        if spec is None:
            return
        version = self.versions.get(spec.id, 0)
        self.current.setText(f"v{version}: /{spec.pattern}/{spec.flags} ({spec.mode})"
                             + (f" when /{spec.when}/" if spec.when else ""))
        self.current.setToolTip(rich_tooltip(spec.description))
        for edit, value in ((self.pattern, spec.pattern), (self.flags, spec.flags),
                            (self.when, spec.when or "")):
            edit.blockSignals(True)
            edit.setText(value)
            edit.blockSignals(False)
        self.mode.blockSignals(True)
        self.mode.setCurrentIndex(max(self.mode.findData(spec.mode), 0))
        self.mode.blockSignals(False)
        self.run_now()

    # --- back-test -----------------------------------------------------------------------
    def candidate(self) -> CheckPattern:
        """The pattern the fields describe."""
        return CheckPattern(self.pattern.text(), self.flags.text().strip(),
                            self.mode.currentData() or "forbid", self.when.text() or None)

    @property
    def running(self) -> bool:
        """True while a back-test runs."""
        return self._task is not None

    def _edited(self) -> None:
        self._update_save()
        self._timer.start()

    def run_now(self) -> None:
        """Back-test the fields now (cancelling a run still going)."""
        self._timer.stop()
        check_id = self.check_box.currentData()
        if not check_id:
            return
        self._stop_running()
        self._generation += 1
        generation = self._generation
        spec = self.candidate()
        try:
            compile_check(spec)
        except PatternError as exc:
            self.result = None
            self.show_error(str(exc))
            self._update_save()
            return
        self.error.clear()
        self.status.setText(self.tr("Back-testing…"))
        self._task = self.tasks.long(
            lambda w: w.read(lambda s: backtest(s, check_id, spec, reviewer=None,
                                                timeout=TIMEOUT_S, budget=BUDGET_S,
                                                cancel=w.cancel.is_set)),
            lambda r: self._show(generation, r), lambda e: self._failed(generation, e),
            owner=self)

    def _stop_running(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _show(self, generation: int, result: BacktestResult) -> None:
        if generation != self._generation:
            return  # an older pattern's result: the fields changed since
        self._task = None
        self.result = result
        self.error.clear()
        self.removed.clear()
        self.added.clear()
        self.removed.addItems([str(k) for k in result.removed])
        self.added.addItems([str(k) for k in result.added])
        self.status.setText(
            self.tr("%1 attempts: %2 → %3 failing; %4 hits disappear, %5 appear")
            .replace("%1", str(result.attempts)).replace("%2", str(result.old_failures))
            .replace("%3", str(result.new_failures)).replace("%4", str(len(result.removed)))
            .replace("%5", str(len(result.added))))
        self.figures.setText(
            self.tr("Agreement with the reviewers on %1 labelled attempts")
            .replace("%1", str(result.new_agreement.n)) + "\n"
            + figures_text(self.tr("current"), result.old_agreement) + "\n"
            + figures_text(self.tr("new"), result.new_agreement))
        self._update_save()
        self.result_shown.emit()

    def _failed(self, generation: int, exc: BaseException) -> None:
        if generation != self._generation or isinstance(exc, Cancelled):
            return
        self._task = None
        self.result = None
        self.show_error(str(exc) if isinstance(exc, ReviewerError)
                        else f"{type(exc).__name__}: {exc}")
        self._update_save()

    def show_error(self, message: str) -> None:
        """Show an inline error instead of the result."""
        self.status.clear()
        self.error.setText(message)
        self.error_shown.emit(message)

    # --- preview -------------------------------------------------------------------------
    def show_attempt(self, key_text: str) -> None:
        """Show one response with the matches of the current and the new pattern."""
        if not key_text or self.result is None:
            return
        old, new = self.result.old, self.result.new

        def fetch(w: Work) -> tuple[str, Preview]:
            found = w.read(lambda s: check_preview(s, AttemptKey.parse(key_text), old, new,
                                                   timeout=TIMEOUT_S))
            # The page is built here, off the GUI thread: a response can be megabytes long.
            return preview_page(found), found

        def done(data: tuple[str, Preview]) -> None:
            page, found = data
            self.highlights = (found.old, found.new)
            self.preview.setHtml(page)
            self.preview_shown.emit(key_text)

        self.tasks.long(fetch, done, lambda e: self.show_error(str(e)), owner=self)

    # --- saving --------------------------------------------------------------------------
    def _changed_fields(self) -> bool:
        spec = self.specs.get(self.check_box.currentData() or "")
        if spec is None:
            return False
        c = self.candidate()
        return (c.pattern, c.flags, c.mode, c.when) != (spec.pattern, spec.flags, spec.mode,
                                                        spec.when)

    def _update_save(self) -> None:
        self.save_button.setEnabled(bool(self.reason.text().strip()) and self._changed_fields()
                                    and not self.error.text())

    def save(self) -> None:
        """Store the fields as the check's next version, with the reason."""
        spec = self.specs.get(self.check_box.currentData() or "")
        reason = self.reason.text().strip()
        if spec is None or not reason or not self._changed_fields():
            return
        c = self.candidate()
        try:
            compile_check(c)
        except PatternError as exc:
            self.show_error(str(exc))
            return
        new = CheckSpec(spec.id, spec.description, c.pattern, c.flags, c.mode, c.when)
        author = self.reviewer

        def done(saved: SavedVersion) -> None:
            version = saved.version
            self.specs[new.id] = new
            self.versions[new.id] = version
            self.reason.clear()
            self._initial = new.id
            self._check_chosen()
            self.status.setText(self.tr("Saved %1 v%2").replace("%1", new.id)
                                .replace("%2", str(version)))
            self.saved.emit(new.id, version)

        self.tasks.write(lambda s: save_check_version(s, new, reason=reason, author=author),
                         done, lambda e: self.show_error(str(e)), owner=self)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Stop the typing pause and cancel the back-test in progress (its answer is
        dropped; the manager's thread is not waited for)."""
        self._timer.stop()
        self._stop_running()
        self.tasks.cancel_long(self)
        super().closeEvent(event)

    def sizeHint(self) -> Any:
        """A comfortable default size."""
        hint = super().sizeHint()
        hint.setWidth(max(hint.width(), 900))
        hint.setHeight(max(hint.height(), 600))
        return hint
