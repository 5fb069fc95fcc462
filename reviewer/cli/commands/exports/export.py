"""``reviewer export KIND OUT``: dataset, preference, catalog, golden, resume or decisions.

``dataset`` and ``preference`` write ``OUT.manifest.json`` beside OUT (with ``--split``:
the folder OUT with ``train.jsonl``, ``valid.jsonl`` and ``manifest.json``). OUT is checked
first (``reviewer.outputs``: never the database, never a folder); ``-`` writes to standard
output (the summary line then goes to standard error). ``--dry-run`` says what the review
changed in the dataset and writes nothing.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Any

from reviewer.atomic import made_folder, made_folder_text
from reviewer.cli.arguments import reviewer_option
from reviewer.cli.common import print_json, store_from
from reviewer.cli.outputs import checked_output
from reviewer.errors import BadInputError
from reviewer.exports import KINDS
from reviewer.exports.changes import review_changes
from reviewer.exports.options import (
    FORMATS,
    PER,
    PICKS,
    PREFERENCE_FORMATS,
    DatasetOptions,
    PreferenceOptions,
    parse_causes,
)
from reviewer.exports.run import run_export, stored_causes
from reviewer.exports.split import Split
from reviewer.store import Session
from reviewer.store.names import CALIBRATION_FILES, REVIEWERS, RUNS, existing, existing_one
from reviewer.text_rules import spelt

SPLIT_KINDS = ("dataset", "preference")
RUN_KINDS = ("dataset", "preference", "calibration")
REVIEWER_KINDS = ("dataset", "preference", "golden", "resume", "calibration")


def _listed(kinds: tuple[str, ...]) -> str:
    return kinds[0] if len(kinds) == 1 else f"{', '.join(kinds[:-1])} and {kinds[-1]}"


def register(sub: Any) -> None:
    """Add the ``export`` command."""
    p = sub.add_parser("export", help="write the corrected dataset, preference pairs, "
                                      "catalog, golden set, …")
    p.add_argument("kind", choices=KINDS, metavar="KIND", help=" | ".join(KINDS))
    p.add_argument("out", metavar="OUT", help="file, - (standard output), or the "
                   "folder of a --split export")
    p.add_argument("--per", choices=PER, default="turn", help="dataset: one example per …")
    p.add_argument("--format", default=None, dest="fmt",
                   help=f"dataset: {' | '.join(FORMATS)} (default chat); "
                        f"preference: {' | '.join(PREFERENCE_FORMATS)} (default dpo)")
    p.add_argument("--per-turn-pick", choices=PICKS, default="all", dest="pick",
                   help="dataset: several accepted attempts in one turn: keep all "
                        "(default), the first or the last")
    p.add_argument("--keep-tainted-context", action="store_true", dest="keep_tainted",
                   help="keep examples whose context holds an answer now refused")
    p.add_argument("--weight-context", type=int, choices=(0, 1), default=None,
                   help="dataset, chat, per turn: weight of the context's answers (OpenAI)")
    p.add_argument("--include-filter-refusals", action="store_true",
                   help="preference: refusals of the filter no reviewer overturned are "
                        "rejected sides too (default: only refusals a reviewer confirmed)")
    p.add_argument("--cause", default=None, metavar="IDS",
                   help="preference: only refusals for these ids (D-COMMERCE,G-TON,…)")
    p.add_argument("--split", default=None, metavar="valid=0.1",
                   help="write the folder OUT: train.jsonl, valid.jsonl [, test.jsonl], by "
                        "conversation")
    p.add_argument("--seed", type=int, default=0, help="--split: the seed (default 0)")
    p.add_argument("--dry-run", action="store_true",
                   help="dataset: say what the review changed, write nothing")
    p.add_argument("--json", action="store_true", help="--dry-run: as JSON")
    p.add_argument("--run", action="append", default=None, metavar="NAME",
                   help="dataset, preference: only this run (repeatable)")
    p.add_argument("--reviewer", type=reviewer_option, dest="filter_reviewer", default=None,
                   metavar="NAME",
                   help="use only this reviewer's decisions (default: latest of any)")
    p.set_defaults(func=run)


def _dataset_options(args: argparse.Namespace) -> DatasetOptions:
    options = DatasetOptions(per=args.per, fmt=args.fmt or "chat", pick=args.pick,
                             keep_tainted=args.keep_tainted,
                             weight_context=args.weight_context,
                             reviewer=args.filter_reviewer, runs=args.run)
    options.check()
    return options


def _preference_options(args: argparse.Namespace) -> PreferenceOptions:
    options = PreferenceOptions(fmt=args.fmt or "dpo",
                                include_filter_refusals=args.include_filter_refusals,
                                causes=parse_causes(args.cause),
                                keep_tainted=args.keep_tainted,
                                reviewer=args.filter_reviewer, runs=args.run)
    options.check()
    return options


def _check_kind_options(args: argparse.Namespace) -> None:
    # A filter an export does not read is no filter: ``export golden --run R`` wrote
    # every run's attempts.
    for option, value, kinds in (("--run", args.run, RUN_KINDS),
                                 ("--cause", args.cause, ("preference",)),
                                 ("--reviewer", args.filter_reviewer, REVIEWER_KINDS)):
        if value is not None and args.kind not in kinds:
            raise BadInputError(f"{option} is for the {_listed(kinds)} "
                                f"export{'s' if len(kinds) > 1 else ''}, not {args.kind}")
    if args.split is not None and args.kind not in SPLIT_KINDS:
        raise BadInputError(f"--split is for the dataset and preference exports, "
                            f"not {args.kind}")
    if args.dry_run and args.kind != "dataset":
        raise BadInputError("--dry-run is for the dataset export")
    if args.kind not in SPLIT_KINDS and args.fmt is not None:
        raise BadInputError(f"--format is for the dataset and preference exports, "
                            f"not {args.kind}")


def _named_in_store(session: Session, args: argparse.Namespace,
                    dataset: DatasetOptions | None, preference: PreferenceOptions | None,
                    ) -> tuple[DatasetOptions | None, PreferenceOptions | None]:
    """The options with each name of ``--run``, ``--cause`` and ``--reviewer`` as the
    store spells it; BadInputError for one it does not hold (``reviewer.store.names``)."""
    if args.run is not None:
        args.run = existing(session, CALIBRATION_FILES if args.kind == "calibration" else RUNS,
                            args.run, "--run")
    args.filter_reviewer = existing_one(session, REVIEWERS, args.filter_reviewer, "--reviewer")
    if dataset is not None:
        dataset = replace(dataset, runs=args.run, reviewer=args.filter_reviewer)
    if preference is not None:
        preference = replace(preference, runs=args.run, reviewer=args.filter_reviewer,
                             causes=stored_causes(session, args.cause))
    return dataset, preference


def run(args: argparse.Namespace) -> int:
    """Write the export (or, with --dry-run, say what the review changed)."""
    _check_kind_options(args)
    dataset = _dataset_options(args) if args.kind == "dataset" else None
    preference = _preference_options(args) if args.kind == "preference" else None
    split = Split.parse(args.split, args.seed) if args.split is not None else None
    # Checked before the store is opened: a refused path leaves everything untouched.
    out = checked_output(args, args.out, folder=split is not None)
    if split is not None and out.stream:
        raise BadInputError(f"--split writes a folder, not {out}")
    made = made_folder(out)
    store = store_from(args)
    try:
        with store.session() as session:
            # Every name a filter gives must be in the store (ninth hostile pass, X4: a
            # run typed in the wrong case replaced a good dataset with 0 examples).
            dataset, preference = _named_in_store(session, args, dataset, preference)
            if args.dry_run:
                assert dataset is not None
                changes = review_changes(session, dataset)
                line = None
            else:
                line = run_export(session, args.kind, out, reviewer=args.filter_reviewer,
                                  runs=args.run, dataset=dataset, preference=preference,
                                  split=split)
    finally:
        store.close()
    if line is None:
        if args.json:
            print_json(changes.as_dict())
        else:
            print("\n".join(changes.lines()))
        return 0
    line += made_folder_text(made)
    # A name holding a line break is said on one line (twelfth hostile pass, P12-9).
    print(spelt(line, len(line)), file=sys.stderr if out.is_stdout else sys.stdout)
    return 0
