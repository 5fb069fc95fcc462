"""The judge grader against the fake Ollama server, through the real ollama client."""

from __future__ import annotations

import json
import re
import socket
from typing import Any

import pytest

from reviewer.errors import BadInputError, JudgeError
from reviewer.graders.batch import grade_rows, iter_graded
from reviewer.graders.judge import Judge, JudgeConfig, JudgeNotes
from reviewer.graders.rows import Row
from tests.support.fake_ollama import FakeOllama, Reply

PROMPT = "Comment partager un rapport avec un client ?"
REFERENCE = "Ouvrez le rapport, cliquez sur Partager, choisissez le client."
ANSWERS = [
    "Cliquez sur Partager sur le rapport et choisissez le client.",
    "Utilisez le bouton Partager de votre rapport pour le leur envoyer.",
    "Ouvrez le rapport, cliquez sur Partager et choisissez l'administrateur.",
]


def note(answer: int, c: int, h: int, t: int, f: int, why: str = "Correct.") -> dict[str, Any]:
    return {
        "answer": answer,
        "correctness": c,
        "helpfulness": h,
        "tone": t,
        "format": f,
        "justification": why,
    }


def make_judge(fake: FakeOllama, **kw: Any) -> Judge:
    config = {"model": "juge:14b", "host": fake.url, "timeout": 5.0, "backoff": 0.0, **kw}
    return Judge(JudgeConfig(**config))


def test_one_call_notes_every_answer_and_maps_to_unit_interval(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_json(
        {
            "notes": [
                note(1, 5, 5, 4, 4, "Correct et complet."),
                note(2, 4, 4, 5, 5, "Correct, reformulé."),
                note(3, 1, 1, 1, 1, "Mauvais destinataire."),
            ]
        }
    )
    notes = make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, ANSWERS)
    assert [n.score for n in notes] == [(4.5 - 1) / 4, (4.5 - 1) / 4, 0.0]
    assert notes[2] == JudgeNotes(1, 1, 1, 1, "Mauvais destinataire.")
    assert len(fake_ollama.chat_requests) == 1


def test_request_is_deterministic_structured_and_shows_everything(
    fake_ollama: FakeOllama,
) -> None:
    fake_ollama.reply_json({"notes": [note(i, 3, 3, 3, 3) for i in (1, 2, 3)]})
    make_judge(fake_ollama, seed=7).grade_group(PROMPT, REFERENCE, ANSWERS)
    sent = fake_ollama.chat_requests[0]
    assert sent["model"] == "juge:14b"
    options = dict(sent["options"])
    assert options.pop("num_ctx") >= 2048 and options.pop("num_predict") > 3 * 100
    assert options == {"temperature": 0, "seed": 7}
    assert sent["think"] is False
    assert sent["stream"] is False
    notes_schema = sent["format"]["properties"]["notes"]
    assert notes_schema["minItems"] == notes_schema["maxItems"] == 3
    user = sent["messages"][-1]["content"]
    for text in (PROMPT, REFERENCE, *ANSWERS):
        assert text in user
    assert user.index(ANSWERS[0]) < user.index(ANSWERS[1]) < user.index(ANSWERS[2])
    assert "Réponse de référence" in user
    assert "exactitude" in sent["messages"][0]["content"]  # French instructions


def test_context_size_is_fixed_when_set_else_sized_to_the_prompt(
    fake_ollama: FakeOllama,
) -> None:
    # Ollama's default context cuts a long group silently: every request now says how
    # much context it needs (issue 19; before, num_ctx was only sent when set)
    for _ in range(3):
        fake_ollama.reply_json({"notes": [note(1, 3, 3, 3, 3)]})
    make_judge(fake_ollama, num_ctx=16384).grade_group(PROMPT, REFERENCE, ANSWERS[:1])
    make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, ANSWERS[:1])
    long_answer = "Ouvrez le rapport et cliquez sur Partager. " * 800  # ~ 11,000 tokens
    make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, [long_answer])
    first, second, third = fake_ollama.chat_requests
    assert first["options"]["num_ctx"] == 16384
    assert second["options"]["num_ctx"] == 2048  # the smallest step holds a short group
    assert third["options"]["num_ctx"] > len(long_answer) // 4  # a long one gets room


