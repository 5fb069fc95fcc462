"""``reviewer replay [--run NAME] [--json]``: does the filter rule reproduce every import?"""

from __future__ import annotations

import argparse
from typing import Any

from reviewer.cli.common import print_json, store_from
from reviewer.rule.replay_check import check_replay


def register(sub: Any) -> None:
    """Add the ``replay`` command."""
    p = sub.add_parser(
        "replay", help="replay the filter rule on stored records and list any mismatch"
    )
    p.add_argument("--run", metavar="NAME", help="only this run")
    p.add_argument("--json", action="store_true", help="print a JSON report")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print "N records, all reproduced" or the mismatching keys; exit 1 on a mismatch."""
    store = store_from(args)
    try:
        result = check_replay(store, args.run)
    finally:
        store.close()
    if args.json:
        print_json({"records": result.total, "reproduced": result.total - len(result.mismatches),
                    "mismatches": [m.as_dict() for m in result.mismatches]})
    else:
        print(result.summary())
        for m in result.mismatches:
            print(f"{m.key}: stored {'accepted' if m.stored_accepted else 'refused'} "
                  f"{list(m.stored_reasons)}, replayed "
                  f"{'accepted' if m.replayed_accepted else 'refused'} "
                  f"{list(m.replayed_reasons)}")
    return 0 if result.ok else 1
