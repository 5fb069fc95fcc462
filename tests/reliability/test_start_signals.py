"""A signal while a command starts is the usual one line and exit code, never a traceback.

Ninth hostile pass, T8: Ctrl-C 0.3–0.5 s after ``reviewer gui`` started, while PySide6
was loading, raised KeyboardInterrupt inside shiboken's own import machinery: "internal
error (AttributeError: type object 'PySide6.QtCore.Qt' has no attribute
'ShortcutContext')" (exit 70), "ImportError: libshiboken: could not import module
'PySide6.QtGui'", or an abort (SIGABRT) with shiboken's traceback. Here the signal is sent
at the moment the process maps a Qt library (``/proc/PID/maps``), which lands in those
very imports every time, where a fixed delay hit them one run in two.

T9: Ctrl-C in the first milliseconds of any command printed a traceback through the
console script and the modules it imports before ``main`` handles Ctrl-C. Here the signal
is raised by the process itself as a given module starts to load (an import hook put
ahead of the console script: the moment is exact, whatever the machine's speed).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from reviewer.ingest.importer import import_run
from reviewer.store import open_store
from tests.support.run_files import sample_rows, write_catalog, write_jsonl

ROOT = Path(__file__).resolve().parents[2]
CLOSED = "the window was closed as by its close button"
NOT_SAVED = "the step in progress was not saved (what was saved before is kept)"

pytestmark = pytest.mark.slow


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    path = tmp_path / "start.sqlite3"
    store = open_store(str(path))
    import_run(store, write_jsonl(tmp_path / "run.jsonl", sample_rows(3)),
               catalog_path=write_catalog(tmp_path / "catalog.json"))
    store.close()
    return path


def mapped(pid: int, library: str) -> bool:
    """Whether process ``pid`` has mapped a file whose name holds ``library``."""
    try:
        return library in Path(f"/proc/{pid}/maps").read_text(errors="replace")
    except OSError:
        return False


def gui_signalled_when_mapped(library: str, sig: signal.Signals, db: Path, tmp_path: Path
                              ) -> tuple[int, list[str]]:
    """``reviewer --db DB gui``, sent ``sig`` the moment it maps ``library``: its exit code
    and its stderr lines (the offscreen plugin's own note aside)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "--db", str(db), "--reviewer", "claire", "gui"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 120
        while not mapped(proc.pid, library):
            assert proc.poll() is None, f"ended before mapping {library}"
            assert time.monotonic() < deadline, f"{library} never mapped"
            time.sleep(0.001)
        proc.send_signal(sig)
        _out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    return proc.returncode, [line for line in err.splitlines()
                             if "propagateSizeHints" not in line]


@pytest.mark.skipif(not Path("/proc/self/maps").exists(),
                    reason="needs /proc to see the libraries a process maps")
@pytest.mark.parametrize(("library", "sig", "code", "said"), [
    ("libshiboken6", signal.SIGINT, 130, "interrupted"),
    ("libQt6Core", signal.SIGINT, 130, "interrupted"),
    ("libQt6Gui", signal.SIGINT, 130, "interrupted"),
    ("libQt6Widgets", signal.SIGINT, 130, "interrupted"),
    ("libqoffscreen", signal.SIGINT, 130, "interrupted"),  # the QApplication being made
    ("libQt6Gui", signal.SIGTERM, 143, "terminated"),
    ("libQt6Widgets", signal.SIGTERM, 143, "terminated"),
    ("libshiboken6", signal.SIGHUP, 129, "hung up"),
], ids=lambda value: getattr(value, "name", None) or str(value))
def test_a_signal_while_qt_loads_ends_the_start_in_one_line(
        db_file: Path, tmp_path: Path, library: str, sig: signal.Signals, code: int,
        said: str) -> None:
    returncode, lines = gui_signalled_when_mapped(library, sig, db_file, tmp_path)

    # Held until PySide6 is loaded and the QApplication made, then said as the command
    # line says an interrupt, before the store is opened.
    assert (returncode, lines) == (code, [f"reviewer: {said}; {NOT_SAVED}"])


# Ahead of the console script: Ctrl-C (SIGINT raised by the process itself, handled at
# the next bytecode as a key pressed then) the moment the module named starts to load.
TRIPWIRE = """
import signal, sys

class Tripwire:
    def __init__(self, name):
        self.name = name

    def find_spec(self, fullname, path=None, target=None):
        if fullname == self.name:
            sys.meta_path.remove(self)
            signal.raise_signal(signal.SIGINT)
        return None

sys.meta_path.insert(0, Tripwire(sys.argv.pop(1)))
"""


def console_script() -> str:
    """The console script as pip writes it from pyproject.toml's ``[project.scripts]``."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    module, function = pyproject["project"]["scripts"]["reviewer"].split(":")
    return (f"import sys\nfrom {module} import {function}\nif __name__ == '__main__':\n"
            f"    sys.argv[0] = sys.argv[0].removesuffix('.exe')\n"
            f"    sys.exit({function}())\n")


@pytest.mark.parametrize("module", [
    "ui.cli", "typing",  # the console script's imports, before main
    "reviewer", "reviewer.cli.main", "argparse",  # main's, before the command
    "sqlalchemy", "models",  # the command's
])
def test_ctrl_c_as_a_command_loads_its_modules_is_the_one_line(
        db_file: Path, module: str) -> None:
    # Ninth hostile pass, T9: a traceback through the console script, exit -2 (here:
    # the signal as ui.cli or typing started to load, before main handled Ctrl-C).
    proc = subprocess.run(
        [sys.executable, "-c", TRIPWIRE + console_script(), module, "--db", str(db_file),
         "stats"], capture_output=True, text=True, cwd=ROOT, timeout=120)

    assert (proc.returncode, proc.stderr, proc.stdout) == (
        130, f"reviewer: interrupted; {NOT_SAVED}\n", "")