def test_a_group_too_long_for_the_context_is_refused_before_sending(
    fake_ollama: FakeOllama,
) -> None:
    long_answer = "Ouvrez le rapport et cliquez sur Partager. " * 800
    with pytest.raises(JudgeError, match=r"prompt too long for the judge: about \d+ tokens"):
        make_judge(fake_ollama, num_ctx=4096).grade_group(PROMPT, REFERENCE, [long_answer])
    with pytest.raises(JudgeError, match=r"more than the 8192-token context allowed"):
        make_judge(fake_ollama, max_ctx=8192).grade_group(PROMPT, REFERENCE, [long_answer])
    assert fake_ollama.chat_requests == []


def test_notes_returned_out_of_order_go_to_the_right_answer(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_json({"notes": [note(2, 5, 5, 5, 5), note(1, 1, 1, 1, 1)]})
    scores = make_judge(fake_ollama).scores(PROMPT, REFERENCE, ANSWERS[:2])
    assert scores == [0.0, 1.0]


def test_reasoning_is_ignored_only_content_is_parsed(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_thinking(
        thinking='{"notes": []} je réfléchis…',
        content='{"notes": [{"answer": 1, "correctness": 3, "helpfulness": 3, "tone": 3, '
        '"format": 3, "justification": "moyen"}]}',
    )
    assert make_judge(fake_ollama).scores(PROMPT, REFERENCE, ANSWERS[:1]) == [0.5]


def test_malformed_json_is_a_judge_error_naming_host_and_model(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_text('{"notes": [{"answer": 1, "correctness": 5')
    with pytest.raises(JudgeError) as err:
        make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, ANSWERS)
    message = str(err.value)
    assert "juge:14b" in message and fake_ollama.url in message
    assert "not valid JSON" in message and "\n" not in message
    assert len(fake_ollama.chat_requests) == 1  # same seed, same output: no retry


@pytest.mark.parametrize(
    ("reply", "fragment"),
    [
        ({"notes": [note(1, 4, 4, 4, 4), note(2, 4, 4, 4, 4)]}, "missing [3]"),
        ({"notes": [note(1, 6, 4, 4, 4), note(2, 4, 4, 4, 4), note(3, 4, 4, 4, 4)]}, "schema"),
        ({"verdicts": []}, "schema"),
        ([note(1, 4, 4, 4, 4)], "schema"),
        ({"notes": [note(1, 4, 4, 4, 4)] * 3}, "missing [2, 3]"),
    ],
)
def test_replies_that_do_not_note_every_answer_are_refused(
    fake_ollama: FakeOllama, reply: Any, fragment: str
) -> None:
    fake_ollama.reply_json(reply)
    with pytest.raises(JudgeError, match=re.escape(fragment)):
        make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, ANSWERS)


def test_http_500_is_retried_then_succeeds(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_error(500, "model runner crashed")
    fake_ollama.reply_json({"notes": [note(1, 5, 5, 5, 5)]})
    assert make_judge(fake_ollama).scores(PROMPT, REFERENCE, ANSWERS[:1]) == [1.0]
    assert len(fake_ollama.chat_requests) == 2


def test_persistent_http_500_gives_up_after_bounded_retries(fake_ollama: FakeOllama) -> None:
    for _ in range(5):
        fake_ollama.reply_error(500, "model runner crashed")
    with pytest.raises(JudgeError, match=r"HTTP 500: model runner crashed \(after 3 attempts\)"):
        make_judge(fake_ollama, retries=2).grade_group(PROMPT, REFERENCE, ANSWERS)
    assert len(fake_ollama.chat_requests) == 3
    assert fake_ollama.pending == 2


def test_client_errors_are_not_retried(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_error(404, 'model "juge:14b" not found, try pulling it first')
    with pytest.raises(JudgeError, match=r"HTTP 404: model .* not found"):
        make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, ANSWERS)
    assert len(fake_ollama.chat_requests) == 1


def test_slow_reply_times_out_and_is_retried(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_json({"notes": [note(1, 5, 5, 5, 5)]}, delay=5.0)
    fake_ollama.reply_json({"notes": [note(1, 5, 5, 5, 5)]}, delay=5.0)
    with pytest.raises(JudgeError, match=r"no reply within 0.3 s \(after 2 attempts\)"):
        make_judge(fake_ollama, timeout=0.3, retries=1).grade_group(PROMPT, REFERENCE, ANSWERS[:1])
    assert len(fake_ollama.chat_requests) == 2


def test_slow_reply_then_quick_one_succeeds(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_json({"notes": [note(1, 1, 1, 1, 1)]}, delay=5.0)
    fake_ollama.reply_json({"notes": [note(1, 5, 5, 5, 5)]})
    judge = make_judge(fake_ollama, timeout=0.3, retries=1)
    assert judge.scores(PROMPT, REFERENCE, ANSWERS[:1]) == [1.0]


def test_no_server_is_a_connection_judge_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    judge = Judge(
        JudgeConfig(model="juge:14b", host=f"http://127.0.0.1:{port}", retries=1, backoff=0)
    )
    with pytest.raises(JudgeError, match=rf"juge:14b at http://127.0.0.1:{port}: cannot connect"):
        judge.grade_group(PROMPT, REFERENCE, ANSWERS)


def test_a_non_ollama_reply_is_a_judge_error(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_raw("<html>502 Bad Gateway</html>")
    with pytest.raises(JudgeError, match="unexpected reply from the server"):
        make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, ANSWERS)


def test_an_invalid_host_is_a_bad_input() -> None:
    with pytest.raises(BadInputError, match=r"judge host 'http://\[::1': not a URL"):
        Judge(JudgeConfig(model="juge:14b", host="http://[::1"))


def test_a_model_name_is_required() -> None:
    with pytest.raises(BadInputError, match="model"):
        Judge(JudgeConfig(model=" "))


def _notes_for_every_answer(request: dict[str, Any]) -> Reply:
    """Scripted by content: the answer whose text says 'bien' gets 5s, others 2s."""
    user = request["messages"][-1]["content"]
    answers = re.findall(r"### Réponse (\d+)\n(.*)", user)
    return Reply.json(
        {
            "notes": [
                note(int(i), *(5, 5, 5, 5) if "bien" in text else (2, 2, 2, 2))
                for i, text in answers
            ]
        }
    )


def test_grade_rows_calls_the_judge_once_per_group(fake_ollama: FakeOllama) -> None:
    fake_ollama.responder = _notes_for_every_answer
    rows = [
        Row("in.jsonl", 1, "pas terrible", prompt="p1", reference="r1", group="a"),
        Row("in.jsonl", 2, "très bien", prompt="p2", reference="r2", group="b"),
        Row("in.jsonl", 3, "bien vu", prompt="p1", reference="r1", group="a"),
        Row("in.jsonl", 4, "non", prompt="p2", reference="r2", group="b"),
        Row("in.jsonl", 5, "bien", prompt="p2", reference="r2", group="b"),
    ]
    done: list[tuple[int, int]] = []
    graded = grade_rows(
        rows, "judge", judge=make_judge(fake_ollama), progress=lambda d, t: done.append((d, t))
    )
    assert [g.score for g in graded] == [0.25, 1.0, 1.0, 0.25, 1.0]
    assert len(fake_ollama.chat_requests) == 2
    assert done == [(1, 2), (2, 2)]
    first_user = fake_ollama.chat_requests[0]["messages"][-1]["content"]
    assert (
        "pas terrible" in first_user and "bien vu" in first_user and "très bien" not in first_user
    )


def test_judge_plus_numbers_uses_the_judge_alone_without_figures(fake_ollama: FakeOllama) -> None:
    fake_ollama.responder = _notes_for_every_answer
    rows = [
        Row("in.jsonl", 1, "bien : 9,95 %", prompt="p", reference="Le WACC vaut 9,91 %"),
        Row("in.jsonl", 2, "bien, partagez", prompt="q", reference="Cliquez sur Partager."),
        Row("in.jsonl", 3, "faux : 20 %", prompt="r", reference="Le WACC vaut 9,91 %"),
    ]
    graded = grade_rows(rows, "judge+numbers", judge=make_judge(fake_ollama))
    assert [g.score for g in graded] == [1.0, 1.0, 0.5 * 0.25 + 0.5 * 0.0]
    assert graded[1].components == {"numeric": None, "judge": 1.0}


def test_judge_plus_similarity_weights_70_30(fake_ollama: FakeOllama) -> None:
    fake_ollama.responder = _notes_for_every_answer
    rows = [Row("in.jsonl", 1, "pas bien du tout", prompt="p", reference="pas bien du tout")]
    graded = grade_rows(rows, "judge+similarity", judge=make_judge(fake_ollama))
    assert graded[0].score == pytest.approx(0.7 * 1.0 + 0.3 * 1.0)
    rows = [Row("in.jsonl", 1, "non", prompt="p", reference="Oui, tout à fait.")]
    graded = grade_rows(rows, "judge+similarity", judge=make_judge(fake_ollama))
    assert graded[0].score == pytest.approx(0.7 * 0.25 + 0.3 * 0.0)


def test_schema_keys_the_answers_one_to_n_and_asks_a_justification(
    fake_ollama: FakeOllama,
) -> None:
    fake_ollama.reply_json({"notes": [note(i, 3, 3, 3, 3) for i in (1, 2, 3)]})
    make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, ANSWERS)
    notes = fake_ollama.chat_requests[0]["format"]["properties"]["notes"]
    assert [item["properties"]["answer"]["enum"] for item in notes["prefixItems"]] == [
        [1], [2], [3]]
    assert notes["items"] is False
    assert all(item["properties"]["justification"]["minLength"] == 5
               for item in notes["prefixItems"])


@pytest.mark.parametrize(("reply", "fragment"), [
    ({"notes": [note(12, 4, 4, 4, 4)]},
     "reply notes answers [12] for a group of 1 answer (numbered 1 to 1) (missing [1])"),
    ({"notes": [note(1, 4, 4, 4, 4, ",")]}, "justification: String should have at least 5"),
    ({"notes": [note(1, 4, 4, 4, 4, "    ")]}, "justification: String should have at least 5"),
])
def test_numbering_and_justification_faults_are_refused(
    fake_ollama: FakeOllama, reply: Any, fragment: str
) -> None:
    fake_ollama.reply_json(reply)
    with pytest.raises(JudgeError, match=re.escape(fragment)):
        make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, ANSWERS[:1])


def test_a_cut_reply_or_prompt_is_an_error_not_a_grade(fake_ollama: FakeOllama) -> None:
    cut = Reply.text('{"notes": [{"answer": 1, "correctness": 5')
    cut.done_reason, cut.reply_tokens = "length", 224
    fake_ollama.push(cut)
    with pytest.raises(JudgeError, match=r"juge:14b at .*: reply cut at 224 tokens$"):
        make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, ANSWERS[:1])
    fake_ollama.force_options = {"num_ctx": 128}  # a server ignoring the client's num_ctx
    fake_ollama.reply_json({"notes": [note(1, 5, 5, 5, 5)]})
    long_answer = "Cliquez sur Partager puis choisissez le client. " * 60
    with pytest.raises(JudgeError, match=r"prompt cut by the server: 128 of about \d+ tokens"):
        make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, [long_answer])
    assert len(fake_ollama.chat_requests) == 2  # neither retried


