"""Word tokenizers for ROUGE-L, usable as ``rouge_score`` tokenizer objects.

``rouge_score``'s default tokenizer keeps only ``[a-z0-9]``, so "Réponse à côté" becomes
``r ponse c t``: useless for French. ``UnicodeTokenizer`` keeps every letter, mark and
digit run instead.
"""

from __future__ import annotations

import unicodedata

import regex

# A word is a run of letters (with their combining marks) and digits. Everything else,
# apostrophes (' and ’) and hyphens included, separates words: "l'administrateur" gives
# "l", "administrateur", as a French reader counts them.
_WORD = regex.compile(r"[\p{L}\p{M}\p{N}]+")

# The fast path of unicode_words: one byte table lower-cases ASCII letters and turns every
# other ASCII character but digits into a space; the common non-ASCII punctuation of
# French text, and the whitespace that NFKC leaves non-ASCII (checked over every code
# point), become spaces too.
_ASCII_LOWER_SEPARATORS = bytes(
    c + 0x20 if 0x41 <= c <= 0x5A else 0x20 if c < 0x80 and not chr(c).isalnum() else c
    for c in range(256)
)
NON_ASCII_SEPARATORS = tuple("’‘«»“”„‹›–—―…•·×÷€£§°¡¿\x85\u1680\u2028\u2029")
_NON_ASCII_SEPARATOR_PAIRS = tuple((sep, sep.encode()) for sep in NON_ASCII_SEPARATORS)
_ASCII_BYTES = bytes(range(0x80))

# rouge_score's tokenizer lower-cases, turns every character outside [a-z0-9] into a
# space and splits. Done on UTF-8 bytes with one translation table (which also lower-cases
# A-Z) it is several times faster and gives the same tokens: non-ASCII characters become
# bytes >= 0x80, all mapped to spaces, exactly as the library's regex replaces them.
_ROUGE_TABLE = bytes(
    c + 0x20 if 0x41 <= c <= 0x5A else c if (0x30 <= c <= 0x39 or 0x61 <= c <= 0x7A) else 0x20
    for c in range(256)
)
# The only characters whose lower case holds ASCII letters: İ → "i̇", K (Kelvin) → "k".
_LOWER_TO_ASCII = ("\u0130", "\u212a")


def unicode_words(text: str) -> list[str]:
    """Lower-cased NFKC word tokens: runs of letters, marks and digits. Apostrophes,
    hyphens and all other punctuation separate words."""
    words: list[str] = _WORD.findall(unicodedata.normalize("NFKC", text).lower())
    return words


def unicode_bytes(text: str) -> list[bytes]:
    """:func:`unicode_words` as UTF-8 bytes, computed without the regex when possible."""
    text = unicodedata.normalize("NFKC", text)
    raw = text.encode("utf-8", "surrogatepass").translate(_ASCII_LOWER_SEPARATORS)
    if raw.isascii():
        return raw.split()  # only ASCII letters (lowered) and digits are left
    # Only the non-ASCII characters need a look: UTF-8 keeps them whole when the ASCII
    # bytes are deleted, so checking this short remainder is cheap.
    rest = raw.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")
    if rest.lower() != rest:
        # A non-ASCII capital ("État"): lower-case the whole text the ordinary way.
        text = text.lower()
        raw = text.encode("utf-8", "surrogatepass").translate(_ASCII_LOWER_SEPARATORS)
        rest = raw.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")
    for sep, sep_bytes in _NON_ASCII_SEPARATOR_PAIRS:
        if sep in rest:
            rest = rest.replace(sep, "")
            raw = raw.replace(sep_bytes, b" ")  # UTF-8 is self-synchronising: no false hit
    # str.isalnum characters are all letters or digits (checked over every code point):
    # when every non-ASCII character left is one, only spaces separate the words.
    if rest and not rest.isalnum():
        return as_bytes(_WORD.findall(text.lower()))
    return raw.split()


def rouge_bytes(text: str) -> list[bytes]:
    """``rouge_score``'s default tokens (no stemming), as ASCII bytes: the fast path."""
    if any(c in text for c in _LOWER_TO_ASCII):
        text = text.lower()
    return text.encode("utf-8", "surrogatepass").translate(_ROUGE_TABLE).split()


def as_bytes(words: list[str]) -> list[bytes]:
    """UTF-8 bytes of each word (words hold no NUL), in three C calls."""
    if not words:
        return []
    return "\0".join(words).encode("utf-8", "surrogatepass").split(b"\0")


def rouge_words(text: str) -> list[str]:
    """Exactly ``rouge_score``'s default tokenization (without stemming)."""
    return [t.decode("ascii") for t in rouge_bytes(text)]


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
