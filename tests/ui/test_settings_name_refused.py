"""A reviewer name in Settings that fails the name rule stops the start: decisions are
never stored under another name (seventh hostile pass, R1: ``reviewer=claire`` + U+200B
became the login name without a word, and decisions were stored as ``root``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from reviewer.store import open_store
from ui.review.dialogs import SettingsDialog
from ui.settings import Settings

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["claire\u200b", "ev\u202eil"])
def test_a_refused_name_in_settings_stops_the_start_naming_the_setting(
        tmp_path: Path, name: str) -> None:
    folder = tmp_path / "config" / "reviewer"
    folder.mkdir(parents=True)
    conf = folder / "reviewer.conf"
    conf.write_text(f"[General]\nreviewer={name}\n", encoding="utf-8")
    db = tmp_path / "r.db"
    open_store(str(db)).close()
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "QT_QPA_PLATFORM": "offscreen",
           "LOGNAME": "root", "USER": "root"}
    env.pop("REVIEWER_NAME", None)
    done = subprocess.run([sys.executable, "-m", "ui.cli", "--db", str(db), "gui",
                           "--screenshot", str(tmp_path / "shot.png")], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"reviewer: the reviewer name in Settings (saved in {conf}) "
                                  "is refused: reviewer name '")
    assert done.stderr.endswith("; set a valid one in Settings, or start with --reviewer "
                                "NAME\n")
    assert not (tmp_path / "shot.png").exists()
    # --reviewer decides who decides: the stored name is not used, the app starts.
    done = subprocess.run([sys.executable, "-m", "ui.cli", "--db", str(db), "gui",
                           "--reviewer", "claire", "--screenshot", str(tmp_path / "shot.png")],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_box_offers_to_set_a_name_then_the_app_goes_on_with_it(
        qapp: QApplication, ui_settings: Settings) -> None:
    from ui.name_choice import NameRefused, checked_name

    ui_settings.q.setValue("reviewer", "claire\u200b")
    config = ui_settings.load()
    seen: dict[str, Any] = {}

    def answer() -> None:
        widget = QApplication.activeModalWidget()
        if isinstance(widget, NameRefused):
            seen["box"] = widget.text()
            widget.set_button.click()
        elif isinstance(widget, SettingsDialog):
            seen["field"] = (widget.reviewer.text(), widget.focusWidget() is widget.reviewer,
                             widget.error.text())
            widget.reviewer.setText("claire")
            widget.accept()
            return
        QTimer.singleShot(50, answer)

    QTimer.singleShot(0, answer)
    config = checked_name(ui_settings, config)
    assert "U+200B" in seen["box"] and ui_settings.q.fileName() in seen["box"]
    assert seen["field"][0] == "claire\u200b" and seen["field"][1]
    assert "U+200B" in seen["field"][2]
    assert config.reviewer == "claire" and ui_settings.reviewer_problem is None
    assert ui_settings.q.value("reviewer") == "claire"


def test_quit_in_the_box_starts_nothing(qapp: QApplication, ui_settings: Settings) -> None:
    from ui.name_choice import NameRefused, checked_name
    from ui.store_choice import Declined

    ui_settings.q.setValue("reviewer", "ev\u202eil")
    config = ui_settings.load()

    def answer() -> None:
        widget = QApplication.activeModalWidget()
        if isinstance(widget, NameRefused):
            widget.quit_button.click()
            return
        QTimer.singleShot(50, answer)

    QTimer.singleShot(0, answer)
    with pytest.raises(Declined) as declined:
        checked_name(ui_settings, config)
    assert declined.value.exit_code == 2
    assert ui_settings.q.value("reviewer") == "ev\u202eil"
