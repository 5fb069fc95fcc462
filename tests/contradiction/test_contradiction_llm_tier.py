"""The LLM tier of the contradiction detector, through the real client and the fake server."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from models import ContradictionFlag, JudgeRequest
from reviewer.errors import JudgeError
from reviewer.judge.llm_tier import (
    flag_verdicts,
    read_rationale,
    refusing_verdicts,
)
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.judge_stores import client_for, closed_port_url, load
from tests.support.run_files import record

SAYS_MET = {"rationale_says": "met", "confidence": 0.9}


def test_reading_opposite_to_the_verdict_is_a_contradiction(fake_ollama: FakeOllama) -> None:
    client = client_for(fake_ollama)
    fake_ollama.reply_json(SAYS_MET)
    fake_ollama.reply_json(SAYS_MET)
    fake_ollama.reply_json({"rationale_says": "unclear", "confidence": 0.8})
    fake_ollama.reply_json({"rationale_says": "met", "confidence": 0.3})

    flipped = read_rationale(client, "success", "non",
                             "L'assistant répond directement à la demande.",
                             "Répond à ce que la personne demande.", "G-DEMANDE")
    agreeing = read_rationale(client, "success", "oui", "Elle répond.", "Répond.", "G-DEMANDE")
    unclear = read_rationale(client, "failure", "non", "Voir plus haut.", "Invente.", "E-X")
    unsure = read_rationale(client, "success", "non", "Bof.", "Répond.", "G-DEMANDE")

    assert (flipped.contradiction, flipped.score) == (True, 0.9)
    assert (agreeing.contradiction, agreeing.score) == (False, 0.0)
    assert (unclear.contradiction, unclear.score) == (False, 0.0)
    assert (unsure.contradiction, unsure.score) == (False, 0.3)  # below the threshold
    first = fake_ollama.chat_requests[0]
    prompt = first["messages"][0]["content"]
    assert "L'assistant répond directement à la demande." in prompt and "G-DEMANDE" in prompt
    assert "« non »" not in prompt and '"non"' not in prompt  # the verdict is not shown
    assert first["format"]["properties"]["rationale_says"]["enum"] == ["met", "not_met", "unclear"]


def test_bad_reply_is_a_judge_error(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_json({"rationale_says": "peut-être", "confidence": 0.5})
    with pytest.raises(JudgeError, match="reply has no valid rationale_says"):
        read_rationale(client_for(fake_ollama), "success", "non", "x", "y", "G-DEMANDE")


def test_flag_verdicts_stores_llm_tier_and_resumes(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    load(store, tmp_path, [record("c", 1, 1, demande="non"),
                           record("c", 1, 2, invente="oui"),
                           record("c", 1, 3)])
    ids = refusing_verdicts(store)
    assert len(ids) == 2  # G-DEMANDE "non" and E-INVENTE "oui"; agreeing ones are not read
    fake_ollama.reply_json(SAYS_MET)  # G-DEMANDE judged non, rationale says met
    fake_ollama.reply_json(SAYS_MET)  # E-INVENTE judged oui, rationale says met: agrees

    report = flag_verdicts(store, client_for(fake_ollama), ids)

    assert (report.read, report.flagged, report.failed) == (2, 1, [])
    with store.session() as s:
        flags = s.scalars(select(ContradictionFlag).order_by(ContradictionFlag.verdict_id)).all()
        assert [(f.tier, f.flagged, f.score) for f in flags] == [("llm", True, 0.9),
                                                                  ("llm", False, 0.0)]
        assert len(s.scalars(select(JudgeRequest)).all()) == 2  # both requests cached
    again = flag_verdicts(store, client_for(fake_ollama), ids)
    assert (again.read, again.skipped) == (0, 2)
    assert len(fake_ollama.chat_requests) == 2


def test_flag_verdicts_stops_when_no_server(tmp_path: Path, store: Store) -> None:
    load(store, tmp_path, [record("c", 1, 1, demande="non"), record("c", 1, 2, demande="non")])
    report = flag_verdicts(store, client_for(closed_port_url(), retries=0),
                           refusing_verdicts(store))
    assert report.read == 0 and len(report.failed) == 1
    assert report.failed[0].endswith("no server listening")
    with store.session() as s:
        assert s.scalar(select(ContradictionFlag.id)) is None


def test_http_error_leaves_no_flag(tmp_path: Path, store: Store, fake_ollama: FakeOllama) -> None:
    load(store, tmp_path, [record("c", 1, 1, demande="non")])
    fake_ollama.push(Reply.error(400, "bad request"))
    report = flag_verdicts(store, client_for(fake_ollama), refusing_verdicts(store))
    assert report.failed == [f"judge qwen3.6:35b-a3b at {fake_ollama.url}: HTTP 400: bad request"]
    with store.session() as s:
        assert s.scalar(select(ContradictionFlag.id)) is None


def test_contradictions_command_with_llm(
    tmp_path: Path, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from reviewer.cli.main import main

    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({
        "criterion_id": "G-DEMANDE", "kind": "success", "verdict": "non",
        "criterion_text": "Répond à ce que la personne demande.",
        "rationale": "L'assistant répond directement à la demande.",
    }, ensure_ascii=False) + "\n", encoding="utf-8")
    fake_ollama.reply_json({"rationale_says": "met", "confidence": 0.95})

    cache = f"sqlite:///{tmp_path / 'cache.sqlite3'}"
    code = main(["--db", cache, "contradictions", str(path), "--llm", "--host",
                 fake_ollama.url, "--model", "juge:test"])

    line = json.loads(capsys.readouterr().out)
    assert code == 0
    assert line["llm"] == {"rationale_says": "met", "confidence": 0.95,
                           "contradiction": True, "score": 0.95}
    assert fake_ollama.chat_requests[0]["model"] == "juge:test"

    closed = closed_port_url()
    # a store with nothing cached: the reading must be asked, and there is no server
    fresh = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    code = main(["--db", fresh, "contradictions", str(path), "--llm", "--host", closed,
                 "--model", "juge:test"])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    assert captured.err.startswith(f"reviewer: judge juge:test at {closed}: no server listening")
    # Fifteenth hostile pass, P15-13 (6): every call failed, and a 266 kB cache store
    # of nothing was made all the same.
    assert not (tmp_path / "fresh.sqlite3").exists()
    # The store with a reading in it was kept: a rerun reads it from there, no call.
    calls = len(fake_ollama.chat_requests)
    assert main(["--db", cache, "contradictions", str(path), "--llm", "--host", closed,
                 "--model", "juge:test"]) == 0
    assert json.loads(capsys.readouterr().out)["llm"]["rationale_says"] == "met"
    assert len(fake_ollama.chat_requests) == calls


def test_a_bad_reply_on_every_line_makes_no_cache_store(
        tmp_path: Path, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]) -> None:
    # P15-13 (6), a server that answers but never usably: each line says its fault, rc 1,
    # and no store is left.
    import json

    from reviewer.cli.main import main

    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({
        "criterion_id": "G-DEMANDE", "kind": "success", "verdict": "non",
        "criterion_text": "Répond.", "rationale": "Répond.",
    }, ensure_ascii=False) + "\n", encoding="utf-8")
    fake_ollama.reply_json({"nonsense": True})
    fresh = tmp_path / "deep" / "fresh.sqlite3"
    code = main(["--db", str(fresh), "contradictions", str(path), "--llm", "--host",
                 fake_ollama.url, "--model", "juge:test"])
    captured = capsys.readouterr()
    assert code == 1
    assert json.loads(captured.out)["llm"].keys() == {"error"}
    assert not fresh.exists() and not (tmp_path / "deep").exists()
