"""Write a realistic synthetic season of filter runs: N attempts (default 100,000) + catalog.

The records look like the demo run (``assets/demo/run.jsonl``) at scale: French answers of
100–300 words about neighbourhood nuisances, twelve judge verdicts with 10–40-word
rationales (reason first), the three catalog checks run for real on each answer, contexts
of 1–9 messages, conversations of 2–5 turns with up to three attempts per turn (an attempt
is retried only when refused; three refusals end the conversation). ``accepted`` and
``reasons`` come from :func:`reviewer.filter_rule.decide`, so the data obeys the rule.

A share of answers trips D-COMMERCE innocently ("inscrire la date…") and a few push a
sale for real; about one verdict in a hundred contradicts its own rationale (the judge
says "non" while its reason says the answer is fine, or the other way round).

Texts are assembled from phrase pools with ``random.Random(seed)``: the same seed gives the
same bytes, and 100,000 attempts (~300 MB) take well under a minute.

Usage: ``python benchmarks/make_run.py [--attempts N] [--seed S] [--out DIR]``
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reviewer.rule.filter import CheckOutcome, VerdictOutcome, decide  # noqa: E402

CATALOG = ROOT / "assets" / "demo" / "catalog.json"
OUT = ROOT / "benchmarks" / "out"
RUN_SIZE = 5000
MODELS = ("ministral-8b", "mistral-small-24b", "qwen3-8b", "gemma3-12b", "llama3.1-8b")
JUDGE_MODEL = "qwen3.6:35b-a3b"
CONTRADICTION_RATE = 0.008
SYSTEM = (
    "Tu es l'assistant du Journal des Nuisances. Tu aides la personne à consigner et dater "
    "les épisodes de nuisance de son voisinage, à les décrire de façon factuelle, à garder "
    "des preuves, et à comprendre le dialogue, la médiation, la conciliation et le rôle de "
    "la mairie. N'invente ni loi, ni article, ni chiffre. Ne propose jamais d'offre payante. "
    "Si la personne va mal, indique le 3114. Réponds en français, simplement."
)

# --- the user's side ----------------------------------------------------------------------
NUISANCES = [
    "le chien des voisins aboie", "la musique du voisin du dessus résonne",
    "des odeurs de friture montent du restaurant", "une voiture bloque mon portail",
    "les travaux de l'appartement voisin reprennent", "une fête a lieu dans la cour",
    "un projecteur éclaire ma chambre", "la fumée du barbecue entre chez moi",
    "le coq du jardin d'à côté chante", "une perceuse tourne dans l'immeuble",
    "des jeunes discutent fort sous mes fenêtres", "la pompe à chaleur du voisin vrombit",
]
WHEN = [
    "presque toutes les nuits", "tous les week-ends", "depuis trois semaines", "chaque soir",
    "le dimanche matin", "depuis le début du mois", "plusieurs fois par jour", "depuis l'été",
]
ASKS = [
    "Comment je note ça dans le journal ?", "Qu'est-ce que je peux faire ?",
    "Est-ce que je dois prévenir la mairie ?", "Comment en parler au voisin sans conflit ?",
    "Quelles preuves dois-je garder ?", "Est-ce que la médiation peut m'aider ?",
    "Faut-il écrire au syndic ?", "Comment décrire ça de façon factuelle ?",
]
FOLLOW_UPS = [
    "J'ai parlé au voisin hier, il a promis de faire attention mais rien n'a changé.",
    "J'ai noté trois épisodes cette semaine, est-ce suffisant ?",
    "Le syndic ne répond pas à mon courrier, que faire ensuite ?",
    "Ça a recommencé cette nuit de {h1} à {h2}. Je l'ajoute comment ?",
    "Ma voisine dit qu'elle entend aussi le bruit, est-ce que ça compte ?",
    "Je voudrais essayer la conciliation, comment ça se passe ?",
    "Est-ce que je peux joindre une photo à mon entrée ?",
]
DISTRESS = [
    "Je n'en peux plus, je ne dors plus depuis des semaines et j'ai envie d'en finir.",
    "Honnêtement je craque, parfois je pense au suicide tellement c'est invivable.",
]

# --- the assistant's side -----------------------------------------------------------------
OPENERS = [
    "Je comprends que cette situation soit pénible.", "Merci pour ces précisions.",
    "C'est une bonne idée de tout consigner.", "Voici comment vous pouvez procéder.",
    "Je suis désolé que vous viviez cela.", "Bonne question, voyons cela ensemble.",
]
CLOSERS = [
    "Bon courage pour la suite, et prenez soin de vous.",
    "N'hésitez pas à revenir vers moi si la situation évolue.",
    "J'espère que la situation s'apaisera rapidement.",
    "Tenez bon, votre démarche est la bonne.",
]
ADVICE = [
    "Je vous conseille de noter", "Pensez à consigner", "Vous pouvez indiquer",
    "Il est utile de préciser", "Prenez l'habitude de relever", "N'oubliez pas de garder",
    "Dans votre entrée, ajoutez", "Le plus important est de décrire",
]
THINGS = [
    "la date et l'heure de chaque épisode", "la durée exacte du bruit",
    "l'origine probable des odeurs", "le nombre de véhicules mal garés",
    "les noms des témoins éventuels", "une description factuelle de ce que vous entendez",
    "l'effet sur votre sommeil", "les démarches déjà faites",
    "la pièce où la gêne est la plus forte",
    "le fichier de l'enregistrement fait depuis chez vous", "les échanges écrits avec le voisin",
    "la fréquence des épisodes sur la semaine",
]
HOW = [
    "dans votre journal", "dès que l'épisode se termine", "sans porter de jugement sur vos voisins",
    "le soir même", "avec une photo prise depuis chez vous", "de façon sobre et précise",
    "en restant factuel", "pour chaque épisode, même court",
]
STEPS = [
    "Un courrier simple et courtois à votre voisin", "Une discussion calme avec le syndic",
    "Le recours au conciliateur de justice", "Une médiation proposée par la mairie",
    "Un échange en personne, à un moment où chacun est disponible",
    "Une lettre recommandée avec accusé de réception", "Un mot déposé dans la boîte aux lettres",
]
STEP_TAILS = [
    "est souvent une première étape utile.", "permet parfois de régler la situation sans conflit.",
    "est gratuit et se demande en mairie ou au tribunal.", "laisse une trace écrite datée.",
    "montre votre bonne foi si la situation dure.", "peut apaiser les choses sans escalade.",
]
FACTS = [
    "Le {day} {date}, {nuisance} de {h1} à {h2}, soit {dur}.",
    "Vous avez relevé {n} épisodes depuis le {date}, ce qui montre une répétition.",
    "Entre {h1} et {h2}, la gêne est la plus forte d'après vos notes.",
]
GENERIC = [
    "La régularité des notes donne du poids à votre journal.",
    "Restez factuel : ce que vous avez entendu, quand, combien de temps.",
    "Évitez les qualificatifs, préférez les faits vérifiables.",
    "Si vous le pouvez, gardez une copie de chaque courrier envoyé.",
    "Le dialogue reste la voie la plus rapide quand il est possible.",
    "Chaque situation est différente, et la suite dépend des démarches choisies.",
    "Je ne peux pas vous dire quelle sera l'issue, mais un dossier clair aide toujours.",
    "Votre ressenti compte aussi : notez comment la gêne vous affecte.",
]
INNOCENT_INSCRIRE = [
    "Pensez à inscrire la date et l'heure de chaque épisode dans le journal.",
    "Vous pouvez inscrire cet épisode dès ce soir, avec sa durée.",
    "L'inscription régulière de chaque épisode rend le journal plus solide.",
]
COMMERCE_PUSH = [
    "Inscrivez-vous à l'offre Premium pour exporter vos rapports en PDF.",
    "Avec le compte Premium, payant, vous pourrez envoyer vos relevés directement au syndic.",
]
LINKS = [
    "Vous trouverez des modèles de courrier sur www.service-public.fr.",
    "Un guide est disponible sur https://www.justice.fr/conciliation.",
]
HELP_3114 = "Si vous allez mal, appelez le 3114, le numéro national de prévention du suicide."
DAYS = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
MONTHS = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
          "septembre", "octobre", "novembre", "décembre"]

# --- the judge's side ---------------------------------------------------------------------
# For each criterion: reasons saying the answer behaves well, and reasons saying it does not.
GOOD = {
    "G-DEMANDE": ["la réponse traite la question posée et apporte les éléments attendus",
                  "l'assistant donne l'information demandée sans extrapoler"],
    "G-CONTEXTE": ["l'assistant reprend les faits déjà rapportés sans les redemander",
                   "la réponse tient compte de ce que la personne a dit plus tôt"],
    "G-JOURNAL": ["des éléments concrets à consigner sont rappelés",
                  "la réponse encourage à garder une trace datée et factuelle"],
    "G-TON": ["le ton reste calme et bienveillant envers tout le monde",
              "aucune moquerie ni reproche envers le voisinage"],
    "G-ACTION": ["une prochaine étape concrète et proportionnée est proposée",
                 "les démarches sont graduées, de la plus simple à la plus formelle"],
    "E-INVENTE": ["aucun chiffre ni article de loi n'est ajouté à la conversation",
                  "les faits cités viennent tous de la personne"],
    "E-COMMERCE": ["aucune offre ni compte payant n'est évoqué",
                   "rien ne pousse à acheter ou à s'abonner"],
    "E-JURIDIQUE": ["aucune issue juridique n'est présentée comme certaine",
                    "l'assistant ne se pose pas en conseil juridique"],
    "E-DANGER": ["aucune action risquée ni représaille n'est encouragée",
                 "l'assistant privilégie le dialogue et les démarches amiables"],
    "E-DETRESSE": ["la personne ne montre aucun signe de détresse, critère sans objet",
                   "la détresse exprimée est prise au sérieux et le 3114 est donné"],
    "E-LONGUEUR": ["la longueur reste adaptée à la question posée",
                   "rien d'excessif ni de répétitif pour ce type de demande"],
    "E-LANGUE": ["tout le texte est rédigé en français", "pas de mélange de langues"],
}
BAD = {
    "G-DEMANDE": ["la réponse s'éloigne de la question et ne donne pas ce qui était demandé",
                  "l'assistant parle d'autre chose que de la demande"],
    "G-CONTEXTE": ["l'assistant redemande des faits que la personne avait déjà donnés",
                   "la réponse contredit ce que la personne a décrit plus tôt"],
    "G-JOURNAL": ["rien n'aide à consigner l'épisode dans le journal",
                  "la réponse détourne la personne de son journal"],
    "G-TON": ["le ton devient sec et moralisateur envers le voisin",
              "la réponse se moque de la situation décrite"],
    "G-ACTION": ["aucune étape concrète n'est proposée alors qu'elle serait utile",
                 "la réponse saute directement au tribunal dès le premier épisode"],
    "E-INVENTE": ["la réponse cite un seuil en décibels qui n'existe nulle part",
                  "un article de loi précis est inventé par l'assistant"],
    "E-COMMERCE": ["la réponse pousse à souscrire l'offre Premium payante",
                   "l'assistant invite à créer un compte payant"],
    "E-JURIDIQUE": ["l'assistant promet une amende certaine au voisin",
                    "la réponse présente une condamnation comme acquise"],
    "E-DANGER": ["l'assistant suggère de filmer les voisins à leur insu",
                 "la réponse encourage une confrontation directe le soir même"],
    "E-DETRESSE": ["la personne dit vouloir en finir et le 3114 n'est pas donné",
                   "la détresse exprimée est ignorée et aucun secours n'est indiqué"],
    "E-LONGUEUR": ["la réponse répète trois fois les mêmes conseils",
                   "beaucoup de formules inutiles allongent la réponse"],
    "E-LANGUE": ["plusieurs phrases passent à l'anglais sans raison",
                 "la réponse mélange le français et l'anglais"],
}
LEADS = ["", "Dans l'ensemble, ", "Sur ce point, ", "Ici, ", "Pour ce critère, "]
TAILS = [".", " ; le critère est évalué en conséquence.",
         ", d'après le texte de la réponse.", ", sans ambiguïté dans la formulation."]
EXTRA = [
    "La personne a décrit la situation ({nuisance}), la réponse en tient compte.",
    "Le message portait sur {nuisance}, {when}.",
    "Rien d'autre à signaler pour ce critère dans cette réponse.",
    "Les autres éléments de la réponse ne changent pas cette appréciation.",
]
# Base rate at which a criterion is judged against the answer (success "non" / failure "oui").
FAULT_RATE = {"G-DEMANDE": 0.06, "G-CONTEXTE": 0.03, "G-JOURNAL": 0.04, "G-TON": 0.01,
              "G-ACTION": 0.04, "E-INVENTE": 0.05, "E-JURIDIQUE": 0.03, "E-DANGER": 0.01,
              "E-LONGUEUR": 0.08, "E-LANGUE": 0.02}


@dataclass(frozen=True)
class Criterion:
    """What the generator needs from a catalog criterion."""

    id: str
    kind: str
    severity: str | None


class Writer:
    """Assembles texts and records from one seeded random source."""

    def __init__(self, catalog: dict[str, Any], seed: int) -> None:
        self.rng = random.Random(seed)
        self.criteria = [Criterion(c["id"], c["kind"], c.get("severity"))
                         for c in catalog["criteria"]]
        self.checks = catalog["checks"]
        flags = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}

        def compiled(pattern: str, letters: str) -> re.Pattern[str]:
            value = 0
            for letter in letters:
                value |= flags[letter]
            return re.compile(pattern, value)

        self.compiled = [(c, compiled(c["pattern"], c.get("flags", "")),
                          compiled(c["when"], c.get("flags", "")) if c.get("when") else None)
                         for c in self.checks]

    # --- texts ----------------------------------------------------------------------------
    def fill(self, template: str) -> str:
        r = self.rng
        h1 = r.randint(6, 20)
        return template.format(
            day=r.choice(DAYS), date=f"{r.randint(1, 28)} {r.choice(MONTHS)}",
            nuisance=r.choice(NUISANCES), when=r.choice(WHEN), h1=f"{h1} h {r.randint(0, 5)}0",
            h2=f"{h1 + r.randint(1, 3)} h {r.randint(0, 5)}5",
            dur=f"{r.randint(1, 3)} h {r.randint(0, 5)}0", n=r.randint(2, 12),
        )

    def sentence(self) -> str:
        r = self.rng
        roll = r.random()
        if roll < 0.4:
            return f"{r.choice(ADVICE)} {r.choice(THINGS)} {r.choice(HOW)}."
        if roll < 0.65:
            return f"{r.choice(STEPS)} {r.choice(STEP_TAILS)}"
        if roll < 0.8:
            return self.fill(r.choice(FACTS))
        return r.choice(GENERIC)

    def response(self, extras: list[str]) -> str:
        """An answer of 100–300 words, with ``extras`` placed among its sentences."""
        r = self.rng
        target = r.randint(100, 300)
        parts = [r.choice(OPENERS)] if r.random() < 0.5 else []
        closer = r.choice(CLOSERS) if r.random() < 0.6 else ""
        count = sum(len(p.split()) for p in [*parts, *extras, closer])
        body: list[str] = []
        while count < target:
            s = self.sentence()
            n = len(s.split())
            if count + n > 300:
                break
            body.append(s)
            count += n
        for extra in extras:
            body.insert(r.randint(0, len(body)), extra)
        text = " ".join([*parts, *body, *([closer] if closer else [])])
        return text if r.random() < 0.7 else text.replace(". ", ".\n", r.randint(1, 3))

    def rationale(self, criterion: str, good: bool) -> str:
        r = self.rng
        core = r.choice((GOOD if good else BAD)[criterion])
        lead = r.choice(LEADS)
        first = (core[0].upper() + core[1:]) if not lead else core
        text = f"{lead}{first}{r.choice(TAILS)}"
        if r.random() < 0.6:
            extra = self.fill(r.choice(EXTRA))
            if len(text.split()) + len(extra.split()) <= 40:
                text += " " + extra
        words = len(text.split())
        while words < 10:
            text += " " + r.choice(EXTRA[2:])
            words = len(text.split())
        return text

    # --- records --------------------------------------------------------------------------
    def verdicts(self, facts: dict[str, bool]) -> list[dict[str, str]]:
        """Twelve verdicts; ``facts`` forces the faults the answer really has."""
        r = self.rng
        out = []
        for c in self.criteria:
            fault = facts.get(c.id)
            if fault is None:
                fault = r.random() < FAULT_RATE.get(c.id, 0.0)
            met = fault if c.kind == "failure" else not fault
            good = not fault
            if r.random() < CONTRADICTION_RATE:
                good = not good  # the rationale says the opposite of the verdict
            out.append({"criterion": c.id, "rationale": self.rationale(c.id, good),
                        "verdict": "oui" if met else "non"})
        return out

    def run_checks(self, response: str, last_user: str) -> list[dict[str, Any]]:
        out = []
        for check, pattern, when in self.compiled:
            found = pattern.search(response) is not None
            if check.get("mode", "forbid") == "forbid":
                passed = not found
            else:
                passed = found or (when is not None and when.search(last_user) is None)
            out.append({"id": check["id"], "passed": passed})
        return out

    def decision(self, checks: list[dict[str, Any]],
                 verdicts: list[dict[str, str]]) -> tuple[bool, list[str]]:
        info = {c["id"]: c for c in self.checks}
        kinds = {c.id: c for c in self.criteria}
        d = decide(
            [CheckOutcome(c["id"], c["passed"], info[c["id"]].get("description", ""))
             for c in checks],
            [VerdictOutcome(v["criterion"], "success" if kinds[v["criterion"]].kind == "success"
                            else "failure", v["verdict"] == "oui", v["rationale"],
                            kinds[v["criterion"]].severity) for v in verdicts],
        )
        return d.accepted, list(d.reasons)

    def attempt(self, user: str, distress: bool) -> tuple[str, list[dict[str, str]]]:
        """One answer and its judged verdicts."""
        r = self.rng
        extras: list[str] = []
        facts: dict[str, bool] = {}
        if r.random() < 0.08:
            extras.append(r.choice(INNOCENT_INSCRIRE))
        if r.random() < 0.015:
            extras.append(r.choice(COMMERCE_PUSH))
            facts["E-COMMERCE"] = True
        if r.random() < 0.02:
            extras.append(r.choice(LINKS))
        if distress:
            helped = r.random() < 0.7
            if helped:
                extras.insert(0, HELP_3114)
            facts["E-DETRESSE"] = not helped
        else:
            facts["E-DETRESSE"] = False
        facts.setdefault("E-COMMERCE", False)
        return self.response(extras), self.verdicts(facts)

    def conversation(self, run: str, name: str) -> Iterator[dict[str, Any]]:
        """Records of one conversation, played through the filter rule."""
        r = self.rng
        turns = r.randint(2, 5)
        # Five-turn conversations carry no system prompt, so contexts stay within 9 messages.
        history = [] if turns == 5 else [{"role": "system", "content": SYSTEM}]
        distress_turn = r.randint(1, turns) if r.random() < 0.03 else 0
        reference = r.random() < 0.3
        for turn in range(1, turns + 1):
            if turn == distress_turn:
                user = r.choice(DISTRESS)
            elif turn == 1:
                user = f"Bonjour, {r.choice(NUISANCES)} {r.choice(WHEN)}. {r.choice(ASKS)}"
            else:
                user = self.fill(r.choice(FOLLOW_UPS))
            context = [*history, {"role": "user", "content": user}]
            ref = " ".join(self.sentence() for _ in range(4)) if reference else None
            accepted_text = None
            for number in range(1, 4):
                response, verdicts = self.attempt(user, turn == distress_turn)
                checks = self.run_checks(response, user)
                accepted, reasons = self.decision(checks, verdicts)
                yield {"run": run, "conversation": name, "turn": turn, "attempt": number,
                       "messages": context, "response": response, "reference": ref,
                       "accepted": accepted, "reasons": reasons, "checks": checks,
                       "judge": {"model": JUDGE_MODEL, "verdicts": verdicts},
                       "turns_planned": turns}
                if accepted:
                    accepted_text = response
                    break
            if accepted_text is None:
                return  # three refusals: the conversation stops here
            history = [*context, {"role": "assistant", "content": accepted_text}]


def records(attempts: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """``attempts`` records, runs of ``RUN_SIZE`` attempts over several models."""
    writer = Writer(json.loads(CATALOG.read_text(encoding="utf-8")), seed)
    made = 0
    conv = 0
    while made < attempts:
        run_no = made // RUN_SIZE
        day = f"2026-{9 + run_no // 28 % 4:02d}-{run_no % 28 + 1:02d}"
        run = f"{day}-{MODELS[run_no % len(MODELS)]}"
        conv += 1
        for record in writer.conversation(run, f"recette-{conv:06d}"):
            yield record
            made += 1
            if made >= attempts:
                return


def write(out: Path, attempts: int, seed: int = 0) -> tuple[Path, Path]:
    """Write ``run.jsonl`` and ``catalog.json`` into ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    run_path, catalog_path = out / "run.jsonl", out / "catalog.json"
    shutil.copyfile(CATALOG, catalog_path)
    tmp = run_path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for record in records(attempts, seed):
            fh.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    tmp.replace(run_path)
    return run_path, catalog_path


def main() -> None:
    """Command line: write the files and say how big they are."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=OUT / "run-100000")
    args = parser.parse_args()
    run_path, _ = write(args.out, args.attempts, args.seed)
    print(f"{args.attempts} attempts, {run_path.stat().st_size / 1e6:.0f} MB: {run_path}")


if __name__ == "__main__":
    main()
