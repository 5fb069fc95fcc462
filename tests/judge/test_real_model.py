"""The judge paths against a real model (Gemma 3 270M behind the Ollama-protocol server).

Every request goes through the real ``ollama`` client to ``tests/support/fake_ollama.py``
backed by llama-cpp-python (``tests/support/llama_backend.py``). The model is small: it
answers « Oui » to almost anything, so these tests assert **structure** — every reply
parses or is a recorded failure, rows are stored, a rerun is answered from the cache with
no request, each fault gives its own line — never the model's verdicts.

The faults of issue 19/18 are injected into the real server: a real reply with its
rationale replaced, a server forcing a small ``num_predict`` or ``num_ctx``, a model that
fails to load (persistent HTTP 500), an HTML page, a JSON list, a body dripping one byte
at a time. Attempts share one answer where they can, so the model generates once and
the other requests are served by the request cache (or the backend's memo).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from models import ContradictionFlag, JudgeFailure, Verdict
from reviewer.cli.main import main
from reviewer.judge.batch import run_second_opinions
from reviewer.judge.client import JudgeClient
from reviewer.judge.llm_tier import flag_verdicts, refusing_verdicts
from reviewer.rule.replay import load_attempts, replay
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.judge_stores import load
from tests.support.llama_backend import MODEL_NAME
from tests.support.real_model import _real_session, real_server
from tests.support.run_files import CATALOG, record, write_jsonl

__all__ = ["_real_session", "real_server"]  # fixtures used by name below
pytestmark = pytest.mark.real_model

ANSWER = "Notez la date, l'heure et la durée de chaque épisode de bruit dans le journal."
TIMEOUT = "300"  # seconds: a loaded 2-core machine runs the model slowly


def client(server: FakeOllama, **kw: Any) -> JudgeClient:
    return JudgeClient(server.url, MODEL_NAME, **{"timeout": 300.0, "retries": 0, **kw})


def rejudge(db_url: str, server: FakeOllama, *extra: str) -> list[str]:
    return ["--db", db_url, "rejudge", "--host", server.url, "--model", MODEL_NAME,
            "--timeout", TIMEOUT, "--retries", "0", "--backoff", "0", "--parallel", "1",
            *extra]


def refused(n: int, response: str = ANSWER, run: str = "real") -> list[dict[str, Any]]:
    """``n`` attempts refused only by G-DEMANDE "non", all with the same answer."""
    return [record(f"c{i}", 1, 1, demande="non", response=response, run=run)
            for i in range(1, n + 1)]


def decisions(store: Store) -> list[bool]:
    with store.session() as s:
        return [replay(a).accepted for a in load_attempts(s, _ids(store))]


def _ids(store: Store) -> list[int]:
    from models import Attempt

    with store.session() as s:
        return list(s.scalars(select(Attempt.id).order_by(Attempt.id)))


def second_opinions(store: Store) -> list[Verdict]:
    with store.session() as s:
        rows = list(s.scalars(select(Verdict).where(Verdict.origin == "second_opinion")
                              .order_by(Verdict.id)))
        s.expunge_all()
        return rows


def failures(store: Store) -> list[str]:
    with store.session() as s:
        return list(s.scalars(select(JudgeFailure.message).order_by(JudgeFailure.id)))


# -- the three paths, end to end ------------------------------------------------------


def test_second_opinions_parse_or_fail_and_a_rerun_is_served_from_the_cache(
    tmp_path: Path, store: Store, real_server: FakeOllama
) -> None:
    answers = [ANSWER, "Je ne peux pas vous aider pour cela.",
               "Appelez la mairie et notez les dates des nuisances."]
    ids = load(store, tmp_path, [record(f"c{i}", 1, 1, demande="non", response=a, run="real")
                                 for i, a in enumerate(answers, 1)])

    report = run_second_opinions(store, client(real_server), ids, parallel=1)

    assert report.done == 3 and not report.stopped
    stored = {v.attempt_id: v for v in second_opinions(store)}
    with store.session() as s:
        failed = dict(s.execute(select(JudgeFailure.attempt_id, JudgeFailure.message)).all())
    for aid in ids:  # each reply parsed (a stored second opinion) or is a recorded failure
        assert (aid in stored) != (aid in failed)
    for aid, v in stored.items():
        assert v.applied == (v.unreliable_reason is None) and v.request_id is not None
        with store.session() as s:
            accepted = replay(load_attempts(s, [aid])[0]).accepted
        assert accepted == (v.met and v.applied)  # an unreliable "oui" changes nothing
    for message in failed.values():
        assert message.startswith(f"judge {MODEL_NAME} at {real_server.url}: ")
    sent = len(real_server.chat_requests)
    assert sent == 3

    # the same answers in another run: byte-identical requests, answered from the store
    more = load(store, tmp_path, [record(f"c{i}", 1, 1, demande="non", response=a, run="again")
                                  for i, a in enumerate(answers, 1)])[3:]
    again = run_second_opinions(store, client(real_server), more, parallel=1)
    assert again.done == 3
    assert len(real_server.chat_requests) - sent == len(failed)  # only failures are re-sent


def test_llm_tier_readings_are_stored_and_a_rerun_sends_nothing(
    tmp_path: Path, store: Store, real_server: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    load(store, tmp_path, [record("c1", 1, 1, demande="non"),
                           record("c2", 1, 1, invente="oui"),
                           record("c3", 1, 1, demande="non",
                                  rationale="La réponse ne dit pas comment dater l'épisode.")])
    ids = refusing_verdicts(store)

    report = flag_verdicts(store, client(real_server), ids)

    assert report.read + len(report.failed) == 3 and not report.stopped
    with store.session() as s:
        flags = s.scalars(select(ContradictionFlag).where(ContradictionFlag.tier == "llm")).all()
        assert len(flags) == report.read
        assert all(f.evidence.startswith("rationale says ") for f in flags)

    # file mode, twice on one cache: each line as it arrives, then all from the cache
    items = tmp_path / "items.jsonl"
    write_jsonl(items, [{"criterion_id": "G-DEMANDE", "kind": "success", "verdict": v,
                         "criterion_text": CATALOG["criteria"][0]["text"], "rationale": r}
                        for v, r in (("non", "L'assistant répond directement à la demande."),
                                     ("oui", "Elle explique comment noter les épisodes."))])
    argv = ["--db", f"sqlite:///{tmp_path / 'cache.sqlite3'}", "contradictions", str(items),
            "--llm", "--host", real_server.url, "--model", MODEL_NAME, "--timeout", TIMEOUT]
    before = len(real_server.chat_requests)
    first = main(argv)
    out = capsys.readouterr().out
    sent = len(real_server.chat_requests) - before
    assert main(argv) == first
    assert capsys.readouterr().out == out
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 2 and all("llm" in line for line in lines)
    errors = sum("error" in line["llm"] for line in lines)
    assert first == (1 if errors else 0)
    assert len(real_server.chat_requests) - before == sent + errors  # cached: none re-sent


def test_judge_grader_notes_every_group_or_reports_it(
    tmp_path: Path, real_server: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [{"group": "a", "prompt": "Comment dater un épisode de bruit ?", "response": r,
             "reference": "Notez la date et l'heure de chaque épisode."}
            for r in (ANSWER, "Je ne sais pas.", "Notez la date.")]
    rows.append({"prompt": "Que faire la nuit ?", "response": "Dormez.", "reference": None})
    src = write_jsonl(tmp_path / "in.jsonl", rows)

    code = main(["grade", "judge", str(src), "--host", real_server.url, "--model", MODEL_NAME,
                 "--timeout", TIMEOUT, "--retries", "0"])

    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [x["response"] for x in lines] == [r["response"] for r in rows]  # none lost
    for line in lines:
        if "judge_error" in line:
            assert line["score"] is None and line["judge_error"] in captured.err
        else:
            assert 0.0 <= line["score"] <= 1.0
            assert len(line["judge"]["justification"]) >= 5
    assert code == (1 if any("judge_error" in x for x in lines) else 0)
    assert "Traceback" not in captured.err
    assert len(real_server.chat_requests) == 2  # one call per group


# -- faults injected into the real server ----------------------------------------------

def _with_rationale(server: FakeOllama, verdict: str, rationale: str) -> Callable[..., Reply]:
    """A responder: the real model's reply, its rationale and verdict replaced."""

    def respond(body: dict[str, Any]) -> Reply:
        reply = server.generate(body)
        try:
            data = json.loads(reply.content)
            data["verdicts"][0].update(rationale=rationale, verdict=verdict)
        except (ValueError, KeyError, IndexError, TypeError):  # the model's own reply was bad
            data = {"verdicts": [{"criterion": "G-DEMANDE", "rationale": rationale,
                                  "verdict": verdict}]}
        reply.content = json.dumps(data, ensure_ascii=False)
        reply.done_reason = "stop"  # a whole reply now, even if the model's own was cut
        return reply

    return respond


