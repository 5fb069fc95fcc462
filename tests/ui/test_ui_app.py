"""App entry: screenshot command, store errors, settings, language, remembered layout."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer.store import Store, open_store
from tests.support.qt import accept_boxes, idle
from ui import i18n
from ui.cli import main as cli_main
from ui.review.dialogs import SettingsDialog
from ui.review.window import MainWindow
from ui.settings import AppSettings, Settings

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
Maker = Callable[[Store], MainWindow]
DEMO_KEY = "2026-10-14-ministral-8b/recette-048/1/2"


def test_screenshot_of_a_chosen_attempt(qapp: QApplication, ui_settings: Settings,
                                        no_leaks: None, db_url: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "shots" / "main.png"
    open_store(db_url).close()  # the app makes no store where --db names none
    code = cli_main(["--db", db_url, "gui", "--screenshot", str(png), "--attempt", DEMO_KEY,
                     "--lang", "en"])
    assert code == 0
    assert capsys.readouterr().out.strip() == f"{png} (made the folder {png.parent})"
    image = QImage(str(png))
    assert not image.isNull() and image.width() >= 1200 and image.height() >= 800
    # The first start loaded the demo into the empty database.
    assert cli_main(["--db", db_url, "queue", "--limit", "1"]) == 0
    assert capsys.readouterr().out.strip().startswith("2026-10-14-ministral-8b/")


def test_the_app_makes_only_the_default_store(
        qapp: QApplication, ui_settings: Settings, no_leaks: None, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Fifth hostile pass, P40: a mistyped or moved --db made a new store with the demo
    # in it, where the reviewer then decided and exported. A path typed is never made;
    # the default store (no --db, no $REVIEWER_DB, no database in Settings) is, on the
    # first start, with the demo.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("REVIEWER_DB", raising=False)
    work = tmp_path / "work"
    work.mkdir()
    typo = work / "typo.db"
    code = cli_main(["--db", str(typo), "gui", "--screenshot", str(work / "x.png")])
    assert code == 2
    assert capsys.readouterr().err == (f"reviewer: no database at {typo} (import a run "
                                       "first, or check the path)\n")
    assert list(work.iterdir()) == []
    assert cli_main(["gui", "--screenshot", str(work / "x.png"), "--lang", "en"]) == 0
    assert (tmp_path / "data" / "reviewer" / "reviewer.sqlite3").is_file()
    capsys.readouterr()
    assert cli_main(["queue", "--limit", "1"]) == 0  # the demo, in the default store
    assert capsys.readouterr().out.strip().startswith("2026-10-14-ministral-8b/")


def test_unknown_attempt_key_is_one_line(qapp: QApplication, ui_settings: Settings,
                                         no_leaks: None, db_url: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    open_store(db_url).close()  # the app makes no store where --db names none
    code = cli_main(["--db", db_url, "gui", "--screenshot", str(tmp_path / "x.png"),
                     "--attempt", "not-a-key"])
    assert code == 2
    assert "RUN/CONVERSATION/TURN/ATTEMPT" in capsys.readouterr().err


def test_a_mistyped_port_in_db_is_the_start_up_box(
        qapp: QApplication, ui_settings: Settings, no_leaks: None) -> None:
    # Seventh hostile pass T1: `gui` printed "internal error (ValueError …)" on stderr,
    # exit 70, and showed no box.
    seen = accept_boxes()
    assert cli_main(["--db", "postgresql+psycopg://u@127.0.0.1:abc/x", "gui"]) == 2
    assert seen == ["--db postgresql+psycopg://u@127.0.0.1:abc/x: not a valid database URL "
                    "(the port 'abc' is not a number)"]


def test_not_a_database_is_a_clear_message(qapp: QApplication, ui_settings: Settings,
                                           no_leaks: None, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    bogus = tmp_path / "notes.sqlite3"
    bogus.write_text("these are notes, not a database", encoding="utf-8")
    assert cli_main(["--db", str(bogus), "gui", "--screenshot", str(tmp_path / "x.png")]) == 1
    assert "not a reviewer database" in capsys.readouterr().err
    assert bogus.read_text(encoding="utf-8") == "these are notes, not a database"
    # Without --screenshot the same error is one message box, then a non-zero exit.
    seen = accept_boxes()
    assert cli_main(["--db", str(bogus), "gui"]) == 1
    assert len(seen) == 1 and "not a reviewer database" in seen[0]


def test_settings_apply_and_persist(qtbot: Any, make_window: Maker, filled_store: Store,
                                    ui_settings: Settings) -> None:
    w = make_window(filled_store)
    w.decide("accept")
    idle(qtbot, w)
    assert w.progress_label.text() == "Reviewed 1 / 24 (23 to review)"
    values = AppSettings(reviewer="marc", ollama_host="http://10.0.0.5:11434",
                         ollama_model="qwen3:8b", database="", language="fr",
                         auto_advance=False)
    w.apply_settings(values)
    idle(qtbot, w)
    # Another reviewer: claire's decision is not marc's.
    assert w.progress_label.text() == "Reviewed 0 / 24 (24 to review)"
    before = w.pane.title.text()
    w.decide("reject")
    idle(qtbot, w)
    assert w.pane.title.text() == before  # auto-advance off
    stored = Settings(ui_settings.q).load()
    assert (stored.reviewer, stored.ollama_host, stored.ollama_model, stored.language) == (
        "marc", "http://10.0.0.5:11434", "qwen3:8b", "fr")
    assert stored.auto_advance is False


def test_window_layout_is_remembered(qtbot: Any, make_window: Maker,
                                     filled_store: Store) -> None:
    w = make_window(filled_store)
    w.resize(760, 540)  # inside the offscreen screen (800 x 600): no clamping
    w.splitter.setSizes([250, 500])
    sizes = w.splitter.sizes()
    w.close()
    w2 = make_window(filled_store)
    assert (w2.width(), w2.height()) == (760, 540)
    assert w2.splitter.sizes() == sizes


def test_french_interface(qtbot: Any, make_window: Maker, filled_store: Store,
                          qapp: QApplication) -> None:
    assert i18n.choose_language("fr", "en") == "fr"
    assert i18n.choose_language(None, "fr") == "fr"
    assert i18n.choose_language(None, "system") in ("en", "fr")
    translators = i18n.install(qapp, "fr")
    try:
        assert translators, "the compiled French translation is shipped"
        w = make_window(filled_store)
        menus = [a.text() for a in w.menuBar().actions()]
        assert menus == ["&Fichier", "&Édition", "&Aller", "&Relecture", "&Outils", "Aid&e"]
        assert w.actions_by_name["accept"].text() == "Accepter l'essai"
        assert w.progress_label.text() == "Relus 0 / 24 (24 à relire)"
        assert w.pane.verdict_model.index(0, 3).data() == "non"
        assert QCoreApplication.translate("Shortcuts", "Toggle criterion %1") == \
            "Inverser le critère %1"
    finally:
        i18n.remove(qapp, translators)
    assert QCoreApplication.translate("Shortcuts", "Undo") == "Undo"


def test_settings_dialog_by_keyboard(qtbot: Any, make_window: Maker, filled_store: Store,
                                     ui_settings: Settings) -> None:
    w = make_window(filled_store)
    seen: list[str] = []

    def edit() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, SettingsDialog):
            QTimer.singleShot(20, edit)
            return
        seen.append(dialog.reviewer.text())
        dialog.reviewer.setText("Chloé")
        dialog.model.setText("qwen3:8b")
        dialog.language.setCurrentIndex(dialog.language.findData("fr"))
        QTest.keyClick(dialog.reviewer, Qt.Key.Key_Return)  # Enter is OK

    QTimer.singleShot(0, edit)
    QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_Comma,
                   Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, w)
    assert seen == ["claire"]
    assert w.reviewer == "Chloé"
    stored = Settings(ui_settings.q).load()
    assert (stored.reviewer, stored.ollama_model, stored.language) == ("Chloé", "qwen3:8b",
                                                                       "fr")
    # The next decision is Chloé's (the filter refuses it: A asks, A again accepts).
    QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_A)
    QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_A)
    idle(qtbot, w)
    assert w.progress_label.text() == "Reviewed 1 / 24 (23 to review)"


def test_saving_the_settings_keeps_every_field(ui_settings: Settings) -> None:
    # A merge once rebuilt AppSettings field by field when checking names, and silently
    # turned "let the judge think" off on every save.
    from dataclasses import fields

    from ui.settings import AppSettings

    default = ui_settings.load()
    changed = AppSettings(reviewer="claire", ollama_host="http://judge.lan:11434",
                          ollama_model="qwen3:8b", database="/tmp/team.sqlite3", language="fr",
                          auto_advance=not default.auto_advance,
                          judge_think=not default.judge_think)
    ui_settings.save(changed)
    loaded = ui_settings.load()
    for f in fields(AppSettings):
        assert getattr(loaded, f.name) == getattr(changed, f.name), f.name


QT_SETTINGS_FILE = """
from PySide6.QtCore import QSettings
from reviewer.settings_files import settings_files
from ui.settings import APPLICATION, ORGANIZATION
print(QSettings(ORGANIZATION, APPLICATION).fileName())
print(settings_files()[0])
"""


@pytest.mark.parametrize("xdg", ["absolute", "relative", "empty", "unset"])
@pytest.mark.parametrize("home", ["set", "empty"])
def test_the_settings_file_the_cli_protects_is_the_one_qt_writes(
        tmp_path: Path, xdg: str, home: str) -> None:
    # Fourth hostile pass, S1: the CLI refuses to write over the settings file; it finds
    # that file without Qt (reviewer.settings_files), so Qt must agree on where it is.
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "XDG_CONFIG_HOME")}
    env["HOME"] = str(tmp_path / "home") if home == "set" else ""
    xdg_value = {"absolute": str(tmp_path / "config"), "relative": "rel/config",
                 "empty": "", "unset": None}[xdg]
    if xdg_value is not None:
        env["XDG_CONFIG_HOME"] = xdg_value
    done = subprocess.run([sys.executable, "-c", QT_SETTINGS_FILE], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    qt, ours = done.stdout.splitlines()
    assert Path(qt) == Path(ours)


@pytest.mark.parametrize("where", ["reviewer/reviewer.conf", "reviewer.conf"],
                         ids=["the application's file", "the organisation's file"])
def test_a_settings_file_that_is_a_pipe_is_refused_not_waited_on(
        tmp_path: Path, where: str) -> None:
    # nm43: QSettings read the FIFO as it was made, and the app froze before its window.
    import os
    import subprocess
    import sys

    config = tmp_path / "config"
    (config / "reviewer").mkdir(parents=True)
    os.mkfifo(config / where)
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(config),
           "XDG_DATA_HOME": str(tmp_path / "data"), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-m", "ui.cli", "gui", "--screenshot",
                           str(tmp_path / "shot.png")], capture_output=True, text=True,
                          env=env, cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"reviewer: {config / where}: the settings file is a pipe, not a "
                           "regular file; remove or rename it\n")
    assert not (tmp_path / "shot.png").exists() and not (tmp_path / "data").exists()
