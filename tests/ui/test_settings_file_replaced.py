"""The settings file replaced while the app runs is never written through (eighth hostile
pass, S4: ``reviewer.conf`` linked to a store *after* the start, then one key and Ctrl+Q:
the app wrote its INI text through the link and the store, decisions included, was gone;
the app had also read the store's bytes back as settings)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from reviewer.store import Store, open_store
from tests.support.qt import wait_ready
from ui.review.window import MainWindow
from ui.settings import Settings
from ui.tasks import TaskManager

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")

STARTED_WITH = "[General]\nreviewer=claire\n"
NOTES = "my notes, not settings\n"
# What the app itself keeps (the filter boxes, the window's layout) and what it started
# with: never a key read from the file put in its place.
OWN_KEYS = {"reviewer", "window/geometry", "window/splitter", "review/filter/mode",
            "review/filter/state", "review/filter/run", "review/filter/criterion",
            "review/filter/check", "review/filter/flagged"}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _open_window(qtbot: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                 store: Store) -> tuple[Path, Settings, TaskManager, MainWindow, list[str]]:
    """The app's own settings (a regular file under the test's config folder), the real
    main window on ``store``, and the list of the messages its status bar showed."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    conf = tmp_path / "config" / "reviewer" / "reviewer.conf"
    conf.parent.mkdir(parents=True)
    conf.write_text(STARTED_WITH, encoding="utf-8")
    settings = Settings()
    tasks = TaskManager(store)
    window = MainWindow(tasks, settings)
    said: list[str] = []
    shown = window.show_error

    def show_error(message: str) -> None:
        said.append(message)
        shown(message)

    window.show_error = show_error  # type: ignore[method-assign]
    window.show()
    wait_ready(qtbot, window)
    assert said == [] and window.error_label.text() == ""
    return conf, settings, tasks, window, said


@pytest.mark.parametrize("how", ["symbolic link to a store", "symbolic link to a text file",
                                 "hard link to a text file"])
def test_a_settings_file_replaced_by_a_link_while_the_app_runs_is_never_written(
        qapp: QApplication, qtbot: object, no_leaks: None, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, filled_store: Store, how: str) -> None:
    conf, settings, tasks, window, said = _open_window(qtbot, tmp_path, monkeypatch,
                                                       filled_store)
    if how == "symbolic link to a store":
        target = tmp_path / "o2.db"
        open_store(str(target)).close()
    else:
        target = tmp_path / "notes.txt"
        target.write_text(NOTES, encoding="utf-8")
    before = sha256(target)
    try:
        conf.unlink()  # what `ln -sf` or `ln -f` does while the window is open
        if how.startswith("symbolic"):
            conf.symlink_to(target)
        else:
            os.link(target, conf)
        window.filters.flagged.setChecked(True)  # the filter is remembered: a write
        assert settings.review_filter()["flagged"] == "true"  # kept for the session
    finally:
        window.close()  # the layout is remembered: another write
        window.deleteLater()
        tasks.shutdown()
    assert sha256(target) == before  # the store's (the text file's) bytes, untouched
    if how.startswith("symbolic"):
        assert conf.is_symlink() and conf.resolve() == target
    else:
        assert os.stat(conf).st_nlink == 2 and os.path.samefile(conf, target)
    assert sorted(p.name for p in conf.parent.iterdir()) == ["reviewer.conf"]
    assert set(settings.q.allKeys()) <= OWN_KEYS  # nothing read from the file put there
    if how.startswith("symbolic"):
        expected = (f"Settings are kept for this session only: {conf} is a symbolic link "
                    f"to {target}, and the app writes its settings only to a regular file "
                    "there.")
    else:
        expected = (f"Settings are kept for this session only: {conf} has another name "
                    "elsewhere (a hard link), and the app writes its settings only to a "
                    "file of its own there.")
    assert said == [expected]


