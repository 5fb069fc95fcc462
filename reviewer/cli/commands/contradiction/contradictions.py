"""``reviewer contradictions IN.jsonl`` and ``reviewer contradictions --evaluate FILE``.

File mode, no database: each input line ``{"criterion_id", "kind", "criterion_text",
"verdict", "rationale"}`` (other keys ignored; blank lines skipped) gives one output line
``{"contradiction": bool, "score": 0.0-1.0, "evidence": "…"}`` on stdout, in order: the
rationale read at even odds (whether it reads against its verdict at all; the app flags
a run's verdicts at their base rate, see ``reviewer.contradiction.detector``).
The whole file is checked before anything is printed, so a bad line never leaves a
half-written output.

``--evaluate LABELLED.jsonl`` prints precision, recall and F1 of the deterministic tier
(ambiguous items excluded), the confusion counts, and the figures per polarity cell and
per language, at even odds; then precision and recall of what the app would flag, at
a real run's base rate (``"at_base_rate"`` with ``--json``: the figure to read on a
base-rate run's verdicts); ``--json`` prints them as one JSON object.

``--llm`` (file mode) also asks the judge model to read each rationale alone (the LLM
tier, ``reviewer.judge.llm_tier``) and adds its reading as ``"llm"`` to each line;
``--host``/``--model`` choose the judge (defaults as for ``reviewer rejudge``). Each line
is written as its reading arrives; requests go through the judge cache of the store
(``--db``, as every command), so a rerun after an interruption answers the lines already
read from the cache and asks only the rest. A fault on one line gives it ``"llm":
{"error": …}`` and the next line is read (exit 1 at the end); a fault that would repeat
for every line (no server, unknown model, the same HTTP 5xx three times in a row) stops
the command with "rerun to resume".
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from reviewer.cli.arguments import host_url, input_path, model_option, seconds
from reviewer.cli.common import print_json, store_from
from reviewer.contradiction.detector import THRESHOLD
from reviewer.contradiction.evaluate import (
    Counts,
    Evaluation,
    Item,
    detect_item,
    evaluate,
    read_items,
)
from reviewer.contradiction.learned import trained_on
from reviewer.errors import BadInputError, JudgeError
from reviewer.judge.client import JudgeClient
from reviewer.judge.llm_tier import Stop, read_rationale
from reviewer.store import Store
from reviewer.store.database import fill_new_store
from reviewer.text_rules import not_utf8


def register(sub: Any) -> None:
    """Add the ``contradictions`` command."""
    p = sub.add_parser(
        "contradictions",
        help="flag judge verdicts whose rationale says the opposite (file mode)",
        description=(
            "Read verdicts as JSONL and print, for each line, whether the rationale "
            f"asserts the opposite of the verdict (flagged when score >= {THRESHOLD})."
        ),
    )
    p.add_argument("input", metavar="IN.jsonl", nargs="?", type=input_path("a JSON lines file"),
                   help="verdicts to check")
    p.add_argument(
        "--evaluate",
        metavar="LABELLED.jsonl",
        type=input_path("a labelled JSON lines file"),
        default=None,
        help="measure precision/recall/F1 on a labelled file instead",
    )
    p.add_argument("--json", action="store_true", help="with --evaluate: one JSON object")
    p.add_argument("--llm", action="store_true",
                   help="file mode: also ask the judge model to read each rationale (slow)")
    p.add_argument("--host", type=host_url, metavar="URL", help="with --llm: Ollama server")
    p.add_argument("--model", metavar="NAME", type=model_option, help="with --llm: judge model")
    p.add_argument("--timeout", type=seconds, default=120.0, metavar="S",
                   help="with --llm: seconds to wait for one reply")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check a file, or evaluate on a labelled one."""
    if args.evaluate is not None:
        if args.input is not None:
            raise BadInputError("give either IN.jsonl or --evaluate FILE, not both")
        if args.llm:
            raise BadInputError("--llm applies to file mode, not to --evaluate")
        try:
            result = evaluate(args.evaluate)
        except UnicodeDecodeError:
            raise not_utf8(args.evaluate) from None
        in_sample = trained_on(args.evaluate)
        if args.json:
            print_json({**result.as_dict(), "in_sample": in_sample})
        else:
            print_report(args.evaluate, result)
            if in_sample:
                print("note: the shipped model was trained on this file, so these figures "
                      "are in-sample; `python scripts/train_contradiction.py --cv` measures "
                      "each training file left out")
        return 0
    if args.input is None:
        raise BadInputError("contradictions: give IN.jsonl, or --evaluate LABELLED.jsonl")
    if args.json:
        raise BadInputError("--json only applies to --evaluate (file mode always prints JSONL)")
    try:
        items = list(read_items(args.input))
    except UnicodeDecodeError:
        raise not_utf8(args.input) from None
    if not args.llm:
        for item in items:
            _write(_rules_line(item))
        return 0
    client = JudgeClient(args.host, args.model, timeout=args.timeout)
    # A new cache store takes its name only once it holds a reading: every judge call
    # failing made a 266 kB store of nothing (fifteenth hostile pass, P15-13 (6)).
    try:
        made, outcome = fill_new_store(getattr(args, "db", None),
                                       partial(_into_new_cache, client, items))
    except _Uncached as nothing:
        return nothing.finish()
    if made and outcome is not None:
        return outcome.finish()
    store = store_from(args)
    try:
        return _with_llm(client, store, items).finish()
    finally:
        store.close()


