"""The turns the preference export leaves unread lose no pair.

``reviewer.exports.walk._may_choose`` skips a conversation's last turn when the filter
refused every attempt of it (the generator gave up), unless a reviewer touched the
conversation or a second opinion judged it. A rescue on such a turn is a pair (the
rescued answer against a refusal that stands): if the skip ignored the reviewer, that
pair would be lost. The export must hold exactly the pairs of a plain reading.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.cli.main import main
from reviewer.exports.preference import PreferenceOptions, export_preference
from reviewer.store import Store
from tests.exports.realistic import make_run
from tests.exports.test_preference_plain_reading import plain_lines
from tests.support.run_files import write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends


def given_up_turns(rows: list[dict[str, object]]) -> set[tuple[str, int]]:
    """(conversation, turn) of each last turn whose every attempt the filter refused."""
    last: dict[str, int] = {}
    accepted: dict[tuple[str, int], bool] = {}
    for row in rows:
        conv, turn = str(row["conversation"]), int(str(row["turn"]))
        last[conv] = max(last.get(conv, 0), turn)
        accepted[(conv, turn)] = accepted.get((conv, turn), False) or bool(row["accepted"])
    return {(c, t) for (c, t), ok in accepted.items() if t == last[c] and not ok}


@pytest.mark.parametrize("filter_refusals", [True, False])
def test_a_rescue_on_a_given_up_last_turn_is_still_paired(
        store: Store, db_url: str, tmp_path: Path, filter_refusals: bool) -> None:
    rows, truth = make_run(5, conversations=40)
    given_up = given_up_turns(rows)
    rescued = {key for key in truth.rescue
               if (key.split("/")[1], int(key.split("/")[2])) in given_up}
    assert rescued, "the generated run must rescue an attempt of a given-up turn"
    path = write_jsonl(tmp_path / "run.jsonl", rows)
    assert main(["--db", db_url, "import", str(path), "--catalog",
                 str(write_catalog(tmp_path / "catalog.json"))]) == 0
    assert main(["--db", db_url, "--reviewer", "associe", "decide", "--from-csv",
                 str(truth.write_csv(tmp_path / "decisions.csv"))]) == 0

    options = PreferenceOptions(include_filter_refusals=filter_refusals)
    out = tmp_path / "pairs.jsonl"
    with store.session() as s:
        report = export_preference(s, out, options)

    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert written == plain_lines(store, options)
    if filter_refusals:  # the rescued answer against the filter's refusals of its turn
        assert rescued & {p["chosen"] for p in report.pairs}
