"""``reviewer replay [--run NAME] [--recheck] [--json]``: does the filter rule reproduce every
import? With ``--recheck``, do the checks, evaluated again in their dialect, give back every
stored check result?"""

from __future__ import annotations

import argparse
from typing import Any

from reviewer.cli.common import print_json, store_from
from reviewer.rule.replay_check import Recheck, check_replay, recheck_checks
from reviewer.store.names import RUNS, existing_one


def register(sub: Any) -> None:
    """Add the ``replay`` command."""
    p = sub.add_parser(
        "replay", help="replay the filter rule on stored records and list any mismatch"
    )
    p.add_argument("--run", metavar="NAME", help="only this run")
    p.add_argument("--recheck", action="store_true",
                   help="also evaluate every stored check result again with its version's "
                        "pattern and dialect, and list those that differ")
    p.add_argument("--json", action="store_true", help="print a JSON report")
    p.set_defaults(func=run)


def _print_recheck(recheck: Recheck) -> None:
    print(recheck.summary())
    for d in recheck.differences:
        got = "not evaluated" if d.rechecked_passed is None else \
            "passed" if d.rechecked_passed else "failed"
        stored = "passed" if d.stored_passed else "failed"
        why = f" ({d.error})" if d.error else ""
        print(f"{d.key}: {d.check_id} v{d.version} ({d.dialect}) stored {stored}, "
              f"re-checked {got}{why}")


def run(args: argparse.Namespace) -> int:
    """Print "N records, all reproduced" or the mismatching keys; exit 1 on a mismatch."""
    store = store_from(args)
    try:
        if args.run is not None:  # a run the store does not hold is a typo (X4)
            with store.session() as session:
                args.run = existing_one(session, RUNS, args.run, "--run")
        result = check_replay(store, args.run)
        recheck = recheck_checks(store, args.run) if args.recheck else None
    finally:
        store.close()
    if args.json:
        doc: dict[str, Any] = {
            "records": result.total, "reproduced": result.total - len(result.mismatches),
            "mismatches": [m.as_dict() for m in result.mismatches]}
        if recheck is not None:
            doc["recheck"] = {"check_results": recheck.total,
                              "reproduced": recheck.total - len(recheck.differences),
                              "differences": [d.as_dict() for d in recheck.differences]}
        print_json(doc)
    else:
        print(result.summary())
        for m in result.mismatches:
            print(f"{m.key}: stored {'accepted' if m.stored_accepted else 'refused'} "
                  f"{list(m.stored_reasons)}, replayed "
                  f"{'accepted' if m.replayed_accepted else 'refused'} "
                  f"{list(m.replayed_reasons)}")
        if recheck is not None:
            _print_recheck(recheck)
    return 0 if result.ok and (recheck is None or recheck.ok) else 1
