"""Criteria and checks kept as versions in the store.

A catalog entry whose content differs from the stored current version becomes a new
version; verdicts and check results keep pointing at the version they were made under.
"""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models import Check, CheckVersion, Criterion, CriterionVersion
from reviewer.catalog.spec import Catalog, CheckSpec, CriterionSpec, criterion_text

V = TypeVar("V", CriterionVersion, CheckVersion)


def _latest(session: Session, model: type[V], owner: Any) -> dict[str, V]:
    """The newest row of ``model`` per ``owner`` id (criterion or check)."""
    latest = select(owner, func.max(model.version).label("v")).group_by(owner).subquery()
    rows = session.scalars(
        select(model).join(
            latest, (owner == latest.c[owner.key]) & (model.version == latest.c.v)
        )
    )
    return {getattr(row, owner.key): row for row in rows}


def current_criterion_versions(session: Session) -> dict[str, CriterionVersion]:
    """The latest version of every criterion, by id."""
    return _latest(session, CriterionVersion, CriterionVersion.criterion_id)


def current_check_versions(session: Session) -> dict[str, CheckVersion]:
    """The latest version of every check, by id."""
    return _latest(session, CheckVersion, CheckVersion.check_id)


def _next_number(
    session: Session, owner: type[Criterion] | type[Check], ident: str, current: V | None
) -> int:
    """The next version number; a new id gets its owner row, placed after the others."""
    if current is not None:
        return current.version + 1
    position = session.scalar(select(func.count()).select_from(owner)) or 0
    session.add(owner(id=ident, position=position))
    return 1


def _store(session: Session, version: V) -> V:
    session.add(version)
    session.flush()
    return version


def add_criterion_version(
    session: Session, spec: CriterionSpec, *, reason: str | None = None, author: str | None = None
) -> CriterionVersion:
    """Store ``spec`` as the next version of its criterion (creating the criterion if new)."""
    criterion_text(spec.text, f"criterion {spec.id}")  # the catalog's bound (P16-1)
    current = current_criterion_versions(session).get(spec.id)
    return _store(session, CriterionVersion(
        criterion_id=spec.id,
        version=_next_number(session, Criterion, spec.id, current),
        kind=spec.kind,
        severity=spec.severity,
        text=spec.text,
        reason=reason,
        author=author,
    ))


def add_check_version(
    session: Session, spec: CheckSpec, *, reason: str | None = None, author: str | None = None
) -> CheckVersion:
    """Store ``spec`` as the next version of its check (creating the check if new)."""
    current = current_check_versions(session).get(spec.id)
    return _store(session, CheckVersion(
        check_id=spec.id,
        version=_next_number(session, Check, spec.id, current),
        description=spec.description,
        pattern=spec.pattern,
        flags=spec.flags,
        mode=spec.mode,
        when=spec.when,
        dialect=spec.dialect,
        reason=reason,
        author=author,
    ))


def criterion_spec(cv: CriterionVersion) -> CriterionSpec:
    """The catalog form of a stored criterion version."""
    return CriterionSpec(cv.criterion_id, cv.kind, cv.severity, cv.text)


def check_spec(cv: CheckVersion) -> CheckSpec:
    """The catalog form of a stored check version."""
    return CheckSpec(cv.check_id, cv.description, cv.pattern, cv.flags, cv.mode, cv.when,
                     cv.dialect)


def apply_catalog(session: Session, catalog: Catalog, *, reason: str | None = None) -> int:
    """Add a version for every entry that is new or changed; return how many were added."""
    criteria = current_criterion_versions(session)
    checks = current_check_versions(session)
    added = 0
    for crit in catalog.criteria:
        if crit.id not in criteria or criterion_spec(criteria[crit.id]) != crit:
            add_criterion_version(session, crit, reason=reason or "catalog import")
            added += 1
    for chk in catalog.checks:
        if chk.id not in checks or check_spec(checks[chk.id]) != chk:
            add_check_version(session, chk, reason=reason or "catalog import")
            added += 1
    return added
