"""What a hostile pass typed, read or served, and what the reviewer sees: one
``reviewer:`` line naming the cause, the exit code of its kind, nothing written.

Names, decision CSVs, input files (``/dev/zero``, ``/dev/urandom``, deep JSON, huge
integers, a schema whose ``$ref`` goes nowhere), arguments that are not UTF-8, option
values (``nan``, ``inf``, a malformed judge URL), usage errors, a judge whose HTTP is
broken or whose reply is oversized, and ECMAScript patterns V8 refuses late or that
Ctrl-C interrupts. Each test failed before its fix (ids of the pass: nm, csv, in, ar, jg,
pt).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from models import AuditEvent, CheckVersion, CriterionVersion, ReviewDecision
from reviewer.cli.main import main
from reviewer.errors import BAD_INPUT, FAILED, INTERRUPTED, JudgeError
from reviewer.json_input import MAX_NESTING
from reviewer.judge.context import estimate_tokens
from reviewer.store import open_store
from reviewer.store.database import head_revision
from tests.reliability.faults import (
    CONSOLE,
    KEY,
    ROOT,
    Files,
    console,
    fresh_copy,
    make_files,
)
from tests.support.cli import one_line, run
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.judge_stores import verdict_reply

OTHER = "2026-10-14-ministral-8b/recette-034/1/2"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Files:
    return make_files(tmp_path_factory.mktemp("hostile") / "files")


@pytest.fixture
def files(template: Files, tmp_path: Path) -> Files:
    """A fresh copy of the store for each test (the template is built once)."""
    return fresh_copy(template, tmp_path / "copy")


def counts(db: Path) -> tuple[int, ...]:
    """Decisions, audit events, check and criterion versions: what must not move."""
    store = open_store(str(db))
    try:
        with store.session() as s:
            return tuple(int(s.scalar(select(func.count()).select_from(t)) or 0)
                         for t in (ReviewDecision, AuditEvent, CheckVersion, CriterionVersion))
    finally:
        store.close()


# -- names (nm15, nm32, nm34) -------------------------------------------------------------

@pytest.mark.parametrize(("command", "name", "shown"), [
    (["decide", KEY, "--accept"], "\u0301\u0301", "U+0301"),
    (["export", "dataset", "OUT"], "bob\u2060", "U+2060"),
    (["backtest", "D-COMMERCE", "inscri(vez|re)"], "alice\u200b", "U+200B"),
], ids=["decide: combining marks only", "export filter: word joiner",
        "backtest filter: zero-width space"])
def test_every_reviewer_option_follows_the_name_rule(
        files: Files, capsys: pytest.CaptureFixture[str], command: list[str], name: str,
        shown: str) -> None:
    before = counts(files.db)
    out = files.output("d.jsonl")
    argv = [str(out) if a == "OUT" else a for a in command]
    line = one_line(capsys, run(["--db", str(files.db), *argv, "--reviewer", name]),
                    BAD_INPUT)
    assert "--reviewer" in line and shown in line
    assert counts(files.db) == before and not out.exists()


# -- decisions CSV (csv08, csv14, csv15, csv18) -------------------------------------------

@pytest.mark.parametrize(("body", "line"), [
    (f"{KEY},accept,,,ok,\n{OTHER},reject,,,\"jamais fermé,\n", 3),
    (f"{KEY},accept,,,bien,\n{OTHER},reject,,,\"oubli du guillemet,\n"
     "2026-10-14-ministral-8b/recette-047/1/2,accept,,,,\n"
     "2026-10-14-ministral-8b/recette-053/1/1,reject,,,,\n", 3),
], ids=["last row", "rows after it"])
def test_an_unclosed_quote_refuses_the_whole_csv(
        files: Files, capsys: pytest.CaptureFixture[str], body: str, line: int) -> None:
    csv = files.input("d.csv")
    csv.write_text("key,decision,criteria,checks,note,reviewer\n" + body, "utf-8")
    before = counts(files.db)
    err = one_line(capsys, run(["--db", str(files.db), "decide", "--from-csv", str(csv)]),
                   BAD_INPUT)
    assert err == f"reviewer: {csv}:{line}: a quote opened in this row is never closed"
    assert counts(files.db) == before


def test_a_csv_note_longer_than_the_csv_modules_limit_is_taken_as_with_note(
        files: Files, capsys: pytest.CaptureFixture[str]) -> None:
    # Seventh hostile pass C1: a 200,000-character note cell was "not a CSV row (field
    # larger than field limit (131072))", the csv module's text; --note takes it.
    note = "x" * 200_000
    csv = files.input("huge.csv")
    csv.write_text(f"key,decision,note\n{KEY},reject,{note}\n", "utf-8")
    code = run(["--db", str(files.db), "decide", "--from-csv", str(csv)])
    captured = capsys.readouterr()
    assert (code, captured.err) == (0, ""), captured.err
    store = open_store(str(files.db))
    try:
        with store.session() as s:
            assert note in set(s.scalars(select(ReviewDecision.note)))
    finally:
        store.close()


def test_a_csv_column_named_twice_is_refused(files: Files,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    csv = files.input("d.csv")
    csv.write_text(f"key,key,decision\n{KEY},{OTHER},accept\n", "utf-8")
    before = counts(files.db)
    err = one_line(capsys, run(["--db", str(files.db), "decide", "--from-csv", str(csv)]),
                   BAD_INPUT)
    assert err == f"reviewer: {csv}:1: column key appears twice"
    assert counts(files.db) == before


# -- input files that are not text (csv15, in22, in23) ------------------------------------

@pytest.mark.parametrize(("command", "device"), [
    (["decide", "--from-csv"], "/dev/zero"),
    (["import"], "/dev/zero"),
    (["grade", "exact"], "/dev/zero"),
    (["grade", "exact"], "/dev/urandom"),
])
def test_a_device_as_input_is_one_line_in_bounded_memory(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        command: list[str], device: str) -> None:
    # A device is now refused by name before reading (eighth pass, H4: the test below);
    # what it held, saved as a file, is still read in bounded memory.
    saved = tmp_path / Path(device).name
    with saved.open("wb") as fh:
        if device == "/dev/zero":
            fh.truncate(2 << 20)  # 2 MB of NUL, no newline
        else:
            fh.write(os.urandom(2 << 20))
    before = counts(files.db)
    err = one_line(capsys, run(["--db", str(files.db), *command, str(saved)]), BAD_INPUT)
    assert err.startswith(f"reviewer: {saved}:1: ")
    assert "not a text file" in err or "not UTF-8" in err
    assert counts(files.db) == before


# Fourth hostile pass, MEM: these read a device whole until memory ran out (the kernel's
# OOM killer ended the first probe). A file read whole refuses a device or a pipe by
# name; a line reader refuses the endless line, as `import` does.
@pytest.mark.parametrize(("command", "device", "what"), [
    (["prompt", "set", "juge"], "/dev/zero", "a prompt template"),
    (["prompt", "set", "second_avis"], "/dev/urandom", "a prompt template"),
    (["import", "{run}", "--catalog"], "/dev/zero", "a catalog"),
    (["grade", "json", "{grade}", "--schema"], "/dev/zero", "a JSON schema"),
    (["contradictions"], "/dev/zero", "a JSON lines file"),
    (["contradictions", "--evaluate"], "/dev/zero", "a labelled JSON lines file"),
    (["contradictions"], "{zeros}", None),
    (["contradictions", "--evaluate"], "{zeros}", None),
    (["prompt", "set", "juge"], "{fifo}", "a prompt template"),
    (["verify-export"], "{manifest}", "a manifest"),
], ids=["prompt /dev/zero", "prompt /dev/urandom", "catalog", "schema", "contradictions",
        "contradictions --evaluate", "contradictions, a file of zeros",
        "contradictions --evaluate, a file of zeros", "prompt from a named pipe",
        "manifest linked to a device"])
def test_a_device_read_whole_is_refused_in_bounded_memory(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        command: list[str], device: str, what: str | None) -> None:
    os.mkfifo(tmp_path / "fifo")  # no writer: opening it waited for ever
    (tmp_path / "x.manifest.json").symlink_to("/dev/zero")
    with (tmp_path / "zeros").open("wb") as zeros:  # /dev/zero as a file: 2 MB of NUL
        zeros.truncate(2 << 20)
    names = {"run": str(files.input("new_run.jsonl")), "grade": str(files.input("grade.jsonl")),
             "fifo": str(tmp_path / "fifo"), "manifest": str(tmp_path / "x.manifest.json"),
             "zeros": str(tmp_path / "zeros")}
    path = device.format(**names)
    before = counts(files.db)
    argv = ["--db", str(files.db), *(word.format(**names) for word in command), path]
    err = one_line(capsys, run(argv), BAD_INPUT)
    if what is None:
        assert err.startswith(f"reviewer: {path}:1: NUL bytes in a line of over a megabyte")
    else:
        kind = "a pipe" if "fifo" in path else "a device"
        assert err == f"reviewer: {path}: is {kind}, not a file; give {what} saved as a file"
    assert counts(files.db) == before


def test_a_prompt_template_is_read_up_to_its_documented_limit(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.txt"
    big.write_text("$question $response $criteria " + "x" * (2 << 20), "utf-8")
    db = ["--db", str(files.db)]
    err = one_line(capsys, run([*db, "prompt", "set", "juge", str(big)]), BAD_INPUT)
    assert err == f"reviewer: {big}: larger than 1 MB; a prompt template may be at most 1 MB"
    with open("/dev/zero", encoding="utf-8") as zeros:  # `prompt set juge - < /dev/zero`
        monkeypatch.setattr("sys.stdin", zeros)
        err = one_line(capsys, run([*db, "prompt", "set", "juge", "-"]), BAD_INPUT)
    assert err == ("reviewer: the template: standard input is longer than 1 MB, the most it "
                   "may be")


@pytest.mark.parametrize(("record", "why"), [
    ('{"response": "x", "expected": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "JSON nested too deeply"),
    ('{"response": "x", "expected": "x", "group": ' + "1" * 5000 + "}",
     "a number with more than 4,300 digits"),
], ids=["100,000-deep nesting", "5,000-digit integer"])
def test_grader_input_beyond_json_limits_names_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], record: str, why: str) -> None:
    data = tmp_path / "in.jsonl"
    data.write_text('{"response": "a", "expected": "a"}\n' + record + "\n", "utf-8")
    err = one_line(capsys, run(["grade", "exact", str(data)]), BAD_INPUT)
    assert err == f"reviewer: {data}:2: {why}"


@pytest.mark.parametrize(("second", "why"), [
    (lambda line: line.replace('"turn": 1', '"turn": 1' + "0" * 5000),
     "a number with more than 4,300 digits"),
    (lambda line: "\ufeff" + line,
     "a byte-order mark (U+FEFF) in the middle of the file (two files joined together?)"),
], ids=["5,000-digit integer", "mid-file BOM"])
def test_a_run_line_beyond_json_says_so_in_its_own_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], second: Any, why: str) -> None:
    # Sixth hostile pass, U7: Python's advice ("use sys.set_int_max_str_digits()",
    # "decode using utf-8-sig") was the message; a reviewer can act on neither.
    base = {"run": "R", "conversation": "c", "turn": 1, "attempt": 1, "messages": [],
            "response": "x", "reference": None, "accepted": True, "reasons": [],
            "checks": [], "judge": None}
    lines = [json.dumps(base), second(json.dumps(dict(base, conversation="c2")))]
    run_file = tmp_path / "run.jsonl"
    run_file.write_text("\n".join(lines) + "\n", "utf-8")
    err = one_line(capsys, run(["--db", str(tmp_path / "r.db"), "import", str(run_file)]),
                   BAD_INPUT)
    assert err == f"reviewer: {run_file}:2: {why}"
    assert "sys." not in err and "utf-8-sig" not in err


@pytest.mark.parametrize(("key", "char"), [
    ("conversation", "\u202e"), ("run", "\u2066"), ("conversation", "\u200b"),
], ids=["RLO in a conversation", "LRI in a run", "zero-width space"])
def test_a_bidi_or_invisible_character_in_an_id_is_refused_at_import(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, char: str) -> None:
    # Sixth hostile pass, U8: refused in reviewer names, such a character was taken in a
    # run or conversation id, then printed raw by `decide` and `queue` (reordering the
    # terminal's line). Ids are typed back as attempt keys: refused where they enter.
    record = {"run": "R6", "conversation": "c4", "turn": 1, "attempt": 1, "messages": [],
              "response": "x", "reference": None, "accepted": True, "reasons": [],
              "checks": [], "judge": None}
    record[key] = record[key][:1] + char + record[key][1:]
    run_file = tmp_path / "rtl.jsonl"
    run_file.write_text(json.dumps(record) + "\n", "utf-8")
    err = one_line(capsys, run(["--db", str(tmp_path / "r.db"), "import", str(run_file)]),
                   BAD_INPUT)
    assert err.startswith(f"reviewer: {run_file}:1: '{key}' ")
    assert char not in err and f"U+{ord(char):04X}" in err


@pytest.mark.parametrize(("schema", "why"), [
    ({"$ref": "http://127.0.0.1:1/schema.json"}, "cannot resolve $ref"),
    ({"$ref": "#/definitions/missing"}, "cannot resolve $ref"),
    ({"$ref": "#"}, "loops back to itself"),
], ids=["remote", "missing definition", "loop"])
def test_a_schema_ref_that_goes_nowhere_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], schema: dict[str, str],
        why: str) -> None:
    data = tmp_path / "in.jsonl"
    data.write_text(json.dumps({"response": '{"a": 1}'}) + "\n", "utf-8")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(schema), "utf-8")
    err = one_line(capsys, run(["grade", "json", str(data), "--schema", str(path)]),
                   BAD_INPUT)
    assert why in err


# -- arguments that are not UTF-8 (in27-in37, pt06) ---------------------------------------

@pytest.mark.parametrize(("argv", "named"), [
    (["check", "D-COMMERCE", "--pattern", "inscri(vez|re)-vous", "--reason", "caf\udce9"],
     "--reason"),
    (["check", "D-COMMERCE", "--pattern", "inscri\udce9", "--reason", "essai"], "--pattern"),
    (["criterion", "G-DEMANDE", "--text", "Ton poli, caf\udce9", "--reason", "essai"],
     "--text"),
    (["criterion", "G-DEMANDE", "--text", "Ton poli.", "--reason", "\udce9t\udce9"],
     "--reason"),
    (["backtest", "D-COMMERCE", "\udcff+"], "argument 5 '\\xff+'"),
    (["decide", "run\udcff/c/1/1", "--accept"], "argument 4 'run\\xff/c/1/1'"),
    (["export", "dataset", "OUT", "--run", "run\udcff"], "--run"),
    (["export", "preference", "OUT", "--cause", "E-\udcff"], "--cause"),
    (["prompt", "show", "juge\udcff"], "argument 5 'juge\\xff'"),
    (["grade", "regex", "IN", "--dialect", "ecmascript", "--pattern", "date\udcff"],
     "--pattern"),
], ids=lambda v: v[0] if isinstance(v, list) else None)
def test_an_argument_that_is_not_utf8_is_refused_naming_it(
        files: Files, capsys: pytest.CaptureFixture[str], argv: list[str],
        named: str) -> None:
    before = counts(files.db)
    out = files.output("out.jsonl")
    swap = {"OUT": str(out), "IN": str(files.input("grade.jsonl"))}
    err = one_line(capsys, run(["--db", str(files.db), *[swap.get(a, a) for a in argv]]),
                   BAD_INPUT)
    assert err.startswith(f"reviewer: {named} is not valid UTF-8 text (byte 0x"), err
    assert counts(files.db) == before and not out.exists()


# -- usage errors and option values (ar03, ar14, ar16, ar18, ar20-ar23) -------------------

@pytest.mark.parametrize(("argv", "says"), [
    (["export", "dataset", "OUT", "--format", "alpaca-bogus", "--bogus"],
     "unrecognized arguments: --bogus"),
    (["export", "datasets", "OUT"], "invalid choice: 'datasets'"),
])
def test_a_usage_error_is_one_line(files: Files, capsys: pytest.CaptureFixture[str],
                                   argv: list[str], says: str) -> None:
    out = files.output("d.jsonl")
    argv = [str(out) if a == "OUT" else a for a in argv]
    line = one_line(capsys, run(["--db", str(files.db), *argv]), BAD_INPUT)
    assert says in line and "--help" in line
    assert not out.exists()


@pytest.mark.parametrize("value", ["nan", "-1", "inf", "0", "1e300"])
@pytest.mark.parametrize("option", ["--timeout", "--budget"])
def test_a_backtest_bound_must_bound(files: Files, capsys: pytest.CaptureFixture[str],
                                     option: str, value: str) -> None:
    line = one_line(capsys, run(["--db", str(files.db), "backtest", "D-COMMERCE", "(a+)+$",
                                 option, value]), BAD_INPUT)
    assert line == (f"reviewer: {option} must be a positive number of seconds, at most 86400 "
                    f"(a day), not '{value}'; see 'reviewer backtest --help'")


@pytest.mark.parametrize("value", ["11", "30", "-1", "two"])
@pytest.mark.parametrize("command", ["rejudge", "grade judge", "criterion rejudge"])
def test_retries_are_bounded_and_say_why(files: Files, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str], command: str,
                                         value: str) -> None:
    # Seventh hostile pass H2: --retries took any value and each wait doubled without a
    # ceiling (--retries 30: about 34 years of waiting, nothing said).
    data = tmp_path / "in.jsonl"
    data.write_text(json.dumps({"response": "x", "prompt": "q"}) + "\n", "utf-8")
    argv = {"rejudge": ["--db", str(files.db), "rejudge", "--attempt", KEY],
            "grade judge": ["grade", "judge", str(data)],
            "criterion rejudge": ["--db", str(files.db), "criterion", "D-COMMERCE",
                                  "--rejudge"]}[command]
    line = one_line(capsys, run([*argv, "--model", "m", "--host", "http://127.0.0.1:1",
                                 "--retries", value]), BAD_INPUT)
    assert (f"--retries must be a whole number from 0 to 10 (each retry waits twice the "
            f"one before, at most 60 s), not '{value}'") in line, line


def test_each_retry_waits_at_most_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    # H2: the n-th retry waited backoff * 2**n seconds, without a ceiling.
    from reviewer.graders.judge import Judge, JudgeConfig
    from reviewer.judge.client import JudgeClient, JudgeFault

    waits: list[float] = []
    monkeypatch.setattr(time, "sleep", waits.append)
    client = JudgeClient("http://127.0.0.1:1", "m", timeout=3, retries=10)
    with pytest.raises(JudgeFault, match=r"no server listening \(after 11 tries\)"):
        client.chat_json([{"role": "user", "content": "q"}], {"type": "object"})
    judge = Judge(JudgeConfig(model="m", host="http://127.0.0.1:1", timeout=3, retries=10))
    with pytest.raises(JudgeError, match="after 11 attempts"):
        judge.grade_group("q", None, ["x"])
    ladder = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0, 60.0, 60.0]
    assert waits == ladder + ladder


@pytest.mark.parametrize(("extra", "says"), [
    (["--host", "http://127.0.0.1:9", "--timeout", "nan"], "--timeout must be a positive"),
    (["--host", "http://[::1", "--timeout", "3"], "argument --host: judge host"),
    (["--host", "http://127.0.0.1:99999", "--timeout", "3"], "Port out of range"),
    (["--host", "ftp://127.0.0.1:21", "--timeout", "3"], "http:// or https://"),
    # Seventh hostile pass T3 (httpx's InvalidURL, exit 70) and M1 (`http:///` became
    # http://http:11434, a space in a host name was accepted).
    (["--host", "http://999.1.1.1:1", "--timeout", "3"],
     "judge host 'http://999.1.1.1:1': '999.1.1.1' is not a valid IPv4 address"),
    (["--host", "http://01.2.3.4:1", "--timeout", "3"], "is not a valid IPv4 address"),
    (["--host", "http:///", "--timeout", "3"], "judge host 'http:///': no host name"),
    (["--host", "http:/h:1", "--timeout", "3"], "judge host 'http:/h:1': no host name"),
    (["--host", "http://exa mple.com", "--timeout", "3"],
     "'exa mple.com' is not a valid host name"),
    # Eleventh hostile pass V8(1): `http://xn--/` was "the server's reply is not Ollama's
    # reply (IDNAError)" with no server reached; `http://a..b` "no server listening".
    (["--host", "http://xn--/", "--timeout", "3"], "'xn--' is not a valid host name"),
    (["--host", "http://xn--zz.example", "--timeout", "3"],
     "'xn--zz.example' is not a valid host name"),
    (["--host", "http://a..b", "--timeout", "3"], "'a..b' is not a valid host name"),
], ids=["timeout nan", "unclosed bracket", "port out of range", "not http", "999 in IPv4",
        "leading zero in IPv4", "no host name", "one slash", "space in host name",
        "empty punycode", "bad punycode", "empty label"])
def test_judge_options_are_checked_before_any_request(
        files: Files, capsys: pytest.CaptureFixture[str], extra: list[str],
        says: str) -> None:
    before = counts(files.db)
    line = one_line(capsys, run(["--db", str(files.db), "rejudge", "--attempt", KEY,
                                 "--model", "m", *extra]), BAD_INPUT)
    assert says in line
    assert counts(files.db) == before


@pytest.mark.parametrize("command", ["rejudge", "grade judge"])
def test_an_invalid_ollama_host_in_the_environment_is_bad_input(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    # Seventh hostile pass T3: OLLAMA_HOST=http://1.2.3.256:1 was httpx's InvalidURL, exit 70.
    monkeypatch.setenv("OLLAMA_HOST", "http://1.2.3.256:1")
    data = tmp_path / "in.jsonl"
    data.write_text(json.dumps({"response": "x", "prompt": "q"}) + "\n", "utf-8")
    argv = (["--db", str(files.db), "rejudge", "--attempt", KEY] if command == "rejudge"
            else ["grade", "judge", str(data)])
    before = counts(files.db)
    line = one_line(capsys, run([*argv, "--model", "m", "--timeout", "3", "--retries", "0"]),
                    BAD_INPUT)
    assert line == ("reviewer: judge host 'http://1.2.3.256:1' (from $OLLAMA_HOST): "
                    "'1.2.3.256' is not a valid IPv4 address (four numbers 0-255, without "
                    "leading zeros)"), line
    assert counts(files.db) == before


# -- a judge whose HTTP is broken, or whose reply is oversized (jg08, jg09, jg17, jg21, jg23)

def _rejudge(files: Files, fake: FakeOllama) -> list[str]:
    return ["--db", str(files.db), "rejudge", "--attempt", KEY, "--host", fake.url,
            "--model", "m", "--timeout", "5", "--retries", "1", "--backoff", "0"]


BROKEN = ["redirect loop", "redirect elsewhere", "bad gzip", "deep body", "deep body, gzip",
          "deep body, HTTP 500"]


def _break(fake: FakeOllama, how: str) -> str:
    """Make ``fake`` misbehave; what the one line must say."""
    if how == "redirect loop":
        fake.redirect_loop = True
        return "redirects in a loop"
    if how == "redirect elsewhere":
        fake.redirect_to = "http://127.0.0.1:1/api/chat"
        return "redirect (HTTP 302 to http://127.0.0.1:1/api/chat) and following it failed"
    if how.startswith("deep body"):
        # Seventh hostile pass T2: the ollama client decodes the HTTP body itself, and a
        # body nested 100,000 levels deep was a RecursionError (exit 70, the batch gone).
        deep = '{"a":' + "[" * 100_000 + "]" * 100_000 + "}"
        body, headers, status = deep.encode(), {}, 200
        if how == "deep body, gzip":  # 200 kB that gzip makes 300 bytes: read decoded
            body, headers = gzip.compress(body), {"Content-Encoding": "gzip"}
        elif how == "deep body, HTTP 500":  # the client reads an error's body as JSON too
            status = 500
        for _ in range(3):
            fake.reply_raw(body, status=status, content_type="application/json",
                           headers=headers)
        return ("the reply is JSON nested 100,001 levels deep, more than the 100 an Ollama "
                "reply needs: is this an Ollama server?")
    for _ in range(3):
        fake.reply_raw("this is not gzip", content_type="application/json",
                       headers={"Content-Encoding": "gzip"})
    return "cannot be decoded"


def _rejudge_fails_naming_the_judge(files: Files, fake: FakeOllama,
                                    capsys: pytest.CaptureFixture[str],
                                    says: str) -> tuple[int, ...]:
    """Run rejudge against ``fake``: it fails, no traceback, and its failure line names
    the judge and says ``says``. The store's counts from before, to compare."""
    before = counts(files.db)
    code = run(_rejudge(files, fake))
    captured = capsys.readouterr()
    assert code == FAILED, captured.err
    assert "Traceback" not in captured.err
    failure = next(ln for ln in (captured.out + captured.err).splitlines() if "failed:" in ln)
    assert f"judge m at {fake.url}" in failure and says in failure
    return before


