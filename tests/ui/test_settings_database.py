"""A database set in Settings that cannot be opened: the app offers a way out (U3)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from reviewer.store import open_store
from ui import store_choice
from ui.cli import main as cli_main
from ui.review.window import MainWindow
from ui.settings import Settings
from ui.store_choice import StoreRefused

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


@pytest.fixture
def typo(ui_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
         ) -> Iterator[Path]:
    """Settings (the app's own file, in the test's folder) naming a file that is not
    there; the default store in the test's data folder; the window closes once shown."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("REVIEWER_DB", raising=False)
    path = tmp_path / "r.dbb"
    Settings().set_database(str(path))
    show = MainWindow.show
    opened: list[MainWindow] = []

    def show_then_close(window: MainWindow) -> None:
        show(window)
        opened.append(window)
        QTimer.singleShot(0, window.close)

    monkeypatch.setattr(MainWindow, "show", show_then_close)
    yield path


def answer(button: str, said: list[str]) -> None:
    """Once the box is up, note what it says and press ``button``."""
    def press() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        said.append(box.text())
        if isinstance(box, StoreRefused):
            getattr(box, button).click()
        else:  # a box with no way out (before U3): closed, the test then fails
            box.close()

    QTimer.singleShot(0, press)


def test_a_mistyped_database_in_settings_can_give_way_to_the_default_store(
        qapp: QApplication, no_leaks: None, typo: Path, tmp_path: Path) -> None:
    # Seventh hostile pass, U3: the app said "import a run first, or check the path" and
    # never opened, so Settings could not be reached to fix the path.
    said: list[str] = []
    answer("default_button", said)
    assert cli_main(["gui", "--lang", "en"]) == 0
    settings_file = Settings().file_name()
    assert said == [f"no database at {typo}, named by the Database set in Settings "
                    f"(saved in {settings_file})"]
    assert (tmp_path / "data" / "reviewer" / "reviewer.sqlite3").is_file()  # the demo's
    assert Settings().load().database == ""  # the bad setting is cleared
    assert not typo.exists()


def test_a_database_chosen_instead_is_opened_and_saved_in_settings(
        qapp: QApplication, no_leaks: None, typo: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other.sqlite3"
    open_store(str(other)).close()
    monkeypatch.setattr(store_choice, "choose_file", lambda _near: str(other))
    said: list[str] = []
    answer("choose_button", said)
    assert cli_main(["gui", "--lang", "en"]) == 0
    assert len(said) == 1
    assert Settings().load().database == str(other)
    assert not (tmp_path / "data").exists()  # no default store made


def test_quit_leaves_the_setting_and_makes_nothing(
        qapp: QApplication, no_leaks: None, typo: Path, tmp_path: Path) -> None:
    said: list[str] = []
    answer("quit_button", said)
    assert cli_main(["gui", "--lang", "en"]) == 2
    assert len(said) == 1
    assert Settings().load().database == str(typo)
    assert not (tmp_path / "data").exists() and not typo.exists()


@pytest.mark.parametrize("database", ["postgresql+psycopg://u@x..com:1/x",
                                      "postgresql+psycopg://u@127.0.0.1:1/x%00"],
                         ids=["a host with two dots", "a NUL in the database name"])
def test_a_postgresql_url_in_settings_that_cannot_be_used_is_one_line(
        qapp: QApplication, no_leaks: None, typo: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], database: str) -> None:
    # Eighth hostile pass, T5: `gui --screenshot` with such a Database set in Settings
    # was "internal error (UnicodeError: … 'idna' codec failed …)", exit 70; P2: the NUL
    # sent the connection to port 5432.
    Settings().set_database(database)
    shot = tmp_path / "shot.png"
    assert cli_main(["gui", "--screenshot", str(shot), "--lang", "en"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("reviewer: "), err
    assert err[0].startswith(f"reviewer: the Database set in Settings (saved in "
                             f"{Settings().file_name()}) {database}: not a valid database "
                             "URL (the ")
    assert not shot.exists() and not (tmp_path / "data").exists()
