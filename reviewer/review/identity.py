"""Who decides: the one rule for reviewer names, wherever a name comes from.

A decision is stored under the name of who made it, and other reviewers read that name
under "Other reviewers", in agreement figures and in exports. So a name must show what
it is: ``reviewer_name`` trims it, normalises it to NFC (``Zoé`` typed with a combining
accent is the same reviewer as ``Zoé``) then NFKC (``ａｌｉｃｅ`` in full width and ``ﬁona``
with a ligature are ``alice`` and ``fiona``), and refuses an empty or over-long name and
any hidden character (``reviewer.text_rules.hidden``: a newline could forge a line
"bob: reject", a zero-width space a second "claire", a bidi override a reversed name),
and a name that starts with a combining mark (marks alone show as nothing).

The case is the reviewer's own: a new name is stored as typed. But a name that differs
only by case from a reviewer the store knows (``ALICE`` where ``alice`` decided) is
refused, naming the known spelling (``known_reviewer``, ``case_twin_refusal``): two
spellings of one person counted apart in the agreement figures is never what is meant.

Every entry point goes through it: ``--reviewer`` of every command and of ``gui``,
``$REVIEWER_NAME``, the login name, the CSV ``reviewer`` column, the Settings dialog,
and the domain itself (``reviewer.review.commands.perform``), so no caller can skip it.

Names stored before this rule are left as they are: their decisions are still shown,
counted and exported under them. A name that fails the rule can no longer decide (nor
undo) until the reviewer picks a valid one; to carry on as the same person they pick the
name without its hidden characters, which is a new reviewer for the store. A name
stored in full width is read as its NFKC form (``ｂｏｂ`` types his name as before and
decides as ``bob``); case twins stored before (``ALICE`` and ``alice``) each go on under
their own spelling, and a third spelling is refused naming both.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import unicodedata
from collections.abc import Iterable

import regex
from sqlalchemy.orm import Session

from reviewer.errors import BadInputError
from reviewer.store import Store
from reviewer.store.names import reviewer_known, stored_reviewers
from reviewer.text_rules import char_label, first_hidden, spelt

MAX_NAME = 100
# Combining marks on one letter: Vietnamese stacks two (ệ), no written name more.
MAX_MARKS = 3
_STACKED = regex.compile(rf"\P{{M}}\p{{M}}{{{MAX_MARKS + 1},}}")
FALLBACK_NAME = "reviewer"
ENV = "REVIEWER_NAME"


def reviewer_name(name: str, source: str = "") -> str:
    """The name as stored, or BadInputError saying what is wrong with it.

    ``source`` says where the name came from in the message (``$REVIEWER_NAME``, …).
    The rule is applied to the name as typed (in NFC: a no-break space is refused, not
    turned into a space), then to its NFKC form, which is the name stored.
    """
    where = f" (from {source})" if source else ""
    if not isinstance(name, str):
        raise BadInputError(f"reviewer name{where}: must be text")
    cleaned = _checked(unicodedata.normalize("NFC", name).strip(), where)
    # Ninth hostile pass, N2: ``ａｌｉｃｅ`` (full width) and ``ﬁona`` (a ligature) were
    # reviewers apart from alice and fiona. A compatibility character is never what a
    # person means as another name: NFKC folds it to the plain one.
    folded = unicodedata.normalize("NFKC", cleaned).strip()
    return cleaned if folded == cleaned else _checked(folded, where)


def _checked(cleaned: str, where: str) -> str:
    """``cleaned`` (normalised and trimmed) when it passes the rule, else BadInputError."""
    if not cleaned:
        raise BadInputError(f"reviewer name{where}: is empty; give a name of 1 to "
                            f"{MAX_NAME} characters")
    if len(cleaned) > MAX_NAME:
        raise BadInputError(f"reviewer name{where} {spelt(cleaned)!r}: is {len(cleaned)} "
                            f"characters, at most {MAX_NAME} characters")
    if unicodedata.category(cleaned[0]).startswith("M"):
        # A mark with nothing to combine with: alone it shows as nothing (or as a
        # dotted circle), and it would join the letter before it wherever it is quoted.
        raise BadInputError(f"reviewer name{where} {spelt(cleaned)!r}: starts with "
                            f"{char_label(cleaned[0])}, a combining mark with no letter "
                            "before it; names start with a letter, digit or sign")
    stacked = _STACKED.search(unicodedata.normalize("NFD", cleaned))  # marks apart
    if stacked is not None:
        # "a" + 99 and "a" + 100 x U+0301 both showed as "á": two reviewers no one can
        # tell apart (fifteenth hostile pass, P15-9).
        raise BadInputError(f"reviewer name{where} {spelt(cleaned)!r}: stacks "
                            f"{len(stacked.group()) - 1} combining marks on one letter (at "
                            f"most {MAX_MARKS}); they would show as one character")
    bad = first_hidden(cleaned)
    if bad is not None:
        kind = "a space other than the plain space" if unicodedata.category(bad) == "Zs" \
            else "a control, bidi or invisible character"
        raise BadInputError(f"reviewer name{where} {spelt(cleaned)!r}: contains "
                            f"{char_label(bad)}, {kind}; names are printable text only")
    return cleaned


def folded(name: str) -> str:
    """What two spellings of one reviewer share: the name without its case (NFKC
    case folding)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def case_twins(name: str, stored: Iterable[str]) -> list[str]:
    """The spellings under which the store knows the reviewer ``name`` (a name as
    ``reviewer_name`` gives it) when it does not know ``name`` itself: the stored names
    that differ from it only by case. Empty for a name the store knows as it is, and for
    a new name.

    A stored name is read as the rule reads it today: ``ｂｏｂ``, stored before NFKC, is
    ``bob``, so bob typing his name as before is never refused; a stored name that fails
    the rule can no longer be used, so it is never offered.
    """
    spellings = set()
    for each in stored:
        with contextlib.suppress(BadInputError):
            spellings.add(reviewer_name(each))
    if name in spellings:
        return []
    key = folded(name)
    return sorted(each for each in spellings if folded(each) == key)


