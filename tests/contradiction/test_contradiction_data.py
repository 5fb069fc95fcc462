"""Schema and coverage checks for the hand-labelled contradiction data sets.

These files are the yardstick of the contradiction detector, so they are checked
on their own terms (valid records, balanced cells, enough hard cases) and never
through the detector itself.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from rapidfuzz import fuzz, process

DATA = Path(__file__).parents[1] / "data"
LABELLED = DATA / "contradictions_labelled.jsonl"
HOLDOUT = DATA / "contradictions_holdout.jsonl"
# Second holdout, written independently of the first two files and of the detector.
HOLDOUT2 = DATA / "contradictions_holdout2.jsonl"

KEYS = {"id", "lang", "criterion_id", "kind", "criterion_text", "verdict", "rationale",
        "label", "tags", "note"}
VERDICTS = {"fr": {"oui", "non"}, "en": {"oui", "non", "yes", "no"}}
LABELS = {"contradiction", "consistent", "ambiguous"}
POSITIVE = {"oui", "yes"}
CELLS = [(kind, positive) for kind in ("success", "failure") for positive in (True, False)]
HARD_TAGS = ["negation", "ne-que", "double-negation", "quote", "truncated", "hedge",
             "restate", "other-criterion", "implied", "failure-negative-wording"]
# Two rationales this similar (rapidfuzz ratio, 0-100) count as a near-duplicate.
NEAR_DUPLICATE = 85

Record = dict[str, Any]


def load(path: Path) -> list[Record]:
    """Parse a JSONL file, failing with the line number on invalid JSON."""
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:  # pragma: no cover - message only
            pytest.fail(f"{path.name} line {n}: {exc}")
    return rows


@pytest.fixture(scope="module")
def files() -> dict[str, list[Record]]:
    """Every data set, keyed by a short name."""
    return {"labelled": load(LABELLED), "holdout": load(HOLDOUT), "holdout2": load(HOLDOUT2)}


def normalise(text: str) -> str:
    """Case- and whitespace-insensitive form used to compare rationales."""
    return " ".join(text.casefold().split())


@pytest.mark.parametrize("name", ["labelled", "holdout", "holdout2"])
def test_records_follow_the_schema(files: dict[str, list[Record]], name: str) -> None:
    """Every record has exactly the agreed keys and values from the agreed sets."""
    for row in files[name]:
        assert set(row) == KEYS, row.get("id")
        assert row["verdict"] in VERDICTS[row["lang"]], row["id"]
        assert row["label"] in LABELS, row["id"]
        expected_kind = "success" if row["criterion_id"].startswith("G-") else "failure"
        assert row["kind"] == expected_kind, row["id"]
        assert row["rationale"].strip() and row["criterion_text"].strip(), row["id"]
        assert isinstance(row["tags"], list) and isinstance(row["note"], str), row["id"]


def test_ids_are_unique_across_both_files(files: dict[str, list[Record]]) -> None:
    """An id names one item, whichever file it is in."""
    ids = [row["id"] for rows in files.values() for row in rows]
    assert [i for i, c in Counter(ids).items() if c > 1] == []


def test_no_rationale_is_repeated_or_near_duplicated(files: dict[str, list[Record]]) -> None:
    """Each rationale is written once: no copy, and no templated near-copy."""
    texts = [normalise(row["rationale"]) for rows in files.values() for row in rows]
    assert [t for t, c in Counter(texts).items() if c > 1] == []
    scores = process.cdist(texts, texts, scorer=fuzz.ratio, score_cutoff=NEAR_DUPLICATE)
    pairs = [(texts[i], texts[j]) for i, j in zip(*scores.nonzero(), strict=True) if i < j]
    assert pairs == []


@pytest.mark.parametrize(
    ("name", "minimum"), [("labelled", 240), ("holdout", 120), ("holdout2", 260)]
)
def test_sizes_and_shares(files: dict[str, list[Record]], name: str, minimum: int) -> None:
    """Enough items, ~70% French, 35-45% contradictions, ~10% ambiguous."""
    rows = files[name]
    assert len(rows) >= minimum
    share = Counter(row["lang"] for row in rows)
    assert 0.6 <= share["fr"] / len(rows) <= 0.8
    labels = Counter(row["label"] for row in rows)
    assert 0.35 <= labels["contradiction"] / len(rows) <= 0.45
    assert 0.05 <= labels["ambiguous"] / len(rows) <= 0.15


@pytest.mark.parametrize("name", ["labelled", "holdout", "holdout2"])
@pytest.mark.parametrize(("kind", "positive"), CELLS)
def test_every_cell_has_both_labels(
    files: dict[str, list[Record]], name: str, kind: str, positive: bool
) -> None:
    """Each kind x verdict cell holds contradictions and consistent items, in both languages."""
    cell = [r for r in files[name] if r["kind"] == kind and (r["verdict"] in POSITIVE) == positive]
    labels = Counter(row["label"] for row in cell)
    assert labels["contradiction"] >= 10 and labels["consistent"] >= 10, labels
    assert {row["lang"] for row in cell} == {"fr", "en"}


@pytest.mark.parametrize("name", ["labelled", "holdout", "holdout2"])
@pytest.mark.parametrize("tag", HARD_TAGS)
def test_hard_cases_are_covered(files: dict[str, list[Record]], name: str, tag: str) -> None:
    """At least ten items per hard case, and not all of one label."""
    tagged = [row for row in files[name] if tag in row["tags"]]
    assert len(tagged) >= 10
    labels = {row["label"] for row in tagged}
    assert {"contradiction", "consistent"} <= labels, labels


@pytest.mark.parametrize("name", ["labelled", "holdout", "holdout2"])
def test_negation_and_seed_pattern_in_both_languages(
    files: dict[str, list[Record]], name: str
) -> None:
    """Negation is exercised in French and English; the seed's pattern appears several times."""
    rows = files[name]
    negated = Counter(row["lang"] for row in rows if "negation" in row["tags"])
    assert negated["fr"] >= 10 and negated["en"] >= 10
    assert sum("seed" in row["tags"] for row in rows) >= 5


