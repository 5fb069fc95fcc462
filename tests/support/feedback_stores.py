"""A small labelled store for the feedback-loop tests (back-test, agreement, exports).

Run ``2026-10-14-ministral-8b`` with the catalog of ``tests/support/run_files.py``
(D-COMMERCE = ``inscri(vez|re|ption)``, flag i). Conversation ``bt`` holds one attempt
per turn so that each response is its own case; the reviewer "associe" decides them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import select

from models import Attempt
from reviewer.ingest.importer import import_run
from reviewer.keys import AttemptKey
from reviewer.review.decisions import Change, apply_change
from reviewer.store import Store
from tests.support.run_files import record, write_catalog, write_jsonl

RUN = "2026-10-14-ministral-8b"
SEED_NEW_PATTERN = (
    r"(\b(vous|s'|m'|t'|nous) ?inscri(re|vez)\b|\binscrivez-vous\b|\binscription\b"
    r"|\bcre(ez|er) (un|votre) compte|\bouvr(ez|ir) un compte)"
)

# turn: (response, D-COMMERCE passed under the imported pattern)
BACKTEST_CASES = {
    1: ("Vous pouvez inscrire la date dans votre journal.", False),
    2: ("Inscrivez-vous à notre offre Premium.", False),
    3: ("Notez la date et l'heure.", True),
    4: ("Pensez à inscrire l'heure exacte.", False),
    5: ("Ouvrez un compte pour suivre vos nuisances.", True),
    6: ("Votre inscription est gratuite.", False),
}


def key(turn: int, conversation: str = "bt", attempt: int = 1) -> str:
    """The attempt key of a fixture attempt."""
    return str(AttemptKey(RUN, conversation, turn, attempt))


def attempt_id(store: Store, text_key: str) -> int:
    """The id of the attempt with this key."""
    k = AttemptKey.parse(text_key)
    with store.session() as s:
        for a in s.scalars(select(Attempt).where(Attempt.turn == k.turn,
                                                 Attempt.attempt == k.attempt)):
            if a.conversation.name == k.conversation:
                return a.id
    raise KeyError(text_key)


def load_backtest_store(store: Store, folder: Path) -> None:
    """Import the six D-COMMERCE cases and record the reviewer's decisions on them.

    1 accepted by the reviewer (false positive of the old pattern), 2 rejected (confirmed
    hit), 3 accepted (no hit), 4 hit marked false positive without a decision, 5 rejected
    although the check passed (unlabelled for the check), 6 not reviewed.
    """
    rows = [record("bt", turn, 1, response=text, commerce_passed=passed)
            for turn, (text, passed) in BACKTEST_CASES.items()]
    import_run(store, write_jsonl(folder / "bt.jsonl", rows),
               catalog_path=write_catalog(folder / "catalog.json"))
    ids = {t: attempt_id(store, key(t)) for t in BACKTEST_CASES}
    with store.session() as s:
        apply_change(s, "associe", Change(ids[1], "decision", "accept"))
        apply_change(s, "associe", Change(ids[2], "decision", "reject"))
        apply_change(s, "associe", Change(ids[3], "decision", "accept"))
        apply_change(s, "associe", Change(ids[4], "check:D-COMMERCE", "false_positive"))
        apply_change(s, "associe", Change(ids[5], "decision", "reject"))


SYSTEM = {"role": "system", "content": "Tu es l'assistant du Journal des Nuisances."}


def user(conv: str, turn: int) -> str:
    """The scripted user message of a turn."""
    return f"{conv} : question {turn}"


def answer(conv: str, turn: int, attempt: int) -> str:
    """The generated answer of an attempt."""
    return f"Réponse {conv} {turn}.{attempt} : notez la date et l'heure."


def context(conv: str, turn: int, chosen: dict[int, int]) -> list[dict[str, str]]:
    """The context turn ``turn`` was generated in, after the attempts ``chosen[t]`` of t."""
    messages = [SYSTEM]
    for t in range(1, turn):
        messages += [{"role": "user", "content": user(conv, t)},
                     {"role": "assistant", "content": answer(conv, t, chosen[t])}]
    return [*messages, {"role": "user", "content": user(conv, turn)}]


def conv_record(conv: str, turn: int, attempt: int, chosen: dict[int, int], planned: int,
                **kw: Any) -> dict[str, Any]:
    """A multi-turn record whose context holds the filter-accepted answers before it."""
    row = record(conv, turn, attempt, response=answer(conv, turn, attempt), **kw)
    row["messages"] = context(conv, turn, chosen)
    row["turns_planned"] = planned
    return row


def load_export_store(store: Store, folder: Path) -> None:
    """Five conversations for the exports (the reviewer is "associe").

    * ``ok`` (2 planned): both turns accepted on the first attempt.
    * ``restored`` (3 planned): turn 2 refused three times (G-DEMANDE, E-INVENTE,
      D-COMMERCE), so the filter cut it; the reviewer accepts 2.1.
    * ``cut`` (3 planned): turn 1 refused three times, nobody reviewed it.
    * ``overturned`` (2 planned): both accepted, the reviewer rejects 2.1.
    * ``criterion`` (2 planned): 1.1 refused by G-DEMANDE, 1.2 accepted, turn 2 generated
      after 1.2; the reviewer sets G-DEMANDE met on 1.1, which now wins turn 1, so turn 2's
      stored context no longer follows.
    """
    rows = [
        conv_record("ok", 1, 1, {}, 2), conv_record("ok", 2, 1, {1: 1}, 2),
        conv_record("restored", 1, 1, {}, 3),
        conv_record("restored", 2, 1, {1: 1}, 3, demande="non"),
        conv_record("restored", 2, 2, {1: 1}, 3, invente="oui"),
        conv_record("restored", 2, 3, {1: 1}, 3, commerce_passed=False),
        conv_record("cut", 1, 1, {}, 3, invente="oui"),
        conv_record("cut", 1, 2, {}, 3, invente="oui"),
        conv_record("cut", 1, 3, {}, 3, invente="oui"),
        conv_record("overturned", 1, 1, {}, 2), conv_record("overturned", 2, 1, {1: 1}, 2),
        conv_record("criterion", 1, 1, {}, 2, demande="non"),
        conv_record("criterion", 1, 2, {}, 2),
        conv_record("criterion", 2, 1, {1: 2}, 2),
    ]
    import_run(store, write_jsonl(folder / "export.jsonl", rows),
               catalog_path=write_catalog(folder / "catalog.json"))
    with store.session() as s:
        apply_change(s, "associe", Change(attempt_id(store, key(2, "restored")), "decision",
                                          "accept"))
        over = attempt_id(store, key(2, "overturned"))
        apply_change(s, "associe", Change(over, "decision", "reject"))
        apply_change(s, "associe", Change(over, "note", "pousse l'offre Premium"))
        apply_change(s, "associe", Change(attempt_id(store, key(1, "criterion")),
                                          "criterion:G-DEMANDE", True))
