"""``reviewer grade`` and ``reviewer lint-graders`` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reviewer.cli.main import main
from tests.support.fake_ollama import FakeOllama

WACC_REF = (
    "WACC ≈ 9,91 % ; coût des capitaux propres 10,34 % ; dette après impôt 4,15 % ; EV ≈ 1 705 M$."
)


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[Any], str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return code, lines, err


def test_numeric_grade_writes_one_line_per_input(tmp_path: Path, capsys: Any) -> None:
    src = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"response": "9,95 % ; 10,3 % ; 4,2 % ; 1 700 M", "reference": WACC_REF},
            {"response": "Le WACC est de 1,33 %", "reference": WACC_REF},
            {"response": "Partagez-le.", "reference": "Cliquez sur Partager."},
        ],
    )
    code, lines, err = run(capsys, "grade", "numeric", str(src))
    assert code == 0
    assert [line["score"] for line in lines] == [0.875, 0.0, None]
    assert lines[0]["response"].startswith("9,95")  # input fields are kept
    assert "numbers-without-figures" in err


def test_exact_contains_regex_label_json_from_the_command_line(tmp_path: Path, capsys: Any) -> None:
    src = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"response": "Bruit", "expected": "bruit"},
            {"response": "C'est du bruit", "expected": "bruit"},
        ],
    )
    assert [x["score"] for x in run(capsys, "grade", "exact", str(src))[1]] == [1.0, 0.0]
    assert [x["score"] for x in run(capsys, "grade", "contains", str(src))[1]] == [1.0, 1.0]
    scores = run(capsys, "grade", "regex", str(src), "--pattern", "^bruit$", "--flags", "i")[1]
    assert [x["score"] for x in scores] == [1.0, 0.0]
    scores = run(capsys, "grade", "label", str(src), "--labels", "bruit,odeur")[1]
    assert [x["score"] for x in scores] == [1.0, 0.0]
    schema = tmp_path / "schema.json"
    schema.write_text('{"type": "object", "required": ["type"]}', "utf-8")
    src2 = write_jsonl(
        tmp_path / "j.jsonl", [{"response": '{"type": "bruit"}'}, {"response": "{}"}]
    )
    scores = run(capsys, "grade", "json", str(src2), "--schema", str(schema))[1]
    assert [x["score"] for x in scores] == [1.0, 0.0]


def test_rouge_l_tokenizer_option_and_output_file(tmp_path: Path, capsys: Any) -> None:
    src = write_jsonl(
        tmp_path / "in.jsonl", [{"response": "réponse côté", "reference": "rèponse cöté"}]
    )
    out = tmp_path / "out.jsonl"
    assert main(["grade", "rouge_l", str(src), "-o", str(out)]) == 0
    assert json.loads(out.read_text("utf-8"))["score"] == 0.0
    assert run(capsys, "grade", "rouge_l", str(src), "--tokenizer", "rouge")[1][0]["score"] == 1.0


@pytest.mark.parametrize(
    ("content", "argv", "message"),
    [
        ('{"response": "x"}\nnot json\n', ["exact"], "in.jsonl:2: not valid JSON"),
        ('\n{"reference": "x"}\n', ["exact"], "in.jsonl:2: 'response' is required"),
        (
            '{"response": "x"}\n',
            ["exact"],
            "in.jsonl:1: the exact grader needs a string 'expected'",
        ),
        ('{"response": "x"}\n', ["rouge_l"], "in.jsonl:1: the rouge_l grader needs"),
        ('{"response": "x"}\n', ["label"], "in.jsonl:1: the label grader needs --labels"),
        ('{"response": "x"}\n', ["regex", "--pattern", "("], "invalid regular expression"),
        ('{"response": "x"}\n', ["judge"], "needs a judge model (--model NAME)"),
        ('{"response": "x"}\n', ["mix", "--weights", "bleu=1"], "bad weight 'bleu=1'"),
        ("", ["exact"], "no rows to grade"),
    ],
)
def test_input_errors_are_one_line_with_exit_2(
    tmp_path: Path, capsys: Any, content: str, argv: list[str], message: str
) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text(content, "utf-8")
    code = main(["grade", argv[0], str(src), *argv[1:]])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_is_a_bad_input(tmp_path: Path, capsys: Any) -> None:
    assert main(["grade", "exact", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_judge_grade_through_the_fake_server(
    tmp_path: Path, capsys: Any, fake_ollama: FakeOllama
) -> None:
    src = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"group": "g", "prompt": "WACC ?", "response": "9,95 %", "reference": "9,91 %"},
            {"group": "g", "prompt": "WACC ?", "response": "20 %", "reference": "9,91 %"},
        ],
    )
    fake_ollama.reply_json(
        {
            "notes": [
                {
                    "answer": 1,
                    "correctness": 5,
                    "helpfulness": 5,
                    "tone": 5,
                    "format": 5,
                    "justification": "Juste.",
                },
                {
                    "answer": 2,
                    "correctness": 1,
                    "helpfulness": 2,
                    "tone": 4,
                    "format": 1,
                    "justification": "Chiffre faux.",
                },
            ]
        }
    )
    code, lines, err = run(
        capsys,
        "grade",
        "judge+numbers",
        str(src),
        "--host",
        fake_ollama.url,
        "--model",
        "juge:14b",
        "--policy-model",
        "juge:14b",
    )
    assert code == 0
    # notes 1, 2, 4, 1: mean 2 → (2 - 1) / 4 = 0.25; half judge, half numbers (0)
    assert [x["score"] for x in lines] == [1.0, 0.125]
    assert lines[1]["judge"] == {
        "correctness": 1,
        "helpfulness": 2,
        "tone": 4,
        "format": 1,
        "justification": "Chiffre faux.",
    }
    assert lines[1]["components"] == {"numeric": 0.0, "judge": 0.25}
    assert "same-model" in err
    assert len(fake_ollama.chat_requests) == 1


def test_judge_failure_is_one_line_with_exit_1(
    tmp_path: Path, capsys: Any, fake_ollama: FakeOllama
) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [{"response": "x", "reference": "y"}])
    fake_ollama.reply_text("je ne suis pas du JSON")
    code = main(["grade", "judge", str(src), "--host", fake_ollama.url, "--model", "juge:14b"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert err[-1].startswith(f"reviewer: judge juge:14b at {fake_ollama.url}: reply is not")


def test_lines_graded_before_a_judge_failure_are_kept(
    tmp_path: Path, capsys: Any, fake_ollama: FakeOllama
) -> None:
    src = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"group": "a", "response": "x", "reference": "y"},
            {"group": "a", "response": "z", "reference": "y"},
            {"group": "b", "response": "w", "reference": "v"},
        ],
    )
    notes = [
        {
            "answer": i,
            "correctness": 5,
            "helpfulness": 5,
            "tone": 5,
            "format": 5,
            "justification": "Correct et complet.",
        }
        for i in (1, 2)
    ]
    fake_ollama.reply_json({"notes": notes})
    fake_ollama.reply_error(404, "model not found")
    out = tmp_path / "out.jsonl"
    code = main(
        ["grade", "judge", str(src), "-o", str(out), "--host", fake_ollama.url, "--model", "j"]
    )
    assert code == 1
    assert "HTTP 404" in capsys.readouterr().err
    written = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert [(x["response"], x["score"]) for x in written] == [("x", 1.0), ("z", 1.0)]


def test_lint_graders_reports_ignored_rows_and_a_suggestion(tmp_path: Path, capsys: Any) -> None:
    rows = [{"response": "x", "reference": WACC_REF}] * 2
    rows += [{"response": "x", "reference": "Ouvrez le rapport puis cliquez sur Partager."}] * 3
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    assert main(["lint-graders", str(src), "--grader", "numeric"]) == 0
    out = capsys.readouterr().out
    assert "5 rows, 5 with a reference, 3 without any figure" in out
    assert "3 of 5 rows (60 %)" in out and "learn from 2 rows only" in out
    assert main(["lint-graders", str(src), "--model", "m:8b", "--policy-model", "m:8b"]) == 0
    out = capsys.readouterr().out
    assert "suggested grader: judge" in out
    assert "[judge] [same-model]" in out and "[judge+numbers] [numbers-without-figures]" in out


def test_ollama_host_environment_variable_is_the_default_host(
    tmp_path: Path, capsys: Any, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [{"response": "x", "reference": "y"}])
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.url)
    fake_ollama.reply_json(
        {
            "notes": [
                {
                    "answer": 1,
                    "correctness": 3,
                    "helpfulness": 3,
                    "tone": 3,
                    "format": 3,
                    "justification": "moyen",
                }
            ]
        }
    )
    code, lines, _ = run(capsys, "grade", "judge", str(src), "--model", "juge:14b")
    assert code == 0
    assert lines[0]["score"] == 0.5
    assert len(fake_ollama.chat_requests) == 1


def test_non_positive_timeout_is_a_bad_input(tmp_path: Path, capsys: Any) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [{"response": "x"}])
    assert main(["grade", "judge", str(src), "--model", "m", "--timeout", "0"]) == 2
    assert "--timeout must be a positive" in capsys.readouterr().err


def test_a_group_that_fails_is_named_and_the_others_are_graded(
    tmp_path: Path, capsys: Any, fake_ollama: FakeOllama
) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [
        {"group": "a", "response": "x", "reference": "y"},
        {"group": "b", "response": "z", "reference": "y"},
        {"group": "a", "response": "w", "reference": "y"},
    ])
    fake_ollama.reply_text("je ne suis pas du JSON")
    fake_ollama.reply_json({"notes": [{"answer": 1, "correctness": 5, "helpfulness": 5,
                                       "tone": 5, "format": 5,
                                       "justification": "Correct et complet."}]})
    code, lines, err = run(capsys, "grade", "judge", str(src), "--host", fake_ollama.url,
                           "--model", "juge:14b")
    assert code == 1
    assert [(x["response"], x["score"]) for x in lines] == [("x", None), ("z", 1.0),
                                                            ("w", None)]
    assert lines[0]["judge_error"].startswith(f"judge juge:14b at {fake_ollama.url}: reply is")
    assert err.strip().splitlines()[-1] == (f"reviewer: {lines[0]['judge_error']}; lines 1, 3 "
                                            "not graded")