@pytest.mark.parametrize("notes", [
    [note(1, 5, 5, 5, 5), note(1, 1, 1, 1, 1)], [note(1, 1, 1, 1, 1), note(1, 5, 5, 5, 5)],
], ids=["high-low", "low-high"])
def test_two_notes_for_one_answer_are_refused_whichever_comes_first(
    fake_ollama: FakeOllama, notes: list[dict[str, Any]]
) -> None:
    """Ninth hostile pass, J1, on the grader's judge: a reply noting the one answer twice
    is a fault, never the first (or last) note."""
    fake_ollama.reply_json({"notes": notes})
    with pytest.raises(JudgeError, match=re.escape(
            "reply notes answers [1, 1] for a group of 1 answer (numbered 1 to 1)")):
        make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, ANSWERS[:1])


def test_a_reply_the_server_did_not_mark_done_is_an_error_not_a_grade(
    fake_ollama: FakeOllama,
) -> None:
    """Ninth hostile pass, J1 (low): a reply with ``"done": false`` was graded."""
    fake_ollama.push(Reply(content=json.dumps({"notes": [note(1, 5, 5, 5, 5)]}),
                           extra={"done": False}))
    with pytest.raises(JudgeError, match=r'juge:14b at .*: reply incomplete \(the server '
                                         r'sent "done": false\)$'):
        make_judge(fake_ollama).grade_group(PROMPT, REFERENCE, ANSWERS[:1])
    assert len(fake_ollama.chat_requests) == 1  # not retried: the same request, the same reply


