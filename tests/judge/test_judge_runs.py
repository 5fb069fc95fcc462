"""A second-opinion batch as the app runs it: what it changed, why it asked nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.changes import Changes
from reviewer.judge.runs import ask_second_opinions
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.judge_stores import client_for, load, prompt_of, verdict_reply
from tests.support.run_files import record

pytestmark = pytest.mark.both_backends


def test_the_run_names_the_attempts_whose_verdicts_changed(
        tmp_path: Path, store: Store, fake_ollama: FakeOllama) -> None:
    ids = load(store, tmp_path, [record("c", 1, 1, demande="non", response="Réponse A."),
                                 record("c", 2, 1, demande="non", response="Réponse B."),
                                 record("c", 3, 1)])  # accepted: skipped
    fake_ollama.responder = lambda body: Reply.error(400, "invalid options") \
        if "Réponse B." in prompt_of(body) else verdict_reply(body)
    run = ask_second_opinions(store, client_for(fake_ollama), ids)
    assert (run.report.done, run.report.skipped, len(run.report.failed)) == (2, 1, 1)
    # A verdict and a failure row both change what the attempt's pane shows.
    assert run.changes == Changes(attempts=frozenset(ids[:2]), verdicts=True)
    assert run.why_skipped == ""  # several attempts: the summary counts the skips


def test_a_lone_skipped_attempt_says_why_and_changes_nothing(
        tmp_path: Path, store: Store, fake_ollama: FakeOllama) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non", invente="oui")])
    run = ask_second_opinions(store, client_for(fake_ollama), [aid])
    assert run.why_skipped == "a check or a failure criterion also refuses it"
    assert run.changes.empty and fake_ollama.chat_requests == []
