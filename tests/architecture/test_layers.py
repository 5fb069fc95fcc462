"""The import direction ui -> reviewer -> models, and no Qt below ui."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QT = ("PySide6", "shiboken6", "pytestqt")


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, including imports inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [("models", ("reviewer", "ui", *QT)), ("reviewer", ("ui", *QT))],
)
def test_lower_layers_never_import_upper_layers_or_qt(
    package: str, forbidden: tuple[str, ...]
) -> None:
    offenders = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for module in imported_modules(path)
        if module.split(".")[0] in forbidden
    ]
    assert offenders == []


def test_import_linter_contracts_hold() -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.skip("import-linter is not installed in this environment")
    proc = subprocess.run([lint], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_domain_cli_does_not_load_qt() -> None:
    code = "import sys, reviewer.cli.main as m; m.build_parser(); print('PySide6' in sys.modules)"
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == "False"


def test_output_cut_short_by_the_reader_is_not_a_traceback(tmp_path: Path) -> None:
    db = tmp_path / "pipe.sqlite3"
    script = (
        f"{sys.executable} -m ui.cli --db {db} demo >/dev/null && "
        # The reader exits before the writer's first write (Python takes longer to start).
        f"{sys.executable} -m ui.cli --db {db} queue | true"
    )
    proc = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr
