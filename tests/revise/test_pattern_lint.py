"""Pattern lint: each hole of the seed's pattern that French answers fall into, counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.cli.main import main
from reviewer.ingest.importer import import_run
from reviewer.revise.pattern_lint import lint_pattern
from reviewer.rule.checks import CheckPattern
from reviewer.store import Store
from tests.rule.test_dialects import catalog
from tests.support.feedback_stores import SEED_NEW_PATTERN
from tests.support.run_files import record, write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends

RUN = "2026-10-14-ministral-8b"
ANSWERS = [
    "Il vous suffit de vous inscrire sur la liste de la mairie.",  # caught as written
    "Il suffit de s’inscrire sur la liste de la mairie.",          # typographic apostrophe
    "Pour cela, créez un compte sur le site de la mairie.",        # accent
    "Vous pouvez ouvrir\u00a0un compte en ligne.",                 # no-break space
    "La préinscription à la médiation est gratuite.",              # \b at « é » (JavaScript)
    "Notez la date et l'heure de chaque épisode.",                 # nothing
]


def load(store: Store, folder: Path, dialect: str) -> None:
    rows = [record("lint", turn, 1, response=text) for turn, text in enumerate(ANSWERS, 1)]
    import_run(store, write_jsonl(folder / "r.jsonl", rows),
               catalog_path=write_catalog(folder / "c.json", catalog(dialect)))


def key(turn: int) -> str:
    return f"{RUN}/lint/{turn}/1"


def test_each_hole_is_counted_with_an_example(tmp_path: Path, store: Store) -> None:
    load(store, tmp_path, "ecmascript")
    with store.session() as s:
        found = {f.rule: f for f in lint_pattern(
            s, CheckPattern(SEED_NEW_PATTERN, "i", dialect="ecmascript"))}
    assert {rule: (f.count, f.example_key) for rule, f in found.items()} == {
        "apostrophe": (1, key(2)), "accents": (1, key(3)), "nbsp": (1, key(4)),
        "ascii-boundary": (1, key(5))}
    assert "s’inscrire" in found["apostrophe"].example
    assert "créez un compte" in found["accents"].example
    assert found["ascii-boundary"].line().startswith(
        "\\b next to a non-ASCII letter (JavaScript's \\b is ASCII): 1 response, e.g. "
        f"{key(5)} « La préinscription")


def test_python_has_no_ascii_boundary_hole(tmp_path: Path, store: Store) -> None:
    load(store, tmp_path, "python")
    with store.session() as s:
        rules = [f.rule for f in lint_pattern(s, CheckPattern(SEED_NEW_PATTERN, "i"))]
    assert rules == ["apostrophe", "accents", "nbsp"]


def test_a_pattern_without_the_holes_says_nothing(tmp_path: Path, store: Store) -> None:
    load(store, tmp_path, "ecmascript")
    with store.session() as s:
        assert lint_pattern(s, CheckPattern("3114", dialect="ecmascript")) == []
        # Both apostrophes and accents allowed already: the rewrites change nothing found.
        assert lint_pattern(s, CheckPattern("s['’]inscrire|cr[ée]ez", "i",
                                            dialect="ecmascript")) == []


def test_backtest_cli_prints_the_lint(tmp_path: Path, store: Store, db_url: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    load(store, tmp_path, "ecmascript")
    assert main(["--db", db_url, "backtest", "D-COMMERCE", SEED_NEW_PATTERN]) == 0
    out = capsys.readouterr().out
    assert "lint of the new pattern (4):\n  a literal ' where responses write ’: 1 response" \
        in out
    assert main(["--db", db_url, "backtest", "D-COMMERCE", SEED_NEW_PATTERN, "--json"]) == 0
    lint = json.loads(capsys.readouterr().out)["lint"]
    assert [f["rule"] for f in lint] == ["apostrophe", "accents", "nbsp", "ascii-boundary"]
    assert lint[3]["example"]["attempt"] == key(5)
