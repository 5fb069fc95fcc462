"""The current criteria and checks, in the import catalog's format, with their history.

``{"criteria": [{"id", "kind", "severity", "text", "version", "changes"}],
"checks": [{"id", "description", "pattern", "flags", "mode", "when", "dialect",
"version", "changes"}]}``; ``changes`` lists every version's ``{"version", "reason", "author",
"at"}``. The extra keys are ignored by the importer, so the file imports as a catalog
(adding no version when nothing changed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from models import Check, Criterion
from reviewer.atomic import write_json_atomic
from reviewer.outputs import Output


def _changes(versions: list[Any]) -> list[dict[str, Any]]:
    return [{"version": v.version, "reason": v.reason, "author": v.author,
             "at": v.created_at.isoformat() if v.created_at else None} for v in versions]


def catalog_document(session: Session) -> dict[str, Any]:
    """The catalog as of now, criteria and checks in their catalog order."""
    criteria = []
    for crit in session.scalars(select(Criterion).options(selectinload(Criterion.versions))
                                .order_by(Criterion.position, Criterion.id)):
        cur = crit.versions[-1]
        criteria.append({"id": crit.id, "kind": cur.kind, "severity": cur.severity,
                         "text": cur.text, "version": cur.version,
                         "changes": _changes(crit.versions)})
    checks = []
    for chk in session.scalars(select(Check).options(selectinload(Check.versions))
                               .order_by(Check.position, Check.id)):
        last = chk.versions[-1]
        entry: dict[str, Any] = {"id": chk.id, "description": last.description,
                                 "pattern": last.pattern, "flags": last.flags, "mode": last.mode}
        if last.when is not None:
            entry["when"] = last.when
        entry["dialect"] = last.dialect  # without it, a re-import would read python
        entry |= {"version": last.version, "changes": _changes(chk.versions)}
        checks.append(entry)
    return {"criteria": criteria, "checks": checks}


def export_catalog(session: Session, out: Path | Output) -> int:
    """Write the catalog atomically; return how many entries."""
    doc = catalog_document(session)
    write_json_atomic(out, doc)
    return len(doc["criteria"]) + len(doc["checks"])
