"""The README's review-window screenshots, made by the app itself (offscreen, keys typed).

    .venv/bin/python scripts/screenshot_review.py OUT_FOLDER

A fresh store with the demo run and fresh settings in a temporary folder; the main window
shows the seed's case (recette-009/2/2: G-DEMANDE "non" whose rationale says the request
was answered) and saves:

* ``review-contradiction.png``: the pane in reading order (English);
* ``review-accept-question.png``: the same attempt after ``A``: the filter would still
  refuse it, the pane asks (English);
* ``review-fr-override.png``: in French, after ``1`` (flip G-DEMANDE), ``A`` (the filter
  now accepts: accepted at once, no question) and a note written with ``N``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings, Qt, QThread  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from reviewer.ingest.demo import load_demo  # noqa: E402
from reviewer.keys import AttemptKey  # noqa: E402
from reviewer.store import open_store  # noqa: E402
from ui import i18n  # noqa: E402
from ui.review.window import MainWindow  # noqa: E402
from ui.settings import Settings  # noqa: E402
from ui.tasks import TaskManager  # noqa: E402

KEY = "2026-10-14-ministral-8b/recette-009/2/2"
SIZE = (1500, 950)
NOTE = "Le juge se contredit : la réponse traite bien la demande."


def settle(app: QApplication, window: MainWindow, seconds: float = 30.0) -> None:
    """Process events until the window has been ready for a few turns."""
    deadline, calm = time.monotonic() + seconds, 0
    while time.monotonic() < deadline and calm < 8:
        app.processEvents()
        calm = calm + 1 if window.ready() and not window.keys.waiting else 0
        QThread.msleep(20)


def press(app: QApplication, window: MainWindow, *keys: Qt.Key) -> None:
    for k in keys:
        QTest.keyClick(QApplication.focusWidget() or window, k)
        settle(app, window)


def shoot(app: QApplication, folder: Path, lang: str, name: str,
          keys: Callable[[QApplication, MainWindow], None] | None = None) -> None:
    translators = i18n.install(app, lang)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{tmp}/demo.sqlite3")
        load_demo(store)
        settings = Settings(QSettings(f"{tmp}/reviewer.ini", QSettings.Format.IniFormat))
        settings.q.setValue("reviewer", "claire")
        settings.q.setValue("auto_advance", "false")
        tasks = TaskManager(store)
        try:
            window = MainWindow(tasks, settings)
            window.fits_screen = False  # the README's size, not the offscreen screen's
            window.resize(*SIZE)
            window.show()
            window.activateWindow()
            window.select_key(AttemptKey.parse(KEY))
            settle(app, window)
            if keys is not None:
                keys(app, window)
            window.queue.focus()
            settle(app, window)
            window.grab().save(str(folder / name), "PNG")
            print(folder / name)
            window.close()
        finally:
            tasks.shutdown()
            store.close()
            i18n.remove(app, translators)


def override(app: QApplication, window: MainWindow) -> None:
    press(app, window, Qt.Key.Key_1, Qt.Key.Key_A, Qt.Key.Key_N)
    window.pane.note_editor.setText(NOTE)  # keyClicks cannot type "ê" and friends
    press(app, window, Qt.Key.Key_Return)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path)
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    app = QApplication(sys.argv[:1])
    shoot(app, args.folder, "en", "review-contradiction.png")
    shoot(app, args.folder, "en", "review-accept-question.png",
          lambda a, w: press(a, w, Qt.Key.Key_A))
    shoot(app, args.folder, "fr", "review-fr-override.png", override)
    return 0


if __name__ == "__main__":
    sys.exit(main())