def test_a_settings_file_replaced_by_a_store_while_the_app_runs_is_never_written(
        qapp: QApplication, qtbot: object, no_leaks: None, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, filled_store: Store) -> None:
    # A copy of a store moved onto the settings file (`mv o2.db reviewer.conf`): a regular
    # file of one name, but no settings file; it is left as it is.
    conf, settings, tasks, window, said = _open_window(qtbot, tmp_path, monkeypatch,
                                                       filled_store)
    other = tmp_path / "o2.db"
    open_store(str(other)).close()
    try:
        other.replace(conf)
        before = sha256(conf)
        window.filters.flagged.setChecked(True)
    finally:
        window.close()
        window.deleteLater()
        tasks.shutdown()
    assert sha256(conf) == before
    assert set(settings.q.allKeys()) <= OWN_KEYS
    assert said == [f"Settings are kept for this session only: {conf} was replaced by a "
                    "database, not a settings file, and the app leaves it as it is."]


def test_a_link_found_as_the_window_closes_is_said_on_stderr(
        qapp: QApplication, qtbot: object, no_leaks: None, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, filled_store: Store,
        capsys: pytest.CaptureFixture[str]) -> None:
    # The link made, then Ctrl+Q at once: the layout written on the way out is the first
    # write. The status bar is going away with the window: one line on stderr instead.
    conf, settings, tasks, window, said = _open_window(qtbot, tmp_path, monkeypatch,
                                                       filled_store)
    target = tmp_path / "o2.db"
    open_store(str(target)).close()
    before = sha256(target)
    capsys.readouterr()
    try:
        conf.unlink()
        conf.symlink_to(target)
    finally:
        window.close()
        window.deleteLater()
        tasks.shutdown()
    assert sha256(target) == before
    assert said == []
    assert capsys.readouterr().err == (
        f"reviewer: Settings are kept for this session only: {conf} is a symbolic link to "
        f"{target}, and the app writes its settings only to a regular file there.\n")
    assert settings.geometry("geometry") is not None  # in memory, for the session


def test_settings_written_meanwhile_by_another_app_are_kept_with_these(
        qapp: QApplication, qtbot: object, no_leaks: None, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, filled_store: Store) -> None:
    # Another window of the app (or an editor) replaced the file with settings of its
    # own: a regular file of one name and text, so it is the settings file. This window's
    # changes are written over its values, the others kept, as QSettings always did.
    conf, settings, tasks, window, said = _open_window(qtbot, tmp_path, monkeypatch,
                                                       filled_store)
    elsewhere = tmp_path / "written-by-the-other-window.conf"
    elsewhere.write_text("[General]\nreviewer=claire\nlanguage=fr\n", encoding="utf-8")
    try:
        elsewhere.replace(conf)
        window.filters.flagged.setChecked(True)
    finally:
        window.close()
        window.deleteLater()
        tasks.shutdown()
    assert said == []
    assert not conf.is_symlink() and os.stat(conf).st_nlink == 1
    again = Settings()
    assert again.load().language == "fr"
    assert again.review_filter()["flagged"] == "true"
    assert again.geometry("geometry") is not None
    assert "language" not in settings.q.allKeys()  # this window's settings stay its own


@pytest.mark.parametrize("what", ["a pipe", "a folder"])
def test_a_settings_file_replaced_by_a_pipe_or_a_folder_is_left_and_never_waited_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str) -> None:
    # A FIFO there would have held the write (and QSettings' read-back) for ever.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    conf = tmp_path / "config" / "reviewer" / "reviewer.conf"
    conf.parent.mkdir(parents=True)
    conf.write_text(STARTED_WITH, encoding="utf-8")
    settings = Settings()
    conf.unlink()
    if what == "a pipe":
        os.mkfifo(conf)
    else:
        conf.mkdir()
    settings.set_tool_state("export", "{}")
    assert settings.session_only is not None and settings.session_only.kind == what
    assert settings.tool_state("export") == "{}"
    assert (conf.is_fifo() if what == "a pipe" else conf.is_dir())
    assert sorted(p.name for p in conf.parent.iterdir()) == ["reviewer.conf"]
