"""Write the base-rate development runs: tests/data/baserate/<set>/.

A real filter run is not balanced: nearly every verdict agrees with its rationale and
about one in a hundred contradicts it. Each set here is a run of about 420 attempts
judged on twelve criteria, with hand-written rationales (``scripts/baserate_data``) in
one judge's voice, played through the filter rule like the demo (up to three attempts
per turn, a conversation cut after three refusals):

* each criterion of each attempt is good or bad (bad is rare: a few percent for a
  success criterion, one or two for a failure one), and the judge writes a rationale of
  the matching pool, drawn without repetition;
* the judge then ticks the verdict its rationale supports, except for a small share it
  ticks the other way (the seed's "reason right, verdict wrong"): that verdict is a
  contradiction. Success criteria are flipped more often than failure ones (the judge
  errs on the criteria whose "oui" means "good" among those whose "oui" means "bad"),
  G-DEMANDE most (seed 001).

Written next to each run: ``catalog.json`` and ``run.jsonl`` (the import format),
``labels.jsonl`` (one line per verdict: key, criterion, contradiction),
``attempt_truth.jsonl`` (one line per attempt: refused because of a contradiction,
rescuable: the filter accepts once the contradicted verdicts are read as their
rationales say) and ``verdicts.jsonl`` (the verdicts in the labelled format of
``tests/data``, for ``reviewer contradictions --evaluate``). A fixed seed per set makes
the files byte-for-byte stable.

Usage: ``.venv/bin/python scripts/make_baserate.py``
"""

from __future__ import annotations

import json
import random
import re
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from baserate_data import (  # noqa: E402
    catalog_b,
    pools_a,
    pools_b,
    pools_c,
    pools_d,
    pools_e,
    pools_f,
    pools_g,
)
from demo_data import catalog as catalog_a  # noqa: E402

from reviewer.rule.filter import CheckOutcome, VerdictOutcome, decide, refuses  # noqa: E402

OUT = ROOT / "tests" / "data" / "baserate"
MAX_ATTEMPTS = 3

USER_MESSAGES = [
    "Mon voisin fait du bruit tous les soirs après 23h, que puis-je faire ?",
    "Le chien d'à côté aboie toute la journée quand ses maîtres sont absents.",
    "Comment noter correctement un épisode de nuisance dans le journal ?",
    "Est-ce que je peux appeler la mairie pour des odeurs de friture ?",
    "Le voisin du dessus fait des travaux le dimanche matin, c'est permis ?",
    "J'ai déjà parlé au voisin deux fois, rien n'a changé. Et maintenant ?",
    "Quelles preuves garder avant d'aller voir un conciliateur ?",
    "Pouvez-vous m'aider à écrire un mot poli à mes voisins ?",
    "Les fêtes du samedi soir m'empêchent de dormir, je suis épuisée.",
    "Le restaurant en bas rejette des fumées dans la cour, à qui m'adresser ?",
    "Une voiture est garée devant mon garage tous les matins.",
    "La pompe à chaleur du voisin ronronne toute la nuit.",
]
RESPONSES = [
    "Notez la date, l'heure et la durée de chaque épisode, puis proposez un échange calme "
    "avec votre voisin. Si rien ne change, un conciliateur de justice peut vous aider.",
    "Vous pouvez écrire un mot courtois à votre voisin en décrivant les faits. Gardez une "
    "trace datée dans votre journal.",
    "La mairie peut être contactée pour ce type de nuisance. Décrivez les faits de façon "
    "factuelle et gardez vos notes.",
    "Je comprends que ce soit pénible. Commencez par consigner les épisodes, puis envisagez "
    "une médiation.",
    "Les règles dépendent de votre commune ; renseignez-vous auprès de la mairie et notez "
    "chaque épisode.",
]


@dataclass(frozen=True)
class Profile:
    """How one judge errs and how often the answers it grades fail each criterion."""

    name: str
    run: str
    judge_model: str
    seed: int
    conversations: int
    criteria: list[dict[str, Any]]
    checks: list[dict[str, Any]]
    pools: dict[tuple[str, str], list[str]]
    yes: str
    no: str
    lang: str
    sloppy: Callable[[str, random.Random], str]


