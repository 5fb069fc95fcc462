"""The preference export holds exactly the pairs a plain reading of the store gives.

The export reads only the turns that can pair, splices stored context text, and writes
its JSON by hand (``reviewer.exports.walk``, ``preference``, ``json_string``). The plain
reading here does none of that: every attempt's context is decoded by the ORM, every
turn is looked at, the pairs are built as the module docstring of
``reviewer.exports.preference`` says, and ``json.loads`` of each written line must give
these values, in this order. Only who labelled an attempt (its final status and a
tainted context) comes from the walk over every attempt, which the dataset tests pin.

The store is generated (``tests.exports.realistic``), reviewed from a CSV, then roughened
so that every reading path is taken: contexts stored in another JSON spelling, answers
with quotes, tabs, line feeds, control characters and astral characters, and a turn whose
two attempts gave the same answer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from models import Attempt
from reviewer.cli.main import main
from reviewer.exports.preference import PreferenceOptions, export_preference
from reviewer.exports.walk import BY_REVIEWER, Node, clean_messages, walk_conversations, well_formed
from reviewer.store import Store
from tests.exports.realistic import make_run
from tests.support.run_files import write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends

ODD = ' « cité » "entre guillemets"\ttab\nligne \\ \x01 🙂'
PARAGRAPHS = "\n\nSuite à l'épisode 🙂\n"  # line feeds alone: json_string's own path


def roughen(store: Store) -> None:
    """Other spellings of some stored contexts, odd characters in some answers, and one
    turn whose retry repeats the first answer."""
    with store.session() as s:
        rows = s.execute(select(Attempt.id, Attempt.messages, Attempt.response,
                                Attempt.conversation_id, Attempt.turn, Attempt.accepted)
                         .order_by(Attempt.id)).all()
        for aid, messages, response, *_ in rows:
            if aid % 7 == 0:  # compact, keys reversed: the same values, other text
                s.execute(update(Attempt).where(Attempt.id == aid).values(
                    messages=[{"content": m["content"], "role": m["role"]} for m in messages]))
            if aid % 5 in (0, 1):
                s.execute(update(Attempt).where(Attempt.id == aid).values(
                    response=response + (ODD if aid % 5 == 0 else PARAGRAPHS)))
        refused = {(c, t): r for _, _, r, c, t, accepted in rows if not accepted}
        retries = [(aid, refused[(c, t)]) for aid, _, _, c, t, accepted in rows
                   if accepted and (c, t) in refused]
        for aid, answer in retries[::3]:  # the accepted retry says what was refused
            s.execute(update(Attempt).where(Attempt.id == aid).values(response=answer))


@pytest.fixture
def reviewed(store: Store, db_url: str, tmp_path: Path) -> Store:
    for seed, run in ((28, "run-a"), (16, "run-b")):
        rows, truth = make_run(seed, conversations=30, run=run)
        path = write_jsonl(tmp_path / f"{run}.jsonl", rows)
        assert main(["--db", db_url, "import", str(path), "--catalog",
                     str(write_catalog(tmp_path / "catalog.json"))]) == 0
        assert main(["--db", db_url, "--reviewer", "associe", "decide", "--from-csv",
                     str(truth.write_csv(tmp_path / f"{run}.csv"))]) == 0
    roughen(store)
    return store


def plain_contexts(store: Store) -> dict[int, tuple[list[dict[str, str]] | None, str]]:
    """Each attempt's context as the ORM decodes it (cleaned), and its answer."""
    with store.session() as s:
        return {aid: (clean_messages(m) if isinstance(m, list) else None, r)
                for aid, m, r in s.execute(select(Attempt.id, Attempt.messages,
                                                  Attempt.response))}


def plain_lines(store: Store, options: PreferenceOptions) -> list[dict[str, Any]]:
    """The lines of the export, read plainly (see the module docstring)."""
    texts = plain_contexts(store)

    def usable(node: Node) -> bool:
        context, _ = texts[node.id]
        return well_formed(context) and (node.taint is None or options.keep_tainted)

    def rejectable(node: Node) -> bool:
        return not node.accepted and usable(node) and (
            options.include_filter_refusals or node.source == BY_REVIEWER)

    def message(node: Node) -> dict[str, str]:
        return {"role": "assistant", "content": texts[node.id][1]}

    lines: list[dict[str, Any]] = []
    with store.session() as s:
        for walk in walk_conversations(s, content=True, causes=True):
            for nodes in walk.turns:
                chosen = [n for n in nodes if n.accepted and usable(n)]
                rejected = [n for n in nodes if rejectable(n)]
                if options.fmt == "kto":
                    lines += [{"prompt": texts[n.id][0], "completion": [message(n)],
                               "label": n in chosen} for n in nodes
                              if n in chosen or n in rejected]
                    continue
                lines += [{"prompt": texts[good.id][0], "chosen": [message(good)],
                           "rejected": [message(bad)]}
                          for good in chosen for bad in rejected
                          if texts[bad.id][0] == texts[good.id][0]
                          and texts[bad.id][1] != texts[good.id][1]]
    if options.fmt == "openai-dpo":
        return [{"input": {"messages": line["prompt"]}, "preferred_output": line["chosen"],
                 "non_preferred_output": line["rejected"]} for line in lines]
    return lines


@pytest.mark.parametrize(("fmt", "filter_refusals"), [
    ("dpo", True), ("dpo", False), ("openai-dpo", True), ("kto", True)])
def test_every_pair_of_a_plain_reading_and_nothing_else(
        reviewed: Store, tmp_path: Path, fmt: str, filter_refusals: bool) -> None:
    options = PreferenceOptions(fmt=fmt, include_filter_refusals=filter_refusals)
    out = tmp_path / f"{fmt}.jsonl"
    with reviewed.session() as s:
        report = export_preference(s, out, options)

    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    expected = plain_lines(reviewed, options)
    assert written == expected
    assert report.lines == len(expected) > (10 if filter_refusals else 0)
    if fmt == "dpo" and filter_refusals:  # the roughened and the repeated answers are read
        answers = [line[side][0]["content"] for line in written
                   for side in ("chosen", "rejected")]
        assert any(ODD in a for a in answers) and any(PARAGRAPHS in a for a in answers)
        assert report.identical >= 1
        for line in written:  # one prompt, two different answers
            assert line["chosen"] != line["rejected"]
