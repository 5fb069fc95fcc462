"""The Qt models pass QAbstractItemModelTester and show the queue in the CLI's order."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QApplication

from reviewer.review import actions as review_actions
from reviewer.review.example import load_example
from reviewer.review.queue import QueueFilter, queue_keys
from reviewer.store import Store
from tests.support.stores import act
from ui.cli import main as cli_main
from ui.review.example_models import CheckModel, Role, VerdictModel
from ui.review.queue_model import QueueModel
from ui.review.queue_model import Role as QueueRole
from ui.tasks import TaskManager

Mode = QAbstractItemModelTester.FailureReportingMode


def test_queue_model_pages_and_order(qtbot: Any, filled_store: Store, no_leaks: None,
                                     db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = TaskManager(filled_store)
    model = QueueModel(tasks)
    model.page_size = 5  # several pages for 24 rows: fetchMore is exercised
    tester = QAbstractItemModelTester(model, Mode.Warning)  # a warning fails the test
    f = QueueFilter(reviewer="claire")
    model.set_filter(f)
    qtbot.waitUntil(lambda: model.rowCount() >= 5)
    while model.canFetchMore() or model.loading:
        if model.canFetchMore():
            model.fetchMore()
        qtbot.waitUntil(lambda: not model.loading)
    assert model.rowCount() == 24
    shown = [model.index(r, 0).data(QueueRole.Key) for r in range(model.rowCount())]
    with filled_store.session() as s:
        assert shown == [str(r.key) for r in queue_keys(s, f)]
    # The script sees exactly the app's order.
    assert cli_main(["--db", db_url, "queue", "--reviewer", "claire"]) == 0
    assert capsys.readouterr().out.splitlines() == shown
    first = model.index(0, 3)
    assert first.data(Qt.ItemDataRole.DisplayRole).startswith("G-DEMANDE non tenu")
    assert model.index(0, 0).data(QueueRole.Decision) is None
    model.set_decision(model.index(0, 0).data(QueueRole.AttemptId), "accept")
    assert model.index(0, 0).data(Qt.ItemDataRole.DisplayRole).startswith("✓")
    # After an operation, the rows it changed are read again in place.
    last = model.index(23, 0).data(QueueRole.AttemptId)
    act(filled_store, review_actions.decide, "claire", last, "reject")
    with qtbot.waitSignal(model.dataChanged, timeout=10000):
        model.refresh_rows([last, 10**9])
    assert model.index(23, 0).data(QueueRole.Decision) == "reject"
    assert model.index(23, 0).data(Qt.ItemDataRole.DisplayRole).startswith("✗")
    assert model.rowCount() == 24
    # A new filter resets the model and loads again.
    model.set_filter(QueueFilter(reviewer="claire", check="D-COMMERCE"))
    qtbot.waitUntil(lambda: not model.loading and model.rowCount() > 0)
    assert all(model.index(r, 0).data(QueueRole.Key).endswith("/2/2")
               for r in range(model.rowCount()))
    del tester
    tasks.shutdown()
    tasks.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def test_verdict_and_check_models(qtbot: Any, filled_store: Store, no_leaks: None) -> None:
    with filled_store.session() as s:
        row = next(r for r in queue_keys(s, QueueFilter()) if str(r.key).endswith("003/2/2"))
        view = load_example(s, row.attempt_id, "claire")
    verdicts, checks = VerdictModel(), CheckModel()
    testers = [QAbstractItemModelTester(m, Mode.Warning) for m in (verdicts, checks)]
    verdicts.set_rows(view.verdicts)
    checks.set_rows(view.checks, view.response)
    assert verdicts.rowCount() == 2 and checks.rowCount() == 2
    assert verdicts.index(0, 1).data(Role.Ident) == "G-DEMANDE"
    assert verdicts.index(0, 0).data() == "1"
    assert checks.index(0, 3).data() == "« inscrire »"
    assert checks.index(0, 2).data() == "failed"
    verdicts.set_rows(())
    assert verdicts.rowCount() == 0
    del testers
