"""``reviewer decide KEY (--accept | --reject) [--criterion ID=met|unmet]… [--check ID=false-positive]… [--note TEXT] [--reviewer NAME]``
and ``reviewer decide --from-csv FILE``: decisions through the same audit trail as the app.
"""  # noqa: E501

from __future__ import annotations

import argparse
from typing import Any

from reviewer.cli.arguments import input_path, reviewer_option
from reviewer.cli.common import reviewer_from, store_from
from reviewer.cli.outputs import refuse_the_store
from reviewer.errors import BadInputError
from reviewer.keys import AttemptKey
from reviewer.review.commands import key_of
from reviewer.review.csv_batch import (
    CHECK_VALUES,
    CRITERION_VALUES,
    UNSET,
    DecisionInput,
    apply_batch,
    apply_input,
    parse_assignments,
    read_csv,
)
from reviewer.text_rules import storable


def register(sub: Any) -> None:
    """Add the ``decide`` command."""
    p = sub.add_parser("decide", help="record a reviewer decision (or a CSV batch of them)")
    p.add_argument("key", nargs="?", metavar="RUN/CONVERSATION/TURN/ATTEMPT")
    verdict = p.add_mutually_exclusive_group()
    verdict.add_argument("--accept", action="store_const", const="accept", dest="verdict")
    verdict.add_argument("--reject", action="store_const", const="reject", dest="verdict")
    p.add_argument("--criterion", action="append", default=[], metavar="ID=met|unmet",
                   help="override a judge verdict (repeatable; none clears)")
    p.add_argument("--check", action="append", default=[], metavar="ID=false-positive",
                   help="mark a check hit as a false positive (repeatable; none clears)")
    p.add_argument("--note", default=None, metavar="TEXT")
    # SUPPRESS: never overwrite a global --reviewer given before the command name.
    p.add_argument("--reviewer", type=reviewer_option, default=argparse.SUPPRESS, metavar="NAME",
                   help="who decides (default: $REVIEWER_NAME, else the login name)")
    p.add_argument("--from-csv", type=input_path("a CSV of decisions"), metavar="FILE",
                   help="columns key,decision,criteria,checks,note,reviewer; all or nothing")
    p.set_defaults(func=run)


def _single(args: argparse.Namespace) -> DecisionInput:
    if args.key is None:
        raise BadInputError("decide: give an attempt key or --from-csv FILE")
    item = DecisionInput(
        AttemptKey.parse(args.key),
        args.verdict if args.verdict else UNSET,
        parse_assignments(";".join(args.criterion), CRITERION_VALUES, "--criterion"),
        parse_assignments(";".join(args.check), CHECK_VALUES, "--check"),
        None if args.note is None else storable(args.note, "--note"),
    )
    if not any(True for _ in item.changes(0)):
        raise BadInputError("decide: nothing to record (--accept, --reject, --criterion, "
                            "--check or --note)")
    return item


def run(args: argparse.Namespace) -> int:
    """Record the decision(s) and say how many fields changed."""
    reviewer = reviewer_from(args)
    if args.from_csv is not None:
        if args.key or args.verdict or args.criterion or args.check or args.note:
            raise BadInputError("decide: --from-csv takes no key nor decision options")
        refuse_the_store(args, (args.from_csv, "a CSV of decisions"))
        rows = read_csv(args.from_csv)
        single = None
    else:
        single = _single(args)
    store = store_from(args)
    try:
        with store.session() as session:
            if single is not None:
                done, attempt_id = apply_input(session, single, reviewer)
                # The attempt as stored, not as typed: the one decided, should the key
                # have named it without the spaces around an id (P15-1).
                decided = key_of(session, attempt_id)
                said = f"{decided}: {done} field(s) set by {single.reviewer or reviewer}"
            else:
                done = apply_batch(session, rows, reviewer, str(args.from_csv))
                said = f"{len(rows)} row(s), {done} field(s) set"
        # Said only once committed: whoever reads "set" (a script, a reviewer about to
        # close the terminal) may kill the process at once and lose nothing.
        print(said, flush=True)
    finally:
        store.close()
    return 0