@pytest.mark.parametrize("how", BROKEN)
def test_rejudge_against_broken_http_fails_naming_the_judge(
        files: Files, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
        how: str) -> None:
    says = _break(fake_ollama, how)
    before = _rejudge_fails_naming_the_judge(files, fake_ollama, capsys, says)
    assert counts(files.db)[:2] == before[:2]  # no decision, no audit event


@pytest.mark.parametrize("how", BROKEN)
def test_grade_judge_against_broken_http_fails_in_one_line(
        tmp_path: Path, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
        how: str) -> None:
    says = _break(fake_ollama, how)
    data = tmp_path / "in.jsonl"
    data.write_text(json.dumps({"response": "x", "prompt": "q"}) + "\n", "utf-8")
    line = one_line(capsys, run(["grade", "judge", str(data), "--host", fake_ollama.url,
                                  "--model", "m", "--timeout", "3", "--retries", "0"]),
                    FAILED)
    assert f"judge m at {fake_ollama.url}: " in line and says in line
    assert "HTTP None" not in line  # a fault without a status is not worded as HTTP


@contextlib.contextmanager
def _web_page() -> Iterator[str]:
    """A live web server that is not Ollama: a 200 HTML page for any request; its URL."""
    class Page(BaseHTTPRequestHandler):
        def _page(self) -> None:
            body = b"<html><body>Sign in</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _page

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _read_request(conn: socket.socket) -> None:
    """Read one HTTP request from ``conn``: its headers and ``Content-Length`` bytes."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return
        body += chunk


@contextlib.contextmanager
def _raw_server(payload: bytes) -> Iterator[str]:
    """A server that answers every connection with ``payload`` as it is, then closes it
    (bytes that are not HTTP, or broken HTTP); its URL."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.05)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(5)
                with contextlib.suppress(OSError):
                    _read_request(conn)  # whole: unread bytes at close would be a reset
                    conn.sendall(payload)
                    conn.shutdown(socket.SHUT_WR)
                    while conn.recv(65536):  # until the client hangs up
                        pass

    thread = threading.Thread(target=serve)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        listener.close()


