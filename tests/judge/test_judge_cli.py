"""``reviewer rejudge``: output, exit codes, selection options, resuming."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from models import Attempt, ContradictionFlag, Verdict
from reviewer.cli.main import main
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.judge_stores import (
    MODEL,
    asked_ids,
    closed_port_url,
    failure_messages,
    load,
    verdict_reply,
)
from tests.support.run_files import record


def rejudge(db_url: str, host: str, *extra: str) -> list[str]:
    return ["--db", db_url, "rejudge", "--host", host, "--model", MODEL,
            "--timeout", "2", "--backoff", "0.001", *extra]


@pytest.fixture
def mixed(tmp_path: Path, store: Store) -> Store:
    load(store, tmp_path, [
        record("c", 1, 1, demande="non", response="Première réponse."),
        record("c", 1, 2, demande="non", response="Deuxième réponse."),
        record("c", 1, 3, demande="non", invente="oui"),
        record("c", 2, 1),
    ])
    return store


def test_rejudge_all_then_nothing_left(
    mixed: Store, db_url: str, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_ollama.responder = lambda body: (
        verdict_reply(body, "oui", "Elle répond à la demande.")
        if "Première" in body["messages"][-1]["content"]
        else verdict_reply(body, "non", "Elle parle d'autre chose."))

    assert main(rejudge(db_url, fake_ollama.url)) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["2026-10-14-ministral-8b/c/1/1: re-judged alone: G-DEMANDE oui; now accepted",
                   "2 asked, 1 now accepted, 0 failed, 1 skipped"]

    assert main(rejudge(db_url, fake_ollama.url)) == 0
    assert capsys.readouterr().out.splitlines() == ["0 asked, 0 now accepted, 0 failed, 3 skipped"]
    assert len(fake_ollama.chat_requests) == 2


def test_rejudge_one_attempt_that_does_not_qualify(
    mixed: Store, db_url: str, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(rejudge(db_url, fake_ollama.url, "--attempt", "2026-10-14-ministral-8b/c/1/3"))
    assert code == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "2026-10-14-ministral-8b/c/1/3: no second opinion "
        "(a check or a failure criterion also refuses it)")
    assert fake_ollama.chat_requests == []


def test_rejudge_unreachable_judge_is_one_line(
    mixed: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = closed_port_url()
    code = main(rejudge(db_url, url, "--attempt", "2026-10-14-ministral-8b/c/1/1",
                        "--retries", "0"))
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert err == [
        f"2026-10-14-ministral-8b/c/1/1: second opinion failed: judge {MODEL} at {url}: "
        "no server listening",
    ]


def test_rejudge_stops_when_no_server(
    mixed: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = closed_port_url()
    code = main(rejudge(db_url, url, "--retries", "0", "--parallel", "1"))
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.splitlines() == [
        f"2026-10-14-ministral-8b/c/1/1: second opinion failed: judge {MODEL} at {url}: "
        "no server listening",
        f"reviewer: judge {MODEL} at {url}: no server listening; 1 not asked, rerun to resume",
    ]
    assert captured.out.splitlines() == ["1 asked, 0 now accepted, 1 failed, 1 skipped, 1 not run"]


def test_rejudge_http_error_exit_code_and_json(
    mixed: Store, db_url: str, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_ollama.responder = lambda body: Reply.error(500, "CUDA error")
    code = main(rejudge(db_url, fake_ollama.url, "--retries", "0", "--json", "--parallel", "1"))
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert report["asked"] == 2 and report["now_accepted"] == 0
    assert [f["message"] for f in report["failed"]] == [
        f"judge {MODEL} at {fake_ollama.url}: HTTP 500: CUDA error"] * 2


def test_rejudge_criterion_option(
    mixed: Store, db_url: str, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(rejudge(db_url, fake_ollama.url, "--criterion", "E-INVENTE")) == 2
    assert "E-INVENTE is a failure criterion" in capsys.readouterr().err
    assert main(rejudge(db_url, fake_ollama.url, "--criterion", "G-NOPE")) == 2
    fake_ollama.responder = verdict_reply
    assert main(rejudge(db_url, fake_ollama.url, "--criterion", "G-DEMANDE")) == 0
    assert {tuple(asked_ids(b)) for b in fake_ollama.chat_requests} == {("G-DEMANDE",)}


def test_rejudge_bad_arguments(
    mixed: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(rejudge(db_url, "http://127.0.0.1:9", "--parallel", "0")) == 2
    assert main(rejudge(db_url, "http://127.0.0.1:9", "--attempt", "run/c/x/1")) == 2
    assert main(rejudge(db_url, "http://127.0.0.1:9", "--attempt", "run/c/9/1")) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "no such attempt" in err


def test_rejudge_flagged_only(
    mixed: Store, db_url: str, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    with mixed.session() as s:
        verdicts = s.scalars(select(Verdict).join(Attempt).where(Verdict.met.is_(False))
                             .order_by(Verdict.id)).all()
        first, second = (v for v in verdicts if v.criterion_version.kind == "success"
                         and v.attempt.attempt in (1, 2) and v.attempt.turn == 1)
        s.add(ContradictionFlag(verdict_id=first.id, tier="rules", score=0.9, flagged=True))
        s.add(ContradictionFlag(verdict_id=second.id, tier="rules", score=0.2, flagged=False))
    fake_ollama.responder = verdict_reply

    assert main(rejudge(db_url, fake_ollama.url, "--flagged")) == 0

    assert len(fake_ollama.chat_requests) == 1
    assert "Première réponse." in fake_ollama.chat_requests[0]["messages"][-1]["content"]
    summary = capsys.readouterr().out.splitlines()[-1]
    assert summary == "1 asked, 1 now accepted, 0 failed, 0 skipped"


# issue 18: a JSON list from the server ended the whole --flagged batch with a traceback;
# seventh hostile pass T2: the ollama client decoded a body nested 100,000 levels deep
# itself (RecursionError, exit 70), and the rest of the batch was never asked.
ODD_REPLIES = [
    ("[]", "the server's reply is JSON but not an object: is this an Ollama server?"),
    ('{"a":' + "[" * 100_000 + "]" * 100_000 + "}",
     "the reply is JSON nested 100,001 levels deep, more than the 100 an Ollama reply "
     "needs: is this an Ollama server?"),
]


@pytest.mark.parametrize(("body", "said"), ODD_REPLIES, ids=["a list", "nested too deeply"])
def test_rejudge_flagged_goes_on_after_a_reply_that_is_not_ollamas(
    mixed: Store, db_url: str, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
    body: str, said: str
) -> None:
    with mixed.session() as s:
        for v in s.scalars(select(Verdict).where(Verdict.met.is_(False))):
            if v.criterion_version.kind == "success":
                s.add(ContradictionFlag(verdict_id=v.id, tier="rules", score=0.9, flagged=True))
    fake_ollama.reply_raw(body, content_type="application/json")
    fake_ollama.responder = lambda body: verdict_reply(body, "oui", "Elle répond à la demande.")

    code = main(rejudge(db_url, fake_ollama.url, "--flagged", "--parallel", "1"))

    captured = capsys.readouterr()
    assert code == 1 and "Traceback" not in captured.err
    assert captured.err.splitlines() == [
        f"2026-10-14-ministral-8b/c/1/1: second opinion failed: judge {MODEL} at "
        f"{fake_ollama.url}: {said}"]
    assert captured.out.splitlines()[-1] == "2 asked, 1 now accepted, 1 failed, 1 skipped"


def test_a_judge_failing_every_attempt_alike_is_said_once_with_a_count(
    tmp_path: Path, store: Store, db_url: str, fake_ollama: FakeOllama,
    capsys: pytest.CaptureFixture[str]
) -> None:
    # jd34: a judge answering about another criterion printed one line per attempt.
    load(store, tmp_path, [record(f"c{i}", 1, 1, demande="non") for i in range(7)])
    fake_ollama.responder = lambda body: Reply.json({"verdicts": [
        {"criterion": "G-AUTRE", "rationale": "Ton correct.", "verdict": "oui"}]})

    code = main(rejudge(db_url, fake_ollama.url, "--parallel", "1"))

    captured = capsys.readouterr()
    assert code == 1 and "Traceback" not in captured.err
    lines = captured.err.splitlines()
    assert len(lines) == 4, lines
    assert all(": second opinion failed: " in line for line in lines[:3])
    reason = lines[0].split(": second opinion failed: ", 1)[1]
    assert lines[3] == ("… and 4 more attempts whose second opinion failed the same way: "
                        f"{reason}")
    assert captured.out.splitlines()[-1] == "7 asked, 0 now accepted, 7 failed, 0 skipped"


TWO_VERDICTS = [
    (["oui", "non"], "reply has 2 verdicts for G-DEMANDE (oui, non): one was asked"),
    (["non", "oui"], "reply has 2 verdicts for G-DEMANDE (non, oui): one was asked"),
]


@pytest.mark.both_backends
@pytest.mark.parametrize(("verdicts", "said"), TWO_VERDICTS, ids=["oui-non", "non-oui"])
def test_rejudge_refuses_a_reply_with_two_verdicts_for_the_one_criterion_asked(
    mixed: Store, db_url: str, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
    verdicts: list[str], said: str
) -> None:
    """Ninth hostile pass, J1: [oui, non] for G-DEMANDE said "G-DEMANDE oui; now
    accepted" (the first verdict won), [non, oui] nothing."""
    key = "2026-10-14-ministral-8b/c/1/1"
    fake_ollama.responder = lambda body: Reply.json({"verdicts": [
        {"criterion": "G-DEMANDE", "rationale": "Elle répond à la demande.", "verdict": v}
        for v in verdicts]})

    code = main(rejudge(db_url, fake_ollama.url, "--attempt", key, "--retries", "0"))

    captured = capsys.readouterr()
    message = f"judge {MODEL} at {fake_ollama.url}: {said}"
    assert code == 1
    assert captured.err.splitlines() == [f"{key}: second opinion failed: {message}"]
    assert captured.out.splitlines() == ["1 asked, 0 now accepted, 1 failed, 0 skipped"]
    with mixed.session() as s:
        assert s.scalars(select(Verdict).where(Verdict.origin == "second_opinion")).all() == []
    assert failure_messages(mixed) == [message]


