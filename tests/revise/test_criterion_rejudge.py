"""Re-judging the attempts a criterion touched under its new wording (fake Ollama server)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from models import Verdict
from reviewer.catalog.spec import CriterionSpec
from reviewer.catalog.versions import add_criterion_version
from reviewer.revise.criterion_rejudge import rejudge_criterion
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.judge_stores import MODEL, asked_ids, client_for, load, prompt_of
from tests.support.run_files import record

NEW_TEXT = ("Répond à ce que la personne demande, ou dit clairement ce qu'elle ne sait pas ; "
            "une réponse factuelle à une demande factuelle suffit.")


def rows() -> list[dict[str, Any]]:
    return [record("c1", demande="non", response="Notez la date."),
            record("c2", response="Notez l'heure."),
            record("c3", demande="non", invente="oui", response="Selon la loi 12-34…")]


def new_version(store: Store) -> None:
    with store.session() as s:
        add_criterion_version(s, CriterionSpec("G-DEMANDE", "success", None, NEW_TEXT),
                              reason="moins strict", author="associe")


def test_rejudge_uses_the_new_text_alone_and_reports_flips(
        tmp_path: Path, store: Store, fake_ollama: FakeOllama) -> None:
    load(store, tmp_path, rows())
    new_version(store)
    fake_ollama.responder = lambda body: Reply.json({"verdicts": [
        {"criterion": "G-DEMANDE", "rationale": "Elle répond.", "verdict": "oui"}]})
    report = rejudge_criterion(store, client_for(fake_ollama), "G-DEMANDE")

    bodies = fake_ollama.chat_requests
    assert len(bodies) == 3
    for body in bodies:
        assert asked_ids(body) == ["G-DEMANDE"]
        assert NEW_TEXT in prompt_of(body) and "E-INVENTE" not in prompt_of(body)
    # c1 and c3 flip from "non" to "oui"; only c1's decision changes (c3 also invents).
    assert [(f.key.split("/")[1], f.old_accepted, f.new_accepted) for f in report.flips] == [
        ("c1", False, True), ("c3", False, False)]
    assert report.same == 1 and report.asked == 3 and not report.failed
    with store.session() as s:
        stored = s.scalars(select(Verdict).where(Verdict.origin == "rejudge")).all()
        assert len(stored) == 3
        assert {v.criterion_version.version for v in stored} == {2}

    # A rerun asks nothing: the verdicts are stored under this version already.
    again = rejudge_criterion(store, client_for(fake_ollama), "G-DEMANDE")
    assert len(fake_ollama.chat_requests) == 3
    assert again.reused == 3 and len(again.flips) == 2


def test_rejudge_failures_and_cancel(tmp_path: Path, store: Store,
                                     fake_ollama: FakeOllama) -> None:
    load(store, tmp_path, rows())
    new_version(store)
    fake_ollama.reply_text("pas du JSON")
    fake_ollama.responder = lambda body: Reply.json({"verdicts": [
        {"criterion": "G-DEMANDE", "rationale": "Non.", "verdict": "non"}]})
    cancel = threading.Event()
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done == 2:
            cancel.set()

    report = rejudge_criterion(store, client_for(fake_ollama, retries=0), "G-DEMANDE",
                               progress=progress, cancel=cancel)
    assert report.cancelled and seen == [1, 2]
    assert len(report.failed) == 1 and "not valid JSON" in report.failed[0][1]
    # c2 was accepted; judged "non" under the new text it would be refused.
    assert [(f.key.split("/")[1], f.old_met, f.new_met, f.new_accepted)
            for f in report.flips] == [("c2", True, False, False)]
    assert "cancelled" in report.summary()


@pytest.mark.both_backends
def test_a_reply_with_two_verdicts_for_the_criterion_is_a_failure_stored_nowhere(
        tmp_path: Path, store: Store, fake_ollama: FakeOllama) -> None:
    """Ninth hostile pass, J1, on the re-judging path: [oui, non] was read as "oui"."""
    _c1, c2, c3 = load(store, tmp_path, rows())
    new_version(store)
    fake_ollama.reply_json({"verdicts": [
        {"criterion": "G-DEMANDE", "rationale": "Répond.", "verdict": "oui"},
        {"criterion": "G-DEMANDE", "rationale": "Ne répond pas.", "verdict": "non"}]})
    fake_ollama.responder = lambda body: Reply.json({"verdicts": [
        {"criterion": "G-DEMANDE", "rationale": "Répond.", "verdict": "oui"}]})

    report = rejudge_criterion(store, client_for(fake_ollama, retries=0), "G-DEMANDE")

    judge = f"judge {MODEL} at {fake_ollama.url}"
    assert [(key.split("/")[1], msg) for key, msg in report.failed] == [
        ("c1", f"{judge}: reply has 2 verdicts for G-DEMANDE (oui, non): one was asked")]
    assert (report.asked, len(fake_ollama.chat_requests)) == (2, 3)
    with store.session() as s:
        stored = s.scalars(select(Verdict.attempt_id).where(Verdict.origin == "rejudge"))
        assert sorted(stored) == [c2, c3]
