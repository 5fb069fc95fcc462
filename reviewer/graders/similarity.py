"""ROUGE-L F1 between a response and a reference, fast and equal to ``rouge_score``.

``rouge_score`` fills a pure-Python LCS table (milliseconds for 150-word answers);
rapidfuzz's bit-parallel ``LCSseq`` gives the same LCS length in microseconds. Tokens are
mapped to small integers first so that equal tokens, and only those, compare equal (no
reliance on hashes). Precision, recall and F1 are then computed with the very expressions
``rouge_score`` uses, so results agree to the last bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rapidfuzz.distance import LCSseq

from reviewer.errors import BadInputError
from reviewer.graders.tokenize import TOKENIZERS

Tokenizer = Literal["unicode", "rouge"]


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token lists."""
    if not a or not b:
        return 0
    ids: dict[str, int] = {}
    a_ids = [ids.setdefault(t, len(ids)) for t in a]
    b_ids = [ids.setdefault(t, len(ids)) for t in b]
    return int(LCSseq.similarity(a_ids, b_ids))


def rouge_l_tokens(response: Sequence[str], reference: Sequence[str]) -> float:
    """ROUGE-L F1 of two token lists, as ``rouge_score._score_lcs`` computes it."""
    if not reference or not response:
        return 0.0
    lcs = lcs_length(reference, response)
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
        words = TOKENIZERS[tokenizer]
    except KeyError:
        raise BadInputError(
            f"unknown tokenizer {tokenizer!r} (choose: {', '.join(TOKENIZERS)})"
        ) from None
    return rouge_l_tokens(words(response), words(reference))
