"""Every string the UI shows has a French translation, compiled into the shipped .qm."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from reviewer.store import Store
from ui import i18n
from ui.plural import english
from ui.shortcuts import TOOL_SHORTCUTS
from ui.tools.backtest_editor import BacktestEditor
from ui.tools.dashboard import AgreementDashboard

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints",
                                       "does not support raise")

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "assets" / "translations" / "reviewer_fr.ts"
QM = ROOT / "assets" / "translations" / "reviewer_fr.qm"


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed with PySide6 here")
    return found


def test_every_ui_string_is_translated(tmp_path: Path) -> None:
    fresh = tmp_path / "fr.ts"
    shutil.copy(TS, fresh)
    sources = [str(p) for p in sorted((ROOT / "ui").rglob("*.py"))]  # every package
    subprocess.run([tool("pyside6-lupdate"), *sources, "-ts", str(fresh)], check=True,
                   capture_output=True)
    missing = [
        m.findtext("source")
        for m in ET.parse(fresh).iter("message")
        if (t := m.find("translation")) is not None and t.get("type") == "unfinished"
    ]
    assert missing == [], "run scripts/update_translations.sh and translate these"


def test_shipped_qm_is_compiled_from_the_catalogue(tmp_path: Path) -> None:
    rebuilt = tmp_path / "fr.qm"
    subprocess.run([tool("pyside6-lrelease"), str(TS), "-qm", str(rebuilt)], check=True,
                   capture_output=True)
    assert rebuilt.read_bytes() == QM.read_bytes()


# Words that only English shows; French data (answers, rationales) never reaches the
# texts collected below (labels, buttons, headers, titles, combo items).
ENGLISH = re.compile(r"\b(hits?|misses|confirmed|coverage|unknown|labelled|attempts?|the|"
                     r"with|refused|accepted|failing|agreement|overall|between|reviewers?|"
                     r"rate|file|score|answers?|groups?|save|close|export|refresh|browse)\b",
                     re.IGNORECASE)


def visible_texts(window: QWidget) -> list[str]:
    """Every text the tool window shows outside its data: its title, labels, buttons,
    group titles, placeholders, combo items, table and tree headers."""
    texts = [window.windowTitle()]
    for w in window.findChildren(QWidget):
        if not w.isVisibleTo(window):
            continue
        if isinstance(w, QLabel | QAbstractButton):
            texts.append(w.text())
        elif isinstance(w, QGroupBox):
            texts.append(w.title())
        elif isinstance(w, QLineEdit | QPlainTextEdit):
            texts.append(w.placeholderText())
        elif isinstance(w, QComboBox):
            texts += [w.itemText(i) for i in range(w.count())]
        elif isinstance(w, QHeaderView) and w.orientation() == Qt.Orientation.Horizontal \
                and w.model() is not None:
            texts += [str(w.model().headerData(c, Qt.Orientation.Horizontal) or "")
                      for c in range(w.count())]
    return [t for t in texts if t]


def test_every_tool_window_shows_french_only(qtbot: Any, qapp: QApplication,
                                             filled_store: Store, make_window: Any) -> None:
    translators = i18n.install(qapp, "fr")
    try:
        window = make_window(filled_store)
        english: dict[str, list[str]] = {}
        for s in TOOL_SHORTCUTS:
            window.feedback_tools.show(s.name)
            tool = window.feedback_tools.open[s.name]
            if isinstance(tool, BacktestEditor):  # its figure lines are formatted counts
                qtbot.waitUntil(lambda t=tool: t.result is not None, timeout=10000)
                assert "occurrence" in tool.figures.text()
            if isinstance(tool, AgreementDashboard):
                qtbot.waitUntil(lambda t=tool: t.stats is not None, timeout=10000)
            left = [t for t in visible_texts(tool) if ENGLISH.search(t)]
            if left:
                english[s.name] = left
            tool.close()
        qtbot.waitUntil(lambda: not window.feedback_tools.open, timeout=5000)
        assert english == {}
    finally:
        i18n.remove(qapp, translators)


def test_count_lines_use_plural_forms(qapp: QApplication) -> None:
    translate = QCoreApplication.translate
    assert english(translate("BacktestEditor", "%n confirmed hit(s)", None, 1), 1) == (
        "1 confirmed hit")
    assert english(translate("BacktestEditor", "%n confirmed hit(s)", None, 2), 2) == (
        "2 confirmed hits")
    translators = i18n.install(qapp, "fr")
    try:
        assert translate("BacktestEditor", "%n confirmed hit(s)", None, 1) == (
            "1 occurrence confirmée")
        assert translate("BacktestEditor", "%n confirmed hit(s)", None, 3) == (
            "3 occurrences confirmées")
        audited = "%n audited attempt(s) — kappa %2, false-failure rate %3, coverage %4"
        assert translate("AgreementDashboard", audited, None, 1).startswith(
            "1 essai audité —")
        assert translate("AgreementDashboard", audited, None, 4).startswith(
            "4 essais audités —")
        # Counts inside a formatted line are their own plural entries.
        assert translate("ExamplePane", "%n turn(s) lost", None, 1) == "1 tour perdu"
        assert translate("ExamplePane", "%n turn(s) lost", None, 3) == "3 tours perdus"
        assert translate("BacktestEditor", "%n new hit(s)", None, 2) == (
            "2 nouveaux résultats")
    finally:
        i18n.remove(qapp, translators)
