"""Where a search query's words occur in a text, for the pane to highlight them.

The queue's search (``reviewer.store.search``) matches every word of the query as the
prefix of a word of the response or a rationale, case- and accent-insensitively
("evenement" finds "Événements"). The highlight follows the same reading: each word of the
text whose folded form starts with a folded query word is a hit, spanned on the text as
stored (so the span covers "Événements" whole, accents included).
"""

from __future__ import annotations

from reviewer.errors import BadInputError
from reviewer.store.search import WORD, fold, words

Span = tuple[int, int]


def search_terms(query: str) -> tuple[str, ...]:
    """The query's words as the search compares them (folded), longest first; none for a
    query over the search's bound (the queue refuses it and says why, in one line)."""
    try:
        found = words(query)
    except BadInputError:
        return ()
    return tuple(sorted(set(found), key=len, reverse=True))


def hit_spans(text: str, terms: tuple[str, ...]) -> tuple[Span, ...]:
    """The words of ``text`` that a search for ``terms`` matches, in order."""
    if not terms or not text:
        return ()
    return tuple(m.span() for m in WORD.finditer(text)
                 if fold(m.group()).startswith(terms))
