"""Import on PostgreSQL: ``reviewer import``'s path vs raw psycopg writing the same rows.

Both sides start from an empty migrated database of the same server, read the same JSONL
file and write the same rows in one transaction: runs, conversations, attempts (with
their fingerprint), verdicts, check results, the catalog and the search index (the same
words: both fold the text with ``document_words``). The baseline is what a careful
hand-written loader does: ``json.loads`` per line, ids assigned in Python, and each chunk
of rows sent with ``COPY`` (PostgreSQL's bulk path, faster than ``executemany``), the
search rows as tsvector text. Goal: ours takes at most twice as long. Correctness: every
table holds the same rows on both sides and a search word finds the same attempts.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

from benchmarks.bench_import import CHUNK, GOAL, TABLES, ours
from benchmarks.common import Context, Result, timed
from benchmarks.postgres import connect
from reviewer.store.search import document_words

# The sequences a loader that picks its own ids must move past them.
SEQUENCES = ("runs", "conversations", "attempts", "verdicts", "check_results",
             "criterion_versions", "check_versions")


def _catalog(cur: psycopg.Cursor[Any], path: Path,
             now: datetime) -> tuple[dict[str, int], dict[str, int]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    criteria: dict[str, int] = {}
    for pos, c in enumerate(data["criteria"]):
        cur.execute("INSERT INTO criteria (id, position) VALUES (%s, %s)", (c["id"], pos))
        cur.execute(
            "INSERT INTO criterion_versions (criterion_id, version, kind, severity, text, "
            "created_at) VALUES (%s, 1, %s, %s, %s, %s) RETURNING id",
            (c["id"], c["kind"], c.get("severity"), c["text"], now))
        criteria[c["id"]] = _returned(cur)
    checks: dict[str, int] = {}
    for pos, c in enumerate(data["checks"]):
        cur.execute("INSERT INTO checks (id, position) VALUES (%s, %s)", (c["id"], pos))
        cur.execute(
            "INSERT INTO check_versions (check_id, version, description, pattern, flags, "
            'mode, "when", created_at) VALUES (%s, 1, %s, %s, %s, %s, %s, %s) RETURNING id',
            (c["id"], c.get("description", ""), c["pattern"], c.get("flags", ""),
             c.get("mode", "forbid"), c.get("when"), now))
        checks[c["id"]] = _returned(cur)
    return criteria, checks


def _returned(cur: psycopg.Cursor[Any]) -> int:
    row = cur.fetchone()
    assert row is not None
    return int(row[0])


COPIES = {
    "r": "COPY runs (id, name, imported_at, source) FROM STDIN",
    "k": "COPY conversations (id, run_id, name, turns_planned) FROM STDIN",
    "a": "COPY attempts (id, run_id, conversation_id, turn, attempt, messages, response, "
         "reference, accepted, reasons, judge_model, fingerprint, contradiction_score) "
         "FROM STDIN",
    "v": "COPY verdicts (attempt_id, criterion_version_id, origin, position, met, rationale, "
         "model, created_at) FROM STDIN",
    "c": "COPY check_results (attempt_id, check_version_id, position, passed) FROM STDIN",
    # The words folded as ours folds them, written as tsvector text ('w1' 'w2' …).
    "s": "COPY attempt_search (attempt_id, document) FROM STDIN",
}


def baseline(url: str, run_path: Path, catalog_path: Path) -> None:
    """Plain psycopg: ``json.loads`` each line, ``COPY`` the rows chunk by chunk."""
    now = datetime.now(UTC)
    with connect(url) as conn, conn.cursor() as cur:
        criteria, checks = _catalog(cur, catalog_path, now)
        runs: dict[str, int] = {}
        convs: dict[tuple[int, str], int] = {}
        next_id = 1
        rows: dict[str, list[tuple[Any, ...]]] = {k: [] for k in COPIES}

        def flush() -> None:
            for key, statement in COPIES.items():
                if rows[key]:
                    with cur.copy(statement) as copy:
                        for row in rows[key]:
                            copy.write_row(row)
            for batch in rows.values():
                batch.clear()

        with run_path.open("rb") as fh:
            for raw in fh:
                d = json.loads(raw)
                run_id = runs.get(d["run"])
                if run_id is None:
                    run_id = runs[d["run"]] = len(runs) + 1
                    rows["r"].append((run_id, d["run"], now, str(run_path)))
                conv_id = convs.get((run_id, d["conversation"]))
                if conv_id is None:
                    conv_id = convs[run_id, d["conversation"]] = len(convs) + 1
                    rows["k"].append((conv_id, run_id, d["conversation"], d.get("turns_planned")))
                canonical = json.dumps(d, sort_keys=True, ensure_ascii=False).encode("utf-8")
                judge = d["judge"]
                rows["a"].append((
                    next_id, run_id, conv_id, d["turn"], d["attempt"],
                    json.dumps(d["messages"]), d["response"], d["reference"], d["accepted"],
                    json.dumps(d["reasons"]), judge["model"],
                    hashlib.sha256(canonical).hexdigest(), 0.0))
                for pos, v in enumerate(judge["verdicts"]):
                    rows["v"].append((next_id, criteria[v["criterion"]], "filter", pos,
                                      v["verdict"] == "oui", v["rationale"], judge["model"],
                                      now))
                for pos, c in enumerate(d["checks"]):
                    rows["c"].append((next_id, checks[c["id"]], pos, c["passed"]))
                body = "\n".join([d["response"], *(v["rationale"] for v in judge["verdicts"])])
                words = document_words(body).split()
                rows["s"].append((next_id, " ".join(f"'{w}'" for w in words)))
                next_id += 1
                if len(rows["a"]) >= CHUNK:
                    flush()
        flush()
        for table in SEQUENCES:
            cur.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"coalesce((SELECT max(id) FROM {table}), 1))")


def counts(url: str) -> dict[str, int]:
    """Rows per table, the search index's rows, and how many attempts a word finds."""
    with connect(url) as conn:
        out = {t: int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0])  # type: ignore[index]
               for t in (*TABLES, "attempt_search")}
        found = conn.execute("SELECT count(*) FROM attempt_search "
                             "WHERE document @@ 'conciliateur:*'::tsquery")
        out["search:conciliateur"] = int(found.fetchone()[0])  # type: ignore[index]
    return out


def run(ctx: Context) -> Result:
    """Import the run both ways into fresh databases; ours is kept for what follows."""
    assert ctx.pg is not None
    base_url = ctx.pg.fresh(f"baseline_{ctx.attempts}")
    mine, _ = timed(lambda: ours(ctx.db, ctx.run_path, ctx.catalog_path))
    base, _ = timed(lambda: baseline(base_url, ctx.run_path, ctx.catalog_path))
    ours_counts, base_counts = counts(ctx.db), counts(base_url)
    ctx.pg.drop(base_url)
    ratio = mine / base
    return Result(
        ctx.label(f"import {ctx.attempts:,} attempts"), mine, base, ratio,
        f"ratio ≤ {GOAL:g}", ratio <= GOAL,
        checks={"ours": ours_counts, "baseline": base_counts,
                "same_rows": ours_counts == base_counts},
        note="baseline: psycopg COPY of the same rows, search rows by the same function",
    )
