"""Validate the hand-labelled contradiction files and print their coverage.

Usage: python scripts/contradiction_data_stats.py [FILE ...]
(defaults to both files under tests/data). Exits 1 on any schema error.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
DEFAULT_FILES = [DATA / "contradictions_labelled.jsonl", DATA / "contradictions_holdout.jsonl"]
KEYS = {"id", "lang", "criterion_id", "kind", "criterion_text", "verdict", "rationale",
        "label", "tags", "note"}
VERDICTS = {"fr": {"oui", "non"}, "en": {"oui", "non", "yes", "no"}}
LABELS = {"contradiction", "consistent", "ambiguous"}
POSITIVE = {"oui", "yes"}


def check(rows: list[dict[str, object]]) -> list[str]:
    """Return the schema errors found in ``rows`` (empty when the file is valid)."""
    errors: list[str] = []
    seen: set[object] = set()
    for n, row in enumerate(rows, 1):
        if set(row) != KEYS:
            errors.append(f"line {n}: keys {sorted(set(row) ^ KEYS)}")
            continue
        if row["id"] in seen:
            errors.append(f"line {n}: duplicate id {row['id']}")
        seen.add(row["id"])
        lang = str(row["lang"])
        if lang not in VERDICTS or row["verdict"] not in VERDICTS[lang]:
            errors.append(f"line {n}: lang/verdict {lang}/{row['verdict']}")
        if row["kind"] not in {"success", "failure"} or row["label"] not in LABELS:
            errors.append(f"line {n}: kind/label {row['kind']}/{row['label']}")
        if not isinstance(row["tags"], list):
            errors.append(f"line {n}: tags must be a list")
    return errors


def report(path: Path) -> int:
    """Print the counts of one file; return the number of schema errors."""
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            print(f"{path.name} line {n}: invalid JSON ({exc})")
            return 1
    errors = check(rows)
    for err in errors:
        print(f"{path.name} {err}")
    cells = Counter(
        (r["kind"], "pos" if r["verdict"] in POSITIVE else "neg", r["label"]) for r in rows
    )
    print(f"== {path.name}: {len(rows)} items")
    print("labels:", dict(Counter(r["label"] for r in rows)))
    print("langs:", dict(Counter(r["lang"] for r in rows)))
    print("lang x label:", dict(Counter((r["lang"], r["label"]) for r in rows)))
    print("criteria:", dict(Counter(r["criterion_id"] for r in rows)))
    for cell, count in sorted(cells.items()):
        print("  cell", cell, count)
    tags = Counter(t for r in rows for t in r["tags"])
    print("tags:", dict(tags.most_common()))
    print("tags x lang:", dict(Counter((t, r["lang"]) for r in rows for t in r["tags"])))
    words = [len(str(r["rationale"]).split()) for r in rows]
    print(f"rationale words: min {min(words)} max {max(words)} mean {sum(words)/len(words):.1f}")
    dupes = [k for k, v in Counter(r["rationale"] for r in rows).items() if v > 1]
    if dupes:
        print("duplicate rationales:", dupes)
    return len(errors) + len(dupes)


def main(argv: list[str]) -> int:
    """Validate every file named in ``argv`` (or the two defaults)."""
    paths = [Path(a) for a in argv] or DEFAULT_FILES
    return 1 if sum(report(p) for p in paths if p.exists()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
