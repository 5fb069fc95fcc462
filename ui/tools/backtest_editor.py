"""Regex editor with a live back-test: type a pattern, see which hits disappear or appear.

Typing restarts a 300 ms timer; when it fires, the pattern is compiled (an invalid one is
reported inline: a ``python`` pattern at once on the GUI thread, an ``ecmascript`` one by
the background run, since V8 takes a moment to start) and the back-test
(``reviewer.backtest``) runs on a background thread, followed by the pattern's lint (the
holes French answers fall into, ``reviewer.revise.pattern_lint``). The dialect selector
says how the new pattern is read: ECMAScript (JavaScript's RegExp, as the TypeScript
filter runs it) or Python; the current version keeps its own. A newer pattern cancels
the run in progress; a result that arrives for an older pattern is dropped. Each text is
searched with a time bound, so a catastrophic pattern is stopped and reported ("pattern
stopped after 0.5 s on KEY …", or "current (v2, stored) pattern …" when the stored version
is the slow one) while the window stays responsive. Choosing a key
in either list shows that response with the current pattern's matches struck through in
red and the new pattern's underlined in green. Save (or Enter in the reason field) stores a
new version of the check with a one-line reason, then evaluates that version on every
stored response (``reviewer.revise.recheck``, a long job with its progress and a Cancel
button here), so the queue and the pane show what the old version refused and the new
one passes. The editor opens on the check the attempt on screen failed (``check_id``,
``select_check``).
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
from reviewer.revise.backtest import BacktestResult, Cancelled
from reviewer.revise.editors import (
    ChecksState,
    Preview,
    SavedVersion,
    check_preview,
    checks_state,
    save_check_version,
)
from reviewer.revise.pattern_lint import LintFinding, backtest_and_lint
from reviewer.revise.recheck import RecheckRun, recheck_check, recheck_counts
from reviewer.rule.checks import CheckPattern, PatternError, compile_check
from reviewer.store import Session
from ui.plural import english
from ui.tasks import LongTask, TaskManager, Work
from ui.widgets_util import named, plain, rich_tooltip

DEBOUNCE_MS = 300
TIMEOUT_S = 0.5
BUDGET_S = 30.0
FLAG_HINTS = {"ecmascript": "d g i m s u v y", "python": "i m s x"}


def _compile_now(spec: CheckPattern) -> None:
    """Compile on the caller's thread when that is instant: ``python`` only (the first
    ``ecmascript`` pattern starts V8, which the GUI thread must not wait for)."""
    if spec.dialect == "python":
        compile_check(spec)



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
    """Edit a check's pattern, flags, mode, dialect and ``when``; back-test live; save.

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
        self.findings: list[LintFinding] = []
        self.highlights: tuple[Spans, Spans] = ([], [])
        self._generation = 0
        self._task: LongTask | None = None
        self._outdated = False
        self._initial = check_id
        self._recheck: LongTask | None = None
        self.setWindowTitle(self.tr("Regex back-test"))
        self._build()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.run_now)
        for edit in (self.pattern, self.flags, self.when):
            edit.textChanged.connect(self._edited)
        self.mode.currentIndexChanged.connect(self._edited)
        self.dialect.currentIndexChanged.connect(self._dialect_chosen)
        self.check_box.currentIndexChanged.connect(self._check_chosen)
        self.reason.textChanged.connect(self._update_save)
        self.reason.returnPressed.connect(self.save)  # Enter saves, as in the note dialog
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
        self.flags.setPlaceholderText(FLAG_HINTS["python"])
        self.dialect = named(QComboBox(), "dialect")
        self.dialect.addItem(self.tr("ECMAScript (JavaScript RegExp, as the filter)"),
                             "ecmascript")
        self.dialect.addItem(self.tr("Python (regex package)"), "python")
        self.dialect.setToolTip(self.tr(
            "How the pattern is read. The team's filter is TypeScript: in JavaScript \\b and "
            "\\w are ASCII, so « é » ends a word."))
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
        self.lint = plain(named(QLabel(), "lint_label"))
        self.lint.setWordWrap(True)
        self.lint.setStyleSheet("color: #8a5300")
        self.lint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.figures = plain(named(QLabel(), "figures"))
        self.figures.setWordWrap(True)
        self.figures.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview = named(QTextEdit(), "preview")
        self.preview.setReadOnly(True)
        self.reason = named(QLineEdit(), "reason")
        self.reason.setPlaceholderText(self.tr("Why this change (one line, required to save)"))
        self.save_button = named(QPushButton(self.tr("Save as new version")), "save")
        self.save_button.setEnabled(False)
        self.recheck_label = plain(named(QLabel(), "recheck_label"))
        self.recheck_cancel = named(QPushButton(self.tr("Cancel")), "recheck_cancel")
        self.recheck_cancel.hide()
        self.recheck_cancel.clicked.connect(self.cancel_recheck)

        form = QFormLayout()
        form.addRow(self.tr("Check"), self.check_box)
        form.addRow(self.tr("Current"), self.current)
        form.addRow(self.tr("Pattern"), self.pattern)
        row = QHBoxLayout()
        row.addWidget(self.flags)
        row.addWidget(self.mode)
        row.addWidget(self.dialect)
        form.addRow(self.tr("Flags, mode, dialect"), row)
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
        layout.addWidget(self.lint)
        layout.addLayout(lists, 1)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.figures)
        layout.addLayout(save_row)
        recheck_row = QHBoxLayout()
        recheck_row.addWidget(self.recheck_label, 1)
        recheck_row.addWidget(self.recheck_cancel)
        layout.addLayout(recheck_row)

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
        self._initial = spec.id  # a reload after a catalog change stays on it
        version = self.versions.get(spec.id, 0)
        # python, the default, goes unsaid (as before dialects); ecmascript is named.
        dialect = "" if spec.dialect == "python" else f", {spec.dialect}"
        self.current.setText(f"v{version}: /{spec.pattern}/{spec.flags} ({spec.mode}{dialect})"
                             + (f" when /{spec.when}/" if spec.when else ""))
        self.current.setToolTip(rich_tooltip(spec.description))
        for edit, value in ((self.pattern, spec.pattern), (self.flags, spec.flags),
                            (self.when, spec.when or "")):
            edit.blockSignals(True)
            edit.setText(value)
            edit.blockSignals(False)
        for box, value in ((self.mode, spec.mode), (self.dialect, spec.dialect)):
            box.blockSignals(True)
            box.setCurrentIndex(max(box.findData(value), 0))
            box.blockSignals(False)
        self.flags.setPlaceholderText(FLAG_HINTS.get(spec.dialect, ""))
        self.run_now()
        self._resume_recheck(spec.id)

    def _dialect_chosen(self) -> None:
        self.flags.setPlaceholderText(FLAG_HINTS.get(self.dialect.currentData() or "", ""))
        self._edited()

    # --- back-test -----------------------------------------------------------------------
    def candidate(self) -> CheckPattern:
        """The pattern the fields describe."""
        return CheckPattern(self.pattern.text(), self.flags.text().strip(),
                            self.mode.currentData() or "forbid", self.when.text() or None,
                            self.dialect.currentData() or "python")

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
            _compile_now(spec)
        except PatternError as exc:
            self.result = None
            self.show_error(str(exc))
            self._update_save()
            return
        self.error.clear()
        self.status.setText(self.tr("Back-testing…"))
        self._task = self.tasks.long(
            lambda w: w.read(lambda s: backtest_and_lint(
                s, check_id, spec, timeout=TIMEOUT_S, budget=BUDGET_S, cancel=w.cancel.is_set)),
            lambda r: self._show(generation, r), lambda e: self._failed(generation, e),
            owner=self)

    def _stop_running(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _show(self, generation: int, found: tuple[BacktestResult, list[LintFinding]]) -> None:
        if generation != self._generation:
            return  # an older pattern's result: the fields changed since
        self._task = None
        result, self.findings = found
        self.result = result
        self.lint.setText("\n".join(
            [self.tr("Holes in the new pattern:"), *(f.line() for f in self.findings)])
            if self.findings else "")
        self.error.clear()
        self.removed.clear()
        self.added.clear()
        self.removed.addItems([str(k) for k in result.removed])
        self.added.addItems([str(k) for k in result.added])
        attempts, removed, added = result.attempts, len(result.removed), len(result.added)
        self.status.setText(
            self.tr("%1: %2 → %3 failing; %4, %5")
            .replace("%1", english(self.tr("%n attempt(s)", None, attempts), attempts))
            .replace("%2", str(result.old_failures)).replace("%3", str(result.new_failures))
            .replace("%4", english(self.tr("%n hit(s) gone", None, removed), removed))
            .replace("%5", english(self.tr("%n new hit(s)", None, added), added)))
        self.figures.setText(
            self.tr("Agreement with the reviewers on %1 labelled attempts")
            .replace("%1", str(result.new_agreement.n)) + "\n"
            + self.figures_text(self.tr("current"), result.old_agreement) + "\n"
            + self.figures_text(self.tr("new"), result.new_agreement))
        self._update_save()
        self.result_shown.emit()

    def _pct(self, x: float | None) -> str:
        return self.tr("n/a") if x is None else f"{x:.0%}"

    def figures_text(self, label: str, c: Confusion) -> str:
        """One line of agreement figures for a pattern, its counts with plural forms."""
        # self.tr(text, None, n) with n a plain name: the one form pyside6-lupdate marks
        # as a plural (numerus) entry.
        fp, fn, tp = c.fp, c.fn, c.tp
        hits = self.tr("%n hit(s) on accepted", None, fp)
        misses = self.tr("%n miss(es) on refused", None, fn)
        confirmed = self.tr("%n confirmed hit(s)", None, tp)
        counts = [english(hits, fp), english(misses, fn), english(confirmed, tp)]
        kappa = self._pct(None) if c.kappa is None else f"{c.kappa:.2f}"
        rates = (self.tr("false-failure rate %1, coverage %2, kappa %3")
                 .replace("%1", self._pct(c.false_failure_rate))
                 .replace("%2", self._pct(c.coverage)).replace("%3", kappa))
        return f"{label}: {', '.join(counts)} — {rates}"

    def _failed(self, generation: int, exc: BaseException) -> None:
        if generation != self._generation or isinstance(exc, Cancelled):
            return
        self._task = None
        self.result = None
        self.findings = []
        self.lint.clear()
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
        return (c.pattern, c.flags, c.mode, c.when, c.dialect) != (
            spec.pattern, spec.flags, spec.mode, spec.when, spec.dialect)

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
            _compile_now(c)
        except PatternError as exc:
            self.show_error(str(exc))
            return
        new = CheckSpec(spec.id, spec.description, c.pattern, c.flags, c.mode, c.when,
                        c.dialect)
        author = self.reviewer

        def write(s: Session) -> SavedVersion:
            compile_check(c)  # in its dialect, before anything is stored
            return save_check_version(s, new, reason=reason, author=author)

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
            self.recheck(new.id, version)

        self.tasks.write(write, done, lambda e: self.show_error(str(e)), owner=self)

    # --- the saved version on every stored response -----------------------------------
    def select_check(self, check_id: str | None) -> None:
        """Show ``check_id`` (the attempt on screen's), unless an edit is under way."""
        if check_id is None or self._changed_fields():
            return
        self._initial = check_id
        index = self.check_box.findData(check_id)
        if index >= 0 and index != self.check_box.currentIndex():
            self.check_box.setCurrentIndex(index)

    def recheck(self, check_id: str, version: int) -> None:
        """Evaluate the check's current version on every stored response (long job)."""
        self.cancel_recheck()
        text = self.tr("Re-checking %1 v%2 on the stored responses: %3 / %4")

        def progressed(done: int, total: int) -> None:
            self.recheck_label.setText(text.replace("%1", check_id).replace(
                "%2", str(version)).replace("%3", str(done)).replace("%4", str(total)))

        progressed(0, 0)
        self.recheck_cancel.setEnabled(True)
        self.recheck_cancel.show()
        self._recheck = self.tasks.long(
            lambda w: recheck_check(w.store, check_id, progress=w.progress, cancel=w.cancel),
            self._rechecked, self._recheck_failed, owner=self, on_progress=progressed)

    def _resume_recheck(self, check_id: str) -> None:
        """A re-check stopped earlier (Cancel, the editor closed) goes on where it was."""
        if self._recheck is not None:
            return

        def counted(counts: tuple[int, int]) -> None:
            ran, done = counts
            if done < ran and self._recheck is None and self.check_box.currentData() == check_id:
                self.recheck(check_id, self.versions.get(check_id, 0))

        self.tasks.query(lambda s: recheck_counts(s, check_id), counted, owner=self)

    def cancel_recheck(self) -> None:
        """Stop the re-check in progress (what it evaluated is kept; saving resumes it)."""
        if self._recheck is not None:
            self._recheck.cancel()
            self.recheck_cancel.setEnabled(False)

    def _rechecked(self, run: RecheckRun) -> None:
        self._recheck = None
        self.recheck_cancel.hide()
        if run.cancelled:
            text = self.tr("Re-checking %1 v%2 stopped after %3 of %4 attempts")
        else:
            text = self.tr("%1 v%2 evaluated on %4 stored responses: %5 the old version "
                           "refused now pass, %6 now fail")
        self.recheck_label.setText(
            text.replace("%1", run.check_id).replace("%2", str(run.version))
            .replace("%3", str(run.evaluated)).replace("%4", str(run.total))
            .replace("%5", str(run.now_pass)).replace("%6", str(run.now_fail)))

    def _recheck_failed(self, exc: BaseException) -> None:
        self._recheck = None
        self.recheck_cancel.hide()
        self.recheck_label.setText(str(exc).splitlines()[0] if str(exc) else
                                   type(exc).__name__)

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
