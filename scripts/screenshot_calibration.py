"""The README's Calibration screenshot, made by the app itself (offscreen).

    .venv/bin/python scripts/screenshot_calibration.py OUT.png [GRADING.jsonl] [--lang fr]

A fresh SQLite store in a temporary folder; the Calibration window opens the grading file
(default: tests/graders/data/calibration_set.jsonl) and scores every answer with the keys'
own slot, giving it the file's ``"human"`` value (a careful reviewer's scores), then shows
the first group: the seed's share report.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QThread  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from reviewer.store import open_store  # noqa: E402
from ui import i18n  # noqa: E402
from ui.tasks import TaskManager  # noqa: E402
from ui.tools.calibration import CalibrationWindow  # noqa: E402

DEFAULT = ROOT / "tests" / "graders" / "data" / "calibration_set.jsonl"


def settle(app: QApplication, tasks: TaskManager, seconds: float = 20.0) -> None:
    """Process events until no task is pending for a few turns."""
    deadline, calm = time.monotonic() + seconds, 0
    while time.monotonic() < deadline and calm < 5:
        app.processEvents()
        calm = calm + 1 if tasks.pending == 0 else 0
        QThread.msleep(20)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("grading", type=Path, nargs="?", default=DEFAULT)
    parser.add_argument("--lang", default="en", choices=("en", "fr"))
    args = parser.parse_args()
    app = QApplication(sys.argv[:1])
    translators = i18n.install(app, args.lang)
    human = [json.loads(line)["human"] for line in args.grading.read_text("utf-8").splitlines()]
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/calibration.sqlite3")
        tasks = TaskManager(store)
        try:
            window = CalibrationWindow(tasks, "associée")
            window.resize(1200, 820)
            window.show()
            settle(app, tasks)
            window.open_file(args.grading)
            settle(app, tasks)
            state = window.state
            assert state is not None
            for index in range(len(state.groups)):
                state.go(index)
                window.refresh()
                for position, row in enumerate(list(state.order)):
                    window.answers.selectRow(position)
                    window.score_current(float(human[state.loaded.rows[row].line - 1]))
                    settle(app, tasks)
            state.go(0)
            window.refresh()
            window.answers.selectRow(2)  # C, the wrong recipient
            settle(app, tasks)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            ok = window.grab().save(str(args.out), "PNG")
            window.close()
        finally:
            tasks.shutdown()
            store.close()
            i18n.remove(app, translators)
    print(args.out if ok else f"could not write {args.out}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
