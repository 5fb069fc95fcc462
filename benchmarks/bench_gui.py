"""GUI: process start to the first paint of the queue's first page, and peak memory.

``reviewer gui`` runs in a subprocess (``QT_QPA_PLATFORM=offscreen``) under the probe of
``benchmarks/gui_probe.py``: it prints the time of the first paint of the queue with rows,
lets the window finish loading, and quits. Its peak
RSS comes from ``os.wait4``. The baseline is the same on a 1,000-attempt store. Goals:
start-up at most 1.5 times the small store's and under 1 s; at most 150 MB more memory.
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import ROOT, Context, Result

RATIO_GOAL = 1.5
ABSOLUTE_GOAL_S = 1.0
MEMORY_GOAL_MB = 150.0
TIMEOUT_S = 120.0


def launch(db: Path) -> tuple[float, float, int]:
    """One start: seconds to first paint, peak RSS in MB, rows shown."""
    with tempfile.TemporaryDirectory(prefix="reviewer-bench-gui-") as home:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
               "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home, "HOME": home}
        start = time.time()
        proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.gui_probe", "--db", str(db), "gui"],
            cwd=ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        try:
            out = proc.stdout.read()
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            proc.kill()
            raise
        proc.returncode = os.waitstatus_to_exitcode(status)
    line = next((x for x in out.splitlines() if x.startswith("first-paint ")), None)
    if line is None or proc.returncode != 0:
        raise RuntimeError(f"the GUI did not report a first paint (exit {proc.returncode})")
    _, stamp, _, rows = line.split()
    return float(stamp) - start, usage.ru_maxrss / 1024, int(rows)


def best_launches(big: Path, small: Path, repeat: int) -> tuple[tuple[float, float, int], ...]:
    """For each store: best start-up time of ``repeat`` starts, highest peak memory, rows.

    The stores are started alternately: the machine's speed drifts over seconds, and
    starts minutes apart compared the drift as much as the stores.
    """
    runs: tuple[list[tuple[float, float, int]], ...] = ([], [])
    for _ in range(max(repeat, 1)):
        for i, db in enumerate((big, small)):
            runs[i].append(launch(db))
    return tuple((min(r[0] for r in rs), max(r[1] for r in rs), rs[0][2]) for rs in runs)


def write_bytecode() -> None:
    """What ``make bytecode`` does (``make bench`` runs it first), for a direct run of
    ``benchmarks/run.py``: with PYTHONDONTWRITEBYTECODE set, a module edited since the
    last ``make`` was compiled again at every start, and measured with it."""
    for folder in ("reviewer", "models", "ui", "benchmarks"):
        compileall.compile_dir(ROOT / folder, quiet=1)


def run(ctx: Context) -> list[Result]:
    """Start-up and memory, full size vs the small store."""
    write_bytecode()
    (big_s, big_mb, rows), (small_s, small_mb, small_rows) = best_launches(
        ctx.db_path, ctx.small_db_path, min(ctx.repeat, 3))
    ratio = big_s / small_s
    extra = big_mb - small_mb
    size = f"{ctx.attempts:,}"
    return [
        Result(f"GUI start to first paint on {size}", big_s, small_s, ratio,
               f"ratio ≤ {RATIO_GOAL:g} and < {ABSOLUTE_GOAL_S:g} s",
               ratio <= RATIO_GOAL and big_s < ABSOLUTE_GOAL_S,
               checks={"rows": rows, "small_rows": small_rows},
               note="baseline: the same on the small store"),
        Result(f"GUI peak memory on {size}", big_mb, small_mb, extra,
               f"≤ {MEMORY_GOAL_MB:g} MB more", extra <= MEMORY_GOAL_MB, unit="MB",
               note="ratio column: MB more than on the small store"),
    ]
