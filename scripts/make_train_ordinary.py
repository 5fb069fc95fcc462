"""Write the training files of ordinary rationales: assets/contradiction/train/train_j
(French) and train_k (English), from the pools of ``scripts/train_data`` (two batches
per language, each with its own criterion wordings, and a third of rationales where a
negation decides the lean, both ways on the same criteria: ``negations_fr``,
``negations_en``).

Each rationale says the answer behaves well or badly on its criterion (the learned
reading's target, see ``scripts/train_contradiction.py``); it is written out once, with
the verdict it supports (label ``consistent``) or the other one (``contradiction``),
chosen by a seeded coin so that both labels are about as frequent.

Usage: ``.venv/bin/python scripts/make_train_ordinary.py``
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from train_data import (  # noqa: E402
    negations_en,
    negations_fr,
    ordinary2_en,
    ordinary2_fr,
    ordinary_en,
    ordinary_fr,
)

OUT = ROOT / "assets" / "contradiction" / "train"


def items(batches: list[ModuleType], lang: str, prefix: str, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    yes, no = ("oui", "non") if lang == "fr" else ("yes", "no")
    out = []
    for pools in batches:
        for lean, table in (("good", pools.GOOD), ("bad", pools.BAD)):
            for criterion_id, rationales in table.items():
                kind, text = pools.CRITERIA[criterion_id]
                supported = (lean == "good") == (kind == "success")  # "oui" is supported
                for rationale in rationales:
                    contradiction = rng.random() < 0.5
                    met = supported != contradiction
                    out.append({
                        "lang": lang, "criterion_id": criterion_id, "kind": kind,
                        "criterion_text": text, "verdict": yes if met else no,
                        "rationale": rationale,
                        "label": "contradiction" if contradiction else "consistent",
                        "tags": ["negation" if pools in (negations_fr, negations_en)
                                 else "ordinary"],
                    })
    rng.shuffle(out)
    return [{"id": f"{prefix}-{n:04d}", **item} for n, item in enumerate(out, start=1)]


def main() -> None:
    for name, batches, lang, prefix, seed in (
            ("train_j", [ordinary_fr, ordinary2_fr, negations_fr], "fr", "tj", 101),
            ("train_k", [ordinary_en, ordinary2_en, negations_en], "en", "tk", 202)):
        rows = items(batches, lang, prefix, seed)
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        (OUT / f"{name}.jsonl").write_text(text, "utf-8")
        print(f"{name}.jsonl: {len(rows)} items, "
              f"{sum(r['label'] == 'contradiction' for r in rows)} contradictions")


if __name__ == "__main__":
    main()
