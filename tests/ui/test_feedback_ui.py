"""Dashboard, export dialog and criteria editor (real store, fake Ollama for the judge)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtTest import QAbstractItemModelTester
from sqlalchemy import delete, select

from models import Attempt, AuditEvent, ReviewDecision
from reviewer.catalog.versions import current_criterion_versions
from reviewer.review import decisions as review
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.feedback_stores import load_backtest_store, load_export_store
from tests.support.judge_stores import client_for
from ui.tasks import TaskManager
from ui.tools.criteria_editor import CriteriaEditor
from ui.tools.dashboard import AgreementDashboard
from ui.tools.export_dialog import ExportDialog

pytestmark = [pytest.mark.qt_log_ignore("does not support propagateSizeHints"),
              pytest.mark.usefixtures("no_leaks")]


def cell(table: Any, row: int, col: int) -> str:
    return str(table.item(row, col).text())


def model_testers(*views: Any) -> list[QAbstractItemModelTester]:
    """Qt's model checks on the tools' tables (a warning fails the test)."""
    mode = QAbstractItemModelTester.FailureReportingMode.Warning
    return [QAbstractItemModelTester(v.model(), mode) for v in views]


def test_dashboard_shows_figures_per_check_and_cause(
    qtbot: Any, tmp_path: Path, store: Store, task_manager: TaskManager
) -> None:
    load_backtest_store(store, tmp_path)  # only refusals and two accepts audited
    board = AgreementDashboard(task_manager)
    testers = model_testers(board.table, board.causes, board.reviewers)
    qtbot.addWidget(board)
    board.show()
    qtbot.waitUntil(lambda: board.stats is not None, timeout=10000)
    rows = {cell(board.table, r, 0): r for r in range(board.table.rowCount())}
    commerce = rows["D-COMMERCE"]
    # Audited: 1 accepted (stored hit), 2 rejected (hit), 3 accepted, 4 hit marked false
    # positive, 5 rejected without a hit (the pass stands): false failures 1 and 4 among
    # the good 1, 3, 4, 5 -> 2/4.
    assert cell(board.table, commerce, 3) == "2"
    assert cell(board.table, commerce, 6) == "50%"
    assert board.bars.rows[0][0] == "overall"
    causes = {cell(board.causes, r, 0): r for r in range(board.causes.rowCount())}
    assert [cell(board.causes, causes["D-COMMERCE"], c) for c in (1, 2, 3)] == ["4", "3", "2"]
    # Audited attempts 3 (filter-accepted) exists: coverage is known here.
    assert not board.warning.isVisible()
    board.grab()  # paints the bars without error
    board.close()
    del testers


def test_dashboard_warns_when_no_accepted_attempt_was_audited(
    qtbot: Any, tmp_path: Path, store: Store, task_manager: TaskManager
) -> None:
    load_export_store(store, tmp_path)
    with store.session() as s:  # keep only decisions on attempts the filter refused

        accepted = select(Attempt.id).where(Attempt.accepted.is_(True))
        s.execute(delete(AuditEvent).where(AuditEvent.attempt_id.in_(accepted)))
        s.execute(delete(ReviewDecision).where(ReviewDecision.attempt_id.in_(accepted)))
    board = AgreementDashboard(task_manager)
    qtbot.addWidget(board)
    board.show()
    qtbot.waitUntil(lambda: board.stats is not None, timeout=10000)
    assert board.warning.isVisible() and "Coverage unknown" in board.warning.text()
    assert "coverage unknown" in board.overall.text()
    assert "by refusals the reviewer overturned: 1 (1 turn lost)" in board.cut.text()
    board.close()


def test_dashboard_shows_agreement_between_reviewers(
    qtbot: Any, tmp_path: Path, store: Store, task_manager: TaskManager
) -> None:
    load_backtest_store(store, tmp_path)
    with store.session() as s:
        ids = list(s.scalars(select(Attempt.id).order_by(Attempt.id)))[:4]
        # A second reviewer decides attempts the fixture's reviewer already decided.
        for aid, decision in zip(ids, ["accept", "accept", "reject", "reject"], strict=True):
            review.apply_change(s, "bob", review.Change(aid, "decision", decision))
    board = AgreementDashboard(task_manager)
    qtbot.addWidget(board)
    board.show()
    qtbot.waitUntil(lambda: board.stats is not None, timeout=10000)
    rows = [cell(board.reviewers, r, 0) for r in range(board.reviewers.rowCount())]
    assert rows[0] == "all reviewers, decisions"
    pair = next(r for r, name in enumerate(rows) if "bob" in name and "/" in name)
    figures = board.stats["between_reviewers"] if board.stats else None
    assert figures is not None
    kappa = figures.decision.pairs[0].kappa
    assert cell(board.reviewers, pair, 2) == ("n/a" if kappa is None else f"kappa {kappa:.2f}")
    assert int(cell(board.reviewers, pair, 1)) == figures.decision.pairs[0].units > 0
    board.close()


def test_export_dialog_writes_the_dataset(
    qtbot: Any, tmp_path: Path, store: Store, task_manager: TaskManager
) -> None:
    load_export_store(store, tmp_path)
    dialog = ExportDialog(task_manager, folder=tmp_path)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.per.setCurrentIndex(dialog.per.findData("conversation"))
    assert dialog.path.text() == str(tmp_path / "dataset.jsonl")
    with qtbot.waitSignal(dialog.exported, timeout=10000):
        dialog.export_button.click()
    assert "4 examples" in dialog.status.text()
    lines = (tmp_path / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4 and all("messages" in json.loads(x) for x in lines)
    assert (tmp_path / "dataset.jsonl.manifest.json").exists()
    dialog.kind.setCurrentIndex(dialog.kind.findData("catalog"))
    assert not dialog.per.isEnabled()
    dialog.path.setText(str(tmp_path / "missing-dir" / "sub" / "catalog.json"))
    with qtbot.waitSignal(dialog.exported, timeout=10000):
        dialog.export_button.click()
    assert json.loads(
        (tmp_path / "missing-dir" / "sub" / "catalog.json").read_text(encoding="utf-8")
    )["checks"]
    dialog.close()


def test_criteria_editor_saves_and_shows_flips(
    qtbot: Any, tmp_path: Path, store: Store, fake_ollama: FakeOllama,
    task_manager: TaskManager
) -> None:
    load_export_store(store, tmp_path)
    fake_ollama.responder = lambda body: Reply.json(
        {
            "verdicts": [
                {
                    "criterion": "G-DEMANDE",
                    "rationale": "Elle répond à la question.",
                    "verdict": "oui",
                }
            ]
        }
    )
    editor = CriteriaEditor(
        task_manager, "associe", lambda: client_for(fake_ollama), criterion_id="G-DEMANDE"
    )
    testers = model_testers(editor.flips)
    qtbot.addWidget(editor)
    editor.show()
    qtbot.waitUntil(lambda: editor.box.currentData() == "G-DEMANDE", timeout=10000)
    assert editor.rejudge_button.text() == "Re-judge 14 touched attempts"
    editor.text.setPlainText(
        "Répond à ce que la personne demande ; une réponse factuelle "
        "à une demande factuelle suffit."
    )
    assert not editor.save_button.isEnabled()  # a reason is required
    editor.reason.setText("moins strict (seed du 10 octobre)")
    with qtbot.waitSignal(editor.saved, timeout=10000) as signal:
        editor.save_button.click()
    assert signal.args == ["G-DEMANDE", 2]
    with store.session() as s:
        cv = current_criterion_versions(s)["G-DEMANDE"]
        assert cv.reason == "moins strict (seed du 10 octobre)" and cv.author == "associe"
    with qtbot.waitSignal(editor.rejudged, timeout=20000):
        editor.rejudge_button.click()
    report = editor.report
    assert report is not None and report.total == 14
    # Two attempts were judged "non" on G-DEMANDE (restored 2.1, criterion 1.1): both flip.
    assert sorted(
        cell(editor.flips, r, 0).split("/")[1] for r in range(editor.flips.rowCount())
    ) == ["criterion", "restored"]
    assert {cell(editor.flips, r, 1) for r in range(editor.flips.rowCount())} == {"non → oui"}
    editor.close()
    del testers
