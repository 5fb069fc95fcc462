"""Word tokenizers for ROUGE-L, usable as ``rouge_score`` tokenizer objects.

``rouge_score``'s default tokenizer keeps only ``[a-z0-9]``, so "Réponse à côté" becomes
``r ponse c t``: useless for French. ``UnicodeTokenizer`` keeps every letter, mark and
digit run instead.
"""

from __future__ import annotations

import re
import unicodedata

import regex

# A word is a run of letters (with their combining marks) and digits. Everything else,
# apostrophes (' and ’) and hyphens included, separates words: "l'administrateur" gives
# "l", "administrateur", as a French reader counts them.
_WORD = regex.compile(r"[\p{L}\p{M}\p{N}]+")

# rouge_score.tokenize, reproduced so the fast path need not build a RougeScorer.
_ROUGE_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_ROUGE_SPACES = re.compile(r"\s+")
_ROUGE_VALID = re.compile(r"^[a-z0-9]+$")


def unicode_words(text: str) -> list[str]:
    """Lower-cased NFKC word tokens, apostrophes and punctuation split off."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())


def rouge_words(text: str) -> list[str]:
    """Exactly ``rouge_score``'s default tokenization (without stemming)."""
    text = _ROUGE_NON_ALNUM.sub(" ", text.lower())
    return [t for t in _ROUGE_SPACES.split(text) if _ROUGE_VALID.match(t)]


class UnicodeTokenizer:
    """Tokenizer object for ``rouge_score.rouge_scorer.RougeScorer(tokenizer=…)``."""

    def tokenize(self, text: str) -> list[str]:
        """Split ``text`` as :func:`unicode_words` does."""
        return unicode_words(text)


class RougeTokenizer:
    """``rouge_score``'s default tokenizer behaviour, as a tokenizer object."""

    def tokenize(self, text: str) -> list[str]:
        """Split ``text`` as :func:`rouge_words` does."""
        return rouge_words(text)


TOKENIZERS = {"unicode": unicode_words, "rouge": rouge_words}
