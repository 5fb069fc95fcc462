"""Train the contradiction detector's learned reading (``reviewer/contradiction/model.json``).

    python scripts/train_contradiction.py            # fit on every training file, write the model
    python scripts/train_contradiction.py --cv       # leave one file out: P/R/F1 per file, no write
    python scripts/train_contradiction.py --baserate # leave one base-rate run out: calibration
    python scripts/train_contradiction.py --check    # fit again, fail if model.json differs

The model (see :mod:`reviewer.contradiction.learned`) predicts whether a rationale says
the answer behaves well on its criterion. Each hand-labelled verdict gives that target
without the verdict: an item labelled *consistent* leans the way its verdict does, a
*contradiction* the other way; *ambiguous* items are left out. The blind sets
(``BLIND``, and ``tests/data/blind/``) are never read here: they measure the detector,
they do not train it.

The base-rate development runs (``tests/data/baserate/*/verdicts.jsonl``, written by
``scripts/make_baserate.py``) train it too, each distinct rationale once. ``--baserate``
fits without each of them in turn and measures the one left out as a real run is
measured, verdict by verdict at its base rate: that is where the calibration of
``reviewer.contradiction.detector`` (one slope, one offset per kind of verdict) and so
the threshold were chosen.

scikit-learn (a development dependency) fits an L2-regularised logistic regression; the
package only needs the weights, read with the standard library.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reviewer.contradiction.detector import parse_verdict, reading  # noqa: E402
from reviewer.contradiction.learned import (  # noqa: E402
    MODEL_FILE,
    features,
    file_digest,
    words,
)

DEV = [
    "tests/data/contradictions_labelled.jsonl",
    "tests/data/contradictions_holdout.jsonl",
    "tests/data/contradictions_holdout2.jsonl",
]
TRAIN_DIR = "assets/contradiction/train"
BASERATE_DIR = "tests/data/baserate"
BLIND = [
    "tests/data/contradictions_holdout3.jsonl",
    "tests/data/contradictions_holdout4.jsonl",
]
C = 1.0  # inverse regularisation strength, chosen with --cv
MIN_ITEMS = 3  # items a feature must occur in (2, 3 and 5 give the same --cv figures)
OUT = ROOT / "reviewer" / "contradiction" / MODEL_FILE
TOLERANCE = 1e-3  # --check: weights may differ this much between BLAS builds


def baserate_files() -> list[Path]:
    """The verdicts of each base-rate development run."""
    return sorted((ROOT / BASERATE_DIR).glob("*/verdicts.jsonl"))


def training_files() -> list[Path]:
    """The development sets, every file under ``assets/contradiction/train`` and the
    base-rate development runs."""
    files = [ROOT / f for f in DEV] + sorted((ROOT / TRAIN_DIR).glob("*.jsonl"))
    return [f for f in files if f.exists()] + baserate_files()


def load(path: Path, distinct: bool | None = None) -> list[dict[str, Any]]:
    """Non-ambiguous items of one labelled file, each with its target ``good``.

    ``distinct`` keeps one item per criterion and rationale (lowercased): a base-rate
    run repeats its judge's sentences, and a sentence drawn fifty times is still one
    thing to learn. By default, only for base-rate runs."""
    if distinct is None:
        distinct = path.name == "verdicts.jsonl"
    items = []
    seen: set[tuple[str, str]] = set()
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        if item["label"] == "ambiguous":
            continue
        if distinct:
            key = (item["criterion_id"], item["rationale"].strip().lower())
            if key in seen:
                continue
            seen.add(key)
        verdict_good = parse_verdict(item["verdict"]) == (item["kind"] == "success")
        item["good"] = verdict_good != (item["label"] == "contradiction")
        item["verdict_good"] = verdict_good
        items.append(item)
    return items


def featurize(item: dict[str, Any]) -> dict[str, float]:
    """The features the package computes for this verdict."""
    result, good, bad = reading(item["kind"], item["rationale"], item.get("criterion_text", ""))
    return features(item["kind"], words(result), good, bad, item["criterion_id"])


def fit(items: list[dict[str, Any]], c: float = C) -> tuple[float, dict[str, float]]:
    """Bias and weights by feature name."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform([featurize(i) for i in items]).tocsc()
    # A feature seen in fewer than MIN_ITEMS items learns that item, not a way of
    # speaking; dropping them also keeps the tables small enough to stay in cache.
    seen = (x != 0).sum(axis=0).A1
    keep = seen >= MIN_ITEMS
    x = x[:, keep]
    y = [i["good"] for i in items]
    regression = LogisticRegression(C=c, max_iter=10_000).fit(x, y)
    names = vectorizer.get_feature_names_out()[keep]
    weights = {str(n): float(w) for n, w in zip(names, regression.coef_[0], strict=True)}
    return float(regression.intercept_[0]), weights