@pytest.mark.parametrize(("payload", "says"), [
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
     "the server's HTTP reply is broken (not HTTP: illegal chunk header): is this an "
     "Ollama server?"),
    (b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-H%d: %s\r\n" % (i, b"a" * 1000)
                                        for i in range(300)) + b"\r\n",
     "the server's HTTP reply is broken (not HTTP: its headers are too long): is this an "
     "Ollama server?"),
    (b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"mess",
     "the reply was cut short: the server closed the connection before its end (received "
     "6 bytes, expected 1000)"),
    (b'{"message": {"role": "assistant", "content": "x"}}',
     "the server closed the connection without an HTTP answer"),
], ids=["bad chunk", "huge headers", "body cut short", "no status line"])
def test_a_reply_that_is_not_http_is_named_so_not_a_connection_failure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], payload: bytes,
        says: str) -> None:
    # Seventh hostile pass M1: each of these read "connection failed (RemoteProtocolError)".
    data = tmp_path / "in.jsonl"
    data.write_text(json.dumps({"response": "x", "prompt": "q"}) + "\n", "utf-8")
    with _raw_server(payload) as url:
        line = one_line(capsys, run(["grade", "judge", str(data), "--host", url, "--model",
                                     "m", "--timeout", "3", "--retries", "0"]), FAILED)
    assert line.startswith(f"reviewer: judge m at {url}: ") and says in line, line
    assert "RemoteProtocolError" not in line


