"""Import: ``reviewer import``'s path vs stdlib ``json`` + ``sqlite3.executemany``, same rows.

Both sides start from an empty store made by ``open_store`` (same tables, indexes and
FTS5 table, untimed), read the same JSONL file and write the same rows in one
transaction with the same pragmas: runs, conversations, attempts (with their
fingerprint), verdicts, check results, the catalog and the search index. Goal: ours
takes at most twice as long. Correctness: every table holds the same number of rows on
both sides and a search word finds the same attempts.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.common import Context, Result, fresh, timed
from reviewer.ingest.importer import import_run
from reviewer.store.database import BUSY_TIMEOUT_MS, CACHE_KIB, open_store

GOAL = 2.0
CHUNK = 2000
TABLES = (
    "runs",
    "conversations",
    "attempts",
    "verdicts",
    "check_results",
    "criterion_versions",
    "check_versions",
)


def create_empty(path: Path) -> None:
    """An empty store at head (what both sides import into)."""
    open_store(str(fresh(path))).close()


def ours(db: Path | str, run_path: Path, catalog_path: Path) -> None:
    """What ``reviewer import RUN --catalog CATALOG`` runs, minus its flagging hook.

    The command also scores every verdict for contradictions in the same transaction;
    that work has its own measurement (``bench_flag``), and the baseline does no such
    thing, so it is left out here to compare like with like.
    """
    store = open_store(str(db))
    try:
        report = import_run(store, run_path, catalog_path=catalog_path)
    finally:
        store.close()
    print(report.summary())


def _connect(db: Path) -> sqlite3.Connection:
    # The same pragmas the store sets on every connection.
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    return conn


def _catalog(
    conn: sqlite3.Connection, path: Path, now: str
) -> tuple[dict[str, int], dict[str, int]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    criteria: dict[str, int] = {}
    for pos, c in enumerate(data["criteria"]):
        conn.execute("INSERT INTO criteria (id, position) VALUES (?, ?)", (c["id"], pos))
        cur = conn.execute(
            "INSERT INTO criterion_versions (criterion_id, version, kind, severity, text, "
            "created_at) VALUES (?, 1, ?, ?, ?, ?)",
            (c["id"], c["kind"], c.get("severity"), c["text"], now),
        )
        criteria[c["id"]] = int(cur.lastrowid or 0)
    checks: dict[str, int] = {}
    for pos, c in enumerate(data["checks"]):
        conn.execute("INSERT INTO checks (id, position) VALUES (?, ?)", (c["id"], pos))
        cur = conn.execute(
            "INSERT INTO check_versions (check_id, version, description, pattern, flags, mode, "
            '"when", created_at) VALUES (?, 1, ?, ?, ?, ?, ?, ?)',
            (
                c["id"],
                c.get("description", ""),
                c["pattern"],
                c.get("flags", ""),
                c.get("mode", "forbid"),
                c.get("when"),
                now,
            ),
        )
        checks[c["id"]] = int(cur.lastrowid or 0)
    return criteria, checks


def baseline(db: Path, run_path: Path, catalog_path: Path) -> None:
    """Plain code: parse each line with ``json``, ``executemany`` the rows in one transaction."""
    conn = _connect(db)
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    conn.execute("BEGIN")
    criteria, checks = _catalog(conn, catalog_path, now)
    runs: dict[str, int] = {}
    convs: dict[tuple[int, str], int] = {}
    next_id = 1
    rows: dict[str, list[tuple[Any, ...]]] = {"a": [], "v": [], "c": [], "s": []}

    def flush() -> None:
        conn.executemany(
            "INSERT INTO attempts (id, run_id, conversation_id, turn, attempt, messages, "
            "response, reference, accepted, reasons, judge_model, fingerprint, "
            "contradiction_score) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,0.0)",
            rows["a"],
        )
        conn.executemany(
            "INSERT INTO verdicts (attempt_id, criterion_version_id, origin, position, met, "
            "rationale, model, created_at) VALUES (?,?,'filter',?,?,?,?,?)",
            rows["v"],
        )
        conn.executemany(
            "INSERT INTO check_results (attempt_id, check_version_id, position, passed) "
            "VALUES (?,?,?,?)",
            rows["c"],
        )
        conn.executemany("INSERT INTO attempt_search(rowid, body) VALUES (?, ?)", rows["s"])
        for batch in rows.values():
            batch.clear()

    with run_path.open("rb") as fh:
        for raw in fh:
            d = json.loads(raw)
            run_id = runs.get(d["run"])
            if run_id is None:
                cur = conn.execute(
                    "INSERT INTO runs (name, imported_at, source) VALUES (?,?,?)",
                    (d["run"], now, str(run_path)),
                )
                run_id = runs[d["run"]] = int(cur.lastrowid or 0)
            conv_id = convs.get((run_id, d["conversation"]))
            if conv_id is None:
                cur = conn.execute(
                    "INSERT INTO conversations (run_id, name, turns_planned) VALUES (?,?,?)",
                    (run_id, d["conversation"], d.get("turns_planned")),
                )
                conv_id = convs[run_id, d["conversation"]] = int(cur.lastrowid or 0)
            canonical = json.dumps(d, sort_keys=True, ensure_ascii=False).encode("utf-8")
            judge = d["judge"]
            rows["a"].append(
                (
                    next_id,
                    run_id,
                    conv_id,
                    d["turn"],
                    d["attempt"],
                    json.dumps(d["messages"]),
                    d["response"],
                    d["reference"],
                    d["accepted"],
                    json.dumps(d["reasons"]),
                    judge["model"],
                    hashlib.sha256(canonical).hexdigest(),
                )
            )
            for pos, v in enumerate(judge["verdicts"]):
                rows["v"].append(
                    (
                        next_id,
                        criteria[v["criterion"]],
                        pos,
                        v["verdict"] == "oui",
                        v["rationale"],
                        judge["model"],
                        now,
                    )
                )
            for pos, c in enumerate(d["checks"]):
                rows["c"].append((next_id, checks[c["id"]], pos, c["passed"]))
            body = "\n".join([d["response"], *(v["rationale"] for v in judge["verdicts"])])
            rows["s"].append((next_id, body))
            next_id += 1
            if len(rows["a"]) >= CHUNK:
                flush()
    flush()
    conn.execute("COMMIT")
    conn.close()


def counts(db: Path) -> dict[str, int]:
    """Rows per table, and how many attempts a search word finds."""
    conn = sqlite3.connect(db)
    try:
        out = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
        out["search:conciliateur"] = conn.execute(
            "SELECT count(*) FROM attempt_search WHERE attempt_search MATCH 'conciliateur'"
        ).fetchone()[0]
    finally:
        conn.close()
    return out


def run(ctx: Context) -> Result:
    """Import the run both ways into fresh stores; our store is kept for what follows."""
    base_db = ctx.out / f"baseline-{ctx.attempts}.sqlite3"
    create_empty(ctx.db_path)
    create_empty(base_db)
    mine, _ = timed(lambda: ours(ctx.db_path, ctx.run_path, ctx.catalog_path))
    base, _ = timed(lambda: baseline(base_db, ctx.run_path, ctx.catalog_path))
    ours_counts, base_counts = counts(ctx.db_path), counts(base_db)
    fresh(base_db)
    ratio = mine / base
    return Result(
        f"import {ctx.attempts:,} attempts",
        mine,
        base,
        ratio,
        f"ratio ≤ {GOAL:g}",
        ratio <= GOAL,
        checks={
            "ours": ours_counts,
            "baseline": base_counts,
            "same_rows": ours_counts == base_counts,
        },
    )