def case_twin_refusal(name: str, stored: Iterable[str]) -> BadInputError | None:
    """Why ``name`` may not decide in a store that knows these reviewers (None: it may).

    Ninth hostile pass, N2: ``ALICE`` beside ``alice`` was a second reviewer, shown under
    "Other reviewers" and counted apart in the agreement figures. A name that differs from
    a known one only by case is refused, naming the known spelling; a new name keeps its
    case (``Zoé`` stays ``Zoé``).
    """
    twins = case_twins(name, stored)
    if not twins:
        return None
    quoted = " or ".join(repr(t) for t in twins)
    which = "that name" if len(twins) == 1 else "one of those names"
    return BadInputError(f"reviewer name {spelt(name)!r}: the store already knows this "
                         f"reviewer as {quoted}; use {which}")


def known_reviewer(session: Session, name: str) -> str:
    """``name`` when it may decide in this store, else BadInputError naming the spelling
    the store knows (``case_twin_refusal``). A reviewer the store knows as ``name`` costs
    one index lookup; only a new name reads who else the store knows."""
    if reviewer_known(session, name):
        return name
    refused = case_twin_refusal(name, stored_reviewers(session))
    if refused is not None:
        raise refused
    return name


def refusal_in(store: Store, name: str) -> BadInputError | None:
    """Why ``name`` may not decide in ``store`` (``known_reviewer``), or None: what the
    app asks at its start, in one unit of work (one index lookup for a known name)."""
    try:
        with store.session() as session:
            known_reviewer(session, name)
    except BadInputError as exc:
        return exc
    return None


def reviewers_of(store: Store) -> list[str]:
    """Who the store knows as a reviewer (for the Settings dialog the app's start opens
    on a refused name, which checks each name typed against them)."""
    with store.session() as session:
        return stored_reviewers(session)


def login_name() -> str:
    """The OS login name (``reviewer`` if there is none, as in some containers)."""
    try:
        return getpass.getuser() or FALLBACK_NAME
    except (KeyError, OSError):  # no login name and no passwd entry
        return FALLBACK_NAME


def default_reviewer() -> str:
    """``$REVIEWER_NAME``, else the OS login name, checked by ``reviewer_name``.

    An empty or blank ``$REVIEWER_NAME`` counts as unset (as shells write ``VAR=``); a
    set one that fails the rule is an error, never silently replaced by the login name.
    """
    value = os.environ.get(ENV, "")
    if value.strip():
        return reviewer_name(value, f"${ENV}")
    return reviewer_name(login_name(), "the login name; give --reviewer NAME")


def chosen_reviewer(option: str | None) -> str:
    """The ``--reviewer`` option when given (even empty: that is an error), else the
    default."""
    if option is None:
        return default_reviewer()
    return reviewer_name(option, "--reviewer")


def stored_name(name: str) -> str:
    """``name`` when it is already a name as stored (what the domain writes), else
    BadInputError: callers pass a name through ``reviewer_name`` first."""
    if reviewer_name(name) != name:
        raise BadInputError(f"reviewer name {spelt(name)!r}: not trimmed or not NFKC; "
                            "pass it through reviewer_name() first")
    return name
