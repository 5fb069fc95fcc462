"""Write the bundled demo data: assets/demo/catalog.json, run.jsonl, known_false_accepts.json.

The run replays a French filter run of the Journal des Nuisances assistant (Ministral 3 8B
answers, judged by qwen3.6:35b-a3b) as described in the seed document 001: up to three
attempts per turn, an attempt retried only when refused, a conversation cut after three
refusals on one turn. Texts are hand-written in ``scripts/demo_data``; this script only
applies the rules: the checks are the catalog's regexes run on each answer as the
TypeScript filter runs them (JavaScript's RegExp, in V8: ``reviewer.rule.ecmascript``), and
``accepted``/``reasons`` come from ``reviewer.filter_rule.decide``. A fixed seed picks the
ordinary rationales and the model's pleasantries, so the output is byte-for-byte stable.

Usage: ``.venv/bin/python scripts/make_demo.py``
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from demo_data.catalog import CHECKS, CRITERIA, DIALECT, JUDGE_MODEL, RUN, SYSTEM_PROMPT, catalog
from demo_data.conversations import CONVERSATIONS
from demo_data.rationales import (
    CLOSERS,
    COMMERCE_INNOCENT,
    CONTEXTE_PREMIER,
    CONTEXTE_SUITE,
    OPENERS,
    POOLS,
)
from demo_data.script import Attempt, Turn

from reviewer.rule import ecmascript
from reviewer.rule.filter import CheckOutcome, Decision, VerdictOutcome, decide

SEED = 20261014
MAX_ATTEMPTS = 3
ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "assets" / "demo"
Record = dict[str, Any]


class ScriptError(ValueError):
    """The hand-written script does not match what the filter rule decides."""


class Drawer:
    """Draws from each pool without repetition until the pool is used up."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._left: dict[int, list[str]] = {}

    def draw(self, pool: list[str]) -> str:
        left = self._left.get(id(pool))
        if not left:
            left = list(pool)
            self._rng.shuffle(left)
            self._left[id(pool)] = left
        return left.pop()


def matches(pattern: str, flags: str, text: str) -> bool:
    """``new RegExp(pattern, flags).test(text)``, as the filter computes it."""
    assert DIALECT == "ecmascript"
    return ecmascript.evaluate(pattern, flags, text)


def run_checks(response: str, last_user: str) -> list[dict[str, Any]]:
    """Every catalog check on one answer; a ``require`` check not triggered passes."""
    results = []
    for check in CHECKS:
        found = matches(check["pattern"], check["flags"], response)
        if check["mode"] == "forbid":
            passed = not found
        else:
            applies = matches(check["when"], check["flags"], last_user)
            passed = found or not applies
        results.append({"id": check["id"], "passed": passed})
    return results


def ordinary_rationale(criterion: str, turn_no: int, checks: list[dict[str, Any]],
                       drawer: Drawer) -> tuple[str, str]:
    """The verdict a criterion gets when the script says nothing special about it."""
    if criterion == "G-CONTEXTE":
        return "oui", drawer.draw(CONTEXTE_PREMIER if turn_no == 1 else CONTEXTE_SUITE)
    commerce_fired = any(c["id"] == "D-COMMERCE" and not c["passed"] for c in checks)
    if criterion == "E-COMMERCE" and commerce_fired:
        # The old regex fired on "inscrire la date…": the judge reads it as innocent.
        return "non", drawer.draw(COMMERCE_INNOCENT)
    verdict = "oui" if criterion.startswith("G-") else "non"
    return verdict, drawer.draw(POOLS[(criterion, verdict)])


def judge(attempt: Attempt, turn_no: int, checks: list[dict[str, Any]],
          drawer: Drawer) -> list[dict[str, str]]:
    """The judge's verdicts for every criterion, in catalog order."""
    verdicts = []
    for criterion in CRITERIA:
        cid = str(criterion["id"])
        verdict, rationale = attempt.verdicts.get(cid) or ordinary_rationale(
            cid, turn_no, checks, drawer)
        if not 10 <= len(rationale.split()) <= 40:
            raise ScriptError(f"rationale of {len(rationale.split())} words: {rationale}")
        # The judge writes its reason before its verdict (seed 001); the record keeps that order.
        verdicts.append({"criterion": cid, "rationale": rationale, "verdict": verdict})
    unknown = set(attempt.verdicts) - {str(c["id"]) for c in CRITERIA}
    if unknown:
        raise ScriptError(f"unknown criteria in script: {sorted(unknown)}")
    return verdicts


