"""Every string the UI shows has a French translation, compiled into the shipped .qm."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

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