@pytest.mark.parametrize(("target", "then"), [
    ("dead", "no server listening"),
    ("web page", "the server's reply is not JSON"),
])
def test_a_judge_that_redirects_is_named_as_redirecting_not_as_absent(
        files: Files, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
        target: str, then: str) -> None:
    # Seventh hostile pass U10: a host answering 302 to a dead port was reported as
    # "no server listening" at the host, which does listen. The ollama client's httpx
    # follows redirects (a 302 makes the POST a GET), so what failed is the target.
    with _web_page() as page:
        location = ("http://127.0.0.1:1" if target == "dead" else page) + "/api/chat"
        fake_ollama.redirect_to = location
        code = run([*_rejudge(files, fake_ollama)[:-4], "--retries", "0"])
    captured = capsys.readouterr()
    assert code == FAILED, captured.err
    [line] = captured.err.splitlines()
    assert (f"second opinion failed: judge m at {fake_ollama.url}: the server answered "
            f"with a redirect (HTTP 302 to {location}) and following it failed ({then}") in line
    assert line.endswith("): give the judge's final address in --host"), line
    assert len(fake_ollama.chat_requests) == 1  # not retried: every request is redirected


def test_a_judge_redirect_that_keeps_the_request_still_reaches_ollama(
        files: Files, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeOllama() as final:
        final.responder = verdict_reply
        fake_ollama.redirect_to, fake_ollama.redirect_status = final.url + "/api/chat", 307
        code = run(_rejudge(files, fake_ollama))
        assert len(final.chat_requests) == 1
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.err == ""


@pytest.mark.parametrize("over", [40, 100_000], ids=["template", "wildly"])
def test_a_prompt_count_above_the_estimate_is_no_cut(
        files: Files, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
        over: int) -> None:
    # Seventh hostile pass U10b: "prompt_eval_count": 100000 for a ~684-token prompt
    # was "prompt cut by the server: 100000 of about 684 tokens read". A server reading
    # more than was estimated cut nothing (a real one counts its chat template too).
    def reply(body: dict[str, Any]) -> Reply:
        answer = verdict_reply(body)
        answer.prompt_tokens = estimate_tokens(body["messages"]) + over
        return answer

    fake_ollama.responder = reply
    code = run([*_rejudge(files, fake_ollama)[:-4], "--retries", "0"])
    captured = capsys.readouterr()
    assert (code, captured.err) == (0, "")
    assert "1 asked, 1 now accepted, 0 failed" in captured.out, captured.out


def test_flag_llm_stops_at_the_first_broken_reply(
        files: Files, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]) -> None:
    fake_ollama.redirect_loop = True
    line = one_line(capsys, run(["--db", str(files.db), "flag", "--llm", "--host",
                                  fake_ollama.url, "--model", "m", "--timeout", "3"]), FAILED)
    assert "redirects in a loop" in line and "rerun to resume" in line


