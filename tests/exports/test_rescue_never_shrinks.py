"""Rescuing answers never shrinks the training set (issue 17).

End to end from the command line, as a reviewer does it: import a realistic run, export,
decide from a CSV (rescue every unjust refusal with the override that makes the rule
agree, reject every false accept), export again. The per-turn dataset then holds every
example it had before except those holding a rejected answer, plus every rescued
attempt, and no rejected answer anywhere (not even in a context); per conversation, the
answers on each chain are still there up to the first rejected one. On the demo,
accepting K refused attempts adds exactly K examples.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from models import Attempt
from reviewer.cli.main import main
from reviewer.exports.dataset import DatasetOptions, export_dataset
from reviewer.ingest.demo import load_demo
from reviewer.review.decisions import Change, apply_change
from reviewer.store import Store
from tests.exports.realistic import make_run
from tests.support.run_files import write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def answers(example: dict[str, Any]) -> list[str]:
    """Every assistant message of an example, context included."""
    return [m["content"] for m in example["messages"] if m["role"] == "assistant"]


def frozen(example: dict[str, Any]) -> str:
    return json.dumps(example, ensure_ascii=False, sort_keys=True)


def export(db_url: str, out: Path, *extra: str) -> list[dict[str, Any]]:
    assert main(["--db", db_url, "export", "dataset", str(out), *extra]) == 0
    return read(out)


@pytest.mark.parametrize("seed", [3, 11])
def test_rescues_add_examples_and_rejections_remove_only_themselves(
        db_url: str, tmp_path: Path, seed: int) -> None:
    rows, truth = make_run(seed)
    run = write_jsonl(tmp_path / "run.jsonl", rows)
    catalog = write_catalog(tmp_path / "catalog.json")
    assert main(["--db", db_url, "import", str(run), "--catalog", str(catalog)]) == 0
    before = export(db_url, tmp_path / "before.jsonl")
    chains_before = export(db_url, tmp_path / "before-conv.jsonl", "--per", "conversation")

    assert main(["--db", db_url, "--reviewer", "associe", "decide", "--from-csv",
                 str(truth.write_csv(tmp_path / "decisions.csv"))]) == 0
    after = export(db_url, tmp_path / "after.jsonl")
    chains_after = export(db_url, tmp_path / "after-conv.jsonl", "--per", "conversation")

    by_key = {f"{r['run']}/{r['conversation']}/{r['turn']}/{r['attempt']}": r for r in rows}
    rejected = {by_key[k]["response"] for k in truth.reject}
    assert rejected and truth.rescue  # the run has both, or the test proves nothing
    after_set = {frozen(e) for e in after}
    # Nothing the reviewer rejected, as an answer or inside a context.
    assert not [e for e in after if rejected & set(answers(e))]
    # Every example of before is still there, unless it holds a rejected answer.
    kept = [e for e in before if not rejected & set(answers(e))]
    assert [e for e in kept if frozen(e) not in after_set] == []
    # Every rescued attempt is an example with the context it was generated in, unless
    # that context holds a rejected answer.
    rescued = [{"messages": [*by_key[k]["messages"],
                             {"role": "assistant", "content": by_key[k]["response"]}]}
               for k in truth.rescue]
    rescued = [e for e in rescued if not rejected & set(answers(e))]
    assert rescued and [e for e in rescued if frozen(e) not in after_set] == []
    assert len(after) == len(kept) + len(rescued)
    # Conversations to regenerate after a rejected answer start from a clean context.
    resume = tmp_path / "resume.jsonl"
    assert main(["--db", db_url, "export", "resume", str(resume)]) == 0
    again = [r for r in read(resume) if r["reason"] == "rejected"]
    assert again and not [r for r in again if rejected & set(answers(r))]
    # Per conversation: the chain's answers up to the first rejected one are kept.
    after_chains = {e["messages"][1]["content"].split(" : ")[0]: answers(e)
                    for e in chains_after}
    assert not [a for chain in after_chains.values() for a in chain if a in rejected]
    for example in chains_before:
        conversation = example["messages"][1]["content"].split(" : ")[0]
        chain = answers(example)
        prefix = chain[:next((i for i, a in enumerate(chain) if a in rejected), len(chain))]
        if prefix:
            assert after_chains[conversation][:len(prefix)] == prefix, conversation


def test_demo_accepting_k_refused_attempts_adds_k_examples(store: Store, tmp_path: Path
                                                          ) -> None:
    load_demo(store)
    with store.session() as s:
        refused = list(s.scalars(select(Attempt.id).where(Attempt.accepted.is_(False))
                                 .order_by(Attempt.id)))
    assert len(refused) > 27

    def count(name: str) -> int:
        with store.session() as s:
            return export_dataset(s, tmp_path / name).examples

    assert count("none.jsonl") == 113
    done = 0
    for k in (1, 27, len(refused)):
        with store.session() as s:
            for aid in refused[done:k]:
                apply_change(s, "associe", Change(aid, "decision", "accept"))
        done = k
        assert count(f"k{k}.jsonl") == 113 + k


def test_two_accepted_attempts_of_a_turn_and_the_pick(store: Store, tmp_path: Path) -> None:
    rows, _ = make_run(5)
    run = write_jsonl(tmp_path / "run.jsonl", rows)
    from reviewer.ingest.importer import import_run

    import_run(store, run, catalog_path=write_catalog(tmp_path / "catalog.json"))
    accepted: dict[tuple[str, int], list[int]] = {}
    for r in rows:
        if r["accepted"]:
            accepted.setdefault((r["conversation"], r["turn"]), []).append(r["attempt"])
    several = {k: v for k, v in accepted.items() if len(v) > 1}
    assert several
    reports = {}
    for pick in ("all", "first", "last"):
        with store.session() as s:
            reports[pick] = export_dataset(s, tmp_path / f"{pick}.jsonl",
                                           options=DatasetOptions(pick=pick))
        manifest = json.loads((tmp_path / f"{pick}.jsonl.manifest.json").read_text())
        dropped = sum(len(v) - 1 for v in several.values())
        assert manifest["several_accepted"]["turns"] == len(several)
        assert manifest["several_accepted"]["dropped"] == {"all": 0, "first": dropped,
                                                           "last": dropped}
        assert len(manifest["several_accepted"]["dropped_here"]) == (
            0 if pick == "all" else dropped)
    assert reports["all"].examples == reports["first"].examples + dropped
    assert reports["first"].examples == reports["last"].examples
    last = {frozen(e) for e in read(tmp_path / "last.jsonl")}
    first = {frozen(e) for e in read(tmp_path / "first.jsonl")}
    every = {frozen(e) for e in read(tmp_path / "all.jsonl")}
    assert first | last == every and first != last


def test_a_rejected_answer_is_found_in_a_context_that_does_not_continue_it_exactly(
        store: Store, tmp_path: Path) -> None:
    # The generator stored the next context with the answer trimmed and an extra key:
    # no attempt's context plus answer is its start, but the rejected text is in it.
    rows, _ = make_run(1, conversations=1)
    first = next(r for r in rows if r["turn"] == 1 and r["accepted"])
    first["response"] = first["response"] + "  "
    for r in rows:
        if r["turn"] == 2:
            r["messages"][2] = {**r["messages"][2], "name": "assistant-1"}
    from reviewer.ingest.importer import import_run

    import_run(store, write_jsonl(tmp_path / "run.jsonl", rows),
               catalog_path=write_catalog(tmp_path / "catalog.json"))
    key = f"{first['run']}/{first['conversation']}/1/{first['attempt']}"
    with store.session() as s:
        apply_change(s, "associe", Change(attempt_of(store, key), "decision", "reject"))
    out = tmp_path / "train.jsonl"
    with store.session() as s:
        report = export_dataset(s, out)
    texts = [a.strip() for e in read(out) for a in answers(e)]
    assert first["response"].strip() not in texts
    assert [t["context_answer"] for t in report.tainted] and all(
        t["context_answer"] == key for t in report.tainted)


def attempt_of(store: Store, key: str) -> int:
    from reviewer.keys import AttemptKey
    from reviewer.review.queue import attempt_id_for

    with store.session() as s:
        found = attempt_id_for(s, AttemptKey.parse(key))
    assert found is not None
    return found