def test_think_sends_think_and_keeps_the_reasoning_with_the_notes(
    fake_ollama: FakeOllama,
) -> None:
    fake_ollama.reply_thinking("Les deux réponses disent de partager.",
                               json.dumps({"notes": [note(1, 5, 5, 5, 5)]}))
    [notes] = make_judge(fake_ollama, think=True).grade_group(PROMPT, REFERENCE, ANSWERS[:1])
    assert fake_ollama.chat_requests[0]["think"] is True
    assert notes.reasoning == "Les deux réponses disent de partager."
    assert notes.as_dict()["reasoning"] == "Les deux réponses disent de partager."


def test_a_failing_group_is_reported_and_the_others_graded(fake_ollama: FakeOllama) -> None:
    rows = [Row("in.jsonl", 1, "a", prompt="p1", group="a"),
            Row("in.jsonl", 2, "b", prompt="p2", group="b"),
            Row("in.jsonl", 3, "c", prompt="p1", group="a"),
            Row("in.jsonl", 4, "d", prompt="p3", group="c")]
    fake_ollama.reply_json({"notes": [note(12, 5, 5, 5, 5), note(2, 5, 5, 5, 5)]})  # "12"
    fake_ollama.reply_raw("<html>proxy</html>")
    fake_ollama.reply_json({"notes": [note(1, 5, 5, 5, 5)]})
    told: list[tuple[str, list[int]]] = []

    graded = list(iter_graded(rows, "judge", judge=make_judge(fake_ollama),
                              on_failure=lambda m, g: told.append((m, [r.line for r in g]))))

    assert [g.score for g in graded] == [None, None, None, 1.0]
    assert "reply notes answers [12, 2]" in graded[0].judge_error
    assert graded[0].judge_error == graded[2].judge_error
    assert "unexpected reply from the server" in graded[1].judge_error
    assert [lines for _, lines in told] == [[1, 3], [2]]
    assert graded[0].as_dict("judge")["judge_error"] == graded[0].judge_error


