"""The Calibration window: score a grading file's answers yourself and compare the graders.

The seed's rule — grade five or ten answers yourself and compare with the grader before
a long run — as a keyboard-driven tool (Tools → Calibration…). Open a grading file (the
input of ``reviewer grade``), go group by group, score each answer 1–5 or rank the group
(move answers up or down, Enter stores the ranking). Only once every answer of the group
is scored do the graders' scores and GRPO advantages appear beside yours (no anchoring),
with the pairs each grader inverts highlighted; below, the agreement table over the
groups finished so far. **Run the judge** judges every group in K orders (a long job) and
shows its position consistency.

Every store access goes through the app's task manager: the file is stored and found
again by its content (``reviewer.calibration.sets``), each score is written with its
audit event (``reviewer.calibration.scores``) under the reviewer's name, so the scores
survive a restart. The comparison itself runs on the GUI thread: it is pair counting
over the finished groups.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QCloseEvent, QColor, QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewer.calibration.scores import ScoreOutcome, rank_group, score_answer
from reviewer.calibration.sets import (
    SetInfo,
    check_grading_file,
    human_of,
    list_sets,
    load_set,
    open_grading_file,
)
from reviewer.changes import Changes
from reviewer.errors import BadInputError
from reviewer.graders.calibrate import (
    NO_FIGURE,
    Calibration,
    GraderResult,
    GroupResult,
    ScoreSheet,
    answer_name,
    groups_of,
    judge_calls,
    judge_sheet,
)
from reviewer.graders.judge import Judge, JudgeConfig
from reviewer.graders.position import PositionRun
from reviewer.graders.ranking import advantages
from reviewer.store.database import sqlite_path
from ui.file_dialogs import file_dialog
from ui.plural import english
from ui.settings import AppSettings
from ui.tasks import LongTask, TaskManager, Work
from ui.tools.calibration_keys import KEYS, help_text
from ui.tools.calibration_view import CalibrationState, prepare
from ui.widgets_util import named, plain

INVERTED = QColor("#f8d0d0")  # a grader's score of an answer it puts in the wrong order
JUDGE_TIMEOUT_S = 120.0


def _num(x: float | None, digits: int = 3) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def _item(text: str, *, tip: str = "", bold: bool = False,
          background: QColor | None = None) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    if tip:
        item.setToolTip(tip)
    if bold:
        font = QFont()
        font.setBold(True)
        item.setFont(font)
    if background is not None:
        item.setBackground(QBrush(background))
    return item


@dataclass(frozen=True, slots=True)
class Gesture:
    """A score, a clear or a ranking asked for: what its refusal names, where the
    cursor goes back to (fifteenth hostile pass, P15-13)."""

    state: CalibrationState
    group: int  # index of the group in the file
    row: int | None  # the answer's index in the loaded set; None for a ranking
    score: float | None = None


class CalibrationWindow(QWidget):
    """Score a grading file's answers and compare each grader's ranking with yours.

    Signals:
        loaded(): a grading file is shown (after opening or switching files).
        scored(): a score or a ranking was stored and the screen shows it.
        judged(): a judge run finished (or stopped) and its results are shown.
    """

    loaded = Signal()
    scored = Signal()
    judged = Signal()

    def __init__(self, tasks: TaskManager, reviewer: str,
                 config: Callable[[], AppSettings] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.reviewer = reviewer
        self.config = config
        self.state: CalibrationState | None = None
        self.sets: list[SetInfo] = []
        self.judge_task: LongTask | None = None
        # Scores and rankings asked for and not answered yet; a close waits for them
        # (fifteenth hostile pass, P15-2: a score under a lock, then Esc, vanished).
        self.writing = 0
        self.close_asked = False
        # The last refusal and the grading file it was about, said again beside the
        # status of another file until a later score is stored: opening another file
        # replaced it 3 s after it was shown, and nothing else said it (sixteenth
        # hostile pass, P16-2).
        self._kept_refusal: tuple[str, object] | None = None
        self.setWindowTitle(self.tr("Calibration"))
        self.resize(1100, 760)
        self._build()
        self._bind_keys()
        # Scores written elsewhere (another window of the app) refresh this one too.
        tasks.changed.connect(self._changed)
        self._refresh_sets()

    # --- widgets ---------------------------------------------------------------------
    def _build(self) -> None:
        self.files = named(QComboBox(), "files")
        self.files.activated.connect(self._file_chosen)
        open_button = named(QPushButton(self.tr("Open a grading file…")), "open")
        open_button.clicked.connect(self.open_dialog)
        self.position = plain(named(QLabel(), "position"))
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Grading file")))
        top.addWidget(self.files, 1)
        top.addWidget(open_button)
        top.addWidget(self.position)

        self.prompt = named(QPlainTextEdit(), "prompt")
        self.prompt.setReadOnly(True)
        self.prompt.setMaximumHeight(64)
        self.prompt.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.answers = named(QTableWidget(0, 3), "answers")
        self.answers.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.answers.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.answers.setWordWrap(True)
        self.answers.verticalHeader().setVisible(False)
        self.answers.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.status = plain(named(QLabel(), "status"))
        self.status.setWordWrap(True)
        self.inverted = plain(named(QLabel(), "inverted_pairs"))
        self.inverted.setWordWrap(True)
        group_box = QGroupBox(self.tr("This group"))
        group_layout = QVBoxLayout(group_box)
        group_layout.addWidget(self.prompt)
        group_layout.addWidget(self.answers, 1)
        group_layout.addWidget(self.status)
        group_layout.addWidget(self.inverted)

        self.agreement = named(QTableWidget(0, 6), "agreement")
        self.agreement.setHorizontalHeaderLabels([
            self.tr("Grader"), self.tr("Pairwise accuracy"), self.tr("Kendall τ-b"),
            self.tr("Groups"), self.tr("Skipped"), self.tr("Inverted pairs")])
        self.agreement.verticalHeader().setVisible(False)
        self.agreement.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.agreement.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.agreement.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.Stretch)
        self.agreement.verticalHeader().setDefaultSectionSize(24)
        self.summary = plain(named(QLabel(), "summary"))
        self.summary.setWordWrap(True)
        self.orders = named(QSpinBox(), "orders")
        self.orders.setRange(1, 8)
        self.orders.setValue(3)
        self.orders.valueChanged.connect(lambda _v: self._show_cost())
        self.debias = named(QCheckBox(self.tr("Debias: mean over the orders")), "debias")
        self.debias.toggled.connect(self._debias_toggled)
        self.run_button = named(QPushButton(self.tr("Run the judge")), "run_judge")
        self.run_button.clicked.connect(self.run_judge)
        self.cost = plain(named(QLabel(), "cost"))
        self.position_label = plain(named(QLabel(), "position_consistency"))
        self.position_label.setWordWrap(True)
        judge_row = QHBoxLayout()
        judge_row.addWidget(QLabel(self.tr("Orders")))
        judge_row.addWidget(self.orders)
        judge_row.addWidget(self.debias)
        judge_row.addWidget(self.run_button)
        judge_row.addWidget(self.cost, 1)
        board = QGroupBox(self.tr("Agreement over the groups you finished"))
        board_layout = QVBoxLayout(board)
        board_layout.addWidget(self.agreement, 1)
        board_layout.addWidget(self.summary)
        board_layout.addLayout(judge_row)
        board_layout.addWidget(self.position_label)
        keys = plain(named(QLabel(help_text()), "keys"))
        keys.setWordWrap(True)
        keys.setStyleSheet("color: palette(mid);")

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(group_box)
        split.addWidget(board)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        layout.addWidget(keys)

    def _bind_keys(self) -> None:
        for key in KEYS:
            slot = getattr(self, f"key_{key.name}", None)
            if slot is None and key.name.startswith("score"):
                slot = partial(self.score_current, float(key.name.removeprefix("score")))
            for sequence in key.keys:
                shortcut = QShortcut(QKeySequence(sequence), self)
                shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
                shortcut.activated.connect(slot)

    # --- files -----------------------------------------------------------------------
    def _refresh_sets(self, select: int | None = None) -> None:
        reviewer = self.reviewer
        self.tasks.query(lambda s: list_sets(s, reviewer),
                         partial(self._sets_listed, select), self._failed, owner=self)

    def _sets_listed(self, select: int | None, sets: list[SetInfo]) -> None:
        self.sets = sets
        self.files.clear()
        for info in sets:
            rows, groups = info.rows, info.groups
            self.files.addItem(self.tr("%1 (%2, %3)").replace("%1", info.name)
                               .replace("%2", english(self.tr("%n answer(s)", None, rows), rows))
                               .replace("%3", english(self.tr("%n group(s)", None, groups),
                                                      groups)), info.id)
        if not sets:
            self.status.setText(self.tr("Open a grading file (Ctrl+O): the JSONL of "
                                        "reviewer grade, one answer per line."))
            self.loaded.emit()
            return
        wanted = select if select is not None else sets[0].id
        self.files.setCurrentIndex(max(0, self.files.findData(wanted)))
        self.load(wanted)

    def _file_chosen(self, index: int) -> None:
        set_id = self.files.itemData(index)
        if isinstance(set_id, int):
            self.load(set_id)

    def open_dialog(self) -> None:
        """Ask for a grading file (Qt's own dialog, so the keyboard drives it anywhere)."""
        dialog = file_dialog(self, self.tr("Open a grading file"))
        dialog.setObjectName("open_dialog")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters([self.tr("Grading files (*.jsonl)"), self.tr("All files (*)")])
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dialog.fileSelected.connect(self.open_file)
        dialog.open()

    def open_file(self, path: str | Path) -> None:
        """Store the grading file (or find it stored) and show it."""
        reviewer, source = self.reviewer, Path(path)
        try:
            # A pipe, a device or a folder, refused at once as the CLI refuses it: a FIFO
            # was read on the ordered thread, "Opening…" for ever and every later store
            # access of the app queued behind it (fifteenth hostile pass, P15-4). The
            # store's own files too: reading one would drop the store's locks (P15-2).
            check_grading_file(source, sqlite_path(self.tasks.store.url))
        except BadInputError as exc:
            self.status.setText(str(exc))
            return
        self.status.setText(self.tr("Opening %1…").replace("%1", source.name))
        self.tasks.write(lambda s: open_grading_file(s, source, reviewer),
                         lambda info: self._refresh_sets(info.id), self._failed, owner=self)

    def load(self, set_id: int) -> None:
        """Load a stored grading file with this reviewer's scores."""
        reviewer = self.reviewer
        self.tasks.query(lambda s: prepare(load_set(s, set_id, reviewer)), self._loaded,
                         self._failed, owner=self)

    def _loaded(self, result: Any) -> None:
        loaded, sheet = result
        self.state = CalibrationState(loaded, sheet, debias="mean" if self.debias.isChecked()
                                      else "none")
        self.refresh()
        self.answers.setFocus()
        self.answers.selectRow(0)
        self.loaded.emit()

    def _failed(self, exc: BaseException) -> None:
        self.status.setText(str(exc) or type(exc).__name__)

    def _changed(self, changes: Changes) -> None:
        state = self.state
        if state is None or not changes.calibration:
            return
        set_id, reviewer = state.loaded.info.id, self.reviewer
        self.tasks.query(lambda s: human_of(s, set_id, reviewer),
                         partial(self._rescored, state), self._failed, owner=self)

    def _rescored(self, state: CalibrationState,
                  scores: dict[int, tuple[float, str]]) -> None:
        if state is self.state and state.reload(scores):
            self.refresh()

    # --- gestures --------------------------------------------------------------------
    def current_position(self) -> int:
        """The selected answer's place in the table (0 when none)."""
        row = self.answers.currentRow()
        return row if row >= 0 else 0

    def score_current(self, score: float | None) -> None:
        """Store ``score`` for the selected answer (None clears it), then go to the next."""
        state = self.state
        if state is None or not state.order:
            return
        position = self.current_position()
        row = state.order[position]
        row_id = state.row_ids([row])[0]
        reviewer = self.reviewer
        self._write(lambda s: score_answer(s, reviewer, row_id, score),
                    Gesture(state, state.group, row, score))
        if score is not None and position + 1 < len(state.order):
            self.answers.selectRow(position + 1)

    def key_clear(self) -> None:
        """Clear the selected answer's score."""
        self.score_current(None)

    def _write(self, fn: Callable[[Any], ScoreOutcome], gesture: Gesture) -> None:
        """Store a gesture; the screen shows it only once the store has it."""
        # Named: a quit that stops waiting says which score it abandoned ("A change" said
        # nothing of the answer or the score).
        self.tasks.write(fn, partial(self._stored, gesture), partial(self._refused, gesture),
                         owner=self, what=self._named(gesture))
        self.writing += 1  # after: a manager shut down refuses the job, nothing is asked

    def _stored(self, gesture: Gesture, outcome: ScoreOutcome) -> None:
        self.writing -= 1
        self._kept_refusal = None
        if self.state is gesture.state:  # not once another grading file is shown
            self.state.stored(outcome.scores, outcome.modes)
            self.refresh()
            self.scored.emit()
        if self.close_asked and not self.writing:
            self.close()

    def _refused(self, gesture: Gesture, exc: BaseException) -> None:
        """Say which score the store refused, and put the cursor back on its answer."""
        self.writing -= 1
        line = self._refusal(gesture, str(exc) or type(exc).__name__)
        if self.close_asked:
            self.close_asked = False
            line = self.tr("%1; the window stays open").replace("%1", line)
        self._back_to(gesture)
        self.status.setText(line)
        self._kept_refusal = (line, gesture.state)

    @staticmethod
    def _place(gesture: Gesture) -> tuple[str, str | None]:
        """The gesture's group as numbered on screen ("1"), and its answer's letter ("C";
        None for a ranking)."""
        group = str(gesture.group + 1)
        if gesture.row is None:
            return group, None
        members = gesture.state.groups[gesture.group].members
        return group, answer_name(members.index(gesture.row))

    def _named(self, gesture: Gesture) -> str:
        """"Score 4 for answer C of group 1" (or the clear, the ranking)."""
        group, answer = self._place(gesture)
        if answer is None:
            return self.tr("Ranking of group %1").replace("%1", group)
        if gesture.score is None:
            return (self.tr("Clearing the score of answer %1 of group %2")
                    .replace("%1", answer).replace("%2", group))
        return (self.tr("Score %1 for answer %2 of group %3")
                .replace("%1", f"{gesture.score:g}").replace("%2", answer)
                .replace("%3", group))

    def _refusal(self, gesture: Gesture, why: str) -> str:
        """"Score 4 for answer C of group 1 not stored: WHY" (or the clear, the ranking)."""
        group, answer = self._place(gesture)
        if answer is None:
            return self.tr("Ranking of group %1 not stored: %2").replace("%1", group) \
                .replace("%2", why)
        if gesture.score is None:
            return (self.tr("Score of answer %1 of group %2 not cleared: %3")
                    .replace("%1", answer).replace("%2", group).replace("%3", why))
        return (self.tr("Score %1 for answer %2 of group %3 not stored: %4")
                .replace("%1", f"{gesture.score:g}").replace("%2", answer)
                .replace("%3", group).replace("%4", why))

    def _back_to(self, gesture: Gesture) -> None:
        """Show the refused answer's group, the cursor on the answer (the key had moved
        it on to the next one)."""
        state = self.state
        if state is not gesture.state:
            return
        if state.group != gesture.group:
            state.go(gesture.group)
            self.refresh()
        if gesture.row is not None:
            self.answers.selectRow(state.order.index(gesture.row))

    def closeEvent(self, event: QCloseEvent) -> None:
        """Close once every score asked for is answered: stored, the window closes;
        refused, it stays open and says which (fifteenth hostile pass, P15-2)."""
        if self.writing:
            event.ignore()
            self.close_asked = True
            self.status.setText(self.tr("Closing once the scores being stored are "
                                        "answered…"))
            return
        super().closeEvent(event)

    def key_next_answer(self) -> None:
        """Select the next answer."""
        self._select(self.current_position() + 1)

    def key_previous_answer(self) -> None:
        """Select the previous answer."""
        self._select(self.current_position() - 1)

    def _select(self, row: int) -> None:
        if 0 <= row < self.answers.rowCount():
            self.answers.selectRow(row)

    def key_move_up(self) -> None:
        """Move the selected answer up in the ranking (stored with Enter)."""
        self._move(-1)

    def key_move_down(self) -> None:
        """Move the selected answer down in the ranking (stored with Enter)."""
        self._move(1)

    def _move(self, step: int) -> None:
        if self.state is None:
            return
        target = self.state.move(self.current_position(), step)
        self.refresh()
        self.answers.selectRow(target)

    def key_store_ranking(self) -> None:
        """Store the table's order as the group's ranking, best first."""
        state = self.state
        if state is None or not state.order:
            return
        ids, reviewer = state.row_ids(state.order), self.reviewer
        self._write(lambda s: rank_group(s, reviewer, ids), Gesture(state, state.group, None))

    def key_next_group(self) -> None:
        """Show the next group."""
        self._go_group(1)

    def key_previous_group(self) -> None:
        """Show the previous group."""
        self._go_group(-1)

    def key_next_unscored(self) -> None:
        """Show the next group with an answer not scored yet."""
        if self.state is not None:
            self.state.go(self.state.first_unfinished(self.state.group + 1))
            self.refresh()
            self.answers.selectRow(0)

    def _go_group(self, step: int) -> None:
        if self.state is None:
            return
        self.state.go(self.state.group + step)
        self.refresh()
        self.answers.selectRow(0)

    def key_open_file(self) -> None:
        """Open a grading file."""
        self.open_dialog()

    def key_run_judge(self) -> None:
        """Run the judge over every group."""
        self.run_judge()

    def key_close(self) -> None:
        """Close the window."""
        self.close()

    # --- the judge -------------------------------------------------------------------
    def _judge(self) -> Judge:
        settings = self.config() if self.config is not None else None
        if settings is None:
            raise RuntimeError(self.tr("no judge configured (Settings: Ollama host and model)"))
        return Judge(JudgeConfig(model=settings.ollama_model, host=settings.ollama_host,
                                 timeout=JUDGE_TIMEOUT_S, retries=1))

    def _show_cost(self) -> None:
        if self.state is None:
            self.cost.setText("")
            return
        calls = judge_calls(self.state.sheet, self.orders.value())
        self.cost.setText(self.tr("%1 groups × up to %2 orders = %3 judge calls")
                          .replace("%1", str(len(self.state.groups)))
                          .replace("%2", str(self.orders.value()))
                          .replace("%3", str(calls)))

    def run_judge(self) -> None:
        """Judge every group in the chosen number of orders (a long job; runs again
        replace the previous results). Clicking again while it runs stops it."""
        state = self.state
        if state is None:
            return
        if self.judge_task is not None:
            self.judge_task.cancel()
            return
        try:
            judge = self._judge()
        except Exception as exc:  # a bad host in the settings: say it, do not crash
            self._failed(exc)
            return
        # The job fills its own copy of the sheet: the screen keeps reading the previous
        # results (on the GUI thread) until the new ones replace them.
        sheet, orders = dataclasses.replace(state.sheet, judged={}), self.orders.value()

        def work(job: Work) -> dict[str, PositionRun]:
            groups_of(sheet.rows, judged=True)  # the judge reads one prompt per group
            return judge_sheet(sheet, judge, orders, progress=job.progress,
                               cancelled=job.cancel.is_set)

        self.run_button.setText(self.tr("Stop the judge"))
        self.status.setText(self.tr("Judging…"))
        self.judge_task = self.tasks.long(
            work, partial(self._judge_done, state), partial(self._judge_failed, state, sheet),
            owner=self, on_progress=self._judge_progress)

    def _judge_progress(self, done: int, total: int) -> None:
        self.status.setText(self.tr("Judged %1 of %2 groups").replace("%1", str(done))
                            .replace("%2", str(total)))

    def _judge_done(self, state: CalibrationState, runs: dict[str, PositionRun]) -> None:
        self.judge_task = None
        self.run_button.setText(self.tr("Run the judge"))
        state.sheet.judged.clear()
        state.sheet.judged.update(runs)
        self.status.setText(self.tr("The judge noted %1 groups").replace("%1", str(len(runs))))
        self.refresh()
        self.judged.emit()

    def _judge_failed(self, state: CalibrationState, sheet: ScoreSheet,
                      exc: BaseException) -> None:
        self.judge_task = None
        self.run_button.setText(self.tr("Run the judge"))
        if sheet.judged:  # the groups judged before the failure are kept
            state.sheet.judged.clear()
            state.sheet.judged.update(sheet.judged)
        self.refresh()
        self._failed(exc)
        self.judged.emit()

    def _debias_toggled(self, on: bool) -> None:
        if self.state is not None:
            self.state.debias = "mean" if on else "none"
            self.refresh()

    # --- painting --------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the state: the group, its answers, the graders once finished, the board."""
        state = self.state
        if state is None:
            return
        group = state.current
        first = state.loaded.rows[group.members[0]]
        prompt = first.prompt if isinstance(first.prompt, str) else (
            "\n".join(str(m.get("content", "")) for m in first.prompt or []))
        self.prompt.setPlainText(
            self.tr("Prompt: %1").replace("%1", prompt or "—") + "\n"
            + self.tr("Reference: %1").replace("%1", first.reference or "—"))
        self.position.setText(
            self.tr("Group %1 of %2: %3 — %4 of %2 finished")
            .replace("%1", str(state.group + 1)).replace("%2", str(len(state.groups)))
            .replace("%3", group.label).replace("%4", str(state.finished_count)))
        result = state.calibration()
        self._fill_answers(state, result)
        self._fill_board(state, result)
        self._show_cost()

    def _fill_answers(self, state: CalibrationState, result: Calibration) -> None:
        group = state.current
        finished = state.finished(group) and not state.ranking_changed
        results = state.results(result) if finished else {}
        # A grader that skips this group (no figure, no expected value) gets no column:
        # the status line says which and why.
        graders = [g for g in state.graders() if g in results and results[g].scores is not None]
        headers = [self.tr("Answer"), self.tr("Text"), self.tr("You")]
        if finished:
            headers.append(self.tr("Your advantage"))
            for name in graders:
                headers += [name, self.tr("%1 adv.").replace("%1", name)]
        row = self.current_position()
        self.answers.clear()
        self.answers.setColumnCount(len(headers))
        self.answers.setHorizontalHeaderLabels(headers)
        self.answers.setRowCount(len(state.order))
        human = [state.human[i] for i in group.members]
        human_adv = advantages([h or 0.0 for h in human]) if finished else []
        for r, i in enumerate(state.order):
            k = group.members.index(i)
            score = state.human[i]
            self.answers.setItem(r, 0, _item(answer_name(k)))
            text = state.loaded.rows[i].response
            self.answers.setItem(r, 1, _item(text, tip=text))
            self.answers.setItem(r, 2, _item("" if score is None else f"{score:g}",
                                             bold=True))
            if finished:
                self.answers.setItem(r, 3, _item(_signed(human_adv[k])))
                for c, name in enumerate(graders):
                    self._grader_cells(r, 4 + 2 * c, results[name], k)
        header = self.answers.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.answers.resizeRowsToContents()
        self.answers.selectRow(min(row, len(state.order) - 1))
        self._group_status(state, finished, results)

    def _grader_cells(self, row: int, column: int, r: GroupResult, k: int) -> None:
        assert r.scores is not None
        wrong = [(a, b) for a, b in r.inverted if k in (a, b)]
        tip = "\n".join(self._pair_text(a, b) for a, b in wrong)
        self.answers.setItem(row, column, _item(
            _num(r.scores[k]), tip=tip, background=INVERTED if wrong else None))
        self.answers.setItem(row, column + 1, _item(_signed(r.advantages[k])))

    def _reason(self, why: str | None) -> str:
        """Why a grader skips a group, in the window's language."""
        reasons = {
            NO_FIGURE: self.tr("reference without any figure"),
            "no 'expected' value": self.tr("no expected value"),
            "no 'reference'": self.tr("no reference"),
            "not judged": self.tr("not judged"),
        }
        return reasons.get(why or "", why or "")

    def _pair_text(self, better: int, worse: int) -> str:
        return (self.tr("%1 above %2 (you: %2 above %1)")
                .replace("%1", answer_name(worse)).replace("%2", answer_name(better)))

    def _group_status(self, state: CalibrationState, finished: bool,
                      results: dict[str, GroupResult]) -> None:
        group = state.current
        missing = sum(1 for i in group.members if state.human[i] is None)
        if state.ranking_changed:
            self.status.setText(self.tr("Ranking changed: Enter stores it (best first)."))
        elif not finished:
            self.status.setText(self.tr("Score the %1 answers left (1–5), or rank them "
                                        "(Alt+↑/↓, then Enter): the graders' scores show "
                                        "once the group is scored.").replace("%1", str(missing)))
        elif self.judge_task is None:
            self.status.setText(self.tr("Group scored: the graders' scores are beside yours."))
        kept = self._kept_refusal
        if kept is not None and kept[1] is not state:
            self.status.setText(f"{kept[0]} — {self.status.text()}")
        lines = []
        skipped = [f"{name} ({self._reason(r.skipped)})" for name, r in results.items()
                   if r.scores is None]
        if skipped:
            lines.append(self.tr("Skip this group: %1").replace("%1", ", ".join(skipped)))
        for name, r in results.items():
            if r.inverted:
                pairs = ", ".join(self._pair_text(a, b) for a, b in r.inverted)
                lines.append(self.tr("%1 inverts: %2").replace("%1", name).replace("%2", pairs))
        run = state.judged.get(group.label)
        if finished and run is not None and len(run.orders) > 1:
            spread = ", ".join(f"{answer_name(k)} {s:.2f}" for k, s in enumerate(run.spread()))
            lines.append(self.tr("Judge on this group: position consistency %1 over %2 "
                                 "orders; score spread %3")
                         .replace("%1", _num(run.consistency(), 2))
                         .replace("%2", str(len(run.orders))).replace("%3", spread))
        self.inverted.setText("\n".join(lines))

    def _fill_board(self, state: CalibrationState, result: Calibration) -> None:
        best = result.best()
        self.agreement.setRowCount(len(result.graders))
        for r, g in enumerate(result.graders):
            is_best = best is not None and g.name == best.name
            cells = [g.name, _num(g.pairwise_accuracy), _num(g.kendall_tau_b),
                     str(len(g.scored)), str(g.skipped), str(len(g.inverted))]
            for c, text in enumerate(cells):
                self.agreement.setItem(r, c, _item(text, bold=is_best, background=(
                    INVERTED if c == 5 and g.inverted else None)))
        self.summary.setText(self._summary(result, best))
        consistency = result.position_consistency()
        if consistency is None:
            self.position_label.setText(
                self.tr("Judge position consistency: run the judge in 2 or more orders.")
                if not state.judged else
                self.tr("Judge position consistency: needs 2 or more orders."))
        else:
            self.position_label.setText(
                self.tr("Judge position consistency: %1 (share of answer pairs ordered "
                        "alike in every order; 1 = the order never mattered)")
                .replace("%1", _num(consistency, 2)))

    def _summary(self, result: Calibration, best: GraderResult | None) -> str:
        if not result.groups:
            return self.tr("Finish a group to compare the graders with you.")
        if best is None:
            return self.tr("No grader can be compared yet: give the answers of a group "
                           "different scores.")
        return (self.tr("Groups finished: %1. Best agreement: %2 (pairwise accuracy %3).")
                .replace("%1", str(len(result.groups))).replace("%2", best.name)
                .replace("%3", _num(best.pairwise_accuracy)))
