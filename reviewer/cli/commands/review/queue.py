"""``reviewer queue [--limit N] [--json]``: the review queue in the order the app shows it."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from reviewer.cli.arguments import limit, reviewer_option
from reviewer.cli.common import print_json, reviewer_from, store_from
from reviewer.review.identity import known_reviewer
from reviewer.review.queue import REVIEW_STATES, QueueFilter, queue_keys
from reviewer.store.names import CHECKS, CRITERIA, RUNS, existing_one
from reviewer.text_rules import storable


def register(sub: Any) -> None:
    """Add the ``queue`` command."""
    p = sub.add_parser("queue", help="print the review queue (app order), one key per line")
    p.add_argument("--limit", type=limit, default=None, metavar="N",
                   help="first N attempts only (N ≥ 1)")
    p.add_argument("--json", action="store_true",
                   help='JSON list of {"key","score","badge","reasons"}')
    p.add_argument("--run", help="only this run")
    p.add_argument("--criterion", help="only attempts this criterion refuses")
    p.add_argument("--check", help="only attempts this check failed")
    p.add_argument("--flagged", action="store_true",
                   help="only attempts with an open contradiction that would change the "
                        "filter's decision (the badge)")
    p.add_argument("--state", choices=REVIEW_STATES, default="all", help="review state")
    p.add_argument("--search", default="", help="full-text search (accents ignored)")
    # SUPPRESS: never overwrite a global --reviewer given before the command name.
    p.add_argument("--reviewer", type=reviewer_option, default=argparse.SUPPRESS,
                   help="whose review state (default: $REVIEWER_NAME, else the OS user)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the queue."""
    for option, value in (("--search", args.search), ("--run", args.run),
                          ("--criterion", args.criterion), ("--check", args.check)):
        storable(value or "", option)
    f = QueueFilter(run=args.run, criterion=args.criterion, check=args.check,
                    flagged_only=args.flagged, review_state=args.state, search=args.search,
                    reviewer=reviewer_from(args))
    store = store_from(args)
    try:
        with store.session() as session:
            # A run, criterion or check the store does not hold is a typo, not an empty
            # queue (ninth hostile pass, X4): one shared check, the stored spelling back.
            f = replace(f, run=existing_one(session, RUNS, f.run, "--run"),
                        criterion=existing_one(session, CRITERIA, f.criterion, "--criterion"),
                        check=existing_one(session, CHECKS, f.check, "--check"),
                        reviewer=known_reviewer(session, f.reviewer))
            rows = queue_keys(session, f, args.limit)
    finally:
        store.close()
    if args.json:
        print_json([r.as_json() for r in rows])
    else:
        for r in rows:
            print(r.key)
    return 0
