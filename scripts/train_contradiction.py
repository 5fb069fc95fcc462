"""Train the contradiction detector's learned reading (``reviewer/contradiction/model.json``).

    python scripts/train_contradiction.py            # fit on every training file, write the model
    python scripts/train_contradiction.py --cv       # leave one file out: P/R/F1 per file, no write
    python scripts/train_contradiction.py --check    # fit again, fail if model.json differs

The model (see :mod:`reviewer.contradiction.learned`) predicts whether a rationale says
the answer behaves well on its criterion. Each hand-labelled verdict gives that target
without the verdict: an item labelled *consistent* leans the way its verdict does, a
*contradiction* the other way; *ambiguous* items are left out. The blind sets
(``BLIND``) are never read here: they measure the detector, they do not train it.

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
BLIND = [
    "tests/data/contradictions_holdout3.jsonl",
    "tests/data/contradictions_holdout4.jsonl",
]
C = 1.0  # inverse regularisation strength, chosen with --cv
MIN_ITEMS = 3  # items a feature must occur in (2, 3 and 5 give the same --cv figures)
OUT = ROOT / "reviewer" / "contradiction" / MODEL_FILE
TOLERANCE = 1e-3  # --check: weights may differ this much between BLAS builds


def training_files() -> list[Path]:
    """The development sets and every file under ``assets/contradiction/train``."""
    files = [ROOT / f for f in DEV] + sorted((ROOT / TRAIN_DIR).glob("*.jsonl"))
    return [f for f in files if f.exists()]


def load(path: Path) -> list[dict[str, Any]]:
    """Non-ambiguous items of one labelled file, each with its target ``good``."""
    items = []
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        if item["label"] == "ambiguous":
            continue
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


def cross_validate(files: list[Path], c: float, threshold: float) -> None:
    """Leave each file out in turn; print what the detector would score on it."""
    from reviewer.contradiction.learned import Model, sigmoid

    data = {f: load(f) for f in files}
    pooled: list[tuple[float, bool]] = []
    by_tag: dict[str, list[tuple[float, bool]]] = {}
    for held in files:
        bias, weights = fit([i for f in files if f != held for i in data[f]], c)
        fitted = Model(bias, weights)
        tp = fp = fn = 0
        for item in data[held]:
            result, _good, _bad = reading(
                item["kind"], item["rationale"], item.get("criterion_text", "")
            )
            p_good = sigmoid(fitted.logit(item["kind"], result, item["criterion_id"]))
            p_opposite = 1.0 - p_good if item["verdict_good"] else p_good
            truth = item["label"] == "contradiction"
            pooled.append((p_opposite, truth))
            for tag in item.get("tags", []):
                by_tag.setdefault(tag, []).append((p_opposite, truth))
            flagged = p_opposite >= threshold
            tp += flagged and truth
            fp += flagged and not truth
            fn += truth and not flagged
        _report(held.name, tp, fp, fn)
    print("pooled, by threshold:")
    for t in (0.5, 0.55, 0.6, 0.65, 0.7):
        _report(f"  p >= {t}", *_counts(pooled, t))
    print(f"pooled, by tag of the data (p >= {threshold}):")
    for tag, readings in sorted(by_tag.items(), key=lambda kv: -len(kv[1])):
        _report(f"  {tag} ({len(readings)})", *_counts(readings, threshold))


def _counts(readings: list[tuple[float, bool]], threshold: float) -> tuple[int, int, int]:
    """True positives, false positives and false negatives at ``threshold``."""
    tp = sum(1 for p, truth in readings if p >= threshold and truth)
    fp = sum(1 for p, truth in readings if p >= threshold and not truth)
    fn = sum(1 for p, truth in readings if p < threshold and truth)
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
    parser.add_argument("--c", type=float, default=C, help="inverse regularisation")
    parser.add_argument("--threshold", type=float, default=None, help="with --cv")
    args = parser.parse_args(argv)
    files = training_files()
    if args.cv:
        from reviewer.contradiction.detector import P_THRESHOLD

        cross_validate(files, args.c, args.threshold or P_THRESHOLD)
        return 0
    if args.check:
        return check(files, args.c)
    content = model_json(files, args.c)
    OUT.write_text(json.dumps(content, ensure_ascii=False, indent=0) + "\n", "utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {content['items']} items, "
          f"{len(content['weights'])} weights")
    return 0


if __name__ == "__main__":
    sys.exit(main())
