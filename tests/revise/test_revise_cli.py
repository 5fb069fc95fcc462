"""``reviewer check`` and ``reviewer criterion``: new versions with a reason, re-judging."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.catalog.versions import current_check_versions, current_criterion_versions
from reviewer.cli.main import main
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.feedback_stores import SEED_NEW_PATTERN, key, load_backtest_store
from tests.support.judge_stores import MODEL


def test_check_saves_the_seed_pattern_then_backtest_compares_against_it(
        tmp_path: Path, store: Store, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    load_backtest_store(store, tmp_path)
    assert main(["--db", db_url, "--reviewer", "associe", "check", "D-COMMERCE",
                 "--pattern", SEED_NEW_PATTERN, "--reason", "exiger le pronom"]) == 0
    assert "D-COMMERCE v2 saved" in capsys.readouterr().out
    with store.session() as s:
        cv = current_check_versions(s)["D-COMMERCE"]
        assert (cv.pattern, cv.flags, cv.reason, cv.author) == (
            SEED_NEW_PATTERN, "i", "exiger le pronom", "associe")
    # The current version is now the seed's: back-testing it again changes nothing.
    assert main(["--db", db_url, "backtest", "D-COMMERCE", SEED_NEW_PATTERN, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["old"]["version"], data["removed"], data["added"]) == (2, [], [])


@pytest.mark.parametrize("argv,message", [
    (["--pattern", "inscri(", "--reason", "x"], "invalid pattern"),
    (["--pattern", "inscri(vez|re|ption)", "--reason", "x"], "nothing changed"),
    (["--pattern", "x", "--reason", " "], "one non-empty line"),
])
def test_check_refuses_bad_versions(tmp_path: Path, store: Store, db_url: str,
                                    capsys: pytest.CaptureFixture[str],
                                    argv: list[str], message: str) -> None:
    load_backtest_store(store, tmp_path)
    assert main(["--db", db_url, "check", "D-COMMERCE", *argv]) == 2
    assert message in capsys.readouterr().err
    with store.session() as s:
        assert current_check_versions(s)["D-COMMERCE"].version == 1


def test_criterion_new_text_and_rejudge_prints_flips(
        tmp_path: Path, store: Store, db_url: str, fake_ollama: FakeOllama,
        capsys: pytest.CaptureFixture[str]) -> None:
    load_backtest_store(store, tmp_path)  # six attempts, all judged G-DEMANDE "oui"
    fake_ollama.responder = lambda body: Reply.json({"verdicts": [
        {"criterion": "G-DEMANDE", "rationale": "Pousse une offre.",
         "verdict": "non" if "Premium" in body["messages"][0]["content"] else "oui"}]})
    code = main(["--db", db_url, "--reviewer", "associe", "criterion", "G-DEMANDE",
                 "--text", "Répond à la demande sans rien vendre.", "--reason", "plus net",
                 "--rejudge", "--host", fake_ollama.url, "--model", MODEL, "--json"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("G-DEMANDE v2 saved\n")
    report = json.loads(out.split("\n", 1)[1])
    assert report["attempts"] == 6 and report["unchanged"] == 5
    assert report["flips"] == [{"key": key(2), "old": "oui", "new": "non",
                                "old_accepted": False, "new_accepted": False,
                                "rationale": "Pousse une offre."}]
    with store.session() as s:
        assert current_criterion_versions(s)["G-DEMANDE"].reason == "plus net"
