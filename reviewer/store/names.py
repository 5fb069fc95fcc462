"""What an option names must be in the store: one check for every filter by name.

Ninth hostile pass, X4: ``export dataset good.jsonl --run 2026-10-14-ministral-8B`` (one
letter in the wrong case) matched no run, wrote "0 examples", exit 0, over a good dataset;
``export preference --cause G-DEMANDEE``, ``queue --run nope``, ``queue --criterion
G-NOPE`` and ``replay --run nope`` printed an empty result, exit 0. A filter by a name the
store does not hold is a typo, not a question whose answer is "nothing".

``existing(session, kind, values, option)`` gives back each value as the store spells it
(a name typed in another Unicode normal form is the stored one, as attempt keys are:
``reviewer.keys.spellings``; a reviewer name as ``reviewer.review.identity`` folds it) or
refuses the first one the store does not hold in one line, with the close stored names
(rapidfuzz) or, when none is close, what is stored:

    --run 2026-10-14-ministral-8B: no such run (did you mean 2026-10-14-ministral-8b?)

``stored_reviewers`` and ``reviewer_known`` are who the store knows as a reviewer (a
decision or a note, a calibration score): the reviewer filters and the name rule's "the
store already knows this reviewer as …" (``reviewer.review.identity``) read them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process
from sqlalchemy import ColumnElement, Select, exists, or_, select, union
from sqlalchemy.orm import Session

from models import (
    Attempt,
    CalibrationScore,
    CalibrationSet,
    Check,
    Conversation,
    Criterion,
    ReviewDecision,
    Run,
)
from reviewer.errors import BadInputError
from reviewer.keys import AttemptKey, loosely, nearest, spellings
from reviewer.text_rules import spelt

SHOWN = 5
"""How many stored names a refusal lists when none is close to the one typed."""
CLOSE = 3
"""How many close names "did you mean" offers at most."""
CUTOFF = 75.0
"""How alike (rapidfuzz's normalised Indel similarity, 0-100, case folded) a stored name
must be to be offered: ``G-DEMANDEE`` for ``G-DEMANDE`` is 95, ``alcie`` for ``alice`` 80,
``nope`` for a run name far below."""
LONGEST = 80
"""A value longer than this is cut in the message (the line stays one short line)."""


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


@dataclass(frozen=True)
class Kind:
    """A kind of thing an option may name: what the message calls it, where its names are
    stored, and the form two spellings of one name share."""

    noun: str
    plural: str
    names: Callable[[], Select[str]]
    same: Callable[[str], str] = _nfc


def _runs() -> Select[str]:
    return select(Run.name)


def _criteria() -> Select[str]:
    return select(Criterion.id)


def _checks() -> Select[str]:
    return select(Check.id)


def _causes() -> Select[str]:
    both = union(select(Criterion.id), select(Check.id)).subquery()
    return select(both.c[0])


def _reviewers() -> Select[str]:
    both = union(select(ReviewDecision.reviewer), select(CalibrationScore.reviewer)).subquery()
    return select(both.c[0])


def _calibration_files() -> Select[str]:
    return select(CalibrationSet.name)


RUNS = Kind("run", "runs", _runs)
CRITERIA = Kind("criterion", "criteria", _criteria)
CHECKS = Kind("check", "checks", _checks)
CAUSES = Kind("criterion or check", "criteria or checks", _causes)
# A reviewer name is folded by the name rule (NFKC: a full-width or ligature spelling is
# the plain one), so a name stored before that rule is found by its folded form.
REVIEWERS = Kind("reviewer", "reviewers", _reviewers, _nfkc)
CALIBRATION_FILES = Kind("calibration file", "calibration files", _calibration_files)


def stored(session: Session, kind: Kind) -> list[str]:
    """Every name of ``kind`` the store holds, sorted, each once."""
    return sorted({n for n in session.scalars(kind.names()) if n is not None})


def existing(session: Session, kind: Kind, values: Sequence[str], option: str, *,
             also: Iterable[str] = ()) -> list[str]:
    """``values`` as the store spells them, or BadInputError naming the first one the
    store does not hold (``also``: names valid without being stored, ``reviewer`` for a
    cause)."""
    names = stored(session, kind)
    valid = set(names) | set(also)
    by_form: dict[str, str] = {}
    for name in sorted(valid):
        by_form.setdefault(kind.same(name), name)
    found = []
    for value in values:
        if value in valid:
            found.append(value)
            continue
        match = by_form.get(kind.same(value))
        if match is None:
            raise BadInputError(f"{option} {_shown(value)}: no such {kind.noun} "
                                f"({_hint(value, [*names, *also], kind)})")
        found.append(match)
    return found


def existing_one(session: Session, kind: Kind, value: str | None, option: str) -> str | None:
    """One optional value (None: the option was not given) as the store spells it."""
    return None if value is None else existing(session, kind, [value], option)[0]


def close_names(value: str, names: Sequence[str]) -> list[str]:
    """The stored names most like ``value``, best first: the same name in another case
    first, then by rapidfuzz's similarity, ties in stored order."""
    folded = value.casefold()
    same = [n for n in names if n.casefold() == folded]
    scored = process.extract(value, names, scorer=fuzz.ratio, processor=str.casefold,
                             score_cutoff=CUTOFF, limit=CLOSE + len(same))
    alike = [name for name, _, _ in scored if name not in same]
    return [*same, *alike][:CLOSE]


def _hint(value: str, names: Sequence[str], kind: Kind) -> str:
    close = close_names(value, names)
    if close:
        shown = [_shown(n) for n in close]
        listed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
        return f"did you mean {listed}?"
    if not names:
        return f"the store holds no {kind.plural}"
    more = f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return f"stored: {', '.join(_shown(n) for n in names[:SHOWN])}{more}"


def _shown(text: str) -> str:
    """A name as a one-line message may quote it: hidden characters spelt, cut short."""
    return spelt(text, LONGEST)


def stored_reviewers(session: Session) -> list[str]:
    """Every reviewer the store knows: who holds a decision or a note, or a calibration
    score."""
    return stored(session, REVIEWERS)


def reviewer_known(session: Session, name: str) -> bool:
    """Whether ``name``, exactly as given, is a reviewer the store knows (two index
    lookups: what a reviewer who already decided pays before each change)."""
    return bool(session.scalar(select(
        exists().where(ReviewDecision.reviewer == name)
        | exists().where(CalibrationScore.reviewer == name))))


def attempt_named(session: Session, key: AttemptKey) -> int | None:
    """The id of the attempt ``key`` names, None when none is stored: the one spelt as
    typed (or in another Unicode form, ``reviewer.keys.nearest``), else the one whose ids
    are the key's but for spaces around them (``reviewer.keys.loosely``, which refuses a
    key naming two such attempts: fifteenth hostile pass, P15-1). ``decide``, its CSV,
    ``gui --attempt`` and ``rejudge --attempt`` all read a typed key through here."""
    exact = nearest(key, _attempts(session, key, Run.name.in_(spellings(key.run)),
                                   Conversation.name.in_(spellings(key.conversation))))
    if exact is not None:
        return exact
    # Rare (a key not stored as typed), so a scan is fine: the ids holding the key's
    # names, then compared without their spaces.
    bare = key.bare()
    return loosely(key, _attempts(
        session, key,
        or_(*(Run.name.contains(s, autoescape=True) for s in spellings(bare.run))),
        or_(*(Conversation.name.contains(s, autoescape=True)
              for s in spellings(bare.conversation)))))


def _attempts(session: Session, key: AttemptKey, run: ColumnElement[bool],
              conversation: ColumnElement[bool]) -> list[tuple[int, str, str]]:
    """``(id, run, conversation)`` of the attempts at ``key``'s turn and attempt whose
    names meet both conditions."""
    rows = session.execute(
        select(Attempt.id, Run.name, Conversation.name)
        .join(Conversation, Conversation.id == Attempt.conversation_id)
        .join(Run, Run.id == Conversation.run_id)
        .where(run, conversation, Attempt.turn == key.turn, Attempt.attempt == key.attempt))
    return [(i, r, c) for i, r, c in rows]
