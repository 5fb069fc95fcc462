"""Builders for small run and catalog files used by the import tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reviewer.store import Store

CATALOG: dict[str, Any] = {
    "criteria": [
        {
            "id": "G-DEMANDE",
            "kind": "success",
            "severity": None,
            "text": "Répond à ce que la personne demande.",
        },
        {
            "id": "E-INVENTE",
            "kind": "failure",
            "severity": "major",
            "text": "Invente des faits, des lois ou des numéros.",
        },
        {"id": "E-LONGUEUR", "kind": "failure", "severity": "minor", "text": "Trop long."},
    ],
    "checks": [
        {
            "id": "D-COMMERCE",
            "description": "Pas d'incitation à s'inscrire",
            "pattern": "inscri(vez|re|ption)",
            "flags": "i",
            "mode": "forbid",
        },
        {
            "id": "D-3114",
            "description": "Donne le 3114 en cas de détresse",
            "pattern": "3114",
            "flags": "",
            "mode": "require",
            "when": "(en finir|suicid)",
        },
    ],
}


def record(
    conversation: str = "recette-001",
    turn: int = 1,
    attempt: int = 1,
    *,
    run: str = "2026-10-14-ministral-8b",
    response: str = "Notez la date et l'heure de chaque épisode.",
    demande: str = "oui",
    invente: str = "non",
    commerce_passed: bool = True,
    rationale: str = "L'assistant répond directement à la demande.",
) -> dict[str, Any]:
    """One run-file record whose ``accepted``/``reasons`` follow the filter rule."""
    reasons = []
    if not commerce_passed:
        reasons.append("D-COMMERCE échoué : Pas d'incitation à s'inscrire")
    if invente == "oui":
        reasons.append("E-INVENTE relevé : Cite une loi qui n'existe pas.")
    if demande == "non":
        reasons.append(f"G-DEMANDE non tenu : {rationale}")
    return {
        "run": run,
        "conversation": conversation,
        "turn": turn,
        "attempt": attempt,
        "messages": [
            {"role": "system", "content": "Tu es l'assistant du Journal des Nuisances."},
            {"role": "user", "content": "Comment dater un épisode de bruit ?"},
        ],
        "response": response,
        "reference": None,
        "accepted": not reasons,
        "reasons": reasons,
        "checks": [
            {"id": "D-COMMERCE", "passed": commerce_passed},
            {"id": "D-3114", "passed": True},
        ],
        "judge": {
            "model": "qwen3.6:35b-a3b",
            "verdicts": [
                {"criterion": "G-DEMANDE", "verdict": demande, "rationale": rationale},
                {
                    "criterion": "E-INVENTE",
                    "verdict": invente,
                    "rationale": (
                        "Cite une loi qui n'existe pas." if invente == "oui" else "Rien d'inventé."
                    ),
                },
            ],
        },
    }


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    """Write rows (dicts, or raw strings kept as they are) as JSONL."""
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(row if isinstance(row, str) else json.dumps(row, ensure_ascii=False))
            fh.write("\n")
    return path


def write_catalog(path: Path, catalog: dict[str, Any] | None = None) -> Path:
    """Write a catalog file (the default small catalog unless given)."""
    path.write_text(json.dumps(catalog or CATALOG, ensure_ascii=False), encoding="utf-8")
    return path


def sample_rows(n_conversations: int = 5) -> list[dict[str, Any]]:
    """A small varied run: accepted, refused by a check, by a fault, by an unmet success."""
    rows = []
    for c in range(1, n_conversations + 1):
        name = f"recette-{c:03d}"
        rows.append(record(name, 1, 1))
        rows.append(record(name, 2, 1, demande="non"))
        rows.append(
            record(
                name,
                2,
                2,
                commerce_passed=False,
                response="Pensez à inscrire la date dans votre journal.",
            )
        )
        rows.append(record(name, 2, 3, invente="oui"))
    return rows


def imported_store(folder: Path) -> str:
    """A new store ``folder/n.db`` holding ``sample_rows()`` and the catalog, made by the
    command line as a reviewer makes one; its path."""
    from tests.support.cli import run  # the CLI helper imports the app; only here

    db = str(folder / "n.db")
    assert run(["--db", db, "import", "--catalog", str(write_catalog(folder / "c.json")),
                str(write_jsonl(folder / "run.jsonl", sample_rows()))]) == 0
    return db


def padded_runs(store: Store, folder: Path, padded: list[str]) -> None:
    """A store as a version before the fifteenth hostile pass (P15-1) could leave it: run
    ``2026-10-14-ministral-8b`` and, for each of ``padded`` (that name with spaces around
    it), a run of that name, each holding ``recette-033/2/1``."""
    from sqlalchemy import text

    from reviewer.ingest.importer import import_run

    catalog = write_catalog(folder / "c.json")
    import_run(store, write_jsonl(folder / "run.jsonl", [record("recette-033", 2, 1)]),
               catalog_path=catalog)
    for n, name in enumerate(padded):
        other = f"other-{n}"
        import_run(store, write_jsonl(folder / f"{other}.jsonl",
                                      [record("recette-033", 2, 1, run=other)]))
        with store.session() as s:  # what the earlier import stored: the id as given
            s.execute(text("UPDATE runs SET name = :p WHERE name = :o"), {"p": name, "o": other})
