"""The second opinion (seed's revoirReussites) through the real ollama client and a fake server."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from models import Attempt, JudgeRequest, Verdict
from reviewer.judge.second_opinion import FLIPPED, KEPT, SKIPPED, second_opinion
from reviewer.rule.replay import load_attempts, replay
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama
from tests.support.judge_stores import (
    CATALOG_WITH_TON,
    TON,
    asked_ids,
    client_for,
    load,
    prompt_of,
    verdict_reply,
    with_ton,
)
from tests.support.run_files import CATALOG, record


def decision(store: Store, attempt_id: int) -> tuple[bool, tuple[str, ...]]:
    with store.session() as s:
        d = replay(load_attempts(s, [attempt_id])[0])
        return d.accepted, d.reasons


def test_request_holds_only_the_doubted_criterion(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    row = with_ton(record("c", 1, 1, demande="non"), "non", "Le ton est sec.")
    [aid] = load(store, tmp_path, [row], CATALOG_WITH_TON)
    fake_ollama.responder = verdict_reply

    outcome = second_opinion(store, client_for(fake_ollama), aid)

    bodies = fake_ollama.chat_requests
    assert [asked_ids(b) for b in bodies] == [["G-DEMANDE"], ["G-TON"]]
    demande, ton = prompt_of(bodies[0]), prompt_of(bodies[1])
    g_demande_text = CATALOG["criteria"][0]["text"]
    e_invente_text = CATALOG["criteria"][1]["text"]
    assert "G-DEMANDE" in demande and g_demande_text in demande
    ton_text = str(TON["text"])
    assert "G-TON" not in demande and ton_text not in demande
    assert "G-TON" in ton and ton_text in ton and g_demande_text not in ton
    for prompt in (demande, ton):
        assert "E-INVENTE" not in prompt and e_invente_text not in prompt
        assert "E-LONGUEUR" not in prompt
        assert "Comment dater un épisode de bruit ?" in prompt  # the context is there
        assert "Notez la date et l'heure" in prompt  # and the answer
    assert bodies[0]["options"]["temperature"] == 0 and bodies[0]["think"] is False
    schema_item = bodies[0]["format"]["properties"]["verdicts"]["items"]["properties"]
    assert list(schema_item) == ["criterion", "rationale", "verdict"]
    assert outcome.status == FLIPPED and outcome.asked == ["G-DEMANDE", "G-TON"]


def test_oui_flips_the_decision_and_keeps_the_first_opinion(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    fake_ollama.reply_json({"verdicts": [{"criterion": "G-DEMANDE", "verdict": "oui",
                                          "rationale": "Elle répond à la demande."}]})
    assert decision(store, aid)[0] is False

    outcome = second_opinion(store, client_for(fake_ollama), aid)

    assert outcome.status == FLIPPED and outcome.accepted
    assert decision(store, aid) == (True, ())
    with store.session() as s:
        rows = s.scalars(select(Verdict).where(Verdict.attempt_id == aid)
                         .order_by(Verdict.id)).all()
        first = [(v.origin, v.met) for v in rows if v.criterion_version.criterion_id == "G-DEMANDE"]
        assert first == [("filter", False), ("second_opinion", True)]
        second = rows[-1]
        assert second.rationale == "Elle répond à la demande." and second.request_id is not None
        stored = s.scalars(select(Attempt.accepted).where(Attempt.id == aid)).one()
        assert stored is False  # what the filter decided stays
    # a second run asks nothing more
    assert second_opinion(store, client_for(fake_ollama), aid).status == SKIPPED
    assert len(fake_ollama.chat_requests) == 1


def test_non_is_stored_but_changes_nothing(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    before = decision(store, aid)
    fake_ollama.responder = lambda body: verdict_reply(body, "non", "Elle ne répond pas.")

    outcome = second_opinion(store, client_for(fake_ollama), aid)

    assert outcome.status == KEPT and not outcome.accepted
    assert decision(store, aid) == before
    with store.session() as s:
        demande = [(v.origin, v.met) for v in s.scalars(select(Verdict).order_by(Verdict.id))
                   if v.criterion_version.criterion_id == "G-DEMANDE"]
    assert demande == [("filter", False), ("second_opinion", False)]


def test_one_oui_among_two_doubts_is_not_enough(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    row = with_ton(record("c", 1, 1, demande="non"), "non", "Le ton est sec.")
    [aid] = load(store, tmp_path, [row], CATALOG_WITH_TON)
    fake_ollama.responder = lambda body: (
        verdict_reply(body, "oui", "Elle répond à la demande.")
        if asked_ids(body) == ["G-DEMANDE"]
        else verdict_reply(body, "non", "Le ton reste sec."))

    outcome = second_opinion(store, client_for(fake_ollama), aid)

    assert outcome.status == KEPT and outcome.said_yes == ["G-DEMANDE"]
    accepted, reasons = decision(store, aid)
    assert not accepted and reasons == ("G-TON non tenu : Le ton est sec.",)


def test_no_second_opinion_when_a_check_or_a_fault_also_refuses(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    rows = [record("c", 1, 1, demande="non", commerce_passed=False),
            record("c", 1, 2, demande="non", invente="oui"),
            record("c", 1, 3, invente="oui"),
            record("c", 1, 4)]
    ids = load(store, tmp_path, rows)
    fake_ollama.responder = verdict_reply
    client = client_for(fake_ollama)

    outcomes = [second_opinion(store, client, i) for i in ids]

    assert fake_ollama.chat_requests == []
    assert [o.status for o in outcomes] == [SKIPPED] * 4
    assert [o.message for o in outcomes] == [
        "a check or a failure criterion also refuses it",
        "a check or a failure criterion also refuses it",
        "a check or a failure criterion also refuses it",
        "accepted by the filter",
    ]
    with store.session() as s:
        assert s.scalar(select(Verdict.id).where(Verdict.origin != "filter")) is None


def test_a_failure_criterion_is_never_rejudged(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    # E-LONGUEUR is a minor failure judged "oui": not a refusal reason, and never re-asked
    row = record("c", 1, 1, demande="non")
    row["judge"]["verdicts"].append(
        {"criterion": "E-LONGUEUR", "verdict": "oui", "rationale": "Un peu long."})
    [aid] = load(store, tmp_path, [row])
    fake_ollama.responder = verdict_reply

    second_opinion(store, client_for(fake_ollama), aid)

    assert [asked_ids(b) for b in fake_ollama.chat_requests] == [["G-DEMANDE"]]
    with store.session() as s:
        kinds = s.scalars(select(Verdict).where(Verdict.origin == "second_opinion")).all()
        assert [v.criterion_version.kind for v in kinds] == ["success"]


def test_identical_request_is_answered_from_the_store(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    # the same answer in two runs: byte-identical second-opinion requests
    rows = [record("c", 1, 1, demande="non"), record("c", 1, 1, demande="non", run="rerun")]
    a, b = load(store, tmp_path, rows)
    fake_ollama.responder = verdict_reply
    client = client_for(fake_ollama)

    assert second_opinion(store, client, a).status == FLIPPED
    assert second_opinion(store, client, b).status == FLIPPED

    assert len(fake_ollama.chat_requests) == 1
    with store.session() as s:
        request_ids = s.scalars(select(Verdict.request_id)
                                .where(Verdict.origin == "second_opinion")).all()
        assert len(request_ids) == 2 and len(set(request_ids)) == 1
        assert s.scalar(select(JudgeRequest.model)) == "qwen3.6:35b-a3b"


def test_second_opinion_uses_the_wording_of_the_first_verdict(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    reworded = {**CATALOG, "criteria": [
        {**CATALOG["criteria"][0], "text": "Répond à la demande, même brièvement."},
        *CATALOG["criteria"][1:]]}
    load(store, tmp_path, [record("c", 1, 1, demande="non")], reworded)  # a new version
    fake_ollama.responder = verdict_reply

    second_opinion(store, client_for(fake_ollama), aid)

    prompt = prompt_of(fake_ollama.chat_requests[0])
    assert CATALOG["criteria"][0]["text"] in prompt
    assert "même brièvement" not in prompt
