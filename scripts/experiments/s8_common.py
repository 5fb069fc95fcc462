"""Shared loading for the s8-embed spike: the base-rate runs' verdicts and the current
detector's leave-one-run-out log-odds (cached in /tmp/s8-embed-cache/)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
CACHE = Path("/tmp/s8-embed-cache")
CACHE.mkdir(parents=True, exist_ok=True)


def verdicts() -> list[dict]:
    """Every verdict of every base-rate run (repeats included), with its run name."""
    import train_contradiction as trainer

    out = []
    for f in trainer.baserate_files():
        for item in trainer.load(f, distinct=False):
            item["run"] = f.parent.name
            out.append(item)
    return out


def heldout_z() -> dict[str, float]:
    """Current detector's log-odds of 'opposite' per verdict id, each run read by a model
    fitted without it (as train_contradiction.py --baserate does)."""
    path = CACHE / "heldout_z.json"
    if path.exists():
        return json.loads(path.read_text())
    import train_contradiction as trainer

    from reviewer.contradiction.learned import Model

    files = trainer.training_files()
    out: dict[str, float] = {}
    for held in trainer.baserate_files():
        bias, weights = trainer.fit([i for f in files if f != held for i in trainer.load(f)])
        fitted = Model(bias, weights)
        for item in trainer.load(held, distinct=False):
            out[item["id"]] = trainer._opposite(fitted, item)
        print(f"held-out z: {held.parent.name}", file=sys.stderr)
    path.write_text(json.dumps(out))
    return out