def test_an_oversized_reply_is_a_judge_fault_not_a_hang(
        files: Files, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str]) -> None:
    rationale = "La réponse répond à la demande. " * 4_000  # 128,000 characters
    fake_ollama.responder = lambda body: verdict_reply(body, rationale=rationale)
    before = counts(files.db)
    code = run([*_rejudge(files, fake_ollama)[:-4], "--retries", "0"])
    captured = capsys.readouterr()
    assert code == FAILED, captured.err
    text = captured.out + captured.err
    assert "Traceback" not in text and "more than the 65,536 its token budget allows" in text
    assert counts(files.db)[:2] == before[:2]


def test_an_endless_reply_is_cut_at_its_budget_not_read_to_the_timeout(
        files: Files, capsys: pytest.CaptureFixture[str]) -> None:
    # Third hostile pass: a server sending a body without end grew rejudge to 1.5 GB
    # before its timeout; the size was checked once the body was whole.
    import socket
    import threading

    stop = threading.Event()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    port = listener.getsockname()[1]

    def serve() -> None:
        listener.settimeout(0.2)
        deadline = time.monotonic() + 60
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            with conn:
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                             b"Transfer-Encoding: chunked\r\n\r\n")
                chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
                with contextlib.suppress(OSError):
                    while not stop.is_set() and time.monotonic() < deadline:
                        conn.sendall(chunk)

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        code = run(["--db", str(files.db), "rejudge", "--attempt", KEY, "--host",
                    f"http://127.0.0.1:{port}", "--model", "m", "--timeout", "30",
                    "--retries", "0"])
    finally:
        stop.set()
        server.join(timeout=10)
        listener.close()
    text = capsys.readouterr()
    assert code == FAILED, text.err
    assert "Traceback" not in text.err and "the reply is longer than" in text.err


# -- ECMAScript patterns (pt07, pt08) -----------------------------------------------------

def test_a_pattern_too_large_for_v8_is_refused_as_invalid(
        files: Files, capsys: pytest.CaptureFixture[str]) -> None:
    pattern = "x" * 60_000 + "y" * 60_000
    line = one_line(capsys, run(["--db", str(files.db), "backtest", "D-COMMERCE", pattern,
                                  "--dialect", "ecmascript"]), BAD_INPUT)
    assert line.endswith("Regular expression too large") and len(line) < 300


def test_ctrl_c_while_v8_runs_a_pattern_is_one_line(files: Files, tmp_path: Path) -> None:
    bt = tmp_path / "bt.jsonl"
    first = json.loads(files.input("new_run.jsonl").read_text("utf-8").splitlines()[0])
    bt.write_text(json.dumps({**first, "run": "bt-run", "response": "a" * 5000 + "!"})
                   + "\n", "utf-8")
    assert main(["--db", str(files.db), "import", str(bt)]) == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "--db", str(files.db), "backtest", "D-COMMERCE",
         "(a+)+$", "--dialect", "ecmascript", "--timeout", "60", "--budget", "120"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy(),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(12)  # well into the catastrophic pattern (not a timing assertion)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    text = err.decode("utf-8", "replace")
    assert proc.returncode == INTERRUPTED, text
    assert text.splitlines() == ["reviewer: interrupted; the step in progress was not saved "
                                 "(what was saved before is kept)"], text


def test_a_pattern_stopped_by_its_time_bound_is_one_line_every_time(tmp_path: Path) -> None:
    """The stopped V8 call answered after its context was freed at exit, and mini-racer
    printed "Event loop is closed" (12 lines) under our line, in about half the runs."""
    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps({"id": "x", "response": "a" * 5000 + "!"}) + "\n", "utf-8")
    for _ in range(6):
        proc = subprocess.run(
            [sys.executable, "-m", "ui.cli", "grade", "regex", str(lines), "--dialect",
             "ecmascript", "--pattern", "(a+)+$"],
            cwd=ROOT, capture_output=True, env=os.environ.copy(), timeout=120)
        text = proc.stderr.decode("utf-8", "replace")
        assert proc.returncode == BAD_INPUT, text
        assert len(text.splitlines()) == 1 and "stopped after" in text, text


def test_a_ctrl_c_landing_in_a_finaliser_still_interrupts_the_command() -> None:
    """Seen once in the full suite (flag's Ctrl-C test): the interrupt landed in a weakref
    callback, Python printed 'Exception ignored … KeyboardInterrupt' and lost it."""
    program = (
        "import sys\n"
        "from ui.cli import _redeliver_interrupts\n"
        "sys.unraisablehook = _redeliver_interrupts(sys.unraisablehook)\n"
        "class Finalised:\n"
        "    def __del__(self):\n"
        "        raise KeyboardInterrupt\n"
        "try:\n"
        "    Finalised()\n"
        "    for _ in range(10_000_000):\n"
        "        pass\n"
        "    print('lost')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n")
    proc = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.stdout.strip() == "interrupted", proc.stdout + proc.stderr
    assert proc.stderr == ""


