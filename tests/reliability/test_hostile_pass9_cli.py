"""The ninth hostile pass's command-line findings T6, T7, C2, Q4 and M3: what a user
typed, fed or served, and the one ``reviewer:`` line they now get instead of a
traceback, Python's advice, a whole HTML page or silence. Each test failed before its fix.

* T6: a ``"human"`` score too large for a float (an integer of 401 digits) was an
  OverflowError, exit 70; so was a judge's confidence, and a score beyond what the group
  statistics can square (1.7e308 twice).
* C2: a ``"human"`` that is there but not a number was called missing.
* T7, M3 (manifest): a file name holding a NUL, a name that is no string, a line count
  past Python's digit limit or that is no whole number.
* Q4: ``queue --limit -1``, one criterion given two values, empty items in ``--weights``
  (and ``--graders``), an ``--orders`` beyond any sensible count.
* M3 (judge): an HTTP error whose body is a whole HTML page, a reply that is not UTF-8.
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from models import (
    AuditEvent,
    CalibrationEvent,
    CalibrationRow,
    CalibrationScore,
    ReviewDecision,
)
from reviewer.calibration.scores import score_answer
from reviewer.calibration.sets import open_grading_file
from reviewer.errors import BAD_INPUT, FAILED, BadInputError
from reviewer.store import Store, open_store
from tests.reliability.faults import KEY, Files, fresh_copy, make_files
from tests.support.cli import one_line, run
from tests.support.fake_ollama import FakeOllama

HUGE = "1" + "0" * 400  # finite, an exact JSON integer, beyond any float


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Files:
    return make_files(tmp_path_factory.mktemp("pass9") / "files")


@pytest.fixture
def files(template: Files, tmp_path: Path) -> Files:
    return fresh_copy(template, tmp_path / "copy")


def decisions(db: Path) -> tuple[int, int]:
    store = open_store(str(db))
    try:
        with store.session() as s:
            return (int(s.scalar(select(func.count()).select_from(ReviewDecision)) or 0),
                    int(s.scalar(select(func.count()).select_from(AuditEvent)) or 0))
    finally:
        store.close()


# -- T6, C2: "human" scores ---------------------------------------------------------------

def _grading_file(path: Path, first: str) -> Path:
    """Three answers of one group; the first one's ``"human"`` is the JSON text ``first``."""
    lines = [f'{{"prompt":"q","response":"Paris","expected":"Paris","group":"a","human":{first}}}',
             '{"prompt":"q","response":"Lyon","expected":"Paris","group":"a","human":2}',
             '{"prompt":"q","response":"Nice","expected":"Paris","group":"a","human":3}']
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "--json"])
@pytest.mark.parametrize(("human", "found"), [
    (HUGE, "an integer of 401 digits"),
    ("-" + HUGE, "an integer of 401 digits"),
    ("1e999", "Infinity"),
    ("NaN", "NaN"),
    ("1.7e308", "1.7e+308"),  # a float, but its square is not: the statistics overflowed
])
def test_a_human_score_too_large_is_one_line_naming_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], human: str, found: str,
        as_json: bool) -> None:
    src = _grading_file(tmp_path / "c.jsonl", human)
    line = one_line(capsys, run(["calibrate", str(src), *(["--json"] if as_json else [])]),
                    BAD_INPUT)
    assert line == (f"reviewer: {src}:1: 'human' must be a finite number within ±1e15 "
                    f"(found {found})"), line
    # The bound itself is a score: the group is compared.
    src = _grading_file(tmp_path / "c.jsonl", "1e15")
    src.write_text(src.read_text("utf-8").replace('"human":2', '"human":-1e15'), "utf-8")
    assert run(["calibrate", str(src), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["human"]["a"]["scores"] == [1e15, -1e15, 3.0]


@pytest.mark.parametrize(("human", "found"), [
    ('"5"', "a string"), ("true", "true"), ("false", "false"), ("[1]", "a list"),
    ('{"a":1}', "an object"),
])
def test_a_human_score_that_is_not_a_number_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], human: str, found: str) -> None:
    src = _grading_file(tmp_path / "c.jsonl", human)
    line = one_line(capsys, run(["calibrate", str(src)]), BAD_INPUT)
    assert line == f"reviewer: {src}:1: 'human' must be a number (found {found})", line
    # Only a score that is not there is called missing.
    src.write_text(src.read_text("utf-8").replace(f',"human":{human}}}', "}"), "utf-8")
    line = one_line(capsys, run(["calibrate", str(src)]), BAD_INPUT)
    assert line.startswith(f"reviewer: {src}:1: 'human' is required: your score"), line


