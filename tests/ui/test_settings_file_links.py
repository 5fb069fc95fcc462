"""The settings file is never written through a link, nor over a database (seventh hostile
pass, S3: ``reviewer.conf`` linked to a store; quitting the app wrote its INI text through
the link and the store, decisions included, was gone)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from reviewer.store import Store, open_store
from tests.support.qt import wait_ready
from ui.review.window import MainWindow
from ui.settings import Settings
from ui.tasks import TaskManager

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
ROOT = Path(__file__).resolve().parents[2]


def _gui(tmp_path: Path, db: Path) -> subprocess.CompletedProcess[str]:
    """The app as its console script runs it, with the config folder under tmp_path: it
    opens its window on ``db``, takes a screenshot and closes (saving its layout)."""
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "QT_QPA_PLATFORM": "offscreen"}
    env.pop("REVIEWER_DB", None)
    return subprocess.run([sys.executable, "-m", "ui.cli", "--db", str(db), "gui",
                           "--screenshot", str(tmp_path / "shot.png")], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("which", ["the open store", "another store"])
def test_a_settings_file_linked_to_a_store_is_refused_and_the_store_kept(
        tmp_path: Path, which: str) -> None:
    store_path = tmp_path / "r5.db"
    other = tmp_path / "o3.db"
    for path in (store_path, other):
        open_store(str(path)).close()
    linked = store_path if which == "the open store" else other
    folder = tmp_path / "config" / "reviewer"
    folder.mkdir(parents=True)
    (folder / "reviewer.conf").symlink_to(linked)
    before = linked.read_bytes()
    done = _gui(tmp_path, store_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"reviewer: {folder / 'reviewer.conf'}: the settings file is a "
                           f"link to {linked}, a database (SQLite); the app never writes its "
                           "settings over one; remove the link\n")
    assert linked.read_bytes() == before
    assert not (tmp_path / "shot.png").exists()


def test_a_settings_file_that_is_a_database_is_refused(tmp_path: Path) -> None:
    # A hard link or a copy: the file itself starts with the SQLite header.
    folder = tmp_path / "config" / "reviewer"
    folder.mkdir(parents=True)
    conf = folder / "reviewer.conf"
    open_store(str(conf)).close()
    before = conf.read_bytes()
    open_store(str(tmp_path / "r.db")).close()
    done = _gui(tmp_path, tmp_path / "r.db")
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"reviewer: {conf}: the settings file is a database (SQLite); "
                           "the app never writes its settings over one; remove or rename it\n")
    assert conf.read_bytes() == before


def test_a_settings_file_linked_elsewhere_is_read_and_never_written(tmp_path: Path) -> None:
    # Dotfiles kept as links into a repository: the settings are read from the link's
    # file, used for this session, and never written through the link.
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "reviewer.conf"
    target.write_text("[General]\nreviewer=zo\u00e9\nauto_advance=false\n", encoding="utf-8")
    folder = tmp_path / "config" / "reviewer"
    folder.mkdir(parents=True)
    (folder / "reviewer.conf").symlink_to(target)
    before = target.read_bytes()
    open_store(str(tmp_path / "r.db")).close()
    done = _gui(tmp_path, tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    assert target.read_bytes() == before
    assert (folder / "reviewer.conf").is_symlink()
    assert sorted(p.name for p in dotfiles.iterdir()) == ["reviewer.conf"]


def test_settings_kept_for_the_session_only_are_said_once(
        qapp: QApplication, qtbot: object, no_leaks: None, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, filled_store: Store) -> None:
    target = tmp_path / "dotfiles.conf"
    target.write_text("[General]\nreviewer=zo\u00e9\n", encoding="utf-8")
    folder = tmp_path / "config" / "reviewer"
    folder.mkdir(parents=True)
    link = folder / "reviewer.conf"
    link.symlink_to(target)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    settings = Settings()
    assert settings.load().reviewer == "zo\u00e9"
    tasks = TaskManager(filled_store)
    window = MainWindow(tasks, settings)
    try:
        window.show()
        wait_ready(qtbot, window)
        assert window.error_label.text() == (
            f"Settings are kept for this session only: {link} is a symbolic link to "
            f"{target}, and the app writes its settings only to a regular file there.")
        settings.set_geometry("geometry", window.saveGeometry())
    finally:
        window.close()
        window.deleteLater()
        tasks.shutdown()
    assert target.read_text(encoding="utf-8") == "[General]\nreviewer=zo\u00e9\n"
