"""Batches of second opinions: bounded parallelism, committed as they arrive, resumable."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from models import JudgeRequest, Verdict
from reviewer.judge.batch import run_second_opinions
from reviewer.judge.selection import all_candidates
from reviewer.rule.replay import load_attempts, replay
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.judge_stores import (
    MODEL,
    asked_ids,
    client_for,
    closed_port_url,
    failure_messages,
    load,
    verdict_reply,
)
from tests.support.run_files import record

# Storage-touching tests run on SQLite and on the throwaway PostgreSQL server.
pytestmark = pytest.mark.both_backends


def unmet_rows(n: int) -> list[dict[str, Any]]:
    """``n`` attempts refused only by G-DEMANDE, each with its own answer."""
    return [record("c", i, 1, demande="non", response=f"Réponse numéro {i}.")
            for i in range(1, n + 1)]


def answered(fake: FakeOllama) -> list[str]:
    """Which answers (by their number) the judge was asked about, in order."""
    out = []
    for body in fake.chat_requests:
        text = body["messages"][-1]["content"]
        out.append(text.split("Réponse numéro ", 1)[1].split(".", 1)[0])
    return out


def second_opinion_count(store: Store) -> int:
    with store.session() as s:
        return len(s.scalars(select(Verdict.id).where(Verdict.origin == "second_opinion")).all())


def test_batch_mixed_selection(tmp_path: Path, store: Store, fake_ollama: FakeOllama) -> None:
    rows = [*unmet_rows(3),
            record("d", 1, 1, demande="non", commerce_passed=False),
            record("d", 1, 2)]
    load(store, tmp_path, rows)
    fake_ollama.responder = verdict_reply
    seen: list[tuple[int, int]] = []
    with store.session() as s:
        ids = all_candidates(s)

    report = run_second_opinions(store, client_for(fake_ollama), ids, parallel=3,
                                 progress=lambda d, t: seen.append((d, t)))

    assert len(ids) == 4  # the accepted attempt is no candidate
    assert (report.done, report.saved, report.skipped, report.failed) == (3, 3, 1, [])
    assert seen[0] == (0, 3) and seen[-1] == (3, 3)
    assert sorted(answered(fake_ollama)) == ["1", "2", "3"]
    with store.session() as s:
        assert [replay(a).accepted for a in load_attempts(s, ids)] == [True, True, True, False]


def test_cancel_keeps_what_arrived_and_rerun_completes(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    ids = load(store, tmp_path, unmet_rows(5))
    cancel = threading.Event()

    def cancel_during_second_request(body: dict[str, Any]) -> Reply:
        if len(fake_ollama.chat_requests) == 2:
            cancel.set()  # the GUI's Cancel button, pressed while a request is in flight
        return verdict_reply(body)

    fake_ollama.responder = cancel_during_second_request
    first = run_second_opinions(store, client_for(fake_ollama), ids, parallel=1,
                                cancel=cancel)

    assert first.cancelled and first.done == 2 and first.not_run == 3
    assert second_opinion_count(store) == 2
    asked_first = answered(fake_ollama)

    fake_ollama.responder = verdict_reply
    second = run_second_opinions(store, client_for(fake_ollama), ids, parallel=2)

    assert (second.done, second.skipped) == (3, 2)
    asked_again = answered(fake_ollama)[len(asked_first):]
    assert sorted(asked_first + asked_again) == ["1", "2", "3", "4", "5"]  # nobody twice
    assert second_opinion_count(store) == 5


def test_server_failing_midway_then_rerun(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    ids = load(store, tmp_path, unmet_rows(4))
    fake_ollama.reply_json({"verdicts": [{"criterion": "G-DEMANDE", "verdict": "oui",
                                          "rationale": "Elle répond à la demande."}]})
    fake_ollama.reply_json({"verdicts": [{"criterion": "G-DEMANDE", "verdict": "non",
                                          "rationale": "Elle parle d'autre chose."}]})
    fake_ollama.responder = lambda body: Reply.error(500, "out of memory")

    first = run_second_opinions(store, client_for(fake_ollama, retries=1), ids, parallel=1)

    assert (first.done, first.saved, len(first.failed)) == (4, 1, 2)
    assert all(msg.endswith("HTTP 500: out of memory (after 2 tries)") for _, msg in first.failed)
    assert first.summary() == "4 asked, 1 now accepted, 2 failed, 0 skipped"
    sent = len(fake_ollama.chat_requests)

    fake_ollama.responder = verdict_reply
    second = run_second_opinions(store, client_for(fake_ollama), ids, parallel=2)

    assert (second.done, second.saved, second.skipped) == (2, 2, 2)
    assert sorted(answered(fake_ollama)[sent:]) == ["3", "4"]
    assert len(failure_messages(store)) == 2  # the failures stay in the history, resolved


def test_no_server_stops_the_batch(tmp_path: Path, store: Store) -> None:
    ids = load(store, tmp_path, unmet_rows(4))

    report = run_second_opinions(store, client_for(closed_port_url(), retries=0), ids,
                                 parallel=1)

    assert report.stopped.endswith("no server listening")
    assert len(report.failed) == 1 and report.not_run == 3
    assert len(failure_messages(store)) == 1
    assert second_opinion_count(store) == 0


def test_demo_run_second_opinions_follow_the_seed_rule(
    store: Store, fake_ollama: FakeOllama
) -> None:
    import json

    from reviewer.assets import demo_run
    from reviewer.ingest.demo import load_demo

    load_demo(store)
    records = [json.loads(ln) for ln in demo_run().read_text(encoding="utf-8").splitlines()
               if ln.strip()]
    only_unmet = [r for r in records
                  if r["reasons"] and all(" non tenu : " in x for x in r["reasons"])]
    doubts = sum(len(r["reasons"]) for r in only_unmet)
    fake_ollama.responder = verdict_reply
    with store.session() as s:
        ids = all_candidates(s)

    report = run_second_opinions(store, client_for(fake_ollama), ids)

    assert report.done == report.saved == len(only_unmet) > 0
    assert len(fake_ollama.chat_requests) == doubts
    assert all(len(asked_ids(b)) == 1 and asked_ids(b)[0].startswith("G-")
               for b in fake_ollama.chat_requests)


def test_ctrl_c_keeps_what_arrived(tmp_path: Path, store: Store, fake_ollama: FakeOllama) -> None:
    ids = load(store, tmp_path, unmet_rows(5))
    fake_ollama.responder = verdict_reply

    def interrupt(done: int, total: int) -> None:
        if done == 1:
            raise KeyboardInterrupt  # Ctrl-C arrives in the main thread while it waits

    with pytest.raises(KeyboardInterrupt):
        run_second_opinions(store, client_for(fake_ollama), ids, parallel=1, progress=interrupt)

    kept = second_opinion_count(store)
    assert 1 <= kept < 5  # the answers in flight were committed, the rest never started
    assert len(fake_ollama.chat_requests) == kept
    report = run_second_opinions(store, client_for(fake_ollama), ids)
    assert (report.done, report.skipped) == (5 - kept, kept)
    assert sorted(answered(fake_ollama)) == ["1", "2", "3", "4", "5"]


LONG_NUMBER = "1" * 5000  # past Python's 4,300 digits for an integer read from text


def test_a_number_too_long_in_a_reply_is_a_failure_in_words_and_the_batch_goes_on(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    """Eighth hostile pass, M2: a 5,000-digit integer in the reply's content was recorded
    as "reply is not usable JSON (Exceeds the limit (4300 digits) … use
    sys.set_int_max_str_digits() …)", Python's advice; in the HTTP body, as "the server's
    reply is not Ollama's reply (ValueError)"."""
    ids = load(store, tmp_path, unmet_rows(3))
    fake_ollama.reply_text('{"verdicts": [], "n": ' + LONG_NUMBER + "}")
    fake_ollama.reply_raw('{"model": "m", "message": {"role": "assistant", "content": "{}"}, '
                          '"done": true, "eval_count": ' + LONG_NUMBER + "}",
                          content_type="application/json")
    fake_ollama.responder = verdict_reply

    report = run_second_opinions(store, client_for(fake_ollama), ids, parallel=1)

    judge = f"judge {MODEL} at {fake_ollama.url}"
    content = f"{judge}: reply is not usable JSON: it holds a number with more than 4,300 digits"
    body = (f"{judge}: the server's reply holds a number with more than 4,300 digits: is "
            "this an Ollama server?")
    assert (report.done, report.saved) == (3, 1)
    assert sorted(msg for _, msg in report.failed) == sorted([content, body])
    assert sorted(failure_messages(store)) == sorted([content, body])
    assert second_opinion_count(store) == 1
    assert len(fake_ollama.chat_requests) == 3  # neither fault was retried