@pytest.mark.parametrize(("content", "says"), [
    ('{"verdicts": [{"criterion": "G-DEMANDE", "verdict": "oui", "rationale": "ok\\u0000"}]}',
     "NUL"),
    ('{"verdicts": [{"criterion": "G-DEMANDE", "verdict": "oui", "rationale": "\\ud800"}]}',
     "surrogate"),
    ('{"verdicts": [], "n": ' + "1" * 6000 + "}",
     "not usable JSON: it holds a number with more than 4,300 digits"),
], ids=["NUL", "lone surrogate", "6000 digits"])
def test_a_judge_reply_that_cannot_be_stored_is_a_judge_failure(
        files: Files, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
        content: str, says: str) -> None:
    """Second blind hostile pass (jd29, jd30, jd22): a NUL in a rationale was stored
    (exit 0), a lone surrogate and a 6,000-digit number ended in exit 70."""
    for _ in range(3):
        fake_ollama.reply_text(content)
    before = _rejudge_fails_naming_the_judge(files, fake_ollama, capsys, says)
    assert counts(files.db) == before


@pytest.mark.parametrize("where", ["option", "environment"])
def test_a_judge_model_name_cannot_forge_a_line(
        files: Files, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """Second blind hostile pass (jd41): a newline in $REVIEWER_JUDGE_MODEL printed a
    forged 'reviewer: …' line of its own."""
    forged = "m\nreviewer: forged line"
    argv = ["--db", str(files.db), "rejudge", "--attempt", KEY, "--host", fake_ollama.url,
            "--timeout", "5", "--retries", "0"]
    if where == "option":
        argv += ["--model", forged]
    else:
        monkeypatch.setenv("REVIEWER_JUDGE_MODEL", forged)
    before = counts(files.db)
    line = one_line(capsys, run(argv), BAD_INPUT)
    assert "forged" in line and "judge model" in line
    assert counts(files.db) == before
    assert fake_ollama.chat_requests == []


@pytest.mark.parametrize("where", ["concurrent/futures/process.py", "elsewhere.py"])
def test_the_pool_wakeup_race_at_exit_prints_nothing_else_is_still_shown(where: str) -> None:
    """Seen in the full suite after flag's Ctrl-C: Python 3.11's concurrent.futures exit
    hook wrote to the interrupted pool's closed pipe (EBADF) and its traceback followed our
    line. Only that race is silenced; any other ignored exception is still printed."""
    program = (
        "import errno, sys\n"
        "from ui.cli import _redeliver_interrupts\n"
        "sys.unraisablehook = _redeliver_interrupts(sys.unraisablehook)\n"
        "space = {}\n"
        "exec(compile('def _python_exit():\\n    raise OSError(errno.EBADF, \"Bad file "
        f"descriptor\")\\n', '/usr/lib/python3.11/{where}', 'exec'), "
        "{'errno': errno}, space)\n"
        "class Finalised:\n"
        "    def __del__(self):\n"
        "        space['_python_exit']()\n"
        "Finalised()\n")
    proc = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    if where == "elsewhere.py":
        assert "Bad file descriptor" in proc.stderr
    else:
        assert proc.stderr == ""


# -- deep JSON where a schema or a labelled file is read (in19, in23) ---------------------

def test_a_schema_nested_too_deeply_is_one_line(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "in.jsonl"
    data.write_text('{"response": "{}"}\n', "utf-8")
    brackets, nested = tmp_path / "brackets.json", tmp_path / "nested.json"
    brackets.write_text("[" * 100_000 + "]" * 100_000, "utf-8")  # beyond Python's parser
    nested.write_text('{"items":' * 900 + "{}" + "}" * 900, "utf-8")  # beyond the checker
    for schema in (brackets, nested):  # both refused before decoding (MAX_NESTING)
        err = one_line(capsys, run(["grade", "json", str(data), "--schema", str(schema)]),
                       BAD_INPUT)
        assert err == f"reviewer: {schema}: JSON nested too deeply"
    # As deep as MAX_NESTING allows: the schema checker walks it.
    deepest = MAX_NESTING - 1
    nested.write_text('{"items":' * deepest + "{}" + "}" * deepest, "utf-8")
    assert run(["grade", "json", str(data), "--schema", str(nested)]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("evaluate", [False, True], ids=["score", "--evaluate"])
def test_deep_json_in_a_contradictions_file_names_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], evaluate: bool) -> None:
    data = tmp_path / "c.jsonl"
    data.write_text('{"kind": ' + "[" * 100_000 + "]" * 100_000 + "}\n", "utf-8")
    argv = ["contradictions", *(["--evaluate"] if evaluate else []), str(data)]
    err = one_line(capsys, run(argv), BAD_INPUT)
    assert err == f"reviewer: {data}:1: JSON nested too deeply"


def _small_stack() -> None:
    """``preexec_fn``: the ``ulimit -s 128`` of the sixth hostile pass (U11)."""
    hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
    resource.setrlimit(resource.RLIMIT_STACK, (128 * 1024, hard))


DEEP = "[" * 30_000 + "]" * 30_000  # within a judge reply's size bound (65,536 characters)


def _deep_input(files: Files, fake: FakeOllama, reader: str) -> tuple[list[str], int, str]:
    """The command reading ``DEEP`` as ``reader``, its exit code and its one stderr line
    ("" for none: the deep JSON is read as no JSON, which is not an error there)."""
    folder = files.root / "deep"
    folder.mkdir()
    rows, plain = folder / "rows.jsonl", folder / "plain.jsonl"
    rows.write_text('{"response": "x", "reference": ' + DEEP + "}\n", "utf-8")
    plain.write_text(json.dumps({"response": DEEP, "reference": DEEP}) + "\n", "utf-8")
    deep = folder / "deep.json"
    deep.write_text('{"files": ' + DEEP + "}", "utf-8")
    judge = ["--host", fake.url, "--model", "m", "--timeout", "20", "--retries", "0"]
    fake.reply_text(DEEP)
    where = f"judge m at {fake.url}: reply is not usable JSON (nested too deeply)"
    if reader == "catalog":
        return (["--db", str(files.db), "import", str(files.input("new_run.jsonl")),
                 "--catalog", str(deep)], BAD_INPUT, f"reviewer: {deep}: JSON nested too deeply")
    if reader == "grade rows":
        return (["grade", "exact", str(rows)], BAD_INPUT,
                f"reviewer: {rows}:1: JSON nested too deeply")
    if reader == "grade schema":
        return (["grade", "json", str(plain), "--schema", str(deep)], BAD_INPUT,
                f"reviewer: {deep}: JSON nested too deeply")
    if reader == "contradictions":
        return (["contradictions", str(rows)], BAD_INPUT,
                f"reviewer: {rows}:1: JSON nested too deeply")
    if reader == "verify-export":
        export = folder / "x.jsonl"
        export.write_text("", "utf-8")
        deep.rename(folder / "x.jsonl.manifest.json")
        return (["verify-export", str(export)], FAILED, f"reviewer: {folder / 'x.jsonl'}"
                ".manifest.json: not a readable manifest (JSON nested too deeply)")
    if reader == "rejudge reply":
        return (["--db", str(files.db), "rejudge", "--attempt", KEY, *judge], FAILED,
                f"{KEY}: second opinion failed: {where}")
    if reader == "grade judge reply":
        small = folder / "small.jsonl"
        small.write_text('{"response": "x", "reference": "y"}\n', "utf-8")
        return (["grade", "judge", str(small), *judge], FAILED, "")
    return (["grade", "json", str(plain)] if reader == "json grader" else
            ["lint-graders", str(plain)]), 0, ""


@pytest.mark.slow
@pytest.mark.parametrize("reader", [
    "catalog", "grade rows", "grade schema", "contradictions", "verify-export",
    "rejudge reply", "grade judge reply", "json grader", "lint-graders"])
def test_deep_json_anywhere_on_a_128_kb_stack_is_a_line_not_a_segfault(
        files: Files, fake_ollama: FakeOllama, reader: str) -> None:
    # Seventh hostile pass U11: under `ulimit -s 128` Python's C JSON decoder crashed the
    # process (SIGSEGV, exit 139, nothing said) on 30,000 brackets before its recursion
    # limit could stop it, in every reader of JSON: run lines, rows to grade, schemas,
    # contradictions files, manifests, the judge's reply. Each now refuses the depth
    # before decoding, saying what it said on a normal stack.
    argv, code, line = _deep_input(files, fake_ollama, reader)
    proc = subprocess.run([*CONSOLE, *argv], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, preexec_fn=_small_stack)
    assert proc.returncode == code, proc.stderr
    if reader == "grade judge reply":  # a group not graded: one line naming the judge
        assert proc.stderr.startswith(f"reviewer: judge m at {fake_ollama.url}: "), proc.stderr
        assert "reply is not usable JSON (nested too deeply)" in proc.stderr
        return
    assert proc.stderr == (line + "\n" if line else ""), proc.stderr
    if reader == "json grader":
        assert json.loads(proc.stdout)["score"] == 0.0  # read as no JSON


# -- the database --db names (dl01, dl09, dl23, cc02) -------------------------------------

def test_an_in_memory_database_is_refused_not_used(capsys: pytest.CaptureFixture[str]) -> None:
    # It opened, took the decision, and forgot it when the command ended.
    for url in ("sqlite://", "sqlite:///:memory:"):
        err = one_line(capsys, run(["--db", url, "decide", KEY, "--accept"]), BAD_INPUT)
        assert "in-memory database: nothing would be kept" in err


def test_a_loop_of_symbolic_links_as_database_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.db").symlink_to(tmp_path / "b.db")
    (tmp_path / "b.db").symlink_to(tmp_path / "a.db")
    for db in (str(tmp_path / "a.db"), f"sqlite:///{tmp_path / 'a.db'}"):
        err = one_line(capsys, run(["--db", db, "queue"]), BAD_INPUT)
        assert "cannot follow its symbolic links" in err


def test_a_database_with_two_names_is_refused_untouched(
        files: Files, capsys: pytest.CaptureFixture[str]) -> None:
    # Two deciders through two names of one file write two WALs: decisions were lost.
    other = files.db.parent / "other-name.sqlite3"
    os.link(files.db, other)
    before = files.db.read_bytes()
    for db in (files.db, other):
        err = one_line(capsys, run(["--db", str(db), "decide", KEY, "--accept"]), FAILED)
        assert "has 2 names (hard links)" in err and "Open it by one name only" in err
    assert files.db.read_bytes() == before
    other.unlink()
    assert run(["--db", str(files.db), "decide", KEY, "--accept"]) == 0


def test_a_postgresql_server_that_never_answers_is_a_line_not_a_hang() -> None:
    # A listening socket that never speaks: the command waited 130 s (psycopg's default)
    # where the reviewer expects to be told within seconds.
    import socket

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        port = silent.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "ui.cli", "--db",
             f"postgresql+psycopg://reviewer@127.0.0.1:{port}/store", "queue"],
            cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == FAILED, done.stderr
    assert done.stderr.startswith("reviewer: ") and done.stderr.count("\n") == 1, done.stderr
    assert "timeout" in done.stderr and f"127.0.0.1:{port}" in done.stderr


