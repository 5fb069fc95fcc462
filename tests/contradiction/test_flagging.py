"""Storing contradiction flags: rules tier on every filter verdict, LLM tier on request."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select, update

from models import Attempt, ContradictionFlag, Verdict
from reviewer.cli.main import main
from reviewer.contradiction.flagging import (
    CHUNK,
    CHUNKS_PER_WORKER,
    MIN_CHUNK,
    chunk_size,
    flag_all,
    flag_attempts,
    flag_imported,
)
from reviewer.ingest.importer import import_run
from reviewer.review.example import load_example
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama
from tests.support.judge_stores import MODEL, load, verdict_reply
from tests.support.run_files import record, write_catalog, write_jsonl

CONTRADICTING = record("c", 1, 1, demande="non",
                       rationale="L'assistant répond directement à la demande.")
CONSISTENT = record(
    "c", 1, 2, demande="non",
    rationale="La réponse ne dit rien de la date demandée ; elle parle d'autre chose.")


def flags(store: Store) -> list[tuple[int, str, str, bool]]:
    with store.session() as s:
        rows = s.execute(
            select(Verdict.attempt_id, ContradictionFlag.tier, Verdict.rationale,
                   ContradictionFlag.flagged)
            .join(Verdict, Verdict.id == ContradictionFlag.verdict_id)
            .order_by(Verdict.id, ContradictionFlag.tier)).all()
    return [(a, t, r, f) for a, t, r, f in rows]


def test_rules_tier_flags_the_seed_example_and_scores_the_attempt(
    tmp_path: Path, store: Store
) -> None:
    bad, good = load(store, tmp_path, [CONTRADICTING, CONSISTENT])
    with store.session() as s:
        counts = flag_attempts(s, [bad, good])
    with store.session() as s:
        again = flag_attempts(s, [bad, good])  # a rerun updates, never duplicates

    assert counts.verdicts == again.verdicts == 4  # G-DEMANDE + E-INVENTE per attempt
    assert counts.flagged == again.flagged == 1
    assert counts.flagged_attempts == again.flagged_attempts == 1
    # Only readings above 0 are stored (the three others score 0), and only once.
    assert flags(store) == [(bad, "rules", CONTRADICTING["judge"]["verdicts"][0]["rationale"],
                             True)]
    with store.session() as s:
        scores = dict(s.execute(select(Attempt.id, Attempt.contradiction_score)).all())
        flag_score = s.scalars(select(ContradictionFlag.score)
                               .where(ContradictionFlag.flagged)).one()
    assert scores[bad] == flag_score >= 0.5 > scores[good]


def test_importer_hook_flags_new_attempts(tmp_path: Path, store: Store) -> None:
    import_run(store, write_jsonl(tmp_path / "r.jsonl", [CONTRADICTING]),
               catalog_path=write_catalog(tmp_path / "c.json"), on_imported=flag_imported)
    assert [f[3] for f in flags(store) if f[1] == "rules"] == [True]


def test_flag_command_then_rejudge_flagged(
    tmp_path: Path, store: Store, db_url: str, fake_ollama: FakeOllama,
    capsys: pytest.CaptureFixture[str],
) -> None:
    load(store, tmp_path, [CONTRADICTING, CONSISTENT])
    assert main(["--db", db_url, "flag"]) == 0
    assert capsys.readouterr().out.strip() == (
        "4 verdicts scored on 2 attempts: 1 flagged, on 1 attempts")
    fake_ollama.responder = verdict_reply

    assert main(["--db", db_url, "rejudge", "--flagged", "--host", fake_ollama.url,
                 "--model", MODEL]) == 0

    assert len(fake_ollama.chat_requests) == 1
    assert capsys.readouterr().out.splitlines()[0].startswith(
        "2026-10-14-ministral-8b/c/1/1: re-judged alone: G-DEMANDE oui; now accepted")


def test_flag_llm_command(
    tmp_path: Path, store: Store, db_url: str, fake_ollama: FakeOllama,
    capsys: pytest.CaptureFixture[str],
) -> None:
    load(store, tmp_path, [CONTRADICTING, record("c", 1, 3)])
    fake_ollama.reply_json({"rationale_says": "met", "confidence": 0.8})

    code = main(["--db", db_url, "flag", "--llm", "--host", fake_ollama.url, "--model", MODEL])

    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[-1] == "llm tier: 1 read, 1 flagged, 0 already read, 0 failed"
    assert [(f[0], f[3]) for f in flags(store) if f[1] == "llm"] == [(1, True)]
    code = main(["--db", db_url, "flag", "--llm", "--host", fake_ollama.url, "--model", MODEL])
    assert code == 0 and len(fake_ollama.chat_requests) == 1  # resumed: nothing re-asked


def test_a_rerun_drops_a_flag_whose_rationale_no_longer_contradicts(
    tmp_path: Path, store: Store
) -> None:
    bad, _ = load(store, tmp_path, [CONTRADICTING, CONSISTENT])
    flag_all(store)
    with store.session() as s:
        s.execute(update(Verdict).where(Verdict.attempt_id == bad)
                  .values(rationale=CONSISTENT["judge"]["verdicts"][0]["rationale"]))
    counts = flag_all(store)

    assert counts.flagged == 0 and flags(store) == []
    with store.session() as s:
        assert s.scalar(select(Attempt.contradiction_score).where(Attempt.id == bad)) == 0.0
        view = load_example(s, bad, "tester")
    assert not any(v.contradiction for v in view.verdicts)


def test_flag_gives_the_same_flags_with_one_or_two_workers(tmp_path: Path, store: Store) -> None:
    records = [record("c", turn, attempt, demande=verdict, rationale=rationale)
               for turn in (1, 2, 3) for attempt, (verdict, rationale) in enumerate(
                   [("non", CONTRADICTING["judge"]["verdicts"][0]["rationale"]),
                    ("non", CONSISTENT["judge"]["verdicts"][0]["rationale"]),
                    ("oui", "La réponse ne répond pas à la demande.")], start=1)]
    load(store, tmp_path, records)

    def state() -> tuple[list[tuple[int, str, str, bool]], list[tuple[int, float]]]:
        with store.session() as s:
            scores = s.execute(select(Attempt.id, Attempt.contradiction_score)
                               .order_by(Attempt.id)).all()
        return flags(store), [(a, sc) for a, sc in scores]

    one = flag_all(store, workers=1, chunk=2)
    first = state()
    two = flag_all(store, workers=2, chunk=2)  # chunks scored in two worker processes

    assert one == two and one.verdicts == 18 and one.flagged >= 3
    assert state() == first and len(first[0]) >= 3


def test_flag_command_with_one_or_two_workers(
    tmp_path: Path, store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    load(store, tmp_path, [CONTRADICTING, CONSISTENT])
    assert main(["--db", db_url, "flag", "--workers", "1"]) == 0
    one = flags(store)
    assert main(["--db", db_url, "flag", "--workers", "2"]) == 0

    out = capsys.readouterr().out.splitlines()
    assert out == ["4 verdicts scored on 2 attempts: 1 flagged, on 1 attempts"] * 2
    assert flags(store) == one and [f[3] for f in one] == [True]


def test_small_passes_give_every_worker_several_chunks() -> None:
    # 10,000 attempts in chunks of 1,000 were ten chunks for two workers: the first
    # chunk's scoring and the last one's writing left the others idle.
    assert chunk_size(10_000, 2) * 2 * CHUNKS_PER_WORKER <= 10_000
    assert chunk_size(100_000, 2) == CHUNK  # a season keeps the full chunks
    assert chunk_size(10_000, 1) == CHUNK  # one process: nothing to overlap
    assert chunk_size(1_500, 2) >= MIN_CHUNK  # never chunks too small to be worth a unit
    assert chunk_size(10_000, 2, chunk=2) == 2  # an explicit small chunk is kept


@pytest.mark.parametrize("statement", ["_SECOND_RANGE", "_SECOND"])
def test_second_opinions_are_read_through_their_index_at_a_season_s_statistics(
        tmp_path: Path, statement: str) -> None:
    # flag_all at 100,000 attempts on SQLite: 5,682 verdicts/s instead of 79,000, because
    # ANALYZE's sample (analysis_limit) says a criterion version has about a thousand
    # verdicts and SQLite read every verdict of each version, per chunk. The statistics
    # below are that store's; the plan must not start from the criterion versions.
    import sqlite3

    from reviewer.contradiction import flagging
    from reviewer.store import open_store

    path = tmp_path / "s.db"
    open_store(str(path)).close()
    with sqlite3.connect(path) as conn:
        conn.execute("ANALYZE")
        conn.execute("DELETE FROM sqlite_stat1")
        conn.executemany("INSERT INTO sqlite_stat1 VALUES (?, ?, ?)", [
            ("verdicts", "ix_verdicts_attempt_met", "1477500 12 1 1 1"),
            ("verdicts", "ix_verdicts_criterion_version", "1411488 1001 1001"),
            ("verdicts", "sqlite_autoindex_verdicts_1", "1502176 12 1 1"),
            ("criterion_versions", "sqlite_autoindex_criterion_versions_1", "12 1 1"),
        ])
    with sqlite3.connect(path) as conn:
        sql = getattr(flagging, statement).text.replace(":ids", "(1, 2, 3)").replace(
            ":lo", "1").replace(":hi", "3500")
        plan = " / ".join(row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
    assert "ix_verdicts_criterion_version" not in plan, plan
