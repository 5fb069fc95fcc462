"""One entry point for every export, shared by the CLI and the app's Export dialog."""

from __future__ import annotations

import contextlib
import stat
from pathlib import Path

from sqlalchemy.orm import Session

from reviewer.errors import BadInputError
from reviewer.exports import KINDS
from reviewer.exports.calibration import export_calibration
from reviewer.exports.catalog import export_catalog
from reviewer.exports.compiled import export_dataset, export_preference
from reviewer.exports.dataset import DatasetReport
from reviewer.exports.decisions import export_decisions
from reviewer.exports.golden import export_golden
from reviewer.exports.options import (
    REVIEWER_CAUSE,
    DatasetOptions,
    PreferenceOptions,
    parse_causes,
)
from reviewer.exports.preference import PreferenceReport
from reviewer.exports.resume import export_resume
from reviewer.exports.split import Split
from reviewer.outputs import Output, as_output, beside, check_folder, check_output
from reviewer.store.database import sqlite_path
from reviewer.store.names import CAUSES, existing


def export_target(store_url: str, path: Path | str, *, folder: bool = False) -> Output:
    """``path`` checked as the output of an export of the store at ``store_url`` (never
    its database file: ``reviewer.outputs``); ``folder`` for a split export."""
    check = check_folder if folder else check_output
    return check(path, database=sqlite_path(store_url))


def _where(report: DatasetReport | PreferenceReport, out: Path | str | Output) -> str:
    if report.split is not None:
        sides = ", ".join(f"{n} {c}" for n, c in report.split["examples"].items())
        folder = str(out).rstrip("/") or "/"  # typed as given: "OUT/" is not "OUT//"
        return f"→ {folder}/ ({sides}), manifest {Path(str(out)) / 'manifest.json'}"
    if (out if isinstance(out, Output) else as_output(out)).stream:
        return f"→ {out}"
    return f"→ {out}, manifest {out}.manifest.json"


def previous_bytes(out: Path | str | Output, split: Split | None) -> int:
    """How many bytes the export about to be written replaces: the file OUT, or the
    JSON lines files of the folder OUT of a split (0: none, or a stream)."""
    shown = out if isinstance(out, Output) else as_output(out)
    if shown.stream or shown.target is None:
        return 0
    files = [shown.target] if split is None else \
        list(shown.target.glob("*.jsonl")) if shown.target.is_dir() else []
    total = 0
    for path in files:
        with contextlib.suppress(OSError):
            found = path.stat()
            total += found.st_size if stat.S_ISREG(found.st_mode) else 0
    return total


def _emptied(count: int, previous: int, out: Path | str | Output, split: Split | None) -> str:
    """What the summary line adds when valid filters selected nothing and the export
    replaced a non-empty one (ninth hostile pass, X4: said, not refused, since an empty
    answer to a right question is an answer)."""
    if count or not previous:
        return ""
    shown = f"{str(out).rstrip('/') or '/'}/" if split is not None else str(out)
    return f"; the previous {shown} ({previous:,} bytes) was replaced by this empty export"


def stored_causes(session: Session, text: str | None, option: str = "--cause"
                  ) -> frozenset[str] | None:
    """The causes typed (``D-COMMERCE,G-TON``; None: every cause) as the store spells
    them, or BadInputError naming the first id the store does not hold, with the close
    ones (``reviewer.store.names``: ninth hostile pass, X4, ``G-DEMANDEE`` wrote "0 pairs"
    over a good export). ``option`` names the field in the message (the CLI's option,
    the Export dialog's label)."""
    if parse_causes(text) is None:
        return None
    typed = [c.strip() for c in str(text).split(",") if c.strip()]
    return frozenset(existing(session, CAUSES, typed, option, also=(REVIEWER_CAUSE,)))


def dataset_line(report: DatasetReport, out: Path | str | Output) -> str:
    """What the CLI and the dialog say after a dataset export."""
    excluded = sum(1 for t in report.tainted if not t["kept"])
    tainted = f", {excluded} with a tainted context left out" if excluded else ""
    return (f"{report.examples} examples ({report.turns} turns, "
            f"{report.exported_conversations} conversations, {len(report.restored)} "
            f"restored turns{tainted}) {_where(report, out)}")


def preference_line(report: PreferenceReport, out: Path | str | Output) -> str:
    """What the CLI and the dialog say after a preference export."""
    if report.options.fmt == "kto":
        what = (f"{report.lines} labelled attempts ({report.labels['true']} good, "
                f"{report.labels['false']} bad)")
    else:
        what = f"{report.lines} pairs"
    return f"{what} {_where(report, out)}"


def run_export(
    session: Session, kind: str, out: Path | str | Output, *, per: str = "turn",
    fmt: str = "chat", reviewer: str | None = None, runs: list[str] | None = None,
    dataset: DatasetOptions | None = None, preference: PreferenceOptions | None = None,
    split: Split | None = None,
) -> str:
    """Write one export (checked, atomic); return the line that says what was written."""
    if kind == "dataset":
        options = dataset or DatasetOptions(per=per, fmt=fmt, reviewer=reviewer, runs=runs)
        previous = previous_bytes(out, split)
        report = export_dataset(session, out, options=options, split=split)
        return dataset_line(report, out) + _emptied(report.examples, previous, out, split)
    if kind == "preference":
        chosen = preference or PreferenceOptions(reviewer=reviewer, runs=runs)
        previous = previous_bytes(out, split)
        written = export_preference(session, out, chosen, split)
        return preference_line(written, out) + _emptied(written.lines, previous, out, split)
    shown = as_output(out)
    if split is not None:
        raise BadInputError(f"--split is for the dataset and preference exports, not {kind}")
    if kind == "catalog":
        return f"{export_catalog(session, shown)} criteria and checks → {shown}"
    if kind == "golden":
        return f"{export_golden(session, shown, reviewer=reviewer)} attempts → {shown}"
    if kind == "resume":
        return f"{export_resume(session, shown, reviewer=reviewer)} conversations → {shown}"
    if kind == "decisions":
        return f"{export_decisions(session, shown)} audit events → {shown}"
    if kind == "calibration":
        audit = beside(shown, ".audit.jsonl")  # the trail beside it: checked the same way
        if audit is None:
            raise BadInputError(f"cannot write {shown}: a calibration export is two files, "
                                "not a stream; nothing was written")
        lines, events = export_calibration(session, Path(shown.shown), reviewer=reviewer,
                                           sets=runs)
        return f"{lines} scored answers → {shown}, {events} audit events → {audit}"
    raise BadInputError(f"unknown export {kind!r} (use {', '.join(KINDS)})")
