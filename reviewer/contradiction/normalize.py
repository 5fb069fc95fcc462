"""Text normalisation and tokenisation that keep character offsets into the original text.

Matching is done on a lowercased, accent-free copy of the rationale, but the evidence shown
in the UI must point into the text as the judge wrote it. Folding therefore maps every
character to exactly one character (``str.translate`` with a 1:1 table), so offsets in
the folded copy are offsets in the original. Only when ``str.lower`` changes the length
(a handful of exotic characters) is the copy rebuilt character by character. For speed
the scanner folds each whitespace-separated chunk once and caches it, rather than
folding every rationale.
"""

from __future__ import annotations

import re
import unicodedata

# Characters that NFKC/NFKD would rewrite into something the tokenizer understands, mapped
# one-to-one so that offsets survive. Accented letters lose their accent.
_SPECIAL = {
    "\u2019": "'",  # right single quotation mark, the usual French apostrophe
    "\u2018": "'",
    "\u02bc": "'",
    "\u00b4": "'",
    "`": "'",
    "\u00a0": " ",  # no-break spaces around « » and before ; : ? !
    "\u202f": " ",
    "\u2009": " ",
    "\u2007": " ",
    "\u2013": "-",
    "\u2014": "-",
    "\u2011": "-",
    "\u0153": "o",  # œ: one char kept so offsets do not move; no cue needs the e
    "\u00e6": "a",
}


def _build_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0x80, 0x2100):
        char = chr(code)
        if char in _SPECIAL:
            continue
        decomposed = unicodedata.normalize("NFKD", char)
        base = "".join(c for c in decomposed if not unicodedata.combining(c))
        if len(base) == 1 and base != char and base.isascii():
            table[code] = base.lower()
    for char, repl in _SPECIAL.items():
        table[ord(char)] = repl
    return table


_TABLE = _build_table()


def fold(lowered: str) -> str:
    """Accent-free copy of an already lowercased string, with the same length."""
    return lowered.translate(_TABLE)


def normalize(text: str) -> str:
    """Lowercase, accent-free copy of ``text`` with the same length (same offsets)."""
    out = text.lower()
    if len(out) != len(text):
        # Rare: lower() expanded a character (e.g. "İ"); keep one char per char.
        out = "".join(c.lower()[:1] or " " for c in text)
    return fold(out)


# A token is an English negative contraction ("doesn't"), an elided word ("n'", "qu'",
# "l'": an apostrophe between two letters), a plain word/number, or any single
# punctuation character, including an apostrophe used as a quotation mark ('like this').
TOKEN_RE = re.compile(r"[a-z0-9]+n't|[a-z0-9]+'(?=[a-z0-9])|[a-z0-9]+|[^\sa-z0-9]")