@pytest.mark.parametrize("score", [10**400, 1.7e308, True], ids=["huge int", "huge", "bool"])
def test_a_score_given_from_code_is_checked_by_the_same_rule(
        store: Store, tmp_path: Path, score: Any) -> None:
    src = _grading_file(tmp_path / "c.jsonl", "null")
    with store.session() as s:
        open_grading_file(s, src, "zoe")
        row_id = int(s.scalar(select(func.min(CalibrationRow.id))) or 0)
    with pytest.raises(BadInputError, match=r"^a score must be a"), store.session() as s:
        score_answer(s, "zoe", row_id, score)
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(CalibrationScore)) == 0
        assert s.scalar(select(func.count()).select_from(CalibrationEvent)) == 0


def test_a_judge_confidence_too_large_for_a_float_is_a_reply_failure(
        files: Files, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]) -> None:
    fake_ollama.responder = lambda _body: _text_reply(
        '{"rationale_says": "met", "confidence": ' + HUGE + "}")
    code = run(["--db", str(files.db), "flag", "--llm", "--host", fake_ollama.url,
                "--model", "m", "--timeout", "3"])
    captured = capsys.readouterr()
    assert code == FAILED, captured.err
    assert "Traceback" not in captured.err and "internal error" not in captured.err
    assert "confidence must be a finite number" in captured.out + captured.err


def _text_reply(text: str) -> Any:
    from tests.support.fake_ollama import Reply

    return Reply.text(text)


# -- T7, M3: a split export's manifest ----------------------------------------------------

def _split(files: Files, capsys: pytest.CaptureFixture[str]) -> Path:
    out = files.output("sp")
    assert run(["--db", str(files.db), "export", "dataset", str(out), "--split",
                "valid=0.5"]) == 0
    capsys.readouterr()
    return out


def _edit(folder: Path, entry: int, key: str, raw: str) -> bytes:
    """Set ``files[entry][key]`` of the manifest to the JSON text ``raw``; the bytes."""
    manifest = folder / "manifest.json"
    document = json.loads(manifest.read_text("utf-8"))
    document["files"][entry][key] = "@@"
    manifest.write_text(json.dumps(document).replace('"@@"', raw), "utf-8")
    return manifest.read_bytes()


@pytest.mark.parametrize(("key", "raw", "says"), [
    ("name", json.dumps("valid.jsonl\x00"), "lists 'valid.jsonl\\x00', not a file beside it"),
    ("name", "null", "file entry 2 has a name that is not a string (null)"),
    ("name", "7", "file entry 2 has a name that is not a string (a number)"),
    ("lines", "1" * 5000, "not a readable manifest (it holds a number with more than "
                          "4,300 digits)"),
    ("lines", '"25"', "file entry 2 (valid.jsonl) has a line count that is not a whole "
                      "number of at most its bytes (a string)"),
    ("lines", "1e400", "file entry 2 (valid.jsonl) has a line count that is not a whole "
                       "number of at most its bytes (Infinity)"),
    ("lines", "-1", "file entry 2 (valid.jsonl) has a line count that is not a whole "
                    "number of at most its bytes (-1)"),
    ("lines", HUGE, "file entry 2 (valid.jsonl) has a line count that is not a whole "
                    "number of at most its bytes (an integer of 401 digits)"),
], ids=["NUL in name", "null name", "number name", "5000 digits", "string lines",
        "infinite lines", "negative lines", "huge lines"])