def test_a_fault_every_group_would_hit_stops_and_says_how_many_are_left(
    fake_ollama: FakeOllama,
) -> None:
    rows = [Row("in.jsonl", n, "x", prompt=f"p{n}") for n in range(1, 6)]
    fake_ollama.reply_json({"notes": [note(1, 5, 5, 5, 5)]})
    fake_ollama.responder = lambda body: Reply.error(500, "llama runner process has terminated")
    out = []
    with pytest.raises(JudgeError, match=r"HTTP 500: llama runner process has terminated "
                                         r"\(3 times in a row\); 2 of 5 groups not graded"):
        for g in iter_graded(rows, "judge", judge=make_judge(fake_ollama, retries=0)):
            out.append(g.score)
    assert out == [1.0, None, None]


def test_a_number_too_long_in_a_reply_is_said_in_words(fake_ollama: FakeOllama) -> None:
    """Eighth hostile pass, M2: a 5,000-digit integer in the judge's reply gave Python's
    advice ("use sys.set_int_max_str_digits() …") as the group's error, or "(ValueError)"
    when it was in the HTTP body; the other groups are still graded."""
    rows = [Row("in.jsonl", 1, "a", prompt="p1", group="a"),
            Row("in.jsonl", 2, "b", prompt="p2", group="b"),
            Row("in.jsonl", 3, "c", prompt="p3", group="c")]
    long_number = "1" * 5000
    fake_ollama.reply_text('{"notes": [], "n": ' + long_number + "}")
    fake_ollama.reply_raw('{"model": "m", "message": {"role": "assistant", "content": "{}"}, '
                          '"done": true, "eval_count": ' + long_number + "}",
                          content_type="application/json")
    fake_ollama.reply_json({"notes": [note(1, 5, 5, 5, 5)]})

    graded = list(iter_graded(rows, "judge", judge=make_judge(fake_ollama)))

    where = f"judge juge:14b at {fake_ollama.url}"
    assert [g.judge_error for g in graded] == [
        f"{where}: reply is not usable JSON: it holds a number with more than 4,300 digits",
        f"{where}: unexpected reply from the server (the server's reply holds a number "
        "with more than 4,300 digits: is this an Ollama server?)",
        ""]
    assert graded[2].score == 1.0


def test_a_note_naming_a_key_twice_is_refused_and_the_next_group_graded(
        fake_ollama: FakeOllama) -> None:
    """Tenth hostile pass, Z2 (the grader's judge): an object naming one key twice was read
    as its last value; which one the judge meant cannot be told."""
    rows = [Row("in.jsonl", 1, "a", prompt="p1", group="a"),
            Row("in.jsonl", 2, "b", prompt="p2", group="b")]
    fake_ollama.reply_text('{"notes": [{"answer": 1, "answer": 1, "correctness": 5, '
                           '"helpfulness": 5, "tone": 5, "format": 5, '
                           '"justification": "Correct."}]}')
    fake_ollama.reply_json({"notes": [note(1, 5, 5, 5, 5)]})

    graded = list(iter_graded(rows, "judge", judge=make_judge(fake_ollama)))

    assert [g.judge_error for g in graded] == [
        f"judge juge:14b at {fake_ollama.url}: reply gives the key 'answer' twice in one "
        "object: which one is meant cannot be told", ""]
    assert graded[0].score is None and graded[1].score == 1.0
