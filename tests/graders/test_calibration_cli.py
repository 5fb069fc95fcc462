"""``reviewer calibrate`` as a user runs it: the report, the verdict, the seed's share
example, the advice, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reviewer.cli.main import main
from tests.support.fake_ollama import FakeOllama, GroupJudge

DATA = Path(__file__).parent / "data" / "calibration_set.jsonl"
REFERENCE = "Ouvrez le rapport, cliquez sur Partager, choisissez le client."
SHARE = [  # the seed's three answers, as a careful human ranks them
    ("Cliquez sur Partager sur le rapport et choisissez le client.", 4),  # A, right
    ("Utilisez le bouton Partager de votre rapport pour le leur envoyer.", 5),  # B, right
    ("Ouvrez le rapport, cliquez sur Partager et choisissez l'administrateur.", 1),  # C
]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def share_rows() -> list[dict[str, Any]]:
    return [{"group": "partage", "prompt": "Comment partager un rapport ?",
             "reference": REFERENCE, "response": text, "human": human}
            for text, human in SHARE]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["calibrate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_seeds_share_example_rouge_l_puts_the_wrong_recipient_first(
    tmp_path: Path, capsys: Any
) -> None:
    src = write_jsonl(tmp_path / "share.jsonl", share_rows())
    code, out, _ = run(capsys, str(src), "--graders", "rouge_l", "--json")
    assert code == 0
    group = json.loads(out)["graders"]["rouge_l"]["per_group"]["partage"]
    scores = group["scores"]
    assert max(scores) == scores[2]  # C, the wrong recipient, first by ROUGE-L
    assert min(scores) == scores[1]  # B, the correct paraphrase, last
    assert sorted(group["inverted"]) == [[0, 2], [1, 0], [1, 2]]  # every pair reversed
    assert group["pairwise_accuracy"] == 0.0 and group["kendall_tau_b"] == -1.0
    # GRPO would reinforce C and push B down; the human's advantages say the opposite.
    human = json.loads(out)["human"]["partage"]["advantages"]
    assert group["advantages"][2] > 0 > human[2]
    assert group["advantages"][1] < 0 < human[1]


def test_the_text_report_names_the_best_grader_and_the_pairs_others_invert(
    tmp_path: Path, capsys: Any
) -> None:
    rows = share_rows()
    for r in rows:
        r["expected"] = "Partager"
    code, out, _ = run(capsys, str(write_jsonl(tmp_path / "s.jsonl", rows)),
                       "--graders", "contains,rouge_l")
    assert code == 0
    assert "Best agreement: contains" in out
    loses = next(line for line in out.splitlines() if line.startswith("rouge_l loses"))
    assert loses.startswith("rouge_l loses: pairwise accuracy 0.000, τ-b -1.000; "
                            "inverts 3 pair(s): ")
    for pair in ("C above B (you: B above C)", "C above A (you: A above C)",
                 "A above B (you: B above A)"):
        assert f"partage: {pair}" in loses
    assert "contains scores equal 3 of the 3 pairs you separate" in out  # all-or-nothing
    assert "[similarity-on-free-text]" in out  # the seed's common mistake, from the lint
    assert "Seed's table: start with" in out
    assert "GRPO advantages per group" in out


def test_default_graders_skip_groups_they_cannot_score(capsys: Any) -> None:
    code, out, err = run(capsys, str(DATA), "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data["graders"]) == ["exact", "contains", "rouge_l", "numeric"]
    assert data["groups"] == data["groups_in_file"] == 12
    assert data["graders"]["exact"]["skipped"] == 8  # groups without 'expected'
    assert {a["code"] for a in data["advice"]} >= {"numbers-without-figures"}
    assert data["position"] is None


def test_judge_graders_join_the_default_with_a_model(
    fake_ollama: FakeOllama, capsys: Any
) -> None:
    fake_ollama.responder = GroupJudge()
    code, out, err = run(capsys, str(DATA), "--json", "--host", fake_ollama.url,
                         "--model", "juge:14b", "--policy-model", "juge:14b")
    assert code == 0
    data = json.loads(out)
    assert list(data["graders"])[-3:] == ["judge", "judge+similarity", "judge+numbers"]
    assert "12 groups × up to 1 order(s) = 12 call(s)" in err
    assert len(fake_ollama.chat_requests) == 12  # one call per group, shared by the graders
    assert any(a["code"] == "same-model" for a in data["advice"])


@pytest.mark.parametrize(
    ("rows", "argv", "message"),
    [
        ([{"response": "x"}], [], "in.jsonl:1: 'human' is required"),
        ([{"response": "x", "human": "5"}], [],  # there, but no number (ninth pass C2)
         "in.jsonl:1: 'human' must be a number (found a string)"),
        ([{"response": "x", "human": 1}], ["--graders", "exact,nope"], "unknown grader nope"),
        ([{"response": "x", "human": 1}], ["--graders", "judge"], "needs a judge model"),
        ([{"response": "x", "human": 1, "reference": "y"}], ["--graders", "rouge_l",
                                                             "--orders", "3"],
         "--orders and --debias measure the judge"),
        ([{"response": "x", "human": 1}], ["--graders", "mix"], "needs --weights"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: Any, rows: list[dict[str, Any]], argv: list[str], message: str
) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    code, _, err = run(capsys, str(src), *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_unscored_groups_wait_and_rows_may_differ_without_a_judge(
    tmp_path: Path, fake_ollama: FakeOllama, capsys: Any
) -> None:
    rows = share_rows()
    rows[0]["human"] = None  # not scored yet: the group is left out
    rows += [{"group": "g2", "reference": "Le taux est de 3 %.", "response": "3 %", "human": 2},
             {"group": "g2", "reference": "Le taux est de 4 %.", "response": "4 %", "human": 1}]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    code, out, _ = run(capsys, str(src), "--graders", "numeric", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["groups"] == 1 and data["groups_in_file"] == 2
    assert data["graders"]["numeric"]["per_group"]["g2"]["scores"] == [1.0, 1.0]
    # The judge reads a group once: its rows must share prompt and reference.
    fake_ollama.responder = GroupJudge()
    code, _, err = run(capsys, str(src), "--graders", "judge", "--model", "j:14b",
                       "--host", fake_ollama.url)
    assert code == 2 and "in.jsonl:5: reference differs from line 4 of the same group" in err
