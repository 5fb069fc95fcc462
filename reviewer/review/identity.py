"""Who decides: the one rule for reviewer names, wherever a name comes from.

A decision is stored under the name of who made it, and other reviewers read that name
under "Other reviewers", in agreement figures and in exports. So a name must show what
it is: ``reviewer_name`` trims it, normalises it to NFC (``Zoé`` typed with a combining
accent is the same reviewer as ``Zoé``), and refuses an empty or over-long name and any
hidden character (``reviewer.text_rules.hidden``: a newline could forge a line
"bob: reject", a zero-width space a second "claire", a bidi override a reversed name),
and a name that starts with a combining mark (marks alone show as nothing).

Every entry point goes through it: ``--reviewer`` of every command and of ``gui``,
``$REVIEWER_NAME``, the login name, the CSV ``reviewer`` column, the Settings dialog,
and the domain itself (``reviewer.review.commands.perform``), so no caller can skip it.

Names stored before this rule are left as they are: their decisions are still shown,
counted and exported under them. A name that fails the rule can no longer decide (nor
undo) until the reviewer picks a valid one; to carry on as the same person they pick the
name without its hidden characters, which is a new reviewer for the store.
"""

from __future__ import annotations

import getpass
import os
import unicodedata

from reviewer.errors import BadInputError
from reviewer.text_rules import char_label, first_hidden, spelt

MAX_NAME = 100
FALLBACK_NAME = "reviewer"
ENV = "REVIEWER_NAME"


def reviewer_name(name: str, source: str = "") -> str:
    """The name as stored, or BadInputError saying what is wrong with it.

    ``source`` says where the name came from in the message (``$REVIEWER_NAME``, …).
    """
    where = f" (from {source})" if source else ""
    if not isinstance(name, str):
        raise BadInputError(f"reviewer name{where}: must be text")
    cleaned = unicodedata.normalize("NFC", name).strip()
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
    bad = first_hidden(cleaned)
    if bad is not None:
        kind = "a space other than the plain space" if unicodedata.category(bad) == "Zs" \
            else "a control, bidi or invisible character"
        raise BadInputError(f"reviewer name{where} {spelt(cleaned)!r}: contains "
                            f"{char_label(bad)}, {kind}; names are printable text only")
    return cleaned


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
        raise BadInputError(f"reviewer name {spelt(name)!r}: not trimmed or not NFC; "
                            "pass it through reviewer_name() first")
    return name