@pytest.mark.both_backends
@pytest.mark.parametrize("order", [("non", "oui"), ("oui", "non")], ids=["non-oui", "oui-non"])
def test_rejudge_refuses_a_verdict_object_naming_its_verdict_twice(
    mixed: Store, db_url: str, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
    order: tuple[str, str]
) -> None:
    """Tenth hostile pass, Z2: {"verdict": "non", "verdict": "oui"} was read as its last
    key ("oui": the attempt rescued), the other order as "non"."""
    key = "2026-10-14-ministral-8b/c/1/1"
    first, second = order
    fake_ollama.responder = lambda body: Reply.text(
        '{"verdicts": [{"criterion": "G-DEMANDE", "rationale": "Elle répond.", '
        f'"verdict": "{first}", "verdict": "{second}"}}]}}')

    code = main(rejudge(db_url, fake_ollama.url, "--attempt", key, "--retries", "0"))

    captured = capsys.readouterr()
    message = (f"judge {MODEL} at {fake_ollama.url}: reply gives the key 'verdict' twice "
               "in one object: which one is meant cannot be told")
    assert code == 1
    assert captured.err.splitlines() == [f"{key}: second opinion failed: {message}"]
    assert captured.out.splitlines() == ["1 asked, 0 now accepted, 1 failed, 0 skipped"]
    with mixed.session() as s:
        assert s.scalars(select(Verdict).where(Verdict.origin == "second_opinion")).all() == []
    assert failure_messages(mixed) == [message]
