"""Criteria editor: a new wording of a criterion with a reason, then re-judge what it touched.

Saving stores the next version (``reviewer.revise.editors.save_criterion_version``) as an
ordered write of the app's task manager. "Re-judge" sends every attempt the criterion
touched to the judge again, the criterion alone under its new wording
(``reviewer.revise.editors.rejudge_touched``), as a long job with a progress bar and
Cancel; the table then lists the verdicts that flipped and whether the filter's decision
flips with them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewer.catalog.spec import CriterionSpec
from reviewer.changes import Changes
from reviewer.judge.client import JudgeClient
from reviewer.review.visible import shown, unmarked
from reviewer.revise.criterion_rejudge import RejudgeReport
from reviewer.revise.editors import (
    CriteriaState,
    RejudgeRun,
    SavedVersion,
    criteria_state,
    rejudge_touched,
    save_criterion_version,
)
from ui.tasks import LongTask, TaskManager
from ui.widgets_util import named, plain

ClientFactory = Callable[[], JudgeClient]


def _yes_no(met: bool) -> str:
    return "oui" if met else "non"


class CriteriaEditor(QWidget):
    """Edit a criterion's text, save a version, re-judge and show the flips.

    Signals:
        saved(str, int): criterion id, new version.
        rejudged(object): the ``RejudgeReport`` of a finished re-judging run.
    """

    saved = Signal(str, int)
    rejudged = Signal(object)

    def __init__(self, tasks: TaskManager, reviewer: str,
                 client_factory: ClientFactory | None = None, parent: QWidget | None = None,
                 criterion_id: str | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.reviewer = reviewer
        self.client_factory = client_factory
        self.specs: dict[str, CriterionSpec] = {}
        self.versions: dict[str, int] = {}
        self.touched: dict[str, int] = {}
        self.report: RejudgeReport | None = None
        self._task: LongTask | None = None
        self._initial = criterion_id
        self.setWindowTitle(self.tr("Criteria editor"))
        self._build()
        tasks.changed.connect(self._changed)
        self.reload()

    def _build(self) -> None:
        self.box = named(QComboBox(), "criterion_box")
        self.current = named(QPlainTextEdit(), "current_text")
        self.current.setReadOnly(True)
        self.current.setMaximumHeight(90)
        self.text = named(QPlainTextEdit(), "new_text")
        self.reason = named(QLineEdit(), "reason")
        self.reason.setPlaceholderText(self.tr("Why this change (one line, required to save)"))
        self.save_button = named(QPushButton(self.tr("Save as new version")), "save")
        self.rejudge_button = named(QPushButton(self.tr("Re-judge touched attempts")),
                                    "rejudge")
        self.cancel_button = named(QPushButton(self.tr("Cancel")), "cancel")
        self.cancel_button.hide()
        self.bar = QProgressBar()
        self.bar.hide()
        self.status = plain(named(QLabel(), "status_label"))
        self.status.setWordWrap(True)
        self.flips = named(QTableWidget(0, 4), "flips_table")
        self.flips.setHorizontalHeaderLabels([self.tr("attempt"), self.tr("verdict"),
                                              self.tr("decision"), self.tr("new rationale")])
        self.flips.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        form = QFormLayout()
        form.addRow(self.tr("Criterion"), self.box)
        form.addRow(self.tr("Current"), self.current)
        form.addRow(self.tr("New text"), self.text)
        form.addRow(self.tr("Reason"), self.reason)
        buttons = QHBoxLayout()
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.rejudge_button)
        buttons.addWidget(self.bar, 1)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addWidget(self.flips, 1)
        self.box.currentIndexChanged.connect(self._chosen)
        self.text.textChanged.connect(self._update_buttons)
        self.reason.textChanged.connect(self._update_buttons)
        self.save_button.clicked.connect(self.save)
        self.rejudge_button.clicked.connect(self.rejudge)
        self.cancel_button.clicked.connect(self.cancel)

    # --- loading -------------------------------------------------------------------------
    def reload(self) -> None:
        """Read the criteria's current versions and how many attempts each touched."""
        self.tasks.query(criteria_state, self._loaded, lambda e: self.status.setText(str(e)),
                         owner=self)

    def _changed(self, changes: Changes) -> None:
        spec = self.specs.get(self.box.currentData() or "")
        edited = spec is not None and self.text.toPlainText().strip() != spec.text
        if changes.catalog and self.isVisible() and not edited:
            self.reload()  # a version stored elsewhere; nothing typed here is lost

    def _loaded(self, state: CriteriaState) -> None:
        self.specs, self.versions, self.touched = state.specs, state.versions, state.touched
        wanted = self._initial or self.box.currentData()
        self.box.blockSignals(True)
        self.box.clear()
        for cid in self.specs:
            self.box.addItem(cid, cid)
        self.box.blockSignals(False)
        self.box.setCurrentIndex(max(self.box.findData(wanted), 0) if wanted else 0)
        self._chosen()

    def _chosen(self) -> None:
        spec = self.specs.get(self.box.currentData() or "")
        if spec is None:
            return
        # Shown, not obeyed: a bidi control made "emlac" read "calme" here while the
        # judge reads "emlac" (fifteenth hostile pass, P15-7). The new text is edited with
        # the markers, and saved with them put back (``_new_text``).
        marked = shown(spec.text).text
        self.current.setPlainText(f"v{self.versions.get(spec.id, 0)} — {marked}")
        self.text.blockSignals(True)
        self.text.setPlainText(marked)
        self.text.blockSignals(False)
        self.rejudge_button.setText(self.tr("Re-judge %1 touched attempts")
                                    .replace("%1", str(self.touched.get(spec.id, 0))))
        self._update_buttons()

    def _update_buttons(self) -> None:
        spec = self.specs.get(self.box.currentData() or "")
        new = self._new_text()
        busy = self._task is not None
        self.save_button.setEnabled(spec is not None and bool(new) and new != spec.text
                                    and bool(self.reason.text().strip()) and not busy)
        self.rejudge_button.setEnabled(spec is not None and self.client_factory is not None
                                       and not busy and self.touched.get(spec.id, 0) > 0)
        if self.client_factory is None:
            self.rejudge_button.setToolTip(self.tr("No judge configured"))

    def _new_text(self) -> str:
        """The new text as it will be stored: its markers of hidden characters put back."""
        return unmarked(self.text.toPlainText().strip())

    # --- saving --------------------------------------------------------------------------
    def save(self) -> None:
        """Store the new text as the criterion's next version."""
        spec = self.specs.get(self.box.currentData() or "")
        reason = self.reason.text().strip()
        text = self._new_text()
        if spec is None or not reason or not text:
            return
        new = CriterionSpec(spec.id, spec.kind, spec.severity, text)
        author = self.reviewer

        def done(saved: SavedVersion) -> None:
            version = saved.version
            self.specs[new.id] = new
            self.versions[new.id] = version
            self.reason.clear()
            self._chosen()
            self.status.setText(self.tr("Saved %1 v%2 — re-judge to see which verdicts flip")
                                .replace("%1", new.id).replace("%2", str(version)))
            self.saved.emit(new.id, version)

        self.tasks.write(lambda s: save_criterion_version(s, new, reason=reason, author=author),
                         done, lambda e: self.status.setText(str(e)), owner=self)

    # --- re-judging ----------------------------------------------------------------------
    def rejudge(self) -> None:
        """Re-judge the touched attempts under the current version, in the background."""
        cid = self.box.currentData()
        if not cid or self.client_factory is None or self._task is not None:
            return
        factory = self.client_factory
        self.bar.setRange(0, 0)
        self.bar.show()
        self.cancel_button.show()
        self.status.setText(self.tr("Re-judging %1…").replace("%1", cid))
        self._task = self.tasks.long(
            lambda w: rejudge_touched(w.store, factory(), cid, progress=w.progress,
                                      cancel=w.cancel),
            self._rejudged, self._rejudge_failed, owner=self, on_progress=self._progress)
        self._update_buttons()

    def cancel(self) -> None:
        """Stop after the attempt in flight (what arrived is kept)."""
        if self._task is not None:
            self._task.cancel()

    def _progress(self, done: int, total: int) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)

    def _finish(self) -> None:
        self._task = None
        self.bar.hide()
        self.cancel_button.hide()
        self._update_buttons()

    def _rejudged(self, run: RejudgeRun) -> None:
        self._finish()
        report = run.report
        self.report = report
        self.status.setText(report.summary() + (
            f" — {report.failed[0][0]}: {report.failed[0][1]}" if report.failed else ""))
        self.flips.setRowCount(len(report.flips))
        for r, f in enumerate(report.flips):
            decision = (self.tr("accepted") if f.new_accepted else self.tr("refused")) \
                if f.old_accepted != f.new_accepted else self.tr("unchanged")
            cells = [f.key, f"{_yes_no(f.old_met)} → {_yes_no(f.new_met)}", decision,
                     f.rationale]
            for c, text in enumerate(cells):
                self.flips.setItem(r, c, QTableWidgetItem(text))
        self.flips.resizeColumnsToContents()
        self.rejudged.emit(report)

    def _rejudge_failed(self, exc: BaseException) -> None:
        self._finish()
        self.status.setText(self.tr("Re-judging failed: %1").replace("%1", str(exc)))

    def closeEvent(self, event: QCloseEvent) -> None:
        """Cancel a re-judging run (what arrived is kept; its answer is dropped)."""
        self.cancel()
        super().closeEvent(event)

    def sizeHint(self) -> Any:
        """A comfortable default size."""
        hint = super().sizeHint()
        hint.setWidth(max(hint.width(), 900))
        hint.setHeight(max(hint.height(), 620))
        return hint
