"""Position bias of the group judge, through the real ollama client and the fake server:
``--orders K`` judges each group in K orders, ``--debias mean`` averages over them."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from reviewer.cli.main import main
from reviewer.errors import BadInputError
from reviewer.graders.judge import Judge, JudgeConfig
from reviewer.graders.position import calls_needed, judge_in_orders, orders_for
from tests.support.fake_ollama import FakeOllama, GroupJudge

PROMPT = "Comment partager un rapport avec un client ?"
REFERENCE = "Ouvrez le rapport, cliquez sur Partager, choisissez le client."
ANSWERS = {
    "Cliquez sur Partager sur le rapport et choisissez le client.": (4, 5),
    "Utilisez le bouton Partager de votre rapport pour le leur envoyer.": (4, 5),
    "Ouvrez le rapport, cliquez sur Partager et choisissez l'administrateur.": (2, 1),
    "Envoyez-le par e-mail.": (3, 2),
}
WACC = {
    "Le WACC ressort à 9,95 %, 10,3 %, 4,2 % et 1 700 M.": (4, 4),
    "Le WACC est de 1,33 %": (2, 1),
    "WACC ≈ 9,91 % ; 10,34 % ; 4,15 % ; 1 705 M$.": (5, 5),
}
QUALITY = {text: q for text, (q, _) in (ANSWERS | WACC).items()}


def write_set(path: Path) -> Path:
    rows = [{"group": "partage", "prompt": PROMPT, "reference": REFERENCE, "response": t,
             "human": h} for t, (_, h) in ANSWERS.items()]
    rows += [{"group": "wacc", "prompt": "Calcule le WACC.", "reference": "WACC ≈ 9,91 %",
              "response": t, "human": h} for t, (_, h) in WACC.items()]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def calibrate(fake: FakeOllama, src: Path, *extra: str) -> tuple[dict[str, Any], str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["calibrate", str(src), "--json", "--graders", "judge,rouge_l",
                     "--host", fake.url, "--model", "juge:14b", *extra])
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue()), err.getvalue()


def test_rotations_show_every_answer_at_every_position() -> None:
    assert orders_for(3, 3) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert orders_for(4, 2) == [(0, 1, 2, 3), (2, 3, 0, 1)]  # half a turn
    assert orders_for(2, 5) == [(0, 1), (1, 0)]  # no repeated order: two calls, not five
    assert orders_for(1, 3) == [(0,)]
    assert calls_needed([4, 3, 1], 3) == 3 + 3 + 1


def test_shuffled_orders_are_seeded_distinct_and_start_with_the_files() -> None:
    first = orders_for(5, 4, "shuffle", seed=7, label="g1")
    assert first == orders_for(5, 4, "shuffle", seed=7, label="g1")
    assert first[0] == (0, 1, 2, 3, 4) and len(set(first)) == 4
    assert all(sorted(o) == [0, 1, 2, 3, 4] for o in first)
    assert first != orders_for(5, 4, "shuffle", seed=8, label="g1")
    assert len(orders_for(3, 10, "shuffle")) == 6  # only 3! orders exist
    for k in (0, 17):  # MAX_ORDERS is 16 (ninth hostile pass Q4)
        with pytest.raises(BadInputError, match="from 1 to 16"):
            orders_for(3, k)


def test_notes_are_mapped_back_to_their_answers(fake_ollama: FakeOllama) -> None:
    judge_server = GroupJudge.preferring_first(QUALITY)
    fake_ollama.responder = judge_server
    judge = Judge(JudgeConfig(model="juge:14b", host=fake_ollama.url, timeout=5.0))
    texts = list(ANSWERS)
    run = judge_in_orders(judge, PROMPT, REFERENCE, texts, orders_for(4, 3))
    # Order 2 showed B, C, D, A: the judge saw B first.
    assert judge_server.seen[1] == [texts[1], texts[2], texts[3], texts[0]]
    # A: first (4+3 → 5), then last (4−3 → 1), then third (4−1 → 3): notes 5, 1, 3.
    assert run.answer_scores(0) == [1.0, 0.0, 0.5]
    assert run.spread()[0] == 1.0
    assert run.mean_scores()[0] == pytest.approx(0.5)


def test_a_judge_preferring_positions_is_caught_and_debiased(
    fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    fake_ollama.responder = GroupJudge.preferring_first(QUALITY)
    src = write_set(tmp_path / "set.jsonl")
    plain, err = calibrate(fake_ollama, src, "--orders", "3")
    # The cost is announced before the run: 2 groups, 3 orders each.
    assert "2 groups × up to 3 order(s) = 6 call(s)" in err
    assert len(fake_ollama.chat_requests) == 6
    position = plain["position"]
    assert position["calls"] == 6 and position["debias"] == "none"
    assert position["consistency"] < 1
    partage = position["per_group"]["partage"]
    assert partage["consistency"] < 1
    assert max(partage["spread"]) > 0
    # Without --debias the judge's score is the file order's, where position 1 won.
    first_order = partage["scores"][0]
    assert plain["graders"]["judge"]["per_group"]["partage"]["scores"] == first_order

    debiased, _ = calibrate(fake_ollama, src, "--orders", "3", "--debias", "mean")
    scores = debiased["graders"]["judge"]["per_group"]["partage"]["scores"]
    means = [sum(col) / 3 for col in zip(*partage["scores"], strict=True)]
    assert scores == pytest.approx(means)
    assert scores != first_order
    # Averaging the orders undoes part of the bias: the judge agrees better with the human.
    assert (debiased["graders"]["judge"]["pairwise_accuracy"]
            > plain["graders"]["judge"]["pairwise_accuracy"])
    # ROUGE-L does not depend on the judge's orders.
    assert debiased["graders"]["rouge_l"] == plain["graders"]["rouge_l"]


def test_an_unbiased_judge_is_consistent_and_debiasing_changes_nothing(
    fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    fake_ollama.responder = GroupJudge(QUALITY)
    src = write_set(tmp_path / "set.jsonl")
    plain, _ = calibrate(fake_ollama, src, "--orders", "3", "--order-mode", "shuffle")
    assert plain["position"]["consistency"] == 1.0
    for group in plain["position"]["per_group"].values():
        assert group["consistency"] == 1.0
        assert group["spread"] == [0.0] * len(group["spread"])
    debiased, _ = calibrate(fake_ollama, src, "--orders", "3", "--order-mode", "shuffle",
                            "--debias", "mean")
    assert debiased["graders"]["judge"] == plain["graders"]["judge"]
    assert plain["graders"]["judge"]["pairwise_accuracy"] == 1.0


def test_a_single_order_reports_no_position_figure(
    fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    fake_ollama.responder = GroupJudge(QUALITY)
    data, err = calibrate(fake_ollama, write_set(tmp_path / "set.jsonl"))
    assert "= 2 call(s)" in err
    assert data["position"]["consistency"] is None  # one order measures nothing
    assert data["best"] == "judge"