def test_a_folder_or_a_device_as_database_says_what_it_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Third hostile pass: a folder was "a database file with 2 names (hard links)", and
    # /dev/null "schema upgrade failed … disk I/O error". Sixth pass, U9: the user named
    # the wrong thing, bad input (exit 2) as a missing file is, not "could not finish".
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    for db, kind in ((tmp_path, "a folder"), (Path("/dev/null"), "a device"),
                     (fifo, "a pipe")):
        err = one_line(capsys, run(["--db", str(db), "queue"]), BAD_INPUT)
        assert err == (f"reviewer: {db}: is {kind}, not a database file; give a database "
                       "file (reviewer import makes a new one where there is none)")


@pytest.mark.parametrize(("stamp", "said"), [
    ("abc; drop", "schema version abc; drop is not one reviewer ever wrote (latest {head}): "
     "the database is damaged or not a reviewer store; open the right file, or restore a "
     ".bak- copy from beside it (left untouched)"),
    ("0099", "schema 0099 is newer than this version of reviewer knows (latest {head}); "
     "upgrade reviewer (left untouched)"),
], ids=["garbage", "newer"])
def test_a_schema_version_reviewer_never_wrote_is_not_called_newer(
        files: Files, capsys: pytest.CaptureFixture[str], stamp: str, said: str) -> None:
    # Fourth hostile pass, V2: 'abc; drop' was "newer … upgrade reviewer", which cannot help.
    conn = sqlite3.connect(files.db)
    with conn:
        conn.execute("UPDATE alembic_version SET version_num = ?", (stamp,))
    conn.close()
    before = files.db.read_bytes()
    err = one_line(capsys, run(["--db", str(files.db), "stats"]), FAILED)
    assert err == f"reviewer: {files.db}: " + said.format(head=head_revision())
    assert files.db.read_bytes() == before


