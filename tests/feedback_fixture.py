"""A small labelled store for the feedback-loop tests (back-test, agreement, exports).

Run ``2026-10-14-ministral-8b`` with the catalog of ``tests/runfiles.py``
(D-COMMERCE = ``inscri(vez|re|ption)``, flag i). Conversation ``bt`` holds one attempt
per turn so that each response is its own case; the reviewer "associe" decides them.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from models import Attempt
from reviewer.importer import import_run
from reviewer.keys import AttemptKey
from reviewer.review import Change, apply_change
from reviewer.store import Store
from tests.runfiles import record, write_catalog, write_jsonl

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
