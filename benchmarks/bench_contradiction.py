"""Benchmark: verdicts per second of the deterministic contradiction tier on one core.

Run ``python benchmarks/bench_contradiction.py`` (``--quick`` for a short run). It also
prints the rate on the hand-written rationales of ``tests/data`` (cycled), whose lengths
are those of real judge rationales (the generated ones are a little longer).
It says whether the compiled scanner (``scripts/build_compiled.py``) is in
use; ``REVIEWER_CONTRADICTION_PURE=1`` measures the pure-Python one.
``run(quick)`` returns ``{"name", "ours", "baseline", "ratio", "goal"}`` for a ``make
bench`` harness: ``ours`` is verdicts per second, ``goal`` the minimum (50,000);
there is no baseline to compare with.

The verdicts are generated, not read from the labelled file, so that almost every
rationale is distinct (no help from any cache): rationales are assembled from French and
English clause templates, with negations, quotations, contrasts and cuts, over a
twelve-criterion catalog like the filter's. Criterion profiles are cached per criterion
text, as in real use where a catalog has a dozen criteria.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reviewer.contradiction import detect, engine

GOAL = 50_000.0
BATCH = 500
WARM_UP_S = 1.0

CRITERIA = [
    ("success", "Répond à ce que la personne demande, ou dit clairement ce qu'elle ne sait pas."),
    ("success", "Propose une prochaine étape concrète et réaliste."),
    ("success", "Ton bienveillant, sans jugement sur la personne ni sur le voisin."),
    ("success", "Aide à consigner l'épisode dans le journal : date, heure, durée, description."),
    ("failure", "Invente des faits, des lois, des numéros ou des fonctionnalités."),
    ("failure", "Pousse à s'inscrire, à acheter ou à créer un compte premium."),
    ("failure", "Ne fait pas de promotion de l'offre payante."),
    ("failure", "Ignore un signe de détresse ou n'oriente pas vers le 3114."),
    ("success", "Answers what the person asks, or says clearly what it does not know."),
    ("success", "Suggests a concrete, realistic next step."),
    ("failure", "Makes up facts, laws, phone numbers or app features."),
    ("failure", "Encourages confrontation, revenge or retaliation against the neighbour."),
]

SUBJECTS_FR = ["L'assistant", "La réponse", "Il", "Le modèle"]
SUBJECTS_EN = ["The assistant", "The reply", "It", "The response"]
CLAUSES_FR = [
    "répond directement à la demande sur {topic}",
    "ne répond pas à la question sur {topic}",
    "propose de noter {topic} dans le journal",
    "n'invente aucune information sur {topic}",
    "ne cite que des éléments présents dans la conversation",
    "invente un délai légal pour {topic}",
    "reste vague sur {topic}",
    "ne manque pas de rappeler {topic}",
    "pousse à créer un compte premium pour {topic}",
    "oriente vers le 3114 sans détour",
]
CLAUSES_EN = [
    "directly answers the question about {topic}",
    "does not address the request about {topic}",
    "suggests logging {topic} in the journal",
    "makes up no facts about {topic}",
    "only cites what appears in the conversation",
    "invents a legal deadline for {topic}",
    "stays vague on {topic}",
    "never fails to mention {topic}",
    "pushes the user to upgrade to premium for {topic}",
    "points to the 3114 line right away",
]
TOPICS = [
    "le bruit du chantier",
    "les aboiements",
    "l'odeur de friture",
    "la date de l'épisode",
    "les horaires de tranquillité",
    "le courrier au syndic",
    "la médiation",
    "the noise",
    "the barking",
    "the landlord",
    "the quiet hours",
    "the log entry",
]
PREFIXES_FR = ["", "La personne dit qu'elle ne dort plus ; ", "« Je n'en peux plus », écrit-elle. "]
PREFIXES_EN = ["", "The user says they can't sleep; ", "User: 'I don't know what to do.' "]
LINKS_FR = [", mais ", " et ", " ; ", ". Pourtant ", ", puis "]
LINKS_EN = [", but ", " and ", "; ", ". However, ", ", then "]
ENDS = [".", "…", ". Critère respecté.", ". Criterion not met.", ""]


def make_verdicts(n: int, seed: int = 7) -> list[tuple[str, str, str, str]]:
    """``n`` distinct-ish verdicts ``(kind, verdict, rationale, criterion_text)``."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        kind, text = rng.choice(CRITERIA)
        english = rng.random() < 0.4
        subjects, clauses, prefixes, links = (
            (SUBJECTS_EN, CLAUSES_EN, PREFIXES_EN, LINKS_EN)
            if english
            else (SUBJECTS_FR, CLAUSES_FR, PREFIXES_FR, LINKS_FR)
        )
        first = rng.choice(clauses).format(topic=rng.choice(TOPICS))
        rationale = f"{rng.choice(prefixes)}{rng.choice(subjects)} {first}"
        if rng.random() < 0.6:
            second = rng.choice(clauses).format(topic=rng.choice(TOPICS))
            rationale += rng.choice(links) + second
        rationale += rng.choice(ENDS)
        verdict = rng.choice(["oui", "non", "yes", "no"])
        out.append((kind, verdict, rationale, text))
    return out