def bad_rate(criterion: dict[str, Any]) -> float:
    """How often an answer really fails the criterion (it is rarely bad)."""
    if criterion["kind"] == "success":
        return 0.05 if criterion["id"] != "G-DEMANDE" else 0.035
    return 0.03 if criterion["severity"] == "minor" else 0.012


def flip_rate(criterion: dict[str, Any], good: bool) -> float:
    """How often the judge ticks the verdict its own rationale argues against."""
    if not good:
        return 0.06
    if criterion["id"] == "G-DEMANDE":
        return 0.03
    return 0.014 if criterion["kind"] == "success" else 0.005


def strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text)
                   if unicodedata.category(c) != "Mn").replace("«", "\"").replace("»", "\"")


def sloppy_fr(text: str, rng: random.Random) -> str:
    """What a small local judge does to its own French: a lower-case start, a missing
    full stop, now and then every accent dropped."""
    if rng.random() < 0.12:
        text = text[:1].lower() + text[1:]
    if rng.random() < 0.10 and text.endswith("."):
        text = text[:-1]
    if rng.random() < 0.04:
        text = strip_accents(text)
    return text


def sloppy_fr_c(text: str, rng: random.Random) -> str:
    """Set C's judge drops its accents far more often."""
    text = sloppy_fr(text, rng)
    if rng.random() < 0.12:
        text = strip_accents(text)
    return text


def sloppy_fr_f(text: str, rng: random.Random) -> str:
    """Set F's large judge is mostly clean: a rare lower-case start or missing full stop,
    now and then a double space after a comma."""
    if rng.random() < 0.08:
        text = text[:1].lower() + text[1:]
    if rng.random() < 0.06 and text.endswith("."):
        text = text[:-1]
    if rng.random() < 0.03 and ", " in text:
        text = text.replace(", ", ",  ", 1)
    return text


def sloppy_en(text: str, rng: random.Random) -> str:
    if rng.random() < 0.15:
        text = text[:1].lower() + text[1:]
    if rng.random() < 0.15 and text.endswith("."):
        text = text[:-1]
    return text


def swap_letters(text: str, rng: random.Random) -> str:
    """A typing slip: two adjacent letters inside one word (neither its first nor its
    last letter) swapped."""
    spots = [m.start() + i for m in re.finditer(r"[^\W\d_]{4,}", text)
             for i in range(1, len(m.group()) - 2)
             if text[m.start() + i] != text[m.start() + i + 1]]
    if not spots:
        return text
    at = rng.choice(spots)
    return text[:at] + text[at + 1] + text[at] + text[at + 2:]


def sloppy_en_g(text: str, rng: random.Random) -> str:
    """Set G's judge: a lower-case start, a missing full stop, now and then a typo."""
    if rng.random() < 0.20:
        text = text[:1].lower() + text[1:]
    if rng.random() < 0.15 and text.endswith("."):
        text = text[:-1]
    if rng.random() < 0.05:
        text = swap_letters(text, rng)
    return text


