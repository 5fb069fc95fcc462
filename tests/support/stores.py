"""Stores filled for tests, and a way to run one domain operation in its own unit of work."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import select

from models import Attempt, ContradictionFlag, Verdict
from reviewer.keys import AttemptKey
from reviewer.review.queue import attempt_id_for
from reviewer.store import Store
from tests.support.run_files import record, sample_rows, write_catalog, write_jsonl

CONTRADICTION = "L'assistant répond directement à la demande et explique la démarche."
T = TypeVar("T")


def act(store: Store, operation: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``operation(session, *args, **kwargs)`` in one committed unit of work, as the
    app's task manager does."""
    with store.session() as session:
        return operation(session, *args, **kwargs)


def small_run(tmp_path: Path, conversations: int = 8) -> tuple[Path, Path]:
    """A run with accepted attempts, refusals of every kind and self-contradicting verdicts.

    Per conversation: turn 1 accepted; turn 2 refused three times (G-DEMANDE "non" whose
    rationale says the request was answered, a D-COMMERCE hit, an E-INVENTE fault), so
    the conversation stops at turn 2 of 4 planned.
    """
    rows = sample_rows(conversations)
    for row in rows:
        if row["turn"] == 2 and row["attempt"] == 1:
            row["judge"]["verdicts"][0]["rationale"] = CONTRADICTION
            row["reasons"] = [f"G-DEMANDE non tenu : {CONTRADICTION}"]
        row["turns_planned"] = 4
    rows[-1] = record("recette-999", 1, 1, response="Un événement sonore <img src=x> <b>gras</b>",
                      demande="non", rationale="Réponse <b>hors sujet</b> <img src=x>")
    run = write_jsonl(tmp_path / "run.jsonl", rows)
    return run, write_catalog(tmp_path / "catalog.json")


def fill_store(store: Store, tmp_path: Path) -> Store:
    """``store`` with :func:`small_run` imported."""
    from reviewer.ingest.importer import import_run

    run, catalog = small_run(tmp_path)
    import_run(store, run, catalog_path=catalog)
    return store


def attempt_id(store: Store, key: str) -> int:
    """The id of the attempt named ``RUN/CONVERSATION/TURN/ATTEMPT``."""
    with store.session() as s:
        found = attempt_id_for(s, AttemptKey.parse(key))
    if found is None:
        raise KeyError(key)
    return found


def flag(store: Store, key: str, score: float) -> None:
    """Store a rules-tier contradiction flag the way the detector does, one that would
    change the filter's decision (the badge)."""
    aid = attempt_id(store, key)
    with store.session() as s:
        verdict = s.scalars(select(Verdict).where(Verdict.attempt_id == aid)).first()
        assert verdict is not None
        s.add(ContradictionFlag(verdict_id=verdict.id, tier="rules", score=score,
                                flagged=True, evidence="répond directement", decisive=True))
        s.get_one(Attempt, aid).contradiction_score = score
