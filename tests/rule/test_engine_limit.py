"""The ECMAScript engine under an address-space limit (sixth hostile pass, V8).

V8 reserves hundreds of gigabytes of address space when it starts; under any
``ulimit -v`` the hostile pass tried (0.4 to 128 GB) ``demo``, ``backtest``,
``replay --recheck`` and ``gui`` died with a native V8 trace, exit 133. Now the commands
that need the engine say so in one line (exit 1), and ``demo`` imports its run with the
ECMAScript patterns stored unchecked and a note saying why.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from reviewer.errors import FAILED

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 8 << 30  # 8 GB: far more than the program uses, far less than V8 reserves
REFUSAL = ("reviewer: the JavaScript regex engine needs more virtual memory than ulimit -v "
           "allows (ulimit -v 8388608, 8.0 GB); raise the limit or run without it")


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, resource.getrlimit(resource.RLIMIT_AS)[1]))


def reviewer(db: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ui.cli", "--db", str(db), *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False,
                          env=os.environ.copy(), preexec_fn=limited)


def no_native_crash(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode not in (133, -5, 134, -6), done.stderr[-2000:]
    assert "FATAL" not in done.stderr and "Check failed" not in done.stderr, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]


Demo = tuple[Path, subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    db = tmp_path_factory.mktemp("limit") / "r.db"
    return db, reviewer(db, "demo")


def test_demo_under_a_limit_imports_and_says_what_it_could_not_check(
        demo_db: Demo) -> None:
    _db, done = demo_db
    no_native_crash(done)
    assert done.returncode == 0, done.stderr
    assert "new" in done.stdout
    assert done.stderr.splitlines() == [
        "reviewer: note: 3 ECMAScript check pattern(s) stored without a syntax check: "
        + REFUSAL.removeprefix("reviewer: ")]


@pytest.mark.parametrize("argv", [
    ("backtest", "D-COMMERCE", "inscri(vez|re)"),
    ("replay", "--recheck"),
], ids=["backtest", "recheck"])
def test_commands_that_need_the_engine_say_so_in_one_line(
        demo_db: Demo, argv: tuple[str, ...]) -> None:
    db, _ = demo_db
    done = reviewer(db, *argv)
    no_native_crash(done)
    assert done.returncode == FAILED, done.stderr[-2000:]
    assert done.stderr.splitlines() == [REFUSAL]