def cross_validate(files: list[Path], c: float) -> None:
    """Leave each file out in turn; print what the detector would flag on it at the
    shipped calibration (``reviewer.contradiction.detector.calibrated``), then the pooled
    figures on the balanced files by threshold on the model's log-odds alone (no prior)."""
    from reviewer.contradiction.detector import calibrated
    from reviewer.contradiction.learned import Model

    data = {f: load(f) for f in files}
    pooled: list[tuple[float, bool, bool]] = []  # (z, verdict good, truth), balanced files
    by_tag: dict[str, list[tuple[float, bool, bool]]] = {}
    for held in files:
        bias, weights = fit([i for f in files if f != held for i in data[f]], c)
        fitted = Model(bias, weights)
        tp = fp = fn = 0
        # A run is measured verdict by verdict, repeats included, as a real run is.
        measured = load(held, distinct=False) if held in baserate_files() else data[held]
        for item in measured:
            z = _opposite(fitted, item)
            truth = item["label"] == "contradiction"
            if held not in baserate_files():
                pooled.append((z, item["verdict_good"], truth))
                for tag in item.get("tags", []):
                    by_tag.setdefault(tag, []).append((z, item["verdict_good"], truth))
            # A base-rate run is read at its base rate, a labelled set at even odds.
            flagged = calibrated(z, item["verdict_good"],
                                 at_base_rate=held in baserate_files())
            tp += flagged and truth
            fp += flagged and not truth
            fn += truth and not flagged
        _report(_name(held), tp, fp, fn)
    print("balanced files pooled, at even odds (what detect() says by default):")
    _report("  even odds", *_counts(pooled, "even"))
    print("balanced files pooled, at the shipped calibration (flagged on a run):")
    _report("  calibrated", *_counts(pooled, None))
    print("balanced files pooled, by log-odds of the opposite (no base-rate prior):")
    for t in (0.0, 0.4, 1.0, 2.0, 3.0):
        _report(f"  z >= {t}", *_counts(pooled, t))
    print("balanced files pooled, by tag of the data (read at even odds):")
    for tag, readings in sorted(by_tag.items(), key=lambda kv: -len(kv[1])):
        _report(f"  {tag} ({len(readings)})", *_counts(readings, "even"))


def _name(path: Path) -> str:
    return path.parent.name if path.name == "verdicts.jsonl" else path.name


def _opposite(model: Any, item: dict[str, Any]) -> float:
    """The fitted model's log-odds that the rationale says the opposite of the verdict."""
    result, _good, _bad = reading(item["kind"], item["rationale"], item.get("criterion_text", ""))
    z = model.logit(item["kind"], result, item["criterion_id"])
    return -z if item["verdict_good"] else z


def baserate(files: list[Path], c: float) -> None:
    """Leave each base-rate run out in turn, measure it verdict by verdict (every
    verdict, repeats included, as a real run is measured), then fit the calibration on
    the pooled readings and print the figures at it."""
    from reviewer.contradiction.detector import calibrated
    from reviewer.contradiction.learned import Model

    runs = baserate_files()
    readings: list[tuple[float, bool, bool, str]] = []  # (z, verdict good, truth, run)
    for held in runs:
        bias, weights = fit([i for f in files if f != held for i in load(f)], c)
        fitted = Model(bias, weights)
        for item in load(held, distinct=False):
            readings.append((_opposite(fitted, item), item["verdict_good"],
                             item["label"] == "contradiction", held.parent.name))
    _calibration(readings)
    print("at the shipped calibration (score >= THRESHOLD):")
    for name in [r.parent.name for r in runs] + ["pooled"]:
        rows = [r for r in readings if name in ("pooled", r[3])]
        for cell, label in ((None, "all"), (False, "bad verdict"), (True, "good verdict")):
            part = [r for r in rows if cell is None or r[1] == cell]
            tp = sum(1 for z, good, truth, _ in part if truth and calibrated(z, good))
            fp = sum(1 for z, good, truth, _ in part if not truth and calibrated(z, good))
            fn = sum(1 for z, good, truth, _ in part if truth and not calibrated(z, good))
            negatives = sum(1 for r in part if not r[2])
            _report(f"  {name} {label}", tp, fp, fn)
            print(f"{'':40s} false-flag rate {fp / max(negatives, 1):.4f} "
                  f"({fp} of {negatives} consistent)")


