"""Cross-validate the two constants of the contradiction detector's score.

The deterministic tier (``reviewer/contradiction``) is a hand-written reading of the
rationale; what is *fitted* is only the score's ``PRIOR`` and the ``THRESHOLD``. This
script says how much choosing them on data would help, and how well that choice carries
over to criteria it was not chosen on:

* the figures of the shipped constants on each development file and on both;
* grouped k-fold cross-validation over both files, the folds split by *criterion id*
  (every verdict of a criterion is in the same fold, so a fold's criteria are unseen
  when its constants are chosen): on each training part the (prior, threshold) pair of
  the grid with the best F1 among those keeping precision >= 0.9 is chosen, then
  measured on the held-out criteria;
* the same choice made on one file and measured on the other.

Run ``python scripts/contradiction_cv.py`` (``--folds K``, default 5). Ambiguous items
are excluded, as in ``reviewer contradictions --evaluate``. Deterministic: the folds
are a fixed round-robin over the sorted criterion ids.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reviewer.contradiction.criterion import profile
from reviewer.contradiction.detector import PRIOR, THRESHOLD, parse_verdict
from reviewer.contradiction.scan import scan

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
FILES = ("contradictions_labelled.jsonl", "contradictions_holdout.jsonl")
PRIORS = (0.25, 0.5, 0.75, 1.0)
THRESHOLDS = (0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
MIN_PRECISION = 0.9


@dataclass(frozen=True)
class Mass:
    """What the score is computed from, for one labelled verdict."""

    criterion_id: str
    file: str
    opposite: float
    agreeing: float
    unknown: float
    gold: bool


def masses() -> list[Mass]:
    """The masses of every non-ambiguous item of the development files."""
    out = []
    for name in FILES:
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            if row["label"] == "ambiguous":
                continue
            result = scan(row["rationale"], profile(row["kind"], row["criterion_text"]))
            good = bad = 0.0
            for cue in result.cues:
                mass = cue[1] * result.segment_weights[cue[2]]
                if cue[0] > 0:
                    good += mass
                elif cue[0] < 0:
                    bad += mass
            says_good = parse_verdict(row["verdict"]) == (row["kind"] == "success")
            opposite, agreeing = (bad, good) if says_good else (good, bad)
            out.append(
                Mass(row["criterion_id"], name, opposite, agreeing, result.unknown,
                     row["label"] == "contradiction")
            )
    return out


def flagged(m: Mass, prior: float, threshold: float) -> bool:
    """The detector's decision with these constants (as in ``detect``)."""
    score = max(0.0, m.opposite - m.agreeing) / (m.opposite + m.agreeing + prior + m.unknown)
    return round(min(1.0, score), 4) >= threshold


def figures(items: list[Mass], prior: float, threshold: float) -> tuple[float, float, float]:
    """Precision, recall and F1."""
    tp = sum(1 for m in items if m.gold and flagged(m, prior, threshold))
    fp = sum(1 for m in items if not m.gold and flagged(m, prior, threshold))
    fn = sum(1 for m in items if m.gold and not flagged(m, prior, threshold))
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, 2 * p * r / (p + r) if p + r else 0.0


def choose(items: list[Mass]) -> tuple[float, float]:
    """The grid pair with the best F1 among those with precision >= MIN_PRECISION (the
    shipped pair on ties and when none qualifies)."""
    best = (PRIOR, THRESHOLD)
    best_f1 = -1.0
    for prior in PRIORS:
        for threshold in THRESHOLDS:
            p, _, f1 = figures(items, prior, threshold)
            if p >= MIN_PRECISION and f1 > best_f1 + 1e-9:
                best, best_f1 = (prior, threshold), f1
    return best


def show(label: str, fig: tuple[float, float, float]) -> None:
    print(f"{label:<52} P {fig[0]:.3f}  R {fig[1]:.3f}  F1 {fig[2]:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args()
    items = masses()
    for name in FILES:
        part = [m for m in items if m.file == name]
        show(f"shipped ({PRIOR}, {THRESHOLD}) on {name} ({len(part)})", figures(part, PRIOR,
                                                                                THRESHOLD))
    show(f"shipped on both ({len(items)})", figures(items, PRIOR, THRESHOLD))

    criteria = sorted({m.criterion_id for m in items})
    folds = [set(criteria[k :: args.folds]) for k in range(args.folds)]
    decided: dict[int, bool] = {}
    chosen = []
    for fold in folds:
        train = [m for m in items if m.criterion_id not in fold]
        pair = choose(train)
        chosen.append(pair)
        for k, m in enumerate(items):
            if m.criterion_id in fold:
                decided[k] = flagged(m, *pair)
    tp = sum(1 for k, m in enumerate(items) if m.gold and decided[k])
    fp = sum(1 for k, m in enumerate(items) if not m.gold and decided[k])
    fn = sum(1 for k, m in enumerate(items) if m.gold and not decided[k])
    p, r = tp / max(1, tp + fp), tp / max(1, tp + fn)
    show(f"{args.folds}-fold by criterion id, constants chosen per fold",
         (p, r, 2 * p * r / max(1e-9, p + r)))
    print(f"  chosen (prior, threshold) per fold: {chosen}")
    for train_name, test_name in (FILES, FILES[::-1]):
        pair = choose([m for m in items if m.file == train_name])
        test = [m for m in items if m.file == test_name]
        show(f"chosen on {train_name[15:-6]} {pair}, on {test_name[15:-6]}",
             figures(test, *pair))


if __name__ == "__main__":
    main()
