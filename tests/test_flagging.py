"""Storing contradiction flags: rules tier on every filter verdict, LLM tier on request."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from models import Attempt, ContradictionFlag, Verdict
from reviewer.cli.main import main
from reviewer.flagging import flag_attempts, flag_imported
from reviewer.importer import import_run
from reviewer.store import Store
from tests.fake_ollama import FakeOllama
from tests.judging import MODEL, load, verdict_reply
from tests.runfiles import record, write_catalog, write_jsonl

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
    assert counts.flagged == 1 and counts.flagged_attempts == 1
    stored = flags(store)
    assert len(stored) == 4
    assert [f for f in stored if f[3]] == [(bad, "rules", CONTRADICTING["judge"]["verdicts"][0]
                                            ["rationale"], True)]
    with store.session() as s:
        scores = dict(s.execute(select(Attempt.id, Attempt.contradiction_score)).all())
        flag_score = s.scalars(select(ContradictionFlag.score)
                               .where(ContradictionFlag.flagged)).one()
    assert scores[bad] == flag_score >= 0.5 > scores[good]


def test_importer_hook_flags_new_attempts(tmp_path: Path, store: Store) -> None:
    import_run(store, write_jsonl(tmp_path / "r.jsonl", [CONTRADICTING]),
               catalog_path=write_catalog(tmp_path / "c.json"), on_imported=flag_imported)
    assert [f[3] for f in flags(store) if f[1] == "rules"] == [True, False]


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