BAD_RATIONALES = [
    ("empty", "", "empty rationale"),
    ("bare-oui", "Oui", "the rationale is only « Oui »"),
    ("copies-criterion", CATALOG["criteria"][0]["text"], "copies the criterion's text"),
    ("contradicts", "La réponse ne répond pas du tout à la demande.",
     "the contradiction detector reads the rationale as saying the opposite of « oui »"),
]


@pytest.mark.parametrize(("case", "rationale", "reason"), BAD_RATIONALES,
                         ids=[c[0] for c in BAD_RATIONALES])
def test_an_unreliable_oui_is_stored_shown_and_not_applied(
    tmp_path: Path, store: Store, db_url: str, real_server: FakeOllama,
    capsys: pytest.CaptureFixture[str], case: str, rationale: str, reason: str,
) -> None:
    load(store, tmp_path, refused(1))
    real_server.responder = _with_rationale(real_server, "oui", rationale)

    code = main(rejudge(db_url, real_server))

    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0].startswith("real/c1/1/1: re-judged alone: G-DEMANDE oui (unreliable — not "
                             "applied: ") and reason in out[0] and out[0].endswith("still refused")
    assert out[-1] == "1 asked, 0 now accepted, 0 failed, 0 skipped, 1 unreliable (not applied)"
    [second] = second_opinions(store)
    assert second.met and not second.applied and reason in (second.unreliable_reason or "")
    assert decisions(store) == [False]  # the decision did not change