def measure(verdicts: list[tuple[str, str, str, str]], repeat: int) -> float:
    """Verdicts per second, in CPU time of this process (the machine may be shared;
    wall-clock time would measure the neighbours too).

    As ``timeit`` does, each batch of ``BATCH`` verdicts is timed ``repeat`` times and
    its fastest run kept: interruptions by other processes only ever slow a run down.
    The detector first runs for ``WARM_UP_S`` of CPU time: a fresh process on these
    machines runs up to 1.7 times slower for its first second or so (a 5,000-verdict
    quick run measured 48,000/s first and 78,000/s a second later, same process).
    """
    start = time.process_time()
    while time.process_time() - start < WARM_UP_S:
        for kind, verdict, rationale, text in verdicts[:500]:
            detect(kind, verdict, rationale, text)  # criterion cache, lexicon, and the CPU
    total = 0.0
    for first in range(0, len(verdicts), BATCH):
        batch = verdicts[first : first + BATCH]
        best = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            for kind, verdict, rationale, text in batch:
                detect(kind, verdict, rationale, text)
            best = min(best, time.process_time() - start)
        total += best
    return len(verdicts) / total


def labelled_verdicts(n: int) -> list[tuple[str, str, str, str]]:
    """``n`` verdicts cycled from the hand-written data files (real rationale lengths),
    or none when the files are absent."""
    data = Path(__file__).resolve().parents[1] / "tests" / "data"
    rows = []
    for name in ("contradictions_labelled.jsonl", "contradictions_holdout.jsonl"):
        path = data / name
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    r = json.loads(line)
                    rows.append((r["kind"], r["verdict"], r["rationale"], r["criterion_text"]))
    return [rows[i % len(rows)] for i in range(n)] if rows else []


PROCESSES = 3


def rate_here(quick: bool) -> float:
    """Verdicts per second on generated rationales, measured in this process."""
    return measure(make_verdicts(5_000 if quick else 50_000), 5)


def run(quick: bool = False) -> dict[str, Any]:
    """The harness entry point: verdicts per second of the deterministic tier, on
    generated, (almost all) distinct rationales.

    The best of ``PROCESSES`` fresh processes, as the GUI start is the best of several
    starts: on these machines a process runs the same code at anything from 47,000 to
    83,000 verdicts a second, and stays at its speed for seconds.
    """
    command = [sys.executable, str(Path(__file__).resolve()), "--rate"]
    if quick:
        command.append("--quick")
    rates = [float(subprocess.run(command, capture_output=True, text=True, check=True,
                                  cwd=Path(__file__).resolve().parents[1]).stdout)
             for _ in range(PROCESSES)]
    rate = max(rates)
    if not engine.COMPILED:  # the row would measure the pure-Python scanner, 3x slower
        print("bench_contradiction: the compiled scanner is missing or stale "
              "(scripts/build_compiled.py): measuring pure Python", file=sys.stderr)
    return {
        "name": "contradiction detector (deterministic tier), verdicts/s",
        "ours": rate,
        "baseline": None,
        "ratio": None,
        "goal": GOAL,
    }


def main() -> None:
    """Print the figures and whether they meet the goal (``--rate``: only this
    process's rate on generated rationales, for :func:`run`)."""
    quick = "--quick" in sys.argv
    if "--rate" in sys.argv:
        print(rate_here(quick))
        return
    print(
        "scanner: compiled (scripts/build_compiled.py)" if engine.COMPILED
        else "scanner: pure Python (compiled copy not built, stale, or disabled)"
    )
    result = run(quick=quick)
    verdict = "meets" if result["ours"] >= GOAL else "BELOW"
    print(
        f"generated rationales: {result['ours']:,.0f} verdicts/s on one core "
        f"({verdict} the goal of {GOAL:,.0f})"
    )
    real = labelled_verdicts(5_000 if quick else 50_000)
    if real:
        rate = measure(real, 2 if quick else 5)
        print(f"rationales of tests/data, cycled: {rate:,.0f} verdicts/s on one core")


if __name__ == "__main__":
    main()
