"""Measure the contradiction flags on base-rate runs: verdicts, badges, queue positions.

    python scripts/measure_baserate.py [DIR ...] [--json] [--held-out]

Each DIR holds ``catalog.json``, ``run.jsonl``, ``labels.jsonl`` and
``attempt_truth.jsonl`` (see ``scripts/make_baserate.py``); without DIR, every set of
``tests/data/baserate``. The run is imported into a throwaway SQLite store the way
``reviewer import`` does it (the detector flags it in the same transaction), then:

* verdict level: the stored rules flags against the labels (precision, recall, the
  false-flag rate on consistent verdicts), overall and on the verdicts that refuse
  their attempt / the others;
* attempt level: the refused attempts the queue badges (``reviewer queue --json``'s
  ``"badge"``), the attempts truly refused because of a contradicting verdict and the
  rescuable ones, their ratio, and where the last rescuable refusal sits in the queue
  (the goal: within the first N + 5).

Only aggregate figures are printed, never an item, so the same script can measure a set
its user must not read.

The development runs train the shipped model, so their figures with it are in-sample;
``--held-out`` measures each with a model fitted on every training file but its own
verdicts (``scripts/train_contradiction.py``), the figures to quote.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402

from reviewer.contradiction.flagging import flag_imported  # noqa: E402
from reviewer.ingest.importer import import_run  # noqa: E402
from reviewer.review.queue import QueueFilter, queue_keys  # noqa: E402
from reviewer.store import open_store  # noqa: E402

DEFAULT = ROOT / "tests" / "data" / "baserate"
REVIEWER = "measure"
_VERDICTS = text(
    "SELECT r.name || '/' || c.name || '/' || a.turn || '/' || a.attempt, cv.criterion_id, "
    "COALESCE(f.flagged, 0), v.met, cv.kind, cv.severity FROM verdicts v "
    "JOIN attempts a ON a.id = v.attempt_id JOIN conversations c ON c.id = a.conversation_id "
    "JOIN runs r ON r.id = a.run_id JOIN criterion_versions cv ON cv.id = v.criterion_version_id "
    "LEFT JOIN contradiction_flags f ON f.verdict_id = v.id AND f.tier = 'rules' "
    "WHERE v.origin = 'filter'")


def _ratio(a: int, b: int) -> float:
    return a / b if b else float("nan")


def held_out_model(folder: Path) -> None:
    """Make the detector use a model fitted without ``folder``'s verdicts."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import train_contradiction as trainer

    from reviewer.contradiction import learned

    held = (folder / "verdicts.jsonl").resolve()
    files = [f for f in trainer.training_files() if f.resolve() != held]
    content = trainer.model_json(files, trainer.C)
    learned.model.cache_clear()
    learned._raw = lambda: content  # type: ignore[assignment]  # model() reads it next


def measure(folder: Path) -> dict[str, Any]:
    """The figures of one base-rate set."""
    from reviewer.rule.filter import refuses

    labels = {}
    for line in (folder / "labels.jsonl").read_text("utf-8").splitlines():
        d = json.loads(line)
        labels[(d["key"], d["criterion"])] = d["contradiction"]
    truth = {d["key"]: d for d in map(json.loads, (folder / "attempt_truth.jsonl")
                                      .read_text("utf-8").splitlines())}
    with tempfile.TemporaryDirectory(prefix="baserate-") as tmp:
        store = open_store(f"sqlite:///{tmp}/b.sqlite3")
        try:
            import_run(store, folder / "run.jsonl", catalog_path=folder / "catalog.json",
                       on_imported=flag_imported)
            with store.session() as s:
                rows = s.execute(_VERDICTS).all()
                queue = [r.as_json()
                         for r in queue_keys(s, QueueFilter(reviewer=REVIEWER))]
                accepted = {k: bool(a) for k, a in s.execute(text(
                    "SELECT r.name || '/' || c.name || '/' || a.turn || '/' || a.attempt, "
                    "a.accepted FROM attempts a JOIN conversations c ON "
                    "c.id = a.conversation_id JOIN runs r ON r.id = a.run_id"))}
        finally:
            store.close()
    cells: dict[str, list[int]] = {"all": [0, 0, 0, 0], "refusing": [0, 0, 0, 0],
                                   "other": [0, 0, 0, 0]}
    for key, criterion, flagged, met, kind, severity in rows:
        contradiction = labels[(key, criterion)]
        index = (0 if contradiction else 1) if flagged else (2 if contradiction else 3)
        cell = "refusing" if refuses(kind, bool(met), severity) else "other"
        cells["all"][index] += 1
        cells[cell][index] += 1
    out: dict[str, Any] = {"set": folder.name, "verdicts": len(rows)}
    for name, (tp, fp, fn, tn) in cells.items():
        out[name] = {"contradictions": tp + fn, "flagged": tp + fp, "tp": tp, "fp": fp,
                     "fn": fn, "precision": round(_ratio(tp, tp + fp), 3),
                     "recall": round(_ratio(tp, tp + fn), 3),
                     "false_flag_rate": round(_ratio(fp, fp + tn), 4)}
    refused = [row for row in queue if not accepted[row["key"]]]
    badged = [row for row in refused if row.get("badge", False)]
    because = {k for k, d in truth.items() if d["refused_because_of_contradiction"]}
    rescuable = {k for k, d in truth.items() if d["rescuable"]}
    position = {row["key"]: i for i, row in enumerate(queue)}
    ranks = sorted(position[k] for k in rescuable if k in position)
    out["attempts"] = {
        "refused": len(refused), "badged_refusals": len(badged),
        "badged_and_rescuable": sum(1 for r in badged if r["key"] in rescuable),
        "refused_because_of_contradiction": len(because), "rescuable": len(rescuable),
        "badge_ratio": round(_ratio(len(badged), len(because)), 2),
        "last_rescuable_position": ranks[-1] + 1 if ranks else None,
        "goal_position": len(rescuable) + 5,
        "badged_accepted": sum(1 for r in queue if accepted[r["key"]] and r.get("badge")),
    }
    return out


def show(m: dict[str, Any]) -> None:
    print(f"== {m['set']}: {m['verdicts']} verdicts")
    for name in ("all", "refusing", "other"):
        c = m[name]
        print(f"  {name:9s} contradictions {c['contradictions']:3d}  flagged {c['flagged']:3d}  "
              f"precision {c['precision']:.3f}  recall {c['recall']:.3f}  "
              f"false-flag rate {c['false_flag_rate']:.4f}")
    a = m["attempts"]
    print(f"  refused {a['refused']}  badged {a['badged_refusals']} "
          f"({a['badged_and_rescuable']} rescuable)  truly refused because of a "
          f"contradiction {a['refused_because_of_contradiction']} (rescuable {a['rescuable']})"
          f"  ratio {a['badge_ratio']}")
    print(f"  last rescuable refusal at queue position {a['last_rescuable_position']} "
          f"(goal <= {a['goal_position']}); accepted attempts badged: {a['badged_accepted']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--held-out", action="store_true",
                        help="measure each set with a model that never trained on it")
    args = parser.parse_args(argv)
    folders = args.folders or sorted(p for p in DEFAULT.iterdir() if (p / "run.jsonl").exists())
    results = []
    for folder in folders:
        if args.held_out:
            held_out_model(folder)
        results.append(measure(folder))
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        for m in results:
            show(m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