class _Uncached(Exception):
    """No reading was cached: the new store is not kept (its outcome still said)."""

    def __init__(self, outcome: _Outcome) -> None:
        super().__init__("no reading cached")
        self.outcome = outcome

    def finish(self) -> int:
        return self.outcome.finish()


@dataclass
class _Outcome:
    """How a pass of the LLM tier ended: its exit code, how many lines it read, and the
    fault that stopped it (raised once the store is settled)."""

    code: int
    read: int
    stopped: JudgeError | None = None

    def finish(self) -> int:
        if self.stopped is not None:
            raise self.stopped
        return self.code


def _into_new_cache(client: JudgeClient, items: list[Item], store: Store) -> _Outcome:
    outcome = _with_llm(client, store, items)
    if not outcome.read:
        raise _Uncached(outcome)
    return outcome


def _rules_line(item: Item) -> dict[str, Any]:
    found = detect_item(item)
    return {"contradiction": found.contradiction, "score": found.score,
            "evidence": found.evidence}


def _write(line: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
    sys.stdout.flush()  # each line as it arrives: an interrupted run keeps its lines


def _with_llm(client: JudgeClient, store: Store, items: list[Item]) -> _Outcome:
    """Each line with the LLM tier's reading, written as it arrives."""
    stop, failed, read = Stop(), 0, 0
    for n, item in enumerate(items, 1):
        line = _rules_line(item)
        try:
            r = read_rationale(client, item.kind, item.verdict, item.rationale,
                               item.criterion_text, item.criterion_id, store=store)
        except JudgeError as exc:
            failed += 1
            why = stop.after(exc)
            if why:
                return _Outcome(1, read, JudgeError(
                    f"{why}; {len(items) - n + 1} of {len(items)} lines not read, rerun to "
                    "resume (lines already read come from the cache)"))
            print(f"reviewer: {_where(item, n)}: {exc}", file=sys.stderr)
            line["llm"] = {"error": str(exc)}
        else:
            stop.after(None)
            read += 1
            line["llm"] = {"rationale_says": r.rationale_says, "confidence": r.confidence,
                           "contradiction": r.contradiction, "score": r.score}
        _write(line)
    return _Outcome(1 if failed else 0, read)


def _where(item: Item, n: int) -> str:
    """``item N`` (and its criterion) for a message about one input item."""
    return f"item {n}" + (f" ({item.criterion_id})" if item.criterion_id else "")


def _row(name: str, c: Counts) -> str:
    return (f"{name:<14} precision {c.precision:6.3f}  recall {c.recall:6.3f}  "
            f"F1 {c.f1:6.3f}   tp {c.tp:3d}  fp {c.fp:3d}  fn {c.fn:3d}  tn {c.tn:3d}")


def print_report(path: Path, result: Evaluation) -> None:
    """The human-readable evaluation."""
    o = result.overall
    total = o.tp + o.fp + o.fn + o.tn
    print(f"{path}: {total} items, {result.ambiguous} ambiguous excluded "
          f"({result.ambiguous_flagged} of them flagged); threshold {THRESHOLD}")
    print(f"precision {o.precision:.3f}")
    print(f"recall    {o.recall:.3f}")
    print(f"F1        {o.f1:.3f}")
    print(f"confusion: tp {o.tp}  fp {o.fp}  fn {o.fn}  tn {o.tn}")
    print("  (at even odds; what the app would flag on a real run, at its base rate:)")
    print("  " + _row("at base rate", result.flagged))
    print("by cell:")
    for name, counts in sorted(result.by_cell.items()):
        print("  " + _row(name, counts))
    print("by language:")
    for name, counts in sorted(result.by_lang.items()):
        print("  " + _row(name, counts))
