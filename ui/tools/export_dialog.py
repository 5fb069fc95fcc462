"""The Export dialog: the same exports as ``reviewer export KIND OUT``, in the background.

Dataset options (one example per turn or per conversation; chat, ShareGPT or TRL
prompt-completion; several accepted attempts of a turn: all, first or last; tainted
contexts kept or left out; OpenAI weights on the context's answers) are enabled only for
the dataset, preference options (TRL DPO, OpenAI DPO, KTO; the filter's own refusals as
rejected sides; causes) only for the preference pairs; a validation share writes a
folder split by conversation. Before exporting, the dialog shows what the review changed
in the dataset (``reviewer.exports.changes``: examples gained and lost against the
filter's own selection, turns regained, pairs available, per refusal cause), computed in
the background whenever the dataset options change.

The output path is checked first (``reviewer.outputs``: never the open database, never a
folder); files are written to temporary files and renamed (``reviewer.atomic``), so a
failed export leaves nothing half-written; the error is shown in the dialog. The export
is a long job of the app's task manager: it reads the whole store and must not hold up
the reviewer's actions; it starts after every write asked for before it, so it contains
the decision just made.

Enter exports (the Export button is the default; Browse… and Close never take Enter).
Given a ``memory`` (the app's settings), the dialog reopens with the last export's kind,
options and path, kept under ``window/export_choices`` when an export starts.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from reviewer.changes import Changes
from reviewer.errors import ReviewerError
from reviewer.exports import KINDS
from reviewer.exports.changes import review_changes
from reviewer.exports.options import DatasetOptions, PreferenceOptions, parse_causes
from reviewer.exports.run import export_target, run_export, stored_causes
from reviewer.exports.split import Split
from reviewer.json_input import loads
from reviewer.store import Session
from ui.file_dialogs import existing_folder, save_file_name
from ui.settings import Settings
from ui.tasks import TaskManager
from ui.widgets_util import named, plain

SUFFIX = {"catalog": ".json"}
MEMORY_KEY = "export_choices"


class ExportDialog(QDialog):
    """Choose what to export and where; see what the review changed; run it off the GUI
    thread.

    Signals:
        exported(str): the export was written; its summary line.
    """

    exported = Signal(str)

    def __init__(self, tasks: TaskManager, parent: QWidget | None = None,
                 folder: Path | None = None, memory: Settings | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.memory = memory
        self.folder = folder or Path.home()
        self._preview_asked = 0
        self.setWindowTitle(self.tr("Export"))
        self.kind = named(QComboBox(), "kind")
        labels = {"dataset": self.tr("Corrected dataset (JSONL)"),
                  "preference": self.tr("Preference pairs for DPO or KTO (JSONL)"),
                  "catalog": self.tr("Catalog with versions (JSON)"),
                  "golden": self.tr("Golden set for the filter's tests (JSONL)"),
                  "resume": self.tr("Conversations to resume (JSONL)"),
                  "decisions": self.tr("Audit trail (JSONL)"),
                  "calibration": self.tr("Calibration scores with their grading files (JSONL)")}
        for kind in KINDS:
            self.kind.addItem(labels[kind], kind)
        self._dataset_widgets()
        self._preference_widgets()
        self.split = named(QDoubleSpinBox(), "split")
        self.split.setRange(0.0, 0.5)
        self.split.setSingleStep(0.05)
        self.split.setDecimals(2)
        self.split.setSpecialValueText(self.tr("no split (one file)"))
        self.seed = named(QSpinBox(), "seed")
        self.seed.setRange(0, 1_000_000)
        self.path = named(QLineEdit(), "path")
        browse = named(QPushButton(self.tr("Browse…")), "browse")
        browse.setAutoDefault(False)  # Enter exports, it does not open the file chooser
        browse.clicked.connect(self._browse)
        self.changes = plain(named(QLabel(), "changes_label"))
        self.changes.setWordWrap(True)
        self.status = plain(named(QLabel(), "status_label"))
        self.status.setWordWrap(True)
        self.export_button = named(QPushButton(self.tr("Export")), "export")
        self.export_button.setDefault(True)
        self.export_button.clicked.connect(self.start)
        close = QPushButton(self.tr("Close"))
        close.setAutoDefault(False)
        close.clicked.connect(self.close)
        self._lay_out(browse, close)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.split.valueChanged.connect(self._kind_changed)
        for box in (self.per, self.pick):
            box.currentIndexChanged.connect(self.preview)
        self.keep_tainted.toggled.connect(self.preview)
        tasks.changed.connect(self._changed)
        self._kind_changed()
        self._recall()
        self.preview()

    def _dataset_widgets(self) -> None:
        self.per = named(QComboBox(), "per")
        self.per.addItem(self.tr("one example per assistant turn"), "turn")
        self.per.addItem(self.tr("one example per conversation"), "conversation")
        self.fmt = named(QComboBox(), "format")
        self.fmt.addItem(self.tr("chat messages (OpenAI / Hugging Face)"), "chat")
        self.fmt.addItem("ShareGPT", "sharegpt")
        self.fmt.addItem(self.tr("prompt and completion (TRL)"), "prompt-completion")
        self.pick = named(QComboBox(), "pick")
        self.pick.addItem(self.tr("keep every accepted attempt"), "all")
        self.pick.addItem(self.tr("keep the first accepted attempt"), "first")
        self.pick.addItem(self.tr("keep the last accepted attempt"), "last")
        self.keep_tainted = named(QCheckBox(self.tr(
            "keep examples whose context holds a refused answer")), "keep_tainted")
        self.weight_context = named(QCheckBox(self.tr(
            "do not train the context's answers again (OpenAI weight 0)")), "weight_context")

    def _preference_widgets(self) -> None:
        self.pref_fmt = named(QComboBox(), "preference_format")
        self.pref_fmt.addItem(self.tr("pairs for TRL DPO"), "dpo")
        self.pref_fmt.addItem(self.tr("pairs for OpenAI DPO"), "openai-dpo")
        self.pref_fmt.addItem(self.tr("labels for TRL KTO"), "kto")
        self.filter_refusals = named(QCheckBox(self.tr(
            "also the filter's refusals no reviewer overturned")), "filter_refusals")
        self.causes = named(QLineEdit(), "causes")
        self.causes.setPlaceholderText(self.tr("every cause (or e.g. E-INVENTE,G-TON)"))

    def _lay_out(self, browse: QPushButton, close: QPushButton) -> None:
        form = QFormLayout()
        form.addRow(self.tr("What"), self.kind)
        form.addRow(self.tr("Examples"), self.per)
        form.addRow(self.tr("Format"), self.fmt)
        form.addRow(self.tr("Several accepted in a turn"), self.pick)
        form.addRow("", self.keep_tainted)
        form.addRow("", self.weight_context)
        form.addRow(self.tr("Pairs"), self.pref_fmt)
        form.addRow("", self.filter_refusals)
        form.addRow(self.tr("Refusal causes"), self.causes)
        split = QHBoxLayout()
        split.addWidget(self.split, 1)
        split.addWidget(QLabel(self.tr("seed")))
        split.addWidget(self.seed)
        form.addRow(self.tr("Validation share"), split)
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
        layout.addWidget(QLabel(self.tr("What the review changed in the dataset:")))
        layout.addWidget(self.changes)
        layout.addWidget(self.status)
        layout.addLayout(buttons)

    def _choices(self) -> dict[str, Any]:
        """What the reviewer chose, as the settings keep it."""
        combos = {n: box.currentData() for n, box in self._combos().items()}
        checks = {n: box.isChecked() for n, box in self._checks().items()}
        return {**combos, **checks, "causes": self.causes.text(), "split": self.split.value(),
                "seed": self.seed.value(), "path": self.path.text()}

    def _combos(self) -> dict[str, QComboBox]:
        return {"kind": self.kind, "per": self.per, "format": self.fmt, "pick": self.pick,
                "preference_format": self.pref_fmt}

    def _checks(self) -> dict[str, QCheckBox]:
        return {"keep_tainted": self.keep_tainted, "weight_context": self.weight_context,
                "filter_refusals": self.filter_refusals}

    def _remember(self) -> None:
        if self.memory is not None:
            self.memory.set_tool_state(MEMORY_KEY, json.dumps(self._choices()))

    def _recall(self) -> None:
        """Reopen on the last export's choices (a stale or foreign value is skipped)."""
        text = self.memory.tool_state(MEMORY_KEY) if self.memory is not None else None
        try:
            saved = loads(text) if text else {}
        except ValueError:
            saved = {}
        if not isinstance(saved, dict):
            return
        for name, box in self._combos().items():
            if (index := box.findData(saved.get(name))) >= 0:
                box.setCurrentIndex(index)
        for name, check in self._checks().items():
            if isinstance(saved.get(name), bool):
                check.setChecked(saved[name])
        if isinstance(saved.get("causes"), str):
            self.causes.setText(saved["causes"])
        for name, spin in (("split", self.split), ("seed", self.seed)):
            if isinstance(saved.get(name), (int, float)):
                spin.setValue(saved[name])
        if isinstance(saved.get("path"), str) and saved["path"].strip():
            self.folder = Path(saved["path"]).expanduser().parent
            self.path.setText(saved["path"])

    def _kind_changed(self) -> None:
        kind = self.kind.currentData()
        dataset, preference = kind == "dataset", kind == "preference"
        dataset_only: tuple[QWidget, ...] = (self.per, self.fmt, self.pick,
                                              self.weight_context)
        for widget in dataset_only:
            widget.setEnabled(dataset)
        self.keep_tainted.setEnabled(dataset or preference)
        preference_only: tuple[QWidget, ...] = (self.pref_fmt, self.filter_refusals,
                                                self.causes)
        for widget in preference_only:
            widget.setEnabled(preference)
        self.split.setEnabled(dataset or preference)
        self.seed.setEnabled((dataset or preference) and self.split.value() > 0)
        split = (dataset or preference) and self.split.value() > 0
        name = kind if split else f"{kind}{SUFFIX.get(kind, '.jsonl')}"
        self.path.setText(str(self.folder / name))

    def _browse(self) -> None:
        # Dialogs that open no listed file: Qt's own read the store's files and dropped
        # its SQLite locks (fifteenth hostile pass, P15-2; ``ui/file_dialogs.py``).
        if self.split.isEnabled() and self.split.value() > 0:
            chosen = existing_folder(self, self.tr("Export to"), self.path.text())
        else:
            chosen = save_file_name(self, self.tr("Export to"), self.path.text())
        if chosen:
            self.path.setText(chosen)

    def dataset_options(self) -> DatasetOptions:
        """The dataset options as chosen."""
        return DatasetOptions(per=self.per.currentData(), fmt=self.fmt.currentData(),
                              pick=self.pick.currentData(),
                              keep_tainted=self.keep_tainted.isChecked(),
                              weight_context=0 if self.weight_context.isChecked() else None)

    def preference_options(self) -> PreferenceOptions:
        """The preference options as chosen (BadInputError for malformed causes)."""
        return PreferenceOptions(fmt=self.pref_fmt.currentData(),
                                 include_filter_refusals=self.filter_refusals.isChecked(),
                                 causes=parse_causes(self.causes.text().strip() or None),
                                 keep_tainted=self.keep_tainted.isChecked())

    def preview(self) -> None:
        """Compute what the review changed in the background (the latest request wins)."""
        self._preview_asked += 1
        asked = self._preview_asked
        options = DatasetOptions(pick=self.pick.currentData(),
                                 keep_tainted=self.keep_tainted.isChecked())
        self.changes.setText(self.tr("Counting…"))

        def shown(lines: list[str]) -> None:
            if asked == self._preview_asked:
                self.changes.setText("\n".join(lines))

        self.tasks.long_query(lambda s: review_changes(s, options).lines(), shown,
                              self._preview_failed, owner=self)

    def _preview_failed(self, exc: BaseException) -> None:
        self.changes.setText(str(exc) or type(exc).__name__)

    def start(self) -> None:
        """Check the destination, then run the chosen export in the background."""
        text = self.path.text().strip()
        if not text:
            self.status.setText(self.tr("Choose a file to write."))
            return
        kind = self.kind.currentData()
        try:
            # The text as typed, not a Path: "f.jsonl/" names a folder, and a Path drops
            # the slash (fourth hostile pass, C2: the file f.jsonl was replaced).
            work = self._work(kind, os.path.expanduser(text))
        except ReviewerError as exc:
            self.status.setText(str(exc))
            return
        if work is None:
            self.status.setText(self.tr(
                "Cannot write %1: it is a pipe or a device, and the app writes files "
                "only; nothing was written (reviewer export %2 %1 streams to it)").replace(
                "%1", text).replace("%2", kind))
            return
        self._remember()
        self.export_button.setEnabled(False)
        self.status.setText(self.tr("Exporting…"))
        self.tasks.long_query(work, self._done, self._failed, owner=self,
                              what=self.tr("export to %1").replace("%1", text))

    def _work(self, kind: str, path: str) -> Any:
        """The export as a function of a session, its options and destination checked;
        None for a stream (a FIFO, a terminal, a device, ``-``): the dialog cannot stream.

        Fifteenth hostile pass, P15-3: an export to a FIFO no one read said "Exporting…"
        for ever, and the quit then waited for it. The command line streams by design."""
        split = Split({"valid": self.split.value()}, self.seed.value()) \
            if self.split.isEnabled() and self.split.value() > 0 else None
        dataset = self.dataset_options() if kind == "dataset" else None
        if dataset is not None:
            dataset.check()
        preference = self.preference_options() if kind == "preference" else None
        out = export_target(self.tasks.store.url, path, folder=split is not None)
        if out.stream:
            return None
        typed, label = self.causes.text().strip() or None, self.tr("Refusal causes")

        def work(session: Session) -> str:
            chosen = preference
            if chosen is not None and chosen.causes is not None:
                # A cause the store does not hold is a typo, not "0 pairs" over a good
                # export (ninth hostile pass, X4): the check the command line makes.
                chosen = replace(chosen, causes=stored_causes(session, typed, label))
            return run_export(session, kind, out, dataset=dataset, preference=chosen,
                              split=split)

        return work

    def _done(self, line: str) -> None:
        self.export_button.setEnabled(True)
        self.status.setText(line)
        self.exported.emit(line)

    def _failed(self, exc: BaseException) -> None:
        self.export_button.setEnabled(True)
        self.status.setText(self.tr("Export failed: %1").replace("%1", str(exc)
                                                                  or type(exc).__name__))

    def _changed(self, changes: Changes) -> None:
        """A decision or a verdict changed: count again what the review changed."""
        if changes.decisions or changes.verdicts or changes.catalog or changes.attempts_added:
            self.preview()
