"""What the benchmark modules share: data sets, stores, timing and the result format.

Every measurement returns a :class:`Result`: our figure, the baseline's figure (plain
code doing the same work in the same process, or the same path on a small store), their
ratio, the goal in words and whether it holds, plus correctness facts (row counts, equal
scores) that the smoke test checks instead of timings.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

OUT = ROOT / "benchmarks" / "out"
SMALL = 1000  # the size the "does the cost grow?" measurements compare against


@dataclass
class Result:
    """One line of the results table."""

    name: str
    ours: float | None
    baseline: float | None
    ratio: float | None
    goal: str
    passed: bool | None
    unit: str = "s"
    checks: dict[str, Any] = field(default_factory=dict)
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The JSON form written to results.json."""
        return asdict(self)


@dataclass
class Context:
    """What a run of the harness is about: the size, the files, the stores already built."""

    attempts: int
    out: Path
    run_path: Path
    catalog_path: Path
    small_run_path: Path
    db_path: Path  # our store at ``attempts``, filled by the import measurement
    small_db_path: Path  # our store at SMALL attempts
    repeat: int = 3  # quick measurements: best of this many
    heavy_repeat: int = 1  # whole-store passes (export, back-test): best of this many
    state: dict[str, Any] = field(default_factory=dict)
    # PostgreSQL rows: the throwaway server (benchmarks.postgres.BenchServer) and the URLs
    # of the stores, which then stand for the two SQLite files.
    backend: str = "sqlite"
    pg: Any = None
    db_url: str | None = None
    small_db_url: str | None = None

    @property
    def db(self) -> str:
        """What ``open_store`` and ``--db`` take for our store at ``attempts``."""
        return self.db_url or str(self.db_path)

    @property
    def small_db(self) -> str:
        """The same for the store at SMALL attempts."""
        return self.small_db_url or str(self.small_db_path)

    def label(self, name: str) -> str:
        """A result's name: SQLite's rows keep their names, PostgreSQL's say so."""
        return name if self.backend == "sqlite" else f"PostgreSQL {name}"


def best_time(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` runs of ``fn`` (the least disturbed by other load)."""
    best = float("inf")
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Wall time of one call of ``fn`` and what it returned."""
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def fresh(path: Path) -> Path:
    """``path`` with any previous SQLite file (and its WAL) removed."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path


def not_available(name: str, goal: str, why: str) -> Result:
    """A measurement whose code has not landed yet: reported, never counted as passed."""
    return Result(name, None, None, None, goal, None, note=f"not measured: {why}")
