"""The Export dialog: the same exports as ``reviewer export KIND OUT``, in the background.

Dataset options (one example per turn or per conversation, chat or ShareGPT) are enabled
only for the dataset. The file is written to a temporary file and renamed
(``reviewer.atomic``), so a failed export leaves nothing half-written; the error is shown
in the dialog. The export is a long job of the app's task manager: it reads the whole
store and must not hold up the reviewer's actions; it starts after every write asked for
before it, so it contains the decision just made.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reviewer.exports import KINDS
from reviewer.exports.run import run_export
from ui.tasks import TaskManager
from ui.widgets_util import named, plain

SUFFIX = {"catalog": ".json"}


class ExportDialog(QDialog):
    """Choose what to export and where; run it off the GUI thread.

    Signals:
        exported(str): the export was written; its summary line.
    """

    exported = Signal(str)

    def __init__(self, tasks: TaskManager, parent: QWidget | None = None,
                 folder: Path | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.folder = folder or Path.home()
        self.setWindowTitle(self.tr("Export"))
        self.kind = named(QComboBox(), "kind")
        labels = {"dataset": self.tr("Corrected dataset (JSONL)"),
                  "catalog": self.tr("Catalog with versions (JSON)"),
                  "golden": self.tr("Golden set for the filter's tests (JSONL)"),
                  "resume": self.tr("Conversations to resume (JSONL)"),
                  "decisions": self.tr("Audit trail (JSONL)"),
                  "calibration": self.tr("Calibration scores with their grading files (JSONL)")}
        for kind in KINDS:
            self.kind.addItem(labels[kind], kind)
        self.per = named(QComboBox(), "per")
        self.per.addItem(self.tr("one example per assistant turn"), "turn")
        self.per.addItem(self.tr("one example per conversation"), "conversation")
        self.fmt = named(QComboBox(), "format")
        self.fmt.addItem(self.tr("chat messages (OpenAI / Hugging Face)"), "chat")
        self.fmt.addItem("ShareGPT", "sharegpt")
        self.path = named(QLineEdit(), "path")
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse)
        self.status = plain(named(QLabel(), "status_label"))
        self.status.setWordWrap(True)
        self.export_button = named(QPushButton(self.tr("Export")), "export")
        self.export_button.clicked.connect(self.start)
        close = QPushButton(self.tr("Close"))
        close.clicked.connect(self.close)

        form = QFormLayout()
        form.addRow(self.tr("What"), self.kind)
        form.addRow(self.tr("Examples"), self.per)
        form.addRow(self.tr("Format"), self.fmt)
        where = QHBoxLayout()
        where.addWidget(self.path, 1)
        where.addWidget(browse)
        form.addRow(self.tr("File"), where)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.export_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self._kind_changed()

    def _kind_changed(self) -> None:
        kind = self.kind.currentData()
        self.per.setEnabled(kind == "dataset")
        self.fmt.setEnabled(kind == "dataset")
        self.path.setText(str(self.folder / f"{kind}{SUFFIX.get(kind, '.jsonl')}"))

    def _browse(self) -> None:
        chosen, _ = QFileDialog.getSaveFileName(self, self.tr("Export to"), self.path.text())
        if chosen:
            self.path.setText(chosen)

    def start(self) -> None:
        """Run the chosen export in the background."""
        text = self.path.text().strip()
        if not text:
            self.status.setText(self.tr("Choose a file to write."))
            return
        kind, out = self.kind.currentData(), Path(text).expanduser()
        per, fmt = self.per.currentData(), self.fmt.currentData()
        self.export_button.setEnabled(False)
        self.status.setText(self.tr("Exporting…"))
        self.tasks.long_query(lambda s: run_export(s, kind, out, per=per, fmt=fmt),
                              self._done, self._failed, owner=self)

    def _done(self, line: str) -> None:
        self.export_button.setEnabled(True)
        self.status.setText(line)
        self.exported.emit(line)

    def _failed(self, exc: BaseException) -> None:
        self.export_button.setEnabled(True)
        self.status.setText(self.tr("Export failed: %1").replace("%1", str(exc)
                                                                  or type(exc).__name__))
