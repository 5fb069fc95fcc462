"""Which attempts ``reviewer rejudge`` looks at: all, flagged ones, one key, one criterion.

These only pick candidates (attempts with a success criterion the filter judged "non");
whether a second opinion is really asked is decided per attempt by the seed's rule.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import (
    ContradictionFlag,
    CriterionVersion,
    Verdict,
)
from reviewer.errors import BadInputError
from reviewer.keys import AttemptKey
from reviewer.store.names import CRITERIA, attempt_named, existing


def _unmet_successes() -> Any:
    """Filter verdicts on a success criterion judged "non" (the doubted ones)."""
    return (
        select(Verdict.attempt_id)
        .join(CriterionVersion, CriterionVersion.id == Verdict.criterion_version_id)
        .where(Verdict.origin == "filter", Verdict.met.is_(False),
               CriterionVersion.kind == "success")
    )


def all_candidates(session: Session) -> list[int]:
    """Every attempt with a doubted success criterion."""
    return sorted(set(session.scalars(_unmet_successes())))


def flagged_candidates(session: Session) -> list[int]:
    """Attempts whose doubted success verdict the rules-tier detector flagged."""
    stmt = (
        _unmet_successes()
        .join(ContradictionFlag, ContradictionFlag.verdict_id == Verdict.id)
        .where(ContradictionFlag.tier == "rules", ContradictionFlag.flagged.is_(True))
    )
    return sorted(set(session.scalars(stmt)))


def criterion_candidates(session: Session, criterion_id: str) -> list[int]:
    """Attempts whose success criterion ``criterion_id`` was judged "non"."""
    # The shared check of a name a filter gives (reviewer.store.names, X4).
    criterion_id = existing(session, CRITERIA, [criterion_id], "--criterion")[0]
    kinds = set(session.scalars(
        select(CriterionVersion.kind).where(CriterionVersion.criterion_id == criterion_id)
    ))
    if "success" not in kinds:
        raise BadInputError(
            f"{criterion_id} is a failure criterion: a second opinion only re-judges "
            "success criteria (a fault the judge found stays a refusal)"
        )
    stmt = _unmet_successes().where(CriterionVersion.criterion_id == criterion_id)
    return sorted(set(session.scalars(stmt)))


def attempt_id_for(session: Session, key: AttemptKey) -> int:
    """The stored id of ``key``; BadInputError if it is not stored (read as every typed
    key is: ``reviewer.store.names.attempt_named``)."""
    found = attempt_named(session, key)
    if found is None:
        raise BadInputError(f"{key}: no such attempt in the store")
    return found
