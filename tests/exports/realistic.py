"""Realistic runs for the export tests, with the reviewer's truth beside them.

``make_run(seed)`` plays conversations the way the filter's generator does: each turn's
context is the system prompt and the earlier turns *with the answer the filter kept*;
a refused attempt is retried (up to three attempts), and three refusals cut the
conversation. Each attempt draws what it really is:

* good, and the filter accepts it;
* good, but refused: G-DEMANDE judged "non" although its rationale says the answer
  responds, or D-COMMERCE firing on "inscrire la date" (an unjust refusal the reviewer
  rescues, with the criterion override or false-positive mark that makes the rule agree);
* bad, and refused (an invented law: E-INVENTE; a sales pitch: D-COMMERCE);
* bad, but accepted (a false accept the reviewer rejects: every later turn of the
  conversation was generated after it, so their contexts are tainted).

Some turns were sampled twice by the generator and the filter accepted both (two accepted
attempts in one turn). ``Truth`` holds the reviewer's word per key and the CSV that says
it (``reviewer decide --from-csv``).
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewer.cli.main import main
from tests.support.run_files import record, write_catalog, write_jsonl

RUN = "2026-11-02-ministral-8b"
SYSTEM = {"role": "system", "content": "Tu es l'assistant du Journal des Nuisances."}
GOOD = ("Notez la date, l'heure et la durée de l'épisode n°{n}, puis décrivez les faits "
        "sans jugement.")
UNJUST_COMMERCE = "Vous pouvez inscrire la date de l'épisode n°{n} dans votre journal."
BAD = "La loi n°{n} de 2019 vous donne droit à une indemnité automatique."
SALES = "Inscrivez-vous à notre offre Premium pour suivre l'épisode n°{n}."
FALSE_ACCEPT = "Le voisin sera condamné à payer 3 000 € : c'est certain (épisode n°{n})."
CONTRADICTION = "L'assistant répond directement à la demande et explique la démarche."


@dataclass
class Truth:
    """What the reviewer knows: the good refused answers and the bad accepted ones."""

    rescue: dict[str, str] = field(default_factory=dict)  # key -> "criterion" | "check"
    reject: set[str] = field(default_factory=set)

    def write_csv(self, path: Path, reviewer: str = "associe") -> Path:
        """The decisions as ``reviewer decide --from-csv`` reads them."""
        with path.open("w", encoding="utf-8", newline="") as fh:
            out = csv.writer(fh)
            out.writerow(["key", "decision", "criteria", "checks", "note", "reviewer"])
            for key, how in sorted(self.rescue.items()):
                if how == "criterion":  # the override that makes the rule accept it
                    out.writerow([key, "accept", "G-DEMANDE=met", "", "répond", reviewer])
                else:
                    out.writerow([key, "accept", "", "D-COMMERCE=false-positive",
                                  "« inscrire la date » n'est pas commercial", reviewer])
            for key in sorted(self.reject):
                out.writerow([key, "reject", "E-INVENTE=met", "", "certitude inventée",
                              reviewer])
        return path


def _attempt(kind: str, n: int) -> dict[str, Any]:
    """The fields of ``record`` for one kind of attempt."""
    if kind == "good":
        return {"response": GOOD.format(n=n)}
    if kind == "unjust-criterion":
        return {"response": GOOD.format(n=n), "demande": "non", "rationale": CONTRADICTION}
    if kind == "unjust-check":
        return {"response": UNJUST_COMMERCE.format(n=n), "commerce_passed": False}
    if kind == "bad":
        return {"response": BAD.format(n=n), "invente": "oui"}
    if kind == "sales":  # a fair refusal by the regex
        return {"response": SALES.format(n=n), "commerce_passed": False}
    return {"response": FALSE_ACCEPT.format(n=n)}  # false accept: the filter saw nothing


KINDS = ("good", "unjust-criterion", "unjust-check", "bad", "sales", "false-accept")
WEIGHTS = (50, 12, 8, 13, 5, 6)


def make_run(seed: int, conversations: int = 40, run: str = RUN
             ) -> tuple[list[dict[str, Any]], Truth]:
    """The records of one run and the reviewer's truth (see the module docstring)."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    truth = Truth()
    n = 0
    for c in range(conversations):
        conv = f"conv-{seed}-{c:03d}"
        planned = rng.randint(2, 5)
        history = [SYSTEM]
        for turn in range(1, planned + 1):
            context = [*history, {"role": "user", "content": f"{conv} : question {turn}"}]
            kept = None
            twice = rng.random() < 0.08  # the generator sampled this turn twice
            for attempt in range(1, 4):
                n += 1
                kind = rng.choices(KINDS, WEIGHTS)[0]
                row = record(conv, turn, attempt, run=run, **_attempt(kind, n))
                row["messages"], row["turns_planned"] = context, planned
                rows.append(row)
                key = f"{run}/{conv}/{turn}/{attempt}"
                if kind == "unjust-criterion":
                    truth.rescue[key] = "criterion"
                elif kind == "unjust-check":
                    truth.rescue[key] = "check"
                elif kind == "false-accept":
                    truth.reject.add(key)
                if kept is not None:
                    break  # the extra sample of a turn sampled twice
                if row["accepted"]:
                    kept = row["response"]
                    if not twice:
                        break
            if kept is None:
                break  # three refusals: the filter cut the conversation
            history = [*context, {"role": "assistant", "content": kept}]
    return rows, truth


def import_and_decide(db_url: str, folder: Path, seed: int = 7) -> Truth:
    """``make_run(seed)`` imported into the store at ``db_url`` and decided from the
    reviewer's CSV (``reviewer decide --from-csv``, reviewer "associe"), as a user does."""
    rows, truth = make_run(seed)
    run = write_jsonl(folder / "run.jsonl", rows)
    catalog = write_catalog(folder / "catalog.json")
    assert main(["--db", db_url, "import", str(run), "--catalog", str(catalog)]) == 0
    assert main(["--db", db_url, "--reviewer", "associe", "decide", "--from-csv",
                 str(truth.write_csv(folder / "decisions.csv"))]) == 0
    return truth
