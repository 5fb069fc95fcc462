"""Criteria and checks: reading a catalog file and keeping versions in the store.

A catalog entry whose content differs from the stored current version becomes a new
version; verdicts and check results keep pointing at the version they were made under.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models import Check, CheckVersion, Criterion, CriterionVersion
from reviewer.checks import CheckPattern, PatternError, compile_check
from reviewer.errors import BadInputError
from reviewer.run_file import check_storable, no_duplicate_keys

KINDS = ("success", "failure")


@dataclass(frozen=True, slots=True)
class CriterionSpec:
    """A criterion as a catalog states it."""

    id: str
    kind: str
    severity: str | None
    text: str


@dataclass(frozen=True, slots=True)
class CheckSpec:
    """A check as a catalog states it."""

    id: str
    description: str
    pattern: str
    flags: str
    mode: str
    when: str | None


@dataclass(frozen=True, slots=True)
class Catalog:
    """A parsed catalog file."""

    criteria: tuple[CriterionSpec, ...]
    checks: tuple[CheckSpec, ...]


def _str_field(entry: dict[str, Any], key: str, where: str, *, optional: bool = False) -> Any:
    value = entry.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or (not optional and not value.strip() and key == "id"):
        raise BadInputError(f"{where}: '{key}' must be a non-empty string")
    return value


def _criterion(entry: Any, where: str) -> CriterionSpec:
    if not isinstance(entry, dict):
        raise BadInputError(f"{where}: a criterion must be an object")
    cid = _str_field(entry, "id", where)
    kind = entry.get("kind") or _kind_from_id(cid)
    if kind not in KINDS:
        raise BadInputError(f"{where}: criterion {cid}: 'kind' must be success or failure")
    severity = entry.get("severity")
    # Only "major" matters to the filter rule; other severities are kept as they are.
    if severity is not None and not isinstance(severity, str):
        raise BadInputError(f"{where}: criterion {cid}: 'severity' must be a string or null")
    text = _str_field(entry, "text", where)
    return CriterionSpec(cid, kind, severity, text)


def _kind_from_id(cid: str) -> str | None:
    # The judge's naming convention: G-… success criteria, E-… failure criteria.
    if cid.startswith("G-"):
        return "success"
    if cid.startswith("E-"):
        return "failure"
    return None


def _check(entry: Any, where: str) -> CheckSpec:
    if not isinstance(entry, dict):
        raise BadInputError(f"{where}: a check must be an object")
    cid = _str_field(entry, "id", where)
    pattern = _str_field(entry, "pattern", where)
    flags = entry.get("flags") or ""
    if not isinstance(flags, str):
        raise BadInputError(f"{where}: check {cid}: 'flags' must be a string")
    mode = entry.get("mode") or "forbid"
    when = _str_field(entry, "when", where, optional=True)
    try:
        # Compiled by the engine that will run it, so what imports is what runs.
        compile_check(CheckPattern(pattern, flags, mode, when))
    except PatternError as exc:
        raise BadInputError(f"{where}: check {cid}: {exc}") from None
    description = entry.get("description") or ""
    if not isinstance(description, str):
        raise BadInputError(f"{where}: check {cid}: 'description' must be a string")
    return CheckSpec(cid, description, pattern, flags, mode, when)


def parse_catalog(data: Any, where: str) -> Catalog:
    """Validate a decoded catalog document."""
    if not isinstance(data, dict):
        raise BadInputError(f"{where}: a catalog is an object with 'criteria' and 'checks'")
    crit = data.get("criteria", [])
    chk = data.get("checks", [])
    if not isinstance(crit, list) or not isinstance(chk, list):
        raise BadInputError(f"{where}: 'criteria' and 'checks' must be lists")
    criteria = tuple(_criterion(e, f"{where}: criteria[{i}]") for i, e in enumerate(crit))
    checks = tuple(_check(e, f"{where}: checks[{i}]") for i, e in enumerate(chk))
    for label, ids in (("criterion", [c.id for c in criteria]), ("check", [c.id for c in checks])):
        dupes = {x for x in ids if ids.count(x) > 1}
        if dupes:
            raise BadInputError(f"{where}: duplicate {label} id {sorted(dupes)[0]}")
    return Catalog(criteria, checks)


def read_catalog(path: Path) -> Catalog:
    """Read and validate a catalog JSON file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=no_duplicate_keys)
        check_storable(data)
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read ({exc.strerror})") from None
    except RecursionError:
        raise BadInputError(f"{path}: JSON nested too deeply") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadInputError(f"{path}: not a usable JSON catalog ({exc})") from None
    return parse_catalog(data, str(path))


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
        reason=reason,
        author=author,
    ))


def criterion_spec(cv: CriterionVersion) -> CriterionSpec:
    """The catalog form of a stored criterion version."""
    return CriterionSpec(cv.criterion_id, cv.kind, cv.severity, cv.text)


def check_spec(cv: CheckVersion) -> CheckSpec:
    """The catalog form of a stored check version."""
    return CheckSpec(cv.check_id, cv.description, cv.pattern, cv.flags, cv.mode, cv.when)


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
