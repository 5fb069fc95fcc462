"""Smoke test of the benchmark harness (``make bench SMOKE=1`` in small): no timings judged.

It runs every measurement on 1,000 synthetic attempts (what CI runs) and checks what a broken
harness would get wrong: a missing measurement, a baseline that did not do the same work
(different row counts, different bytes, different scores), an empty queue page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import make_run
from benchmarks import run as harness

ATTEMPTS = 1000
SMALL = 200
EXPECTED = ("import", "flag", "queue: ", "search two words", "search at the bound",
            "search of 1,000 words", "search of 20,000 words", "GUI start to first paint",
            "GUI peak memory", "back-test", "export dataset", "rouge_l", "contradiction detector")
# The same rows on PostgreSQL where they apply (a throwaway server started by the harness).
PG_EXPECTED = ("import", "flag", "queue: ", "search two words", "search at the bound",
               "search of 1,000 words", "search of 20,000 words", "export dataset")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("bench")
    path = out / "results.json"
    code = harness.main(["--smoke", "--attempts", str(ATTEMPTS), "--small", str(SMALL),
                         "--out", str(out), "--results", str(path)])
    document = json.loads(path.read_text(encoding="utf-8"))
    document["exit_code"] = code
    return document


def by_name(results: dict, prefix: str) -> list[dict]:
    return [r for r in results["results"] if r["name"].startswith(prefix)]


def postgresql_rows(results: dict) -> list[dict]:
    """The PostgreSQL rows; the test is skipped when the harness could not start a server."""
    rows = by_name(results, "PostgreSQL ")
    if len(rows) == 1 and rows[0]["passed"] is None:
        pytest.skip(rows[0]["note"])
    return rows


def test_every_measurement_is_reported_with_its_figures(results: dict) -> None:
    assert results["exit_code"] == 0
    assert results["attempts"] == ATTEMPTS and not results["judged"]
    for prefix in EXPECTED:
        found = by_name(results, prefix)
        assert found, f"no result for {prefix!r}"
        for r in found:
            assert set(r) >= {"name", "ours", "baseline", "ratio", "goal", "passed"}
            assert r["ours"] is not None and r["ours"] > 0, r
            assert r["goal"], r
    assert len(by_name(results, "queue: ")) == 8
    assert "| measurement | ours | baseline | ratio | goal | result |" in results["table"]


def test_search_rows_hold_their_facts(results: dict) -> None:
    for name in ("search of 1,000 words", "search of 20,000 words"):
        (refused,) = by_name(results, name)
        assert refused["checks"]["refused"] and refused["checks"]["no_statement"]
        assert refused["checks"]["message"].startswith("search too long: ")
    (bound,) = by_name(results, "search at the bound")
    assert bound["checks"]["words"] == 64
    for page in by_name(results, "search two words"):
        assert page["checks"]["rows"] == min(page["checks"]["total"], 200)


def test_postgresql_rows_do_the_same_work(results: dict) -> None:
    rows = postgresql_rows(results)
    for prefix in PG_EXPECTED:
        found = by_name(results, f"PostgreSQL {prefix}")
        assert found, f"no PostgreSQL result for {prefix!r}"
        assert all(r["ours"] is not None and r["ours"] > 0 for r in found), found
    assert len(by_name(results, "PostgreSQL queue: ")) == 8
    (imp,) = by_name(results, "PostgreSQL import")
    checks = imp["checks"]
    assert checks["same_rows"] and checks["ours"] == checks["baseline"]
    assert checks["ours"]["attempts"] == checks["ours"]["attempt_search"] == ATTEMPTS
    assert checks["ours"]["verdicts"] == 12 * ATTEMPTS
    # The same run on both backends: the same stored rows, the same search matches, the
    # same exported bytes, the same flags.
    (lite,) = by_name(results, "import")
    assert {k: v for k, v in checks["ours"].items() if k != "attempt_search"} == \
        lite["checks"]["ours"]
    (pg_search, *_) = by_name(results, "PostgreSQL search two words")
    assert pg_search["checks"]["same_matches_as_sqlite"]
    (export,) = by_name(results, "PostgreSQL export dataset")
    assert export["checks"]["same_bytes"] and export["checks"]["same_bytes_as_sqlite"]
    (flag,) = by_name(results, "PostgreSQL flag")
    assert flag["checks"] == {**by_name(results, "flag")[0]["checks"],
                              "seconds": flag["checks"]["seconds"]}
    queue = by_name(results, "PostgreSQL queue: ")
    sqlite_queue = by_name(results, "queue: ")
    assert [(q["checks"]["rows"], q["checks"]["total"]) for q in queue] == \
        [(q["checks"]["rows"], q["checks"]["total"]) for q in sqlite_queue]
    assert any("explain" in q["checks"] for q in queue)
    assert all(r["passed"] is not None for r in rows)


def test_import_baseline_writes_the_same_rows(results: dict) -> None:
    (imp,) = by_name(results, "import")
    checks = imp["checks"]
    assert checks["same_rows"] and checks["ours"] == checks["baseline"]
    assert checks["ours"]["attempts"] == ATTEMPTS
    assert checks["ours"]["verdicts"] == 12 * ATTEMPTS
    assert checks["ours"]["check_results"] == 3 * ATTEMPTS
    assert checks["ours"]["search:conciliateur"] > 0


def test_baselines_agree_with_ours(results: dict) -> None:
    (backtest,) = by_name(results, "back-test")
    assert backtest["checks"]["same_counts"]
    assert backtest["checks"]["attempts"] == ATTEMPTS
    (export,) = by_name(results, "export dataset")
    assert export["checks"]["same_bytes"] and export["checks"]["examples"] > 0
    (flag,) = by_name(results, "flag")
    assert flag["checks"]["verdicts"] == 12 * ATTEMPTS
    for queue in by_name(results, "queue: "):
        assert 0 <= queue["checks"]["rows"] <= queue["checks"]["total"]
    assert by_name(results, "queue: refused by score")[0]["checks"]["rows"] > 0
    assert by_name(results, "GUI start to first paint")[0]["checks"]["rows"] > 0


def test_generated_run_follows_the_format(tmp_path: Path) -> None:
    run_path, catalog_path = make_run.write(tmp_path, 300, seed=1)
    records = [json.loads(line) for line in run_path.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 300
    catalog = json.loads(catalog_path.read_text(encoding="utf-8"))
    assert len(catalog["criteria"]) == 12 and len(catalog["checks"]) == 3
    for r in records:
        assert 100 <= len(r["response"].split()) <= 300
        assert 1 <= len(r["messages"]) <= 9 and r["messages"][-1]["role"] == "user"
        assert len(r["judge"]["verdicts"]) == 12 and len(r["checks"]) == 3
        assert all(10 <= len(v["rationale"].split()) <= 40 for v in r["judge"]["verdicts"])
        assert 2 <= r["turns_planned"] <= 5 and 1 <= r["attempt"] <= 3
        assert r["accepted"] == (r["reasons"] == [])
    # Same seed, same bytes: the benchmarks compare like with like across runs.
    again, _ = make_run.write(tmp_path / "again", 300, seed=1)
    assert again.read_bytes() == run_path.read_bytes()
    assert any(not c["passed"] for r in records for c in r["checks"] if c["id"] == "D-COMMERCE")
