"""ROUGE-L F1 between a response and a reference, fast and equal to ``rouge_score``.

``rouge_score`` fills a pure-Python LCS table (milliseconds for 150-word answers);
rapidfuzz's bit-parallel ``LCSseq`` gives the same LCS length in microseconds. Precision,
recall and F1 are then computed with the very expressions ``rouge_score`` uses, so results
agree to the last bit.

Exactness of the LCS: rapidfuzz compares byte-string tokens through their hashes. Tokens
are therefore passed as ``bytes`` and, when two distinct tokens of a pair share a hash
(astronomically rare, but possible), the LCS is recomputed on exact integer ids instead.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Literal

from rapidfuzz.distance import LCSseq

from reviewer.errors import BadInputError
from reviewer.graders.tokenize import rouge_bytes, unicode_bytes

Tokenizer = Literal["unicode", "rouge"]

_SPLITTERS: dict[str, Callable[[str], list[bytes]]] = {
    "unicode": unicode_bytes,
    "rouge": rouge_bytes,
}


def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Length of the longest common subsequence of two token lists (any hashable tokens).

    Distinct tokens get distinct small integers first, so only equal tokens match.
    """
    if not a or not b:
        return 0
    vocabulary = dict.fromkeys(a)
    vocabulary.update(dict.fromkeys(b))
    ids = dict(zip(vocabulary, range(len(vocabulary)), strict=True)).__getitem__
    return int(LCSseq.similarity(list(map(ids, a)), list(map(ids, b))))


def lcs_length_bytes(a: Sequence[bytes], b: Sequence[bytes]) -> int:
    """:func:`lcs_length` for byte-string tokens, hashing them directly when that is exact."""
    if not a or not b:
        return 0
    distinct = set(a)
    distinct.update(b)
    if len(set(map(hash, distinct))) == len(distinct):
        return int(LCSseq.similarity(a, b))
    return lcs_length(a, b)


def rouge_l_tokens(response: Sequence[bytes], reference: Sequence[bytes]) -> float:
    """ROUGE-L F1 of two token lists, as ``rouge_score._score_lcs`` computes it."""
    if not reference or not response:
        return 0.0
    lcs = lcs_length_bytes(reference, response)
    precision = lcs / len(response)
    recall = lcs / len(reference)
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def rouge_l(response: str, reference: str, *, tokenizer: Tokenizer = "unicode") -> float:
    """ROUGE-L F1 (0–1) of ``response`` against ``reference``.

    ``tokenizer="unicode"`` (default) keeps accented letters; ``"rouge"`` reproduces
    ``rouge_score.RougeScorer(["rougeL"]).score(reference, response)`` exactly.
    """
    try:
        words = _SPLITTERS[tokenizer]
    except KeyError:
        raise BadInputError(
            f"unknown tokenizer {tokenizer!r} (choose: {', '.join(_SPLITTERS)})"
        ) from None
    return rouge_l_tokens(words(response), words(reference))
