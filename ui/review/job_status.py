"""The status-bar widget of a background batch: progress bar, Cancel, the summary line.

It shows what it is told (``start``, ``set_progress``, ``finish``) and says when the
reviewer clicks Cancel; it knows nothing of what the batch does. Hidden until the first
batch, so the status bar looks the same as before one ran.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget


class JobStatus(QWidget):
    """A batch's progress and its Cancel button, then its one-line summary.

    Signals:
        cancel_requested(): the reviewer clicked Cancel (the button greys until the end).
    """

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel()
        self.summary.setObjectName("job_summary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.bar = QProgressBar()
        self.bar.setObjectName("job_bar")
        self.bar.setMaximumWidth(220)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("cancel_button")
        self.cancel_button.clicked.connect(self._cancel)
        # A click leaves the keyboard where the reviewer was: the button took the focus,
        # and once it hid the focus went on to the search box, so the next "?" became
        # a search (twelfth hostile pass, P12-9).
        self.cancel_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.summary)
        row.addWidget(self.bar)
        row.addWidget(self.cancel_button)
        # QStatusBar takes its height from every item, hidden or not: the hidden button
        # gave the bar its height before it moved in here, and keeps giving it, so the
        # window looks the same whether a batch ever ran or not.
        self.setMinimumHeight(max(self.cancel_button.sizeHint().height(),
                                  self.bar.sizeHint().height()))
        self.bar.hide()
        self.cancel_button.hide()
        self.hide()

    @property
    def running(self) -> bool:
        """True between ``start`` and ``finish``."""
        return self.bar.isVisibleTo(self)

    def start(self, bar_format: str) -> None:
        """A batch started: a busy bar (until the total is known) and Cancel."""
        self.summary.clear()
        self.summary.hide()
        self.bar.setFormat(bar_format)
        self.bar.setRange(0, 0)
        self.bar.show()
        self.cancel_button.setEnabled(True)
        self.cancel_button.show()
        self.show()

    def set_progress(self, done: int, total: int) -> None:
        """``done`` of ``total`` items."""
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)

    def finish(self, summary: str) -> None:
        """The batch ended: hide the bar and Cancel, keep its summary in view."""
        self.bar.hide()
        self.cancel_button.hide()
        self.summary.setText(summary)
        self.summary.setVisible(bool(summary))
        self.setVisible(bool(summary))

    def _cancel(self) -> None:
        self.cancel_button.setEnabled(False)
        self.cancel_requested.emit()
