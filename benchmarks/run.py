"""The benchmark harness behind ``make bench``: every heavy path, ours vs a baseline.

``python benchmarks/run.py`` measures at 100,000 attempts, ``--quick`` at 10,000 and
``--smoke`` at 1,000 (the CI check that the harness itself works: correctness facts only,
timings are reported but not judged). It generates the synthetic runs
(``benchmarks/make_run.py``, cached in ``benchmarks/out/``), imports them, flags them,
then runs one module per measurement, prints a table and writes
``benchmarks/results.json``. Ratios are taken against a baseline measured in the same
process and the same minute, since absolute times on a shared machine drift.

Exit status: 0 when every goal holds (smoke: when every correctness fact holds), 1
otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import make_run  # noqa: E402
from benchmarks.common import OUT, SMALL, Context, Result, fresh, not_available  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results.json"
FULL, QUICK, SMOKE = 100_000, 10_000, 1_000
REVIEWER = "bench"


def dataset(attempts: int, out: Path) -> tuple[Path, Path]:
    """The run file and catalog for ``attempts``, generated unless already there."""
    folder = out / f"run-{attempts}"
    run_path, catalog_path = folder / "run.jsonl", folder / "catalog.json"
    generator = Path(make_run.__file__)
    if (not run_path.exists() or not catalog_path.exists()
            or run_path.stat().st_mtime < generator.stat().st_mtime):
        print(f"generating {attempts:,} attempts…", file=sys.stderr)
        make_run.write(folder, attempts)
    return run_path, catalog_path


def prepare_small(ctx: Context) -> None:
    """The 1,000-attempt store the size-independence goals compare against."""
    from benchmarks.bench_flag import flag
    from benchmarks.bench_import import create_empty, ours

    if ctx.small_db_url is None:
        create_empty(ctx.small_db_path)
    ours(ctx.small_db, ctx.small_run_path, ctx.catalog_path)
    flag(ctx.small_db)
    add_decisions(ctx.small_db)


def add_decisions(db: Path | str, count: int = 300) -> int:
    """``count`` refused attempts, spread over the store, get a decision by the bench reviewer.

    A fixed number at every size: what one reviewer decides does not grow with the store.
    """
    from sqlalchemy import select

    from models import Attempt, ReviewDecision
    from reviewer.store import open_store

    store = open_store(str(db))
    try:
        with store.session() as session:
            refused = list(session.scalars(select(Attempt.id)
                                           .where(Attempt.accepted.is_(False))
                                           .order_by(Attempt.id)))
            ids = refused[::max(len(refused) // count, 1)][:count]
            session.add_all(ReviewDecision(attempt_id=i, reviewer=REVIEWER,
                                           decision="accept" if i % 2 else "reject",
                                           criteria={}, checks={}, note="")
                            for i in ids)
    finally:
        store.close()
    return len(ids)


def _from_dict(data: dict[str, Any], goal: str, higher_is_better: bool) -> Result:
    """Adapt the ``{"name", "ours", "baseline", "ratio", "goal"}`` of the older modules."""
    value = data["ratio"] if data.get("ratio") is not None else data["ours"]
    ok = value >= data["goal"] if higher_is_better else value <= data["goal"]
    return Result(data["name"], data["ours"], data.get("baseline"), data.get("ratio"), goal,
                  bool(ok), unit="s" if data.get("baseline") is not None else "verdicts/s")


def bench_rouge(ctx: Context) -> Result:
    """ROUGE-L vs rouge-score (the module asserts equal scores before timing)."""
    from benchmarks import bench_rouge as module

    result = _from_dict(module.run(ctx.attempts < FULL), "≥ 100× faster, equal scores", True)
    result.checks = {"equal_scores": True}  # run() raises AssertionError otherwise
    result.note = "ours and baseline in seconds per call; ratio = speed-up"
    return result


def bench_detector(ctx: Context) -> Result:
    """The contradiction detector alone on verdicts in memory (information)."""
    from benchmarks import bench_contradiction as module

    return _from_dict(module.run(ctx.attempts < FULL), "≥ 50,000 verdicts/s", True)


def _module(name: str) -> Callable[[Context], Any]:
    def call(ctx: Context) -> Any:
        module = __import__(f"benchmarks.{name}", fromlist=["run"])
        return module.run(ctx)
    return call


# In order: the import fills our store, flagging sets the scores the queue sorts on.
STEPS: list[tuple[str, str, Callable[[Context], Any]]] = [
    ("import", "import ratio ≤ 2", _module("bench_import")),
    ("flag", "≥ 50,000 verdicts/s", _module("bench_flag")),
    ("queue", "ratio ≤ 3, < 100 ms", _module("bench_queue")),
    ("search", "< 100 ms; the bound < 1 s; beyond, refused", _module("bench_search")),
    ("gui", "ratio ≤ 1.5, < 1 s; ≤ 150 MB more", _module("bench_gui")),
    ("backtest", "ratio ≤ 1.5", _module("bench_backtest")),
    ("export", "ratio ≤ 2", _module("bench_export")),
    ("rouge", "≥ 100× faster", bench_rouge),
    ("detector", "≥ 50,000 verdicts/s", bench_detector),
]
# The same rows on PostgreSQL where they apply: what a team's server does at the size of
# a season (the GUI, the back-test and the pure-Python measurements do not change with
# the backend, or are measured on SQLite above).
PG_STEPS: list[tuple[str, str, Callable[[Context], Any]]] = [
    ("import", "import ratio ≤ 2", _module("bench_import_pg")),
    ("flag", "≥ 50,000 verdicts/s", _module("bench_flag")),
    ("queue", "ratio ≤ 3, < 100 ms", _module("bench_queue")),
    ("search", "< 100 ms; the bound < 1 s; beyond, refused", _module("bench_search")),
    ("export", "ratio ≤ 2", _module("bench_export")),
]


def run_step(name: str, goal: str, step: Callable[[Context], Any], ctx: Context) -> list[Result]:
    """One measurement; a module that has not landed or crashed is reported, not fatal."""
    started = time.perf_counter()
    try:
        value = step(ctx)
    except ModuleNotFoundError as exc:
        return [not_available(name, goal, f"module missing ({exc.name})")]
    except Exception as exc:  # one broken measurement must not hide the others
        traceback.print_exc()
        return [Result(name, None, None, None, goal, False, note=f"error: {exc}")]
    finally:
        print(f"  {name}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    if name == "import":
        # The review-state filters need decisions, and the queue needs the flags' scores.
        ctx.state["decisions"] = add_decisions(ctx.db)
    return value if isinstance(value, list) else [value]


FACTS = ("same_", "equal_scores", "refused", "no_statement")


def correct(result: Result) -> bool:
    """Every correctness fact a measurement reports holds."""
    facts = [v for k, v in result.checks.items() if k.startswith(FACTS)]
    checks = result.checks
    if "total" in checks:  # a queue page holds the first rows of what the count says
        facts.append(checks["rows"] == min(checks["total"], 200))
        facts.append(checks["small_rows"] == min(checks["small_total"], 200))
    elif "rows" in checks:  # the GUI showed rows
        facts.append(checks["rows"] > 0)
    return all(bool(f) for f in facts)


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "s":
        if value < 0.001:
            return f"{value * 1e6:.1f} µs"
        return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"
    if unit == "MB":
        return f"{value:.0f} MB"
    return f"{value:,.0f}/s"


def table(results: list[Result], judged: bool) -> str:
    """The results as a Markdown table (also what docs/performance.md shows)."""
    lines = ["| measurement | ours | baseline | ratio | goal | result |",
             "|---|---|---|---|---|---|"]
    for r in results:
        ratio = "—" if r.ratio is None else (f"{r.ratio:.0f}×" if r.ratio >= 20
                                            else f"{r.ratio:.2f}")
        if r.unit == "MB" and r.ratio is not None:
            ratio = f"{r.ratio:+.0f} MB"
        if r.passed is None:
            verdict = "not measured"
        elif not judged:
            verdict = "ok" if correct(r) else "WRONG"
        else:
            verdict = "pass" if r.passed and correct(r) else "FAIL"
        lines.append(f"| {r.name} | {_fmt(r.ours, r.unit)} | {_fmt(r.baseline, r.unit)} | "
                     f"{ratio} | {r.goal} | {verdict} |")
    return "\n".join(lines)


def run_steps(steps: list[tuple[str, str, Callable[[Context], Any]]], ctx: Context,
              args: argparse.Namespace, reuse: bool) -> list[Result]:
    """The steps of one backend, in order (``--only`` keeps some; import always runs)."""
    results: list[Result] = []
    for name, goal, step in steps:
        if args.only and name != "import" and name not in args.only:
            continue
        if name == "import" and reuse:
            print(f"reusing {ctx.db} (no import)", file=sys.stderr)
            continue
        print(f"measuring {ctx.label(name)}…", file=sys.stderr)
        results.extend(run_step(name, goal, step, ctx))
        if name == "flag" and ctx.pg is not None:
            for url in (ctx.small_db, ctx.db):
                ctx.pg.settle(url)
    return results


def run_postgresql(sqlite: Context, args: argparse.Namespace) -> list[Result]:
    """The PostgreSQL rows, on a throwaway server started (and stopped) here."""
    from benchmarks.postgres import BenchServer, PgUnavailable

    ctx = replace(sqlite, backend="postgresql", state=sqlite.state)
    try:
        ctx.pg = BenchServer().start()
    except PgUnavailable as exc:
        return [not_available(ctx.label("rows"), "the same goals as SQLite", str(exc))]
    try:
        ctx.small_db_url = ctx.pg.fresh("store_small")
        ctx.db_url = ctx.pg.fresh(f"store_{ctx.attempts}")
        print("PostgreSQL: preparing the small store…", file=sys.stderr)
        prepare_small(ctx)
        return run_steps(PG_STEPS, ctx, args, reuse=False)
    finally:
        ctx.pg.stop()


def parse(argv: list[str] | None) -> argparse.Namespace:
    """Command line options."""
    p = argparse.ArgumentParser(description="benchmarks: ours vs baseline, with goals")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help=f"{QUICK:,} attempts")
    size.add_argument("--smoke", action="store_true",
                      help=f"{SMOKE:,} attempts, correctness only (CI)")
    p.add_argument("--attempts", type=int, default=None,
                   help=f"size (default {FULL:,}; with --smoke: its size)")
    p.add_argument("--small", type=int, default=SMALL, help="size of the comparison store")
    p.add_argument("--only", action="append", default=None, metavar="NAME",
                   help="measure only these steps (import always runs first, unless --reuse)")
    p.add_argument("--reuse", action="store_true",
                   help="keep the store of this size from an earlier run (migrated to head) "
                        "instead of importing again: no import row; flag then measures a "
                        "rerun, which replaces every rules reading")
    p.add_argument("--backend", choices=("both", "sqlite", "postgresql"), default="both",
                   help="SQLite rows, PostgreSQL rows (a throwaway server), or both (default)")
    p.add_argument("--out", type=Path, default=OUT, help="working folder (git-ignored)")
    p.add_argument("--results", type=Path, default=RESULTS, help="where results.json goes")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the measurements, print the table, write results.json."""
    args = parse(argv)
    attempts = args.attempts or (QUICK if args.quick else SMOKE if args.smoke else FULL)
    judged = not args.smoke
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    run_path, catalog_path = dataset(attempts, out)
    small_run_path, _ = dataset(args.small, out)
    store_path = out / f"store-{attempts}.sqlite3"
    reuse = args.reuse and store_path.exists()
    # PostgreSQL alone keeps SQLite's store of an earlier run: the search compares with it.
    keep = reuse or args.backend == "postgresql"
    ctx = Context(attempts, out, run_path, catalog_path, small_run_path,
                  store_path if keep else fresh(store_path),
                  fresh(out / f"store-small-{args.small}.sqlite3"),
                  repeat=1 if args.smoke else 3,
                  heavy_repeat=2 if attempts <= QUICK and not args.smoke else 1)
    ctx.state["small_attempts"] = args.small
    started = time.perf_counter()
    results: list[Result] = []
    if args.backend != "postgresql":
        prepare_small(ctx)
        results.extend(run_steps(STEPS, ctx, args, reuse))
    if args.backend != "sqlite":
        results.extend(run_postgresql(ctx, args))
    elapsed = time.perf_counter() - started
    ok = all(correct(r) for r in results) and (
        not judged or all(r.passed for r in results))
    print(table(results, judged))
    print(f"\n{attempts:,} attempts, {elapsed:.0f} s; "
          f"{'all goals hold' if ok and judged else 'harness ok' if ok else 'NOT ALL GOALS HOLD'}")
    document = {
        "attempts": attempts,
        "small_attempts": args.small,
        "mode": "smoke" if args.smoke else "quick" if attempts == QUICK else "full",
        "backends": args.backend,
        "reused_store": reuse,
        "judged": judged,
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(elapsed, 1),
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "all_passed": ok,
        "results": [r.as_dict() for r in results],
        "table": table(results, judged),
    }
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n",
                            encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
