"""Agreement dashboard: grader vs reviewer per criterion and per check, refusals per cause.

Numbers come from ``reviewer.agreement.dashboard.dashboard_stats`` (the figures of
``reviewer stats --json``), computed as a long job of the app's task manager, and again
when an operation reports changed decisions, verdicts or versions: at once if the
dashboard is the active window, else when it next becomes active (a whole-store pass per
decision made in the review window would keep a core busy while the reviewer works).
The chart is drawn with QPainter (QtCharts is not part of pyside6-essentials): per row,
the false-failure rate and the coverage as two horizontal bars. When no accepted attempt
was audited, coverage cannot be known: a warning says so and coverage shows as "unknown".
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewer.agreement.dashboard import dashboard_stats
from reviewer.agreement.reviewers import ReviewerAgreement
from reviewer.changes import Changes
from ui.plural import english
from ui.tasks import TaskManager
from ui.widgets_util import named, plain

FFR_COLOR = QColor("#c62828")
COVERAGE_COLOR = QColor("#2e7d32")
ROW_H = 22


def pct(x: float | None, unknown: str = "n/a") -> str:
    """A rate as a percentage, or ``unknown``."""
    return unknown if x is None else f"{x:.0%}"


class RateBars(QWidget):
    """Two horizontal bars per row: false-failure rate (red) and coverage (green)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[str, float | None, float | None]] = []

    def set_rows(self, rows: list[tuple[str, float | None, float | None]]) -> None:
        """Replace the rows and repaint."""
        self.rows = rows
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        """Tall enough for every row and the legend."""
        return QSize(420, ROW_H * (len(self.rows) + 1) + 8)

    def minimumSizeHint(self) -> QSize:
        """As tall as the content."""
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the legend, then one label and two bars per row."""
        p = QPainter(self)
        try:
            self._paint(p)
        finally:
            p.end()

    def _paint(self, p: QPainter) -> None:
        label_w, width = 130.0, max(self.width() - 180.0, 40.0)
        text = self.palette().windowText().color()
        p.setPen(text)
        p.fillRect(QRectF(label_w, 6, 10, 10), FFR_COLOR)
        p.drawText(QRectF(label_w + 14, 0, 160, ROW_H), Qt.AlignmentFlag.AlignVCenter,
                   self.tr("false-failure rate"))
        p.fillRect(QRectF(label_w + 180, 6, 10, 10), COVERAGE_COLOR)
        p.drawText(QRectF(label_w + 194, 0, 160, ROW_H), Qt.AlignmentFlag.AlignVCenter,
                   self.tr("coverage"))
        for i, (label, ffr, cov) in enumerate(self.rows, start=1):
            y = i * ROW_H
            p.setPen(text)
            p.drawText(QRectF(0, y, label_w - 6, ROW_H),
                       Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, label)
            for j, (value, color) in enumerate(((ffr, FFR_COLOR), (cov, COVERAGE_COLOR))):
                top = y + 3 + j * 8
                if value is None:
                    p.setPen(color)
                    p.drawLine(int(label_w), int(top + 3), int(label_w + 12), int(top + 3))
                    continue
                p.fillRect(QRectF(label_w, top, width * value, 7), color)
            p.setPen(text)
            p.drawText(QRectF(label_w + width + 4, y, 60, ROW_H), Qt.AlignmentFlag.AlignVCenter,
                       f"{pct(ffr, '–')} / {pct(cov, '?')}")


# Marked for lupdate: ``self.tr(c)`` on a variable alone is invisible to it (the headers
# stayed English in French).
COLUMNS = ("", QT_TRANSLATE_NOOP("AgreementDashboard", "labelled"),
           QT_TRANSLATE_NOOP("AgreementDashboard", "caught"),
           QT_TRANSLATE_NOOP("AgreementDashboard", "false failures"),
           QT_TRANSLATE_NOOP("AgreementDashboard", "misses"),
           QT_TRANSLATE_NOOP("AgreementDashboard", "kappa"),
           QT_TRANSLATE_NOOP("AgreementDashboard", "false-failure rate"),
           QT_TRANSLATE_NOOP("AgreementDashboard", "coverage"))


class AgreementDashboard(QWidget):
    """Numbers and bars of grader/reviewer agreement; refreshes on demand and on changes.

    Signals:
        loaded(): the figures shown are the latest computed.
    """

    loaded = Signal()

    def __init__(self, tasks: TaskManager, parent: QWidget | None = None,
                 reviewer: str | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.reviewer = reviewer
        self.stats: dict[str, Any] | None = None
        self._computing = False
        self._stale = False  # a change arrived during a pass: one more pass
        self._outdated = False  # a change arrived while inactive: a pass when active
        self.setWindowTitle(self.tr("Agreement dashboard"))
        self.warning = plain(named(QLabel(), "coverage_warning"))
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("color: #b00020; font-weight: bold")
        self.warning.hide()
        self.overall = plain(named(QLabel(), "overall"))
        self.overall.setWordWrap(True)
        self.table = named(QTableWidget(0, len(COLUMNS)), "agreement_table")
        self.table.setHorizontalHeaderLabels([self.tr(str(c)) for c in COLUMNS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # Columns as wide as their header and figures: the window opens that wide.
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.bars = named(RateBars(), "rate_bars")
        self.causes = named(QTableWidget(0, 4), "causes_table")
        self.causes.setHorizontalHeaderLabels(
            [self.tr("cause"), self.tr("refusals"), self.tr("reviewed"), self.tr("overturned")])
        self.causes.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.reviewers = named(QTableWidget(0, 3), "reviewers_table")
        self.reviewers.setHorizontalHeaderLabels(
            [self.tr("between reviewers"), self.tr("attempts"), self.tr("agreement")])
        self.reviewers.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.cut = plain(named(QLabel(), "cut_label"))
        self.cut.setWordWrap(True)
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.refresh_button.clicked.connect(self.refresh)
        self.error = plain(named(QLabel(), "error_label"))
        self.error.setStyleSheet("color: #b00020")

        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.bars)
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(self.overall, 1)
        top.addWidget(self.refresh_button)
        layout.addLayout(top)
        layout.addWidget(self.warning)
        layout.addWidget(self.error)
        layout.addWidget(self.table, 2)
        layout.addWidget(scroll, 1)
        layout.addWidget(QLabel(self.tr("Refusals per cause")))
        layout.addWidget(self.causes, 1)
        layout.addWidget(self.cut)
        layout.addWidget(QLabel(self.tr("Agreement between reviewers (team mode)")))
        layout.addWidget(self.reviewers, 1)
        tasks.changed.connect(self._changed)
        self.refresh()

    def refresh(self) -> None:
        """Recompute the figures in the background (once more after a running pass)."""
        if self._computing:
            self._stale = True
            return
        reviewer = self.reviewer
        self._computing = True
        self.refresh_button.setEnabled(False)
        self.tasks.long_query(lambda s: dashboard_stats(s, reviewer), self.show_stats,
                              self._failed, owner=self)

    def _changed(self, changes: Changes) -> None:
        if not (changes.decisions or changes.verdicts or changes.catalog
                or changes.attempts_added):
            return
        if self.isVisible() and self.isActiveWindow():
            self.refresh()
        else:
            self._outdated = True

    def changeEvent(self, event: QEvent) -> None:
        """Recompute figures made out of date while another window was active."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow() \
                and self._outdated:
            self._outdated = False
            self.refresh()

    def _computed(self) -> bool:
        """The pass ended; False when another must run (a change arrived meanwhile)."""
        self._computing = False
        self.refresh_button.setEnabled(True)
        if self._stale:
            self._stale = False
            self.refresh()
            return False
        return True

    def _failed(self, exc: BaseException) -> None:
        if self._computed():
            self.error.setText(str(exc) or type(exc).__name__)

    def show_stats(self, stats: dict[str, Any]) -> None:
        """Fill the labels, tables and bars."""
        if not self._computed():
            return
        self.error.clear()
        self.stats = stats
        agreed = stats["agreement"]
        known = agreed["coverage_known"]
        self.warning.setVisible(not known)
        self.warning.setText(self.tr("Coverage unknown: no attempt the grader accepted has "
                                     "been audited, so the bad answers it let through are "
                                     "not counted. Audit a sample of accepted attempts.")
                             if not known else "")
        o = agreed["overall"]
        kappa = "n/a" if o["kappa"] is None else f"{o['kappa']:.2f}"
        audited = int(agreed["audited"])  # a plain name: lupdate marks the plural then
        self.overall.setText(
            english(self.tr("%n audited attempt(s) — kappa %2, false-failure rate %3, "
                            "coverage %4", None, audited), audited)
            .replace("%2", kappa)
            .replace("%3", pct(o["false_failure_rate"]))
            .replace("%4", pct(o["coverage"], self.tr("unknown"))))
        rows = [(self.tr("overall"), o)]
        rows += list(agreed["criteria"].items()) + list(agreed["checks"].items())
        self._fill_agreement(rows, known)
        self.bars.set_rows([(name, f["false_failure_rate"], f["coverage"]) for name, f in rows])
        self._fill_causes(stats["refusals_by_cause"])
        cut = stats["cut"]
        lost, unjust = int(cut["turns_lost"]), int(cut["unjust_turns_lost"])
        self.cut.setText(
            self.tr("Conversations cut short by the filter: %1 (%2); by refusals "
                    "the reviewer overturned: %3 (%4)")
            .replace("%1", str(cut["conversations"]))
            .replace("%2", english(self.tr("%n turn(s) lost", None, lost), lost))
            .replace("%3", str(cut["unjust_conversations"]))
            .replace("%4", english(self.tr("%n turn(s) lost", None, unjust), unjust)))
        self._fill_reviewers(stats.get("between_reviewers"))
        self.loaded.emit()

    def _fill_reviewers(self, figures: ReviewerAgreement | None) -> None:
        """Krippendorff's alpha over all reviewers, Cohen's kappa per pair, alpha per criterion."""
        rows: list[tuple[str, int, float | None, str]] = []
        if figures is not None and len(figures.decided) >= 2:
            d = figures.decision
            rows.append((self.tr("all reviewers, decisions"), d.units, d.alpha, "alpha"))
            rows += [(f"{p.first} / {p.second}", p.units, p.kappa, "kappa") for p in d.pairs]
            rows += [(self.tr("all reviewers, %1").replace("%1", c), a.units, a.alpha, "alpha")
                     for c, a in figures.criteria.items()]
        self.reviewers.setRowCount(len(rows))
        for r, (name, units, value, measure) in enumerate(rows):
            shown = "n/a" if value is None else f"{measure} {value:.2f}"
            for c, text in enumerate((name, str(units), shown)):
                self.reviewers.setItem(r, c, QTableWidgetItem(text))
        self.reviewers.resizeColumnsToContents()

    def _fill_agreement(self, rows: list[tuple[str, dict[str, Any]]], known: bool) -> None:
        self.table.setRowCount(len(rows))
        for r, (name, f) in enumerate(rows):
            kappa = "n/a" if f["kappa"] is None else f"{f['kappa']:.2f}"
            cells = [name, str(f["labelled"]), str(f["caught"]), str(f["false_failures"]),
                     str(f["misses"]), kappa, pct(f["false_failure_rate"]),
                     pct(f["coverage"], self.tr("unknown") if not known else "n/a")]
            for c, text in enumerate(cells):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()

    def _fill_causes(self, causes: dict[str, dict[str, int]]) -> None:
        self.causes.setRowCount(len(causes))
        for r, (cause, c) in enumerate(causes.items()):
            for col, text in enumerate((cause, str(c["refusals"]), str(c["reviewed"]),
                                        str(c["overturned"]))):
                self.causes.setItem(r, col, QTableWidgetItem(text))
        self.causes.resizeColumnsToContents()