@pytest.mark.parametrize("name", ["labelled", "holdout", "holdout2"])
def test_tags_agree_with_the_text(files: dict[str, list[Record]], name: str) -> None:
    """'truncated' means the rationale ends on an ellipsis; wording tags sit on failures."""
    for row in files[name]:
        cut = row["rationale"].rstrip().endswith(("…", "..."))
        assert cut == ("truncated" in row["tags"]), row["id"]
        if "failure-negative-wording" in row["tags"]:
            assert row["kind"] == "failure", row["id"]


def test_holdout_rationales_stay_between_8_and_60_words(files: dict[str, list[Record]]) -> None:
    """The holdout spans short and long rationales within the agreed range."""
    lengths = [len(row["rationale"].split()) for row in files["holdout"]]
    assert min(lengths) >= 8 and max(lengths) <= 60
    assert max(lengths) >= 40


def test_holdout_uses_criteria_absent_from_the_labelled_file(
    files: dict[str, list[Record]],
) -> None:
    """Generalisation: the holdout grades some criteria the labelled file never shows."""
    seen = {row["criterion_id"] for row in files["labelled"]}
    unseen = {row["criterion_id"] for row in files["holdout"]} - seen
    assert len(unseen) >= 3


def test_holdout2_grades_criteria_of_its_own(files: dict[str, list[Record]]) -> None:
    """The second holdout grades at least six criteria neither earlier file uses."""
    seen = {row["criterion_id"] for name in ("labelled", "holdout") for row in files[name]}
    unseen = {row["criterion_id"] for row in files["holdout2"]} - seen
    assert len(unseen) >= 6, unseen


# --- the training files and the blind sets (session 2) -----------------------------------
# Training files teach the learned reading (scripts/train_contradiction.py); the blind
# sets measure it and never train it. Each was written by its own writer, who saw
# neither the detector nor the other files.
TRAIN = sorted((Path(__file__).parents[2] / "assets" / "contradiction" / "train").glob("*.jsonl"))
BLIND = [DATA / "contradictions_holdout3.jsonl", DATA / "contradictions_holdout4.jsonl"]
REQUIRED = KEYS - {"note"}  # "note" is optional in these files


@pytest.mark.parametrize("path", TRAIN + BLIND, ids=lambda p: p.name)
def test_training_and_blind_records_follow_the_schema(path: Path) -> None:
    rows = load(path)
    assert len(rows) >= 300
    for row in rows:
        assert REQUIRED <= set(row) <= KEYS, row.get("id")
        assert row["verdict"] in VERDICTS[row["lang"]], row["id"]
        assert row["label"] in LABELS, row["id"]
        expected_kind = "success" if row["criterion_id"].startswith("G-") else "failure"
        assert row["kind"] == expected_kind, row["id"]
        assert row["rationale"].strip() and row["criterion_text"].strip(), row["id"]
    labels = Counter(row["label"] for row in rows)
    decided = labels["contradiction"] + labels["consistent"]
    assert 0.4 <= labels["contradiction"] / decided <= 0.6  # both labels well represented
    assert labels["ambiguous"] / len(rows) <= 0.15


def test_ids_are_unique_across_every_file(files: dict[str, list[Record]]) -> None:
    ids = [row["id"] for rows in files.values() for row in rows]
    ids += [row["id"] for path in TRAIN + BLIND for row in load(path)]
    assert [i for i, c in Counter(ids).items() if c > 1] == []


def test_no_blind_rationale_is_copied_from_a_training_one(
    files: dict[str, list[Record]]
) -> None:
    """A blind item that also trains would measure memory, not generalisation."""
    trained = {normalise(row["rationale"]) for rows in files.values() for row in rows}
    trained |= {normalise(row["rationale"]) for path in TRAIN for row in load(path)}
    copied = [row["id"] for path in BLIND for row in load(path)
              if normalise(row["rationale"]) in trained]
    assert copied == []
