"""Prompt templates: French defaults, edits stored as versions, used by the next requests."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from models import JudgeRequest
from reviewer.cli.main import main
from reviewer.errors import BadInputError, JudgeError
from reviewer.judge.prompts import (
    DEFAULT_SECOND_OPINION,
    JUDGE,
    SECOND_OPINION,
    Case,
    CaseCriterion,
    current_template,
    save_template,
)
from reviewer.judge.second_opinion import second_opinion
from reviewer.judge.verdicts import judge_case
from reviewer.store import Store, open_store
from tests.support.fake_ollama import FakeOllama
from tests.support.judge_stores import client_for, load, prompt_of, verdict_reply
from tests.support.run_files import record

EDITED = DEFAULT_SECOND_OPINION.replace("Tu évalues", "Tu relis attentivement")


def test_versions_and_validation(store: Store) -> None:
    with store.session() as s:
        assert current_template(s, SECOND_OPINION).version == 0
        assert save_template(s, SECOND_OPINION, EDITED).version == 1
        assert save_template(s, SECOND_OPINION, EDITED).version == 1  # unchanged: no new one
        assert save_template(s, SECOND_OPINION, EDITED + " Merci.").version == 2
        assert current_template(s, SECOND_OPINION).text.endswith("Merci.")
        with pytest.raises(BadInputError, match=r"lacks \$criteres"):
            save_template(s, SECOND_OPINION, "Juge $conversation et $reponse.")
        with pytest.raises(BadInputError, match="stray"):
            save_template(s, SECOND_OPINION, "$conversation $reponse $criteres coûte 5 $")
        with pytest.raises(BadInputError, match="unknown prompt template"):
            current_template(s, "autre")


def test_edited_template_is_used_and_not_answered_from_the_old_cache(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    a, b = load(store, tmp_path, [record("c", 1, 1, demande="non"),
                                  record("c", 1, 1, demande="non", run="rerun")])
    fake_ollama.responder = verdict_reply
    client = client_for(fake_ollama)
    second_opinion(store, client, a)
    with store.session() as s:
        save_template(s, SECOND_OPINION, EDITED)

    second_opinion(store, client, b)

    first, second = fake_ollama.chat_requests
    assert prompt_of(first).startswith("Tu évalues")
    assert prompt_of(second).startswith("Tu relis attentivement")
    with store.session() as s:
        labels = s.scalars(select(JudgeRequest.request).order_by(JudgeRequest.id)).all()
    assert [r["template"] for r in labels] == ["second_avis@v0", "second_avis@v1"]


def test_prompt_command(tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "prompt.txt"
    path.write_text(EDITED + "\n", encoding="utf-8")
    open_store(db_url).close()  # prompt set changes a store, never makes one
    assert main(["--db", db_url, "prompt", "set", SECOND_OPINION, str(path)]) == 0
    assert main(["--db", db_url, "prompt", "list"]) == 0
    assert main(["--db", db_url, "prompt", "show", SECOND_OPINION, "--version", "1"]) == 0
    out = capsys.readouterr().out
    assert "second_avis@v1: stored" in out and "second_avis  v1  (edited)" in out
    assert "juge  v0  (built-in default)" in out and "Tu relis attentivement" in out
    path.write_text("sans rien", encoding="utf-8")
    assert main(["--db", db_url, "prompt", "set", SECOND_OPINION, str(path)]) == 2


def test_multi_criteria_judge_states_each_polarity(store: Store, fake_ollama: FakeOllama) -> None:
    case = Case([{"role": "user", "content": "Le 3114, c'est quoi ?"}],
                "C'est le numéro national de prévention du suicide.",
                (CaseCriterion("G-DEMANDE", "success", "Répond à la demande."),
                 CaseCriterion("E-INVENTE", "failure", "Invente des faits.")))
    fake_ollama.reply_json({"verdicts": [
        {"criterion": "E-INVENTE", "rationale": "Rien d'inventé.", "verdict": "non"},
        {"criterion": "G-DEMANDE", "rationale": "Répond.", "verdict": "oui"}]})
    with store.session() as s:
        template = current_template(s, JUDGE)

    answer = judge_case(client_for(fake_ollama), case, template, store=store)

    assert {k: v.met for k, v in answer.verdicts.items()} == {"G-DEMANDE": True,
                                                               "E-INVENTE": False}
    prompt = prompt_of(fake_ollama.chat_requests[0])
    assert "- G-DEMANDE (réussite, « oui » si la réponse le fait) : Répond à la demande." in prompt
    assert "- E-INVENTE (échec, « oui » si la réponse commet cette faute) : Invente" in prompt
    assert "Le 3114, c'est quoi ?" in prompt
    fake_ollama.reply_json({"verdicts": [
        {"criterion": "G-DEMANDE", "rationale": "Répond.", "verdict": "oui"}]})
    other = Case(case.messages, "Autre réponse.", case.criteria)
    with pytest.raises(JudgeError, match=r"reply has no verdict for E-INVENTE$"):
        judge_case(client_for(fake_ollama), other, template, store=store)
