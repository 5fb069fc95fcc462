"""Every file dialog of the app is one that opens no listed file (fifteenth hostile pass,
P15-2).

Qt's dialogs read each listed file to guess its type: in the store's folder they opened
and closed the store and its write-ahead log, which drops this process's SQLite locks,
and scores then went into a log another process deleted. ``ui/file_dialogs.py`` makes
the dialogs that type files by name; the Calibration test shows what it prevents
(``tests/ui/test_calibration_faults.py``). This test keeps every other window on it.
"""

from __future__ import annotations

import re
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "ui"
# A dialog made or run without ``ui.file_dialogs``: Qt's static getters, or the class
# built directly.
OWN_DIALOG = re.compile(r"QFileDialog\.get\w+\(|QFileDialog\(")


def test_no_window_makes_a_file_dialog_of_its_own() -> None:
    found = [f"{path.relative_to(UI.parent)}:{n}"
             for path in sorted(UI.rglob("*.py")) if path.name != "file_dialogs.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if OWN_DIALOG.search(line)]
    assert found == []