PROFILES = [
    Profile("dev_a", "2026-11-02-ministral-8b", "qwen3:8b", 11, 150,
            list(catalog_a.CRITERIA), list(catalog_a.CHECKS), pools_a.POOLS, "oui", "non",
            "fr", sloppy_fr),
    Profile("dev_b", "2026-11-05-llama-en", "llama3.1:8b", 22, 150,
            catalog_b.CRITERIA, catalog_b.CHECKS, pools_b.POOLS, "yes", "no", "en",
            sloppy_en),
    Profile("dev_c", "2026-11-09-mistral-fr", "mistral-small:24b", 33, 150,
            catalog_b.CRITERIA, catalog_b.CHECKS, pools_c.POOLS, "oui", "non", "fr",
            sloppy_fr_c),
    # Written later, after the detector's false flags on A-C were seen (see pools_d).
    Profile("dev_d", "2026-11-12-phi-en", "phi4:14b", 44, 150,
            list(catalog_a.CRITERIA), list(catalog_a.CHECKS), pools_d.POOLS, "yes", "no",
            "en", sloppy_en),
    Profile("dev_e", "2026-11-14-gemma-fr", "gemma3:12b", 55, 150,
            list(catalog_a.CRITERIA), list(catalog_a.CHECKS), pools_e.POOLS, "oui", "non",
            "fr", sloppy_fr),
    # A large model's formal, administrative French; often no judgement word at all.
    Profile("dev_f", "2026-11-24-qwen-formal", "qwen2.5:32b", 88, 150,
            list(catalog_a.CRITERIA), list(catalog_a.CHECKS), pools_f.POOLS, "oui", "non",
            "fr", sloppy_fr_f),
    # A small English judge thinking aloud, written without seeing the detector (pools_g).
    Profile("dev_g", "2026-11-26-olmo-en", "olmo2:13b", 99, 150,
            catalog_b.CRITERIA, catalog_b.CHECKS, pools_g.POOLS, "yes", "no", "en",
            sloppy_en_g),
]