def test_cut_reply_and_cut_prompt_are_failures_with_their_own_line(
    tmp_path: Path, store: Store, db_url: str, real_server: FakeOllama,
    capsys: pytest.CaptureFixture[str],
) -> None:
    load(store, tmp_path, refused(2))
    # a server ignoring the client's num_predict (8 tokens: mid-rationale) ...
    real_server.force_options = {"num_predict": 8}
    assert main(rejudge(db_url, real_server, "--attempt", "real/c1/1/1")) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"real/c1/1/1: second opinion failed: judge {MODEL_NAME} at "
                   f"{real_server.url}: reply cut at 8 tokens"]
    # ... and one ignoring its num_ctx: Ollama cuts the prompt silently, keeping its end
    real_server.force_options = {"num_ctx": 64, "num_predict": 16}
    assert main(rejudge(db_url, real_server, "--attempt", "real/c2/1/1")) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(
        f"real/c2/1/1: second opinion failed: judge {MODEL_NAME} at {real_server.url}: "
        "prompt cut by the server: 64 of about ")
    assert len(real_server.chat_requests) == 2  # neither is retried
    assert second_opinions(store) == [] and len(failures(store)) == 2
    assert decisions(store) == [False, False]


def test_persistent_http_500_stops_the_batch_and_a_rerun_resumes(
    tmp_path: Path, store: Store, db_url: str, real_server: FakeOllama,
    capsys: pytest.CaptureFixture[str],
) -> None:
    load(store, tmp_path, refused(5))
    real_server.load_error = "exit status 2"

    assert main(rejudge(db_url, real_server)) == 1

    captured = capsys.readouterr()
    crash = (f"judge {MODEL_NAME} at {real_server.url}: HTTP 500: llama runner process has "
             "terminated: exit status 2")
    assert captured.err.splitlines()[-1] == (
        f"reviewer: {crash} (3 times in a row); 2 not asked, rerun to resume")
    assert captured.out.splitlines()[-1] == (
        "3 asked, 0 now accepted, 3 failed, 0 skipped, 2 not run")
    assert len(real_server.chat_requests) == 3 and failures(store) == [crash] * 3

    real_server.load_error = ""  # the runner is back
    code = main(rejudge(db_url, real_server))
    summary = capsys.readouterr().out.splitlines()[-1]
    assert summary.startswith("5 asked") and "0 skipped" in summary
    assert code in (0, 1)  # the small model's own reply may fail: then every attempt does
    stored = len(second_opinions(store))
    assert stored in (0, 5)
    # the same answer for all five: one request, four served from the cache (a reply that
    # failed is not cached: then each attempt asks, and fails, on its own)
    assert len(real_server.chat_requests) == 3 + (1 if stored else 5)