def test_too_few_file_descriptors_is_named_not_the_database(files: Files) -> None:
    # Fourth hostile pass, N3: under `ulimit -n 5` SQLite's "unable to open database file"
    # sent the reviewer to look at the database; the descriptor limit was the cause.
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (5, 5))

    done = subprocess.run([sys.executable, "-m", "ui.cli", "--db", str(files.db), "stats"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
                          preexec_fn=limit)
    assert done.returncode == FAILED, done.stderr
    assert done.stderr == (f"reviewer: {files.db}: cannot open the database: too many open "
                           "files (this process may have only 5 open, ulimit -n); raise the "
                           "limit (ulimit -n 1024) and try again\n")


# -- numbers past what a store holds (third hostile pass) ---------------------------------

@pytest.mark.parametrize("argv", [
    ["decide", "2026-10-14-ministral-8b/recette-001/1/99999999999999999999999", "--reject"],
    ["rejudge", "--attempt", "2026-10-14-ministral-8b/recette-001/99999999999999999999/1",
     "--host", "http://127.0.0.1:9"],
], ids=["decide", "rejudge"])
def test_a_key_number_past_the_store_is_bad_input(
        files: Files, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    # It was "internal error (OverflowError: Python int too large to convert to SQLite
    # INTEGER)", exit 70.
    err = one_line(capsys, run(["--db", str(files.db), *argv]), BAD_INPUT)
    assert err.endswith(": TURN and ATTEMPT are at most 2,147,483,647")


def test_a_run_line_whose_turn_is_past_the_store_is_refused_at_its_line(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = json.loads(files.input("new_run.jsonl").read_text("utf-8").splitlines()[0])
    bad = {**good, "conversation": "huge", "turn": 10**30}
    data = tmp_path / "big.jsonl"
    data.write_text(json.dumps(bad) + "\n", "utf-8")
    before = counts(files.db)
    err = one_line(capsys, run(["--db", str(files.db), "import", str(data)]), BAD_INPUT)
    assert err == (f"reviewer: {data}:1: 'turn' must be at most 2,147,483,647, got "
                   f"{10**30}")
    rejects = tmp_path / "rej.jsonl"
    assert run(["--db", str(files.db), "import", str(data), "--skip-bad", str(rejects)]) == 0
    assert len(rejects.read_text("utf-8").splitlines()) == 1  # it was exit 70 here too
    assert counts(files.db) == before


def test_a_relative_sqlite_url_opens_the_existing_store(files: Files,
                                                        tmp_path: Path) -> None:
    # Fifth hostile pass, P41: `--db sqlite:///u.db` on an existing file was "internal
    # error (ValueError: relative path can't be expressed as a file URI)", exit 70.
    before = counts(files.db)
    proc = subprocess.run([*CONSOLE, "--db", f"sqlite:///{files.db.name}", "queue", "--json"],
                          capture_output=True, text=True, cwd=files.db.parent, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)
    assert counts(files.db) == before


def test_a_db_path_that_is_not_utf8_is_one_line(files: Files, tmp_path: Path) -> None:
    # Fifth hostile pass, P44: bytes that are not UTF-8 in --db were an internal error
    # (UnicodeEncodeError) from the standard-stream guard, which looks at a stream
    # redirected to a file, exit 70.
    odd = os.fsencode(str(files.db.parent)) + b"/caf\xe9.db"
    with open(files.db, "rb") as src, open(odd, "wb") as dst:
        dst.write(src.read())
    out, err_file = tmp_path / "out.txt", tmp_path / "err.txt"
    with open(out, "wb") as stdout, open(err_file, "wb") as stderr:
        proc = subprocess.run([*(os.fsencode(a) for a in CONSOLE), b"--db", odd, b"queue"],
                              stdout=stdout, stderr=stderr, cwd=ROOT, timeout=300)
    err = err_file.read_bytes().decode("utf-8", "replace").splitlines()
    assert proc.returncode == BAD_INPUT, err
    assert len(err) == 1 and err[0].startswith("reviewer: --db is not valid UTF-8"), err


# -- `-` where a file is read (fifth hostile pass, P10) -----------------------------------

@pytest.mark.parametrize(("command", "argument"), [
    (["import", "-"], "RUN.jsonl"),
    (["import", "{run}", "--catalog", "-"], "--catalog"),
    (["decide", "--from-csv", "-"], "--from-csv"),
    (["contradictions", "-"], "IN.jsonl"),
    (["contradictions", "--evaluate", "-"], "--evaluate"),
    (["grade", "exact", "-"], "IN.jsonl"),
    (["grade", "json", "{grade}", "--schema", "-"], "--schema"),
    (["lint-graders", "-"], "IN.jsonl"),
    (["calibrate", "-"], "IN.jsonl"),
    (["verify-export", "-"], "OUT"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_a_dash_where_a_file_is_read_is_one_wording_everywhere(
        files: Files, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], command: list[str], argument: str) -> None:
    # P10: `-` was refused with six wordings ("-: cannot read (No such file or
    # directory)", "cannot read -: no such file or folder", "-: no such file", …). It is
    # standard output for the exports and standard input for `prompt set`; an input
    # file refuses it with one line naming the argument, before reading anything.
    (tmp_path / "-").write_text("not this file\n", "utf-8")  # a file named - is ./-
    monkeypatch.chdir(tmp_path)
    names = {"run": str(files.input("new_run.jsonl")), "grade": str(files.input("grade.jsonl"))}
    before = counts(files.db)
    argv = ["--db", str(files.db), *(word.format(**names) for word in command)]
    err = one_line(capsys, run(argv), BAD_INPUT)
    assert err == (f"reviewer: {argument}: - (standard input) is not accepted here; give a "
                   f"file; see 'reviewer {command[0]} --help'")
    assert counts(files.db) == before


# -- a pipe, a device, a socket or a folder where a file is read (eighth pass, H4) ------

INPUT_ARGUMENTS = [
    (["import", "PATH"], "a run file"),
    (["import", "{run}", "--catalog", "PATH"], "a catalog"),
    (["decide", "--from-csv", "PATH"], "a CSV of decisions"),
    (["contradictions", "PATH"], "a JSON lines file"),
    (["contradictions", "--evaluate", "PATH"], "a labelled JSON lines file"),
    (["grade", "exact", "PATH"], "a JSON lines file"),
    (["grade", "json", "{grade}", "--schema", "PATH"], "a JSON schema"),
    (["lint-graders", "PATH"], "a JSON lines file"),
    (["calibrate", "PATH"], "a JSON lines file"),
]


@contextlib.contextmanager
def fifo_released(fifo: Path) -> Iterator[None]:
    """While inside, a reader that opens ``fifo`` is let go at once (a writer opens it and
    closes it: end of file), so a command that waits for a writer fails its test instead
    of hanging it."""
    stop = threading.Event()

    def release() -> None:
        while not stop.wait(0.05):
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:  # ENXIO: no reader yet
                continue

    thread = threading.Thread(target=release, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=60)


@pytest.mark.parametrize(("command", "what"), INPUT_ARGUMENTS,
                         ids=lambda v: " ".join(v) if isinstance(v, list) else None)
@pytest.mark.parametrize("kind", ["a pipe", "a device", "a socket", "a folder"])
def test_a_file_argument_that_is_no_file_is_refused_before_reading(
        files: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        command: list[str], what: str, kind: str) -> None:
    # H4: `decide --from-csv FIFO` with no writer waited for ever (every file argument
    # read from a FIFO did: import, grade, contradictions…), while `--db FIFO` says "is a
    # pipe". A device was read as an empty file (`import /dev/null`: "0 new", exit 0), a
    # socket and a folder were refused in five wordings. One check, one line, before the
    # store is opened or anything is read.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock"))
    path = {"a pipe": fifo, "a device": Path("/dev/null"), "a socket": tmp_path / "sock",
            "a folder": tmp_path}[kind]
    names = {"run": str(files.input("new_run.jsonl")), "grade": str(files.input("grade.jsonl"))}
    argv = ["--db", str(files.db),
            *(str(path) if word == "PATH" else word.format(**names) for word in command)]
    before = counts(files.db)
    try:
        with fifo_released(fifo):
            err = one_line(capsys, run(argv), BAD_INPUT)
    finally:
        sock.close()
    assert err == f"reviewer: {path}: is {kind}, not a file; give {what} saved as a file"
    assert counts(files.db) == before


def test_dev_stdin_is_read_only_when_it_is_a_file(files: Files, tmp_path: Path) -> None:
    # H4: `--from-csv -` is refused and a FIFO now is: /dev/stdin on a pipe is the same
    # pipe. On a file (`< decisions.csv`) it is that file, read as any other.
    csv = files.input("batch.csv")
    before = counts(files.db)
    piped = console("--db", str(files.db), "decide", "--from-csv", "/dev/stdin",
                    input=csv.read_text("utf-8"))
    assert piped.returncode == BAD_INPUT, piped.stderr
    assert piped.stderr == ("reviewer: /dev/stdin: is a pipe, not a file; give a CSV of "
                            "decisions saved as a file\n")
    assert counts(files.db) == before
    with csv.open("rb") as redirected:
        done = console("--db", str(files.db), "decide", "--from-csv", "/dev/stdin",
                       stdin=redirected)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "1 row(s), 2 field(s) set\n"


def test_a_file_named_dash_is_read_as_dot_slash_dash(
        files: Files, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "-").write_bytes(files.input("grade.jsonl").read_bytes())
    monkeypatch.chdir(tmp_path)
    assert run(["grade", "exact", "./-"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["score"] == 1.0
