"""Read verdict files and measure the deterministic tier against labelled items.

Input lines (JSONL) carry ``criterion_id``, ``kind`` ("success"/"failure"),
``criterion_text``, ``verdict`` and ``rationale``; other keys are ignored. A labelled
file adds ``label`` ∈ {"contradiction", "consistent", "ambiguous"} and optionally
``lang``. Ambiguous items are excluded from the figures (and counted).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from reviewer.contradiction.detector import KINDS, Detection, detect, parse_verdict
from reviewer.errors import BadInputError
from reviewer.input_bytes import decoded_lines
from reviewer.json_input import load_json

LABELS = ("contradiction", "consistent", "ambiguous")


@dataclass(frozen=True, slots=True)
class Item:
    """One verdict to check, with where it came from (for error messages)."""

    line: int
    criterion_id: str
    kind: str
    criterion_text: str
    verdict: bool
    rationale: str
    label: str | None = None
    lang: str = ""


def read_items(path: Path, *, labelled: bool = False) -> Iterator[Item]:
    """Yield the items of a JSONL file; blank lines are skipped.

    Raises :class:`BadInputError` as ``FILE:LINE: what is wrong`` on the first bad line.
    """
    # Read in bounded pieces (``reviewer.input_bytes``), like a run file: a text reader
    # grew one line of /dev/zero until memory ran out (fourth hostile pass, MEM).
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    with handle:
        for number, raw in decoded_lines(handle, path):
            if not raw.strip():
                continue
            yield _parse_line(raw, f"{path}:{number}", number, labelled)


def _parse_line(raw: str, where: str, number: int, labelled: bool) -> Item:
    obj = load_json(raw, where)
    if not isinstance(obj, dict):
        raise BadInputError(f"{where}: expected a JSON object")
    kind = obj.get("kind")
    if kind not in KINDS:
        raise BadInputError(f"{where}: 'kind' must be 'success' or 'failure', not {kind!r}")
    for key in ("criterion_id", "criterion_text", "rationale"):
        if key in obj and not isinstance(obj[key], str):
            raise BadInputError(f"{where}: '{key}' must be a string")
    if not isinstance(obj.get("rationale"), str):
        raise BadInputError(f"{where}: 'rationale' is missing")
    if "verdict" not in obj:
        raise BadInputError(f"{where}: 'verdict' is missing")
    try:
        verdict = parse_verdict(obj["verdict"])
    except ValueError as exc:
        raise BadInputError(f"{where}: {exc}") from exc
    label = obj.get("label")
    if labelled and label not in LABELS:
        raise BadInputError(f"{where}: 'label' must be one of {', '.join(LABELS)}, not {label!r}")
    lang = obj.get("lang")
    return Item(
        line=number,
        criterion_id=obj.get("criterion_id") or "",
        kind=kind,
        criterion_text=obj.get("criterion_text") or "",
        verdict=verdict,
        rationale=obj["rationale"],
        label=label if labelled else None,
        lang=lang if isinstance(lang, str) else "",
    )


def detect_item(item: Item, at_base_rate: bool = False) -> Detection:
    """Run the deterministic tier on one item (at even odds, or at a run's base rate)."""
    return detect(
        item.kind, item.verdict, item.rationale, item.criterion_text, item.criterion_id,
        at_base_rate=at_base_rate,
    )


@dataclass(slots=True)
class Counts:
    """A confusion matrix with the usual figures."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, predicted: bool, actual: bool) -> None:
        """Count one decision."""
        if predicted and actual:
            self.tp += 1
        elif predicted:
            self.fp += 1
        elif actual:
            self.fn += 1
        else:
            self.tn += 1

    @property
    def precision(self) -> float:
        """Share of flagged items that are contradictions (1.0 when nothing is flagged)."""
        flagged = self.tp + self.fp
        return self.tp / flagged if flagged else 1.0

    @property
    def recall(self) -> float:
        """Share of contradictions that are flagged (1.0 when there are none)."""
        actual = self.tp + self.fn
        return self.tp / actual if actual else 1.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict[str, float | int]:
        """Counts and rounded figures, for JSON output."""
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


@dataclass(slots=True)
class Evaluation:
    """Figures of the deterministic tier on a labelled file.

    ``overall``, ``by_cell`` and ``by_lang`` count detections at even odds (the figure
    of a labelled set with about as many contradictions as consistent verdicts);
    ``flagged`` counts what the app flags, detections at a real run's base rate (the
    figure of a base-rate run's verdicts)."""

    overall: Counts = field(default_factory=Counts)
    flagged: Counts = field(default_factory=Counts)
    by_cell: dict[str, Counts] = field(default_factory=dict)
    by_lang: dict[str, Counts] = field(default_factory=dict)
    ambiguous: int = 0
    ambiguous_flagged: int = 0

    def as_dict(self) -> dict[str, object]:
        """Everything, for ``--json``."""
        return {
            **self.overall.as_dict(),
            "items": self.overall.tp + self.overall.fp + self.overall.fn + self.overall.tn,
            "ambiguous_excluded": self.ambiguous,
            "ambiguous_flagged": self.ambiguous_flagged,
            "at_base_rate": self.flagged.as_dict(),
            "by_cell": {k: v.as_dict() for k, v in sorted(self.by_cell.items())},
            "by_lang": {k: v.as_dict() for k, v in sorted(self.by_lang.items())},
        }


def cell_of(item: Item) -> str:
    """The polarity cell of an item: "success/oui", "failure/non"…"""
    return f"{item.kind}/{'oui' if item.verdict else 'non'}"


def evaluate(path: Path) -> Evaluation:
    """Measure the deterministic tier on a labelled JSONL file (ambiguous excluded)."""
    result = Evaluation()
    for item in read_items(path, labelled=True):
        flagged = detect_item(item).contradiction
        if item.label == "ambiguous":
            result.ambiguous += 1
            result.ambiguous_flagged += flagged
            continue
        actual = item.label == "contradiction"
        result.overall.add(flagged, actual)
        result.flagged.add(detect_item(item, at_base_rate=True).contradiction, actual)
        result.by_cell.setdefault(cell_of(item), Counts()).add(flagged, actual)
        result.by_lang.setdefault(item.lang or "?", Counts()).add(flagged, actual)
    return result