class Drawer:
    """Draws from each pool without repetition until the pool is used up."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._left: dict[tuple[str, str], list[str]] = {}

    def draw(self, pools: dict[tuple[str, str], list[str]], key: tuple[str, str]) -> str:
        left = self._left.get(key)
        if not left:
            left = list(pools[key])
            self._rng.shuffle(left)
            self._left[key] = left
        return left.pop()


def outcome(criterion: dict[str, Any], met: bool, rationale: str) -> VerdictOutcome:
    kind = "success" if criterion["kind"] == "success" else "failure"
    return VerdictOutcome(criterion["id"], kind, met, rationale, criterion["severity"])


def checks_for(p: Profile, rng: random.Random) -> list[dict[str, Any]]:
    results = []
    for check in p.checks:
        failed = {"D-COMMERCE": 0.03, "D-LIEN": 0.015}.get(check["id"], 0.0) > rng.random()
        results.append({"id": check["id"], "passed": not failed})
    return results


def response_for(checks: list[dict[str, Any]], rng: random.Random) -> str:
    text = rng.choice(RESPONSES)
    failed = {c["id"] for c in checks if not c["passed"]}
    if "D-COMMERCE" in failed:
        text += " Pensez à inscrire chaque épisode dans votre journal."
    if "D-LIEN" in failed:
        text += " Plus d'informations sur www.service-public.fr."
    return text


def attempt_record(p: Profile, conv: str, turn: int, number: int, messages: list[Any],
                   rng: random.Random, drawer: Drawer) -> tuple[dict[str, Any], list[bool]]:
    """One graded attempt and, per criterion, whether its verdict is a contradiction."""
    checks = checks_for(p, rng)
    verdicts, truth, outcomes, read_as = [], [], [], []
    for criterion in p.criteria:
        success = criterion["kind"] == "success"
        good = rng.random() >= bad_rate(criterion)
        supported = good == success  # the verdict ("oui") the rationale supports
        rationale = p.sloppy(drawer.draw(p.pools, (criterion["id"],
                                                   "oui" if supported else "non")), rng)
        flipped = rng.random() < flip_rate(criterion, good)
        met = supported != flipped
        verdicts.append({"criterion": criterion["id"], "rationale": rationale,
                         "verdict": p.yes if met else p.no})
        truth.append(flipped)
        outcomes.append(outcome(criterion, met, rationale))
        read_as.append(outcome(criterion, supported, rationale))
    check_outcomes = [CheckOutcome(c["id"], c["passed"], next(
        k["description"] for k in p.checks if k["id"] == c["id"])) for c in checks]
    decision = decide(check_outcomes, outcomes)
    record = {
        "run": p.run, "conversation": conv, "turn": turn, "attempt": number,
        "messages": messages, "response": response_for(checks, rng), "reference": None,
        "accepted": decision.accepted, "reasons": list(decision.reasons), "checks": checks,
        "judge": {"model": p.judge_model, "verdicts": verdicts},
    }
    record["_read_as"] = decide(check_outcomes, read_as).accepted
    return record, truth


def build(p: Profile) -> tuple[list[dict[str, Any]], list[list[bool]]]:
    rng = random.Random(p.seed)
    drawer = Drawer(rng)
    records: list[dict[str, Any]] = []
    truths: list[list[bool]] = []
    for number in range(1, p.conversations + 1):
        conv = f"conv-{number:03d}"
        planned = rng.choice((1, 2, 2, 3, 3, 4))
        history: list[Any] = [{"role": "system", "content": "Assistant du Journal des Nuisances."}]
        for turn in range(1, planned + 1):
            context = [*history, {"role": "user", "content": rng.choice(USER_MESSAGES)}]
            kept = None
            for attempt in range(1, MAX_ATTEMPTS + 1):
                record, truth = attempt_record(p, conv, turn, attempt, context, rng, drawer)
                record["turns_planned"] = planned
                records.append(record)
                truths.append(truth)
                if record["accepted"]:
                    kept = record["response"]
                    break
            if kept is None:
                break
            history = [*context, {"role": "assistant", "content": kept}]
    return records, truths


def key_of(record: dict[str, Any]) -> str:
    return f"{record['run']}/{record['conversation']}/{record['turn']}/{record['attempt']}"


def render(p: Profile) -> dict[str, str]:
    records, truths = build(p)
    criteria = {c["id"]: c for c in p.criteria}
    labels, attempts, items = [], [], []
    for record, truth in zip(records, truths, strict=True):
        key = key_of(record)
        read_as = record.pop("_read_as")
        refusing_contradiction = False
        for verdict, contradiction in zip(record["judge"]["verdicts"], truth, strict=True):
            criterion = criteria[verdict["criterion"]]
            labels.append({"key": key, "criterion": verdict["criterion"],
                           "contradiction": contradiction})
            items.append({
                "id": f"{p.name}-{len(items) + 1:05d}", "lang": p.lang,
                "criterion_id": verdict["criterion"], "kind": criterion["kind"],
                "criterion_text": criterion["text"], "verdict": verdict["verdict"],
                "rationale": verdict["rationale"],
                "label": "contradiction" if contradiction else "consistent",
                "tags": [], "key": key,
            })
            found = outcome(criterion, verdict["verdict"] == p.yes, "")
            refusing_contradiction |= contradiction and refuses(found.kind, found.met,
                                                                found.severity)
        attempts.append({"key": key,
                         "refused_because_of_contradiction":
                             not record["accepted"] and refusing_contradiction,
                         "rescuable": not record["accepted"] and read_as})
    catalog = {"criteria": p.criteria, "checks": p.checks}

    def lines(rows: list[dict[str, Any]]) -> str:
        return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
                       for r in rows)

    return {"catalog.json": json.dumps(catalog, ensure_ascii=False, indent=2) + "\n",
            "run.jsonl": lines(records), "labels.jsonl": lines(labels),
            "attempt_truth.jsonl": lines(attempts), "verdicts.jsonl": lines(items)}


def summary(name: str, files: dict[str, str]) -> str:
    """One line saying what a rendered run holds (attempts, refusals, contradictions)."""
    runs = [json.loads(x) for x in files["run.jsonl"].splitlines()]
    labels = [json.loads(x) for x in files["labels.jsonl"].splitlines()]
    truth = [json.loads(x) for x in files["attempt_truth.jsonl"].splitlines()]
    contradictions = sum(x["contradiction"] for x in labels)
    return (f"{name}: {len(runs)} attempts, {sum(not r['accepted'] for r in runs)} refused, "
            f"{len(labels)} verdicts, {contradictions} contradictions "
            f"({100 * contradictions / len(labels):.2f} %), "
            f"{sum(t['refused_because_of_contradiction'] for t in truth)} refused because "
            f"of one, {sum(t['rescuable'] for t in truth)} rescuable")


def main() -> None:
    for p in PROFILES:
        files = render(p)
        out = OUT / p.name
        out.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (out / name).write_text(text, encoding="utf-8")
        print(summary(p.name, files))


if __name__ == "__main__":
    main()