def filter_decision(checks: list[dict[str, Any]], verdicts: list[dict[str, str]]) -> Decision:
    """Replay the filter rule with the catalog's descriptions, kinds and severities."""
    check_info = {c["id"]: c for c in CHECKS}
    crit_info = {c["id"]: c for c in CRITERIA}
    return decide(
        [CheckOutcome(c["id"], c["passed"], check_info[c["id"]]["description"]) for c in checks],
        [
            VerdictOutcome(
                criterion_id=v["criterion"],
                kind="success" if crit_info[v["criterion"]]["kind"] == "success" else "failure",
                met=v["verdict"] == "oui",
                rationale=v["rationale"],
                severity=crit_info[v["criterion"]]["severity"],
            )
            for v in verdicts
        ],
    )


def dress(attempt: Attempt, rng: random.Random) -> str:
    """Add the pleasantries an 8B model wraps its answers in (forced on short answers)."""
    if attempt.plain:
        return attempt.text
    short = len(attempt.text.split()) < 45
    parts = [attempt.text]
    if short or rng.random() < 0.4:
        parts.insert(0, rng.choice(OPENERS))
    if short or rng.random() < 0.5:
        parts.append(rng.choice(CLOSERS))
    return " ".join(parts)


def play(conv_id: str, script: list[Turn], rng: random.Random, drawer: Drawer,
         missed: list[dict[str, str]]) -> list[Record]:
    """Play one conversation script through the filter and return its records."""
    records: list[Record] = []
    history = [{"role": "system", "content": SYSTEM_PROMPT}]
    for turn_no, turn in enumerate(script, start=1):
        if not turn.attempts:
            raise ScriptError(f"{conv_id} turn {turn_no}: reached but has no attempts")
        context = [*history, {"role": "user", "content": turn.user}]
        accepted_response = None
        for attempt_no, attempt in enumerate(turn.attempts, start=1):
            response = dress(attempt, rng)
            words = len(response.split())
            if not 40 <= words <= 200:
                raise ScriptError(f"{conv_id}/{turn_no}/{attempt_no}: {words} words")
            checks = run_checks(response, turn.user)
            verdicts = judge(attempt, turn_no, checks, drawer)
            decision = filter_decision(checks, verdicts)
            key = f"{RUN}/{conv_id}/{turn_no}/{attempt_no}"
            records.append({
                "run": RUN, "conversation": conv_id, "turn": turn_no, "attempt": attempt_no,
                "messages": context, "response": response, "reference": turn.reference,
                "accepted": decision.accepted, "reasons": list(decision.reasons),
                "checks": checks, "judge": {"model": JUDGE_MODEL, "verdicts": verdicts},
                "turns_planned": len(script),
            })
            if attempt.missed:
                if not decision.accepted:
                    raise ScriptError(f"{key}: marked as a missed fault but refused")
                missed.append({"key": key, "why": attempt.missed})
            if decision.accepted:
                if attempt_no != len(turn.attempts):
                    raise ScriptError(f"{key}: accepted but more attempts are scripted")
                accepted_response = response
                break
        if accepted_response is None:
            if len(turn.attempts) != MAX_ATTEMPTS:
                raise ScriptError(f"{conv_id} turn {turn_no}: refused with no attempt left")
            return records  # three refusals: the conversation stops here
        history = [*context, {"role": "assistant", "content": accepted_response}]
    return records


def build(seed: int = SEED) -> tuple[list[Record], list[dict[str, str]]]:
    """All records of the demo run, and the keys of bad answers the filter accepted."""
    rng = random.Random(seed)
    drawer = Drawer(rng)
    records: list[Record] = []
    missed: list[dict[str, str]] = []
    for number, script in enumerate(CONVERSATIONS, start=1):
        records += play(f"recette-{number:03d}", script, rng, drawer, missed)
    return records, missed


def render() -> dict[str, str]:
    """The text of each generated file, keyed by file name."""
    records, missed = build()
    lines = (json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records)
    return {
        "catalog.json": json.dumps(catalog(), ensure_ascii=False, indent=2) + "\n",
        "run.jsonl": "".join(line + "\n" for line in lines),
        "known_false_accepts.json": json.dumps(missed, ensure_ascii=False, indent=2) + "\n",
    }


def main() -> None:
    """Write the files and print a short summary."""
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for name, text in render().items():
        (OUT_DIR / name).write_text(text, encoding="utf-8")
    records, missed = build()
    accepted = sum(r["accepted"] for r in records)
    conversations = len({r["conversation"] for r in records})
    print(f"{conversations} conversations, {len(records)} attempts, {accepted} accepted, "
          f"{len(records) - accepted} refused, {len(missed)} known false accepts")


if __name__ == "__main__":
    main()