def test_verify_export_refuses_a_bad_manifest_entry_in_one_line(
        files: Files, capsys: pytest.CaptureFixture[str], key: str, raw: str,
        says: str) -> None:
    out = _split(files, capsys)
    assert run(["verify-export", str(out)]) == 0  # as exported, it matches
    assert " lines)" in capsys.readouterr().out
    before = _edit(out, 1, key, raw)
    line = one_line(capsys, run(["verify-export", str(out)]), FAILED)
    assert line.startswith(f"reviewer: {out / 'manifest.json'}") and says in line, line
    assert "set_int_max_str_digits" not in line and "/None" not in line
    assert (out / "manifest.json").read_bytes() == before


# -- Q4: options accepted without a word --------------------------------------------------

@pytest.mark.parametrize("limit", ["-1", "0", "x"])
def test_queue_limit_below_one_is_refused(files: Files, capsys: pytest.CaptureFixture[str],
                                          limit: str) -> None:
    line = one_line(capsys, run(["--db", str(files.db), "queue", "--limit", limit]),
                    BAD_INPUT)
    assert line.startswith(f"reviewer: --limit must be a whole number of at least 1, not "
                           f"'{limit}'"), line
    assert capsys.readouterr().out == ""


def test_one_criterion_given_two_values_is_refused_storing_nothing(
        files: Files, capsys: pytest.CaptureFixture[str]) -> None:
    before = decisions(files.db)
    line = one_line(capsys, run(["--db", str(files.db), "decide", KEY, "--criterion",
                                 "G-DEMANDE=met", "--criterion", "G-DEMANDE=unmet"]),
                    BAD_INPUT)
    assert line == ("reviewer: --criterion G-DEMANDE is given twice, as met and as unmet: "
                    "say it once"), line
    assert decisions(files.db) == before
    # Given twice alike, it is one override.
    assert run(["--db", str(files.db), "decide", KEY, "--criterion", "G-DEMANDE=met",
                "--criterion", "G-DEMANDE=MET"]) == 0
    assert "1 field(s) set" in capsys.readouterr().out


