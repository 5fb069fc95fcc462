"""``reviewer import RUN.jsonl [--catalog CATALOG.json] [--skip-bad REJECTS.jsonl]``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reviewer.atomic import made_folder_text
from reviewer.cli.arguments import input_path
from reviewer.cli.common import new_store_folder, store_from
from reviewer.cli.outputs import checked_output, refuse_the_store
from reviewer.contradiction.flagging import flag_imported
from reviewer.errors import BadInputError
from reviewer.ingest.importer import ImportReport, import_run
from reviewer.store import Store
from reviewer.store.database import fill_new_store


def register(sub: Any) -> None:
    """Add the ``import`` command."""
    p = sub.add_parser("import", help="import a graded run (JSONL), all or nothing")
    p.add_argument("run_file", type=input_path("a run file"), metavar="RUN.jsonl")
    p.add_argument("--catalog", type=input_path("a catalog"), metavar="CATALOG.json",
                   help="criteria and checks")
    p.add_argument(
        "--skip-bad",
        metavar="REJECTS.jsonl",
        help="import the good lines and write the bad ones here with their reason",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Import and print "N new, M already present"."""
    # The rejects file is checked before anything is read or opened: never the database,
    # the run file or the catalog (``reviewer.outputs``).
    inputs = [args.run_file, *([args.catalog] if args.catalog else [])]
    refuse_the_store(args, (args.run_file, "a run file"), (args.catalog, "a catalog"))
    # As typed (a str, not a Path): ``--skip-bad rejects/`` names a folder (C2); an empty
    # value is refused by the guard, not taken as "no --skip-bad".
    rejects = checked_output(args, args.skip_bad, inputs=inputs) \
        if args.skip_bad is not None else None
    def into(store: Store) -> ImportReport:
        return import_run(
            store,
            args.run_file,
            catalog_path=args.catalog,
            rejects_path=rejects,
            # New verdicts are scored by the contradiction detector in the same transaction,
            # so the review queue is sorted right away.
            on_imported=flag_imported,
        )

    def first(store: Store) -> ImportReport:
        report = into(store)
        if not (report.new or report.present or report.rejected):
            # An empty or BOM-only file made an empty store, "0 new" (P13-5).
            raise BadInputError(f"{args.run_file}: holds no record; nothing was imported "
                                "and no store was made")
        if not (report.new or report.present):
            # Every line bad made an empty store, rc 0 (P14-4). The rejects file stays:
            # it says why each line was refused.
            raise BadInputError(
                f"{args.run_file}: no line could be imported ({report.rejected} bad "
                f"line{'s' if report.rejected != 1 else ''} written to {args.skip_bad} "
                "with their reason); no store was made")
        return report

    folder = new_store_folder(args)
    # A new store takes its name only with its first import in it (V5).
    made, report = fill_new_store(getattr(args, "db", None), first)
    if not made or report is None:
        store = store_from(args)
        try:
            report = into(store)
        finally:
            store.close()
    print(report.summary() + made_folder_text(folder if made else None))
    if report.unchecked:
        print(f"reviewer: note: {report.unchecked}", file=sys.stderr)
    if report.rejected:
        print(f"{report.rejected} bad lines written to {args.skip_bad}", file=sys.stderr)
    return 0
