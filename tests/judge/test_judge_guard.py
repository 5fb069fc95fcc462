"""The second-opinion guard: a second opinion replaces the first only if it is reliable."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select, update

from models import Verdict
from reviewer.cli.main import main
from reviewer.errors import BadInputError
from reviewer.judge.guard import LEVELS, strictness, unreliable_reason
from reviewer.judge.reassess import reassess
from reviewer.judge.second_opinion import FLIPPED, KEPT, second_opinion
from reviewer.rule.replay import load_attempts, replay
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama
from tests.support.judge_stores import client_for, load, verdict_reply
from tests.support.run_files import CATALOG, record

CRITERION = CATALOG["criteria"][0]["text"]
PROMPT = ("Tu évalues la réponse… « oui » si la réponse fait ce que dit le critère, « non » "
          "sinon.\n## Réponse à évaluer\nNotez la date et l'heure de chaque épisode.")


def reason(rationale: str, met: bool = True, level: str = "normal") -> str:
    return unreliable_reason(rationale, met, criterion_id="G-DEMANDE", criterion_text=CRITERION,
                             prompt=PROMPT, level=LEVELS[level])


@pytest.mark.parametrize(("rationale", "why"), [
    ("", "empty rationale"),
    ("   ", "empty rationale"),
    ("Oui", "the rationale is only « Oui »"),
    ("OUI !", "the rationale is only « OUI ! »"),
    ("non.", "the rationale is only « non. »"),
    ("Yes, yes", "the rationale is only « Yes, yes »"),
    ("Elle répond.", "the rationale has 2 words, fewer than 3 (normal guard)"),
    ("Répond à ce que la personne demande.", "the rationale copies the criterion's text"),
    ("répond à ce que la personne demande", "the rationale copies the criterion's text"),
    ("La réponse fait ce que dit le critère.", "the rationale copies the prompt"),
    ("Notez la date et l'heure de chaque épisode.", "the rationale copies the prompt"),
    ("La réponse ne répond pas à la demande.",
     "the contradiction detector reads the rationale as saying the opposite of « oui »"),
])
def test_what_makes_a_second_opinion_unreliable(rationale: str, why: str) -> None:
    assert why in reason(rationale)


def test_a_substantive_rationale_that_agrees_with_its_verdict_is_reliable() -> None:
    assert reason("La réponse répond directement à la demande.") == ""
    assert reason("Elle explique comment noter chaque épisode de bruit.") == ""
    # a "non" whose rationale says the request was answered is unreliable too (shown so)
    assert "opposite of « non »" in reason("La réponse répond directement à la demande.", False)


def test_strictness_levels() -> None:
    assert reason("Elle répond.", level="lenient") == ""
    assert reason("Elle répond bien.", level="normal") == ""
    assert "fewer than 6 (strict guard)" in reason("Elle répond bien.", level="strict")
    # every level refuses what gives no reason at all
    for level in LEVELS:
        assert reason("Oui", level=level) and reason("", level=level)


def test_strictness_from_option_or_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REVIEWER_GUARD", raising=False)
    assert strictness().name == "normal"
    monkeypatch.setenv("REVIEWER_GUARD", "strict")
    assert strictness().name == "strict" and strictness("lenient").name == "lenient"
    with pytest.raises(BadInputError, match="unknown guard strictness 'loose'"):
        strictness("loose")


def _accepted(store: Store, aid: int) -> bool:
    with store.session() as s:
        return replay(load_attempts(s, [aid])[0]).accepted


def test_an_unreliable_oui_is_stored_but_does_not_flip(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    fake_ollama.responder = lambda body: verdict_reply(body, "oui", "Oui")

    outcome = second_opinion(store, client_for(fake_ollama), aid)

    assert outcome.status == KEPT and outcome.said_yes == ["G-DEMANDE"]
    assert outcome.unreliable == {"G-DEMANDE": "the rationale is only « Oui »"}
    assert _accepted(store, aid) is False
    with store.session() as s:
        v = s.scalars(select(Verdict).where(Verdict.origin == "second_opinion")).one()
        assert (v.met, v.applied, v.unreliable_reason) == (
            True, False, "the rationale is only « Oui »")


def test_reassess_applies_the_chosen_strictness_without_asking(
    tmp_path: Path, store: Store, db_url: str, fake_ollama: FakeOllama,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ids = load(store, tmp_path, [record("c", 1, 1, demande="non"),
                                 record("c", 1, 2, demande="non", response="Autre réponse.")])
    fake_ollama.responder = lambda body: verdict_reply(
        body, "oui", "Elle répond bien." if "Autre" in body["messages"][0]["content"]
        else "Oui")
    client = client_for(fake_ollama)
    assert [second_opinion(store, client, i).status for i in ids] == [KEPT, FLIPPED]
    with store.session() as s:  # as a store migrated from before the guard: all applied
        s.execute(update(Verdict).values(applied=True, unreliable_reason=None))
    assert [_accepted(store, i) for i in ids] == [True, True]

    report = reassess(store, LEVELS["strict"])

    assert (report.checked, report.unreliable, report.changed) == (2, 2, 2)
    assert [_accepted(store, i) for i in ids] == [False, False]
    assert main(["--db", db_url, "rejudge", "--reassess", "--guard", "lenient"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "2 second opinions reassessed: 1 unreliable (not applied), 1 changed"]
    assert [_accepted(store, i) for i in ids] == [False, True]
    assert len(fake_ollama.chat_requests) == 2  # reassessing asks nothing


def test_the_example_view_shows_the_unreliable_mark_and_the_reasoning(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    import json

    from reviewer.review.example import load_example

    ids = load(store, tmp_path, [record("c", 1, 1, demande="non"),
                                 record("c", 1, 2, demande="non", response="Autre réponse.")])
    fake_ollama.reply_thinking("Elle dit juste oui.", json.dumps({"verdicts": [
        {"criterion": "G-DEMANDE", "verdict": "oui", "rationale": "Oui"}]}))
    fake_ollama.reply_json({"verdicts": [{"criterion": "G-DEMANDE", "verdict": "oui",
                                          "rationale": "Elle répond à la demande posée."}]})
    for aid in ids:
        second_opinion(store, client_for(fake_ollama, think=True), aid)

    with store.session() as s:
        bad, good = (load_example(s, aid, "alice") for aid in ids)
    row = bad.verdicts[0]
    assert row.second_opinion is not None and row.second_opinion.met
    assert not row.second_opinion.applied and not row.effective and not bad.live.accepted
    assert row.second_opinion.unreliable_reason == "the rationale is only « Oui »"
    assert row.second_opinion.reasoning == "Elle dit juste oui."
    row = good.verdicts[0]
    assert row.second_opinion is not None and row.second_opinion.applied and row.effective
    assert row.second_opinion.reasoning is None and good.live.accepted