def _calibration(readings: list[tuple[float, bool, bool, str]]) -> None:
    """Fit P(contradiction) = sigmoid(slope * z + offset[verdict good]) on the pooled
    out-of-run readings and print it, with the threshold in z it puts per kind."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    x = np.array([[z * (not good), z * good, float(not good), float(good)]
                  for z, good, _t, _r in readings])
    y = [truth for _z, _g, truth, _r in readings]
    for side, name in ((False, "bad"), (True, "good")):
        part = [truth for _z, good, truth, _r in readings if good == side]
        print(f"prior: {sum(part)} contradictions among {len(part)} {name} verdicts "
              f"({sum(part) / max(len(part), 1):.4f})")
    fitted = LogisticRegression(C=1e6, fit_intercept=False, max_iter=10_000).fit(x, y)
    slope_bad, slope_good, bad, good = (float(w) for w in fitted.coef_[0])
    print(f"calibration fitted on {len(readings)} out-of-run verdicts: "
          f"bad verdict sigmoid({slope_bad:.3f} z {bad:+.3f}) (0.5 at z = "
          f"{-bad / slope_bad:.2f}), good verdict sigmoid({slope_good:.3f} z {good:+.3f}) "
          f"(0.5 at z = {-good / slope_good:.2f})")


def _counts(readings: list[tuple[float, bool, bool]], threshold: float | str | None
            ) -> tuple[int, int, int]:
    """True positives, false positives and false negatives: flagged when ``z >=
    threshold``, at the shipped calibration when ``threshold`` is None, read at even
    odds when it is "even"."""
    from reviewer.contradiction.detector import calibrated

    def flagged(z: float, good: bool) -> bool:
        if threshold == "even":
            return calibrated(z, good, at_base_rate=False)
        return calibrated(z, good) if threshold is None else z >= float(threshold)

    tp = sum(1 for z, g, truth in readings if flagged(z, g) and truth)
    fp = sum(1 for z, g, truth in readings if flagged(z, g) and not truth)
    fn = sum(1 for z, g, truth in readings if not flagged(z, g) and truth)
    return tp, fp, fn


def _report(name: str, tp: int, fp: int, fn: int) -> None:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    print(f"{name:40s} precision {precision:.3f}  recall {recall:.3f}  F1 {f1:.3f}"
          f"  (tp {tp} fp {fp} fn {fn})")


def model_json(files: list[Path], c: float) -> dict[str, Any]:
    """The model file's content, fitted on ``files``."""
    items = [i for f in files for i in load(f)]
    bias, weights = fit(items, c)
    return {
        "about": "Logistic regression of reviewer.contradiction.learned, written by "
                 "scripts/train_contradiction.py; do not edit by hand.",
        "C": c,
        "items": len(items),
        "trained_on": {
            str(f.relative_to(ROOT)): file_digest(f.read_bytes()) for f in files
        },
        "bias": round(bias, 6),
        "weights": {k: round(v, 6) for k, v in sorted(weights.items())},
    }


def check(files: list[Path], c: float) -> int:
    """0 when fitting again gives model.json (same files, features, weights within
    ``TOLERANCE``), else 1 with the first difference."""
    shipped = json.loads(OUT.read_text("utf-8"))
    fresh = model_json(files, c)
    if shipped["trained_on"] != fresh["trained_on"]:
        print("model.json was trained on other data; run scripts/train_contradiction.py")
        return 1
    if shipped["weights"].keys() != fresh["weights"].keys():
        print("model.json has other features; run scripts/train_contradiction.py")
        return 1
    pairs = [("bias", shipped["bias"], fresh["bias"])] + [
        (k, v, fresh["weights"][k]) for k, v in shipped["weights"].items()
    ]
    for name, old, new in pairs:
        if abs(old - new) > TOLERANCE:
            print(f"{name}: {old} in model.json, {new} fitted now")
            return 1
    print(f"model.json matches a fresh fit ({len(pairs)} weights)")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cv", action="store_true", help="leave-one-file-out figures")
    parser.add_argument("--check", action="store_true", help="fail if model.json is stale")
    parser.add_argument("--baserate", action="store_true",
                        help="leave-one-base-rate-run-out figures and calibration")
    parser.add_argument("--c", type=float, default=C, help="inverse regularisation")
    args = parser.parse_args(argv)
    files = training_files()
    if args.cv:
        cross_validate(files, args.c)
        return 0
    if args.check:
        return check(files, args.c)
    if args.baserate:
        baserate(files, args.c)
        return 0
    content = model_json(files, args.c)
    OUT.write_text(json.dumps(content, ensure_ascii=False, indent=0) + "\n", "utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {content['items']} items, "
          f"{len(content['weights'])} weights")
    return 0


if __name__ == "__main__":
    sys.exit(main())
