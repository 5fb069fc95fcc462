"""One entry point for every export, shared by the CLI and the app's Export dialog."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from reviewer.errors import BadInputError
from reviewer.exports import KINDS
from reviewer.exports.calibration import audit_path, export_calibration
from reviewer.exports.catalog import export_catalog
from reviewer.exports.dataset import export_dataset, manifest_path
from reviewer.exports.decisions import export_decisions
from reviewer.exports.golden import export_golden
from reviewer.exports.resume import export_resume


def run_export(
    session: Session, kind: str, out: Path, *, per: str = "turn", fmt: str = "chat",
    reviewer: str | None = None, runs: list[str] | None = None,
) -> str:
    """Write one export atomically; return the line that says what was written."""
    if kind == "dataset":
        report = export_dataset(session, out, per=per, fmt=fmt, reviewer=reviewer, runs=runs)
        return (f"{report.examples} examples ({report.turns} turns, "
                f"{report.exported_conversations} conversations, {len(report.restored)} "
                f"restored turns) → {out}, manifest {manifest_path(out)}")
    if kind == "catalog":
        return f"{export_catalog(session, out)} criteria and checks → {out}"
    if kind == "golden":
        return f"{export_golden(session, out, reviewer=reviewer)} attempts → {out}"
    if kind == "resume":
        return f"{export_resume(session, out, reviewer=reviewer)} conversations → {out}"
    if kind == "decisions":
        return f"{export_decisions(session, out)} audit events → {out}"
    if kind == "calibration":
        lines, events = export_calibration(session, out, reviewer=reviewer, sets=runs)
        return f"{lines} scored answers → {out}, {events} audit events → {audit_path(out)}"
    raise BadInputError(f"unknown export {kind!r} (use {', '.join(KINDS)})")