def _a_good_reply() -> Reply:
    return Reply.json({"verdicts": [{"criterion": "G-DEMANDE", "verdict": "oui",
                                     "rationale": "La réponse explique comment noter le bruit."}]})


@pytest.mark.parametrize(("script", "tail"), [
    (lambda s: s.reply_raw("<html><body>502 Bad Gateway</body></html>"),
     "the server's reply is not JSON: is this an Ollama server?"),
    (lambda s: s.reply_raw("[]", content_type="application/json"),
     "the server's reply is JSON but not an object: is this an Ollama server?"),
], ids=["html-body", "json-list"])
def test_a_reply_that_is_not_ollamas_is_recorded_and_the_batch_goes_on(
    tmp_path: Path, store: Store, db_url: str, real_server: FakeOllama,
    capsys: pytest.CaptureFixture[str], script: Callable[[FakeOllama], None], tail: str,
) -> None:
    load(store, tmp_path, refused(2))
    script(real_server)
    real_server.push(_a_good_reply())  # the next attempt is answered

    code = main(rejudge(db_url, real_server))

    captured = capsys.readouterr()
    line = f"real/c1/1/1: second opinion failed: judge {MODEL_NAME} at {real_server.url}: {tail}"
    assert code == 1 and captured.err.splitlines() == [line]
    assert captured.out.splitlines()[-1] == "2 asked, 1 now accepted, 1 failed, 0 skipped"
    assert failures(store) == [line.split(": second opinion failed: ", 1)[1]]
    assert decisions(store) == [False, True]


def test_a_body_dripping_a_byte_at_a_time_is_cut_at_the_timeout(
    tmp_path: Path, store: Store, db_url: str, real_server: FakeOllama,
    capsys: pytest.CaptureFixture[str],
) -> None:
    load(store, tmp_path, refused(1))
    slow = _a_good_reply()
    slow.drip = 0.2  # never a pause long enough for a read timeout; 60 s or so in all
    real_server.push(slow)
    argv = [*rejudge(db_url, real_server)]
    argv[argv.index("--timeout") + 1] = "1"

    assert main(argv) == 1

    message = f"judge {MODEL_NAME} at {real_server.url}: timed out after 1 s"
    assert capsys.readouterr().err.splitlines() == [f"real/c1/1/1: second opinion failed: "
                                                    f"{message}"]
    assert failures(store) == [message] and decisions(store) == [False]
    deadline = time.monotonic() + 10
    while not real_server.dropped and time.monotonic() < deadline:
        time.sleep(0.05)  # the server notices the hang-up at its next byte
    assert real_server.dropped == 1


def test_faults_every_request_would_hit_stop_at_once(
    tmp_path: Path, store: Store, db_url: str, real_server: FakeOllama,
    capsys: pytest.CaptureFixture[str],
) -> None:
    load(store, tmp_path, refused(2))
    assert main(rejudge(db_url, real_server, "--think")) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"reviewer: judge {MODEL_NAME} at {real_server.url}: HTTP 400: "
        f'"{MODEL_NAME}" does not support thinking; 1 not asked, rerun to resume')
    argv = rejudge(db_url, real_server)
    argv[argv.index("--model") + 1] = "qwen3.6:35b-a3b"
    assert main(argv) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"reviewer: judge qwen3.6:35b-a3b at {real_server.url}: HTTP 404: model "
        "'qwen3.6:35b-a3b' not found; 1 not asked, rerun to resume")
    assert len(real_server.chat_requests) == 2 and decisions(store) == [False, False]