def test_a_csv_cell_giving_one_criterion_two_values_is_refused_at_its_line(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "d.csv"
    csv.write_text(f"key,criteria\n{KEY},G-DEMANDE=met;G-DEMANDE=unmet\n", "utf-8")
    before = decisions(files.db)
    line = one_line(capsys, run(["--db", str(files.db), "decide", "--from-csv", str(csv)]),
                    BAD_INPUT)
    assert line == (f"reviewer: {csv}:2: criterion G-DEMANDE is given twice, as met and as "
                    "unmet: say it once"), line
    assert decisions(files.db) == before


@pytest.mark.parametrize("command", ["lint-graders", "grade"])
@pytest.mark.parametrize(("weights", "says"), [
    ("exact=1,,", "--weights 'exact=1,,': item 2 is empty"),
    (",exact=1", "--weights ',exact=1': item 1 is empty"),
    ("exact=1, ,rouge_l=1", "--weights 'exact=1, ,rouge_l=1': item 2 is empty"),
    ("exact=1,exact=2", "bad weight 'exact=2': exact is given twice"),
])
def test_weights_with_an_empty_or_repeated_item_are_refused(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
        weights: str, says: str) -> None:
    src = files.input("grade.jsonl")
    argv = (["lint-graders", str(src), "--grader", "mix"] if command == "lint-graders"
            else ["grade", "mix", str(src)])
    out = tmp_path / "graded.jsonl"
    line = one_line(capsys, run([*argv, "--weights", weights, "-o", str(out)]
                                if command == "grade" else [*argv, "--weights", weights]),
                    BAD_INPUT)
    assert line.startswith(f"reviewer: {says}"), line
    assert not out.exists()


def test_calibrate_graders_with_an_empty_item_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _grading_file(tmp_path / "c.jsonl", "1")
    line = one_line(capsys, run(["calibrate", str(src), "--graders", "exact,,contains"]),
                    BAD_INPUT)
    assert line.startswith("reviewer: --graders 'exact,,contains': item 2 is empty"), line


@pytest.mark.parametrize("orders", ["0", "17", HUGE, "x"])
def test_calibrate_orders_beyond_the_bound_are_refused_before_any_call(
        tmp_path: Path, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
        orders: str) -> None:
    src = _grading_file(tmp_path / "c.jsonl", "1")
    line = one_line(capsys, run(["calibrate", str(src), "--model", "m", "--host",
                                 fake_ollama.url, "--orders", orders]), BAD_INPUT)
    shown = orders if len(orders) < 60 else orders[:57] + "…"
    assert line.startswith(f"reviewer: --orders must be a whole number from 1 to 16 "
                           f"(one judge call per group each), not '{shown}'"), line
    assert fake_ollama.chat_requests == []


def test_calibrate_help_states_the_orders_bound(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["calibrate", "--help"]) == 0
    assert "at most 16" in " ".join(capsys.readouterr().out.split())


# -- M3: what a judge's broken answer is called -------------------------------------------

def _grade_judge(tmp_path: Path, host: str) -> list[str]:
    data = tmp_path / "in.jsonl"
    data.write_text(json.dumps({"response": "x", "prompt": "q"}) + "\n", "utf-8")
    return ["grade", "judge", str(data), "--host", host, "--model", "m", "--timeout", "3",
            "--retries", "0"]


ERROR_PAGE = BaseHTTPRequestHandler.error_message_format % {
    "code": 501, "message": "Unsupported method ('GET')",
    "explain": "Server does not support this operation."}


def test_an_html_error_page_after_a_redirect_is_a_short_excerpt(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeOllama() as proxy, FakeOllama() as target:
        proxy.redirect_to, proxy.redirect_status = target.url + "/api/chat", 307
        target.reply_raw(ERROR_PAGE, status=501)
        line = one_line(capsys, run(_grade_judge(tmp_path, proxy.url)), FAILED)
    assert "<" not in line and "DOCTYPE" not in line, line
    assert ("following it failed (HTTP 501: an HTML page: Error response Error code: 501 "
            "Message: Unsupported method ('GET').") in line, line
    assert len(line) < 500, line


@pytest.mark.parametrize("body", [
    "<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>"
    "<body><h1>502 Bad Gateway</h1>" + "<p>nginx &amp; friends</p>" * 200 + "</body></html>",
    "x" * 5000,
], ids=["html", "long text"])
def test_an_http_error_body_is_capped_and_stripped(
        tmp_path: Path, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
        body: str) -> None:
    fake_ollama.reply_raw(body, status=502)
    line = one_line(capsys, run(_grade_judge(tmp_path, fake_ollama.url)), FAILED)
    assert "<" not in line and "color:red" not in line and "&amp;" not in line, line
    assert len(line) < 500, line
    assert ("HTTP 502: an HTML page: 502 Bad Gateway nginx & friends nginx & friends"
            if body.startswith("<") else "HTTP 502: " + "x" * 100) in line, line


@pytest.mark.parametrize("headers", [{"Content-Encoding": "zstd"}, {}], ids=["zstd", "plain"])
def test_a_reply_that_is_not_utf8_is_said_in_words(
        tmp_path: Path, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
        headers: dict[str, str]) -> None:
    fake_ollama.reply_raw(b"\x28\xb5\x2f\xfd\x00\xff\xfe garbage", content_type="application/json",
                          headers=headers)
    code = run(_grade_judge(tmp_path, fake_ollama.url))
    captured = capsys.readouterr()
    assert code == FAILED, captured.err
    [line] = captured.err.splitlines()
    assert "the server's reply is not text (UTF-8): is this an Ollama server?" in line, line
    assert "UnicodeDecodeError" not in line