def demande(*verdicts: str, other: str = "") -> dict[str, Any]:
    """A reply giving G-DEMANDE each of ``verdicts`` in turn (and ``other`` a verdict)."""
    items = [{"criterion": "G-DEMANDE", "rationale": "Elle répond à la demande.",
              "verdict": v} for v in verdicts]
    if other:
        items.append({"criterion": other, "rationale": "Le ton est posé.", "verdict": "non"})
    return {"verdicts": items}


def test_a_reply_that_contradicts_itself_or_is_not_done_is_a_failure_and_the_batch_goes_on(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    """Ninth hostile pass, J1: two verdicts for the one criterion asked were read as the
    first one, so [oui, non] rescued the attempt ("now accepted") and [non, oui] did
    not; a criterion not asked beside it, or a reply the server marked ``"done": false``,
    was taken as a complete answer. Each is now a recorded failure, not retried."""
    ids = load(store, tmp_path, unmet_rows(6))
    for reply in (demande("oui", "non"), demande("non", "oui"), demande("oui", "oui"),
                  demande("oui", other="G-TON")):
        fake_ollama.reply_json(reply)
    fake_ollama.push(Reply(content=json.dumps(demande("oui")), extra={"done": False}))
    fake_ollama.responder = verdict_reply

    report = run_second_opinions(store, client_for(fake_ollama), ids, parallel=1)

    judge = f"judge {MODEL} at {fake_ollama.url}"
    expected = [f"{judge}: reply has 2 verdicts for G-DEMANDE (oui, non): one was asked",
                f"{judge}: reply has 2 verdicts for G-DEMANDE (non, oui): one was asked",
                f"{judge}: reply has 2 verdicts for G-DEMANDE (oui, oui): one was asked",
                f"{judge}: reply has 2 verdicts for the 1 criterion asked",
                f'{judge}: reply incomplete (the server sent "done": false)']
    assert (report.done, report.saved) == (6, 1)
    assert [msg for _, msg in report.failed] == expected
    assert failure_messages(store) == expected
    assert second_opinion_count(store) == 1  # the sixth attempt's, and nothing cached
    with store.session() as s:
        assert [replay(a).accepted for a in load_attempts(s, ids)] == [False] * 5 + [True]
        assert s.scalar(select(func.count(JudgeRequest.id))) == 1
    assert len(fake_ollama.chat_requests) == 6  # no fault was retried
