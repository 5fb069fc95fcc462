"""ROUGE-L: the seed's examples, the Unicode tokenizer, and equality with rouge-score."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer
from rouge_score import tokenize as rouge_tokenize

from reviewer.errors import BadInputError
from reviewer.graders import rouge_l
from reviewer.graders.similarity import lcs_length, lcs_length_bytes, rouge_l_tokens
from reviewer.graders.tokenize import (
    _WORD,
    NON_ASCII_SEPARATORS,
    RougeTokenizer,
    UnicodeTokenizer,
    as_bytes,
    rouge_words,
    unicode_bytes,
    unicode_words,
)

REFERENCE = "Ouvrez le rapport, cliquez sur Partager, choisissez le client."
ANSWER_A = "Cliquez sur Partager sur le rapport et choisissez le client."
ANSWER_B = "Utilisez le bouton Partager de votre rapport pour le leur envoyer."
ANSWER_C = "Ouvrez le rapport, cliquez sur Partager et choisissez l'administrateur."

LIBRARY = rouge_scorer.RougeScorer(["rougeL"])
LIBRARY_UNICODE = rouge_scorer.RougeScorer(["rougeL"], tokenizer=UnicodeTokenizer())


def f1(lcs: int, response_words: int, reference_words: int) -> float:
    p, r = lcs / response_words, lcs / reference_words
    return 2 * p * r / (p + r)


def test_seed_examples_by_hand_counted_lcs() -> None:
    # Reference: 9 words. A: 10 words, LCS "cliquez sur partager choisissez le client" = 6.
    assert rouge_l(ANSWER_A, REFERENCE) == pytest.approx(f1(6, 10, 9))
    # B: 11 words, LCS "le … rapport … le" = 3 (the seed counted 2 and 12 words).
    assert rouge_l(ANSWER_B, REFERENCE) == pytest.approx(f1(3, 11, 9))
    # C: "l'administrateur" is two words: 10 words, LCS "ouvrez … choisissez" = 7.
    assert rouge_l(ANSWER_C, REFERENCE) == pytest.approx(f1(7, 10, 9))


def test_seed_lesson_wrong_recipient_outscores_correct_paraphrase() -> None:
    a, b, c = (rouge_l(x, REFERENCE) for x in (ANSWER_A, ANSWER_B, ANSWER_C))
    assert c > a > b


def test_values_stated_in_the_docs() -> None:
    assert round(rouge_l(ANSWER_A, REFERENCE), 4) == 0.6316
    assert round(rouge_l(ANSWER_B, REFERENCE), 4) == 0.3
    assert round(rouge_l(ANSWER_C, REFERENCE), 4) == 0.7368
    assert round(rouge_l(ANSWER_C, REFERENCE, tokenizer="rouge"), 4) == 0.7368


def test_unicode_tokenizer_keeps_accents_and_splits_apostrophes() -> None:
    assert unicode_words("Réponse à côté, l’administrateur d'État") == [
        "réponse",
        "à",
        "côté",
        "l",
        "administrateur",
        "d",
        "état",
    ]
    assert unicode_words("ﬁchier Ⅻ") == ["fichier", "xii"]  # NFKC
    assert RougeTokenizer().tokenize("Réponse à côté") == ["r", "ponse", "c", "t"]


def test_accents_matter_only_with_the_unicode_tokenizer() -> None:
    # rouge-score sees "r ponse" in both: accented words collapse into the same fragments.
    assert rouge_l("réponse côté", "rèponse cöté", tokenizer="rouge") == 1.0
    assert rouge_l("réponse côté", "rèponse cöté") == 0.0


def test_identical_empty_and_disjoint_texts() -> None:
    assert rouge_l("Bonjour à tous", "bonjour À TOUS !") == 1.0
    assert rouge_l("", "bonjour") == 0.0
    assert rouge_l("bonjour", "...") == 0.0
    assert rouge_l("chat", "chien") == 0.0


def test_unknown_tokenizer_is_a_bad_input() -> None:
    with pytest.raises(BadInputError, match="unknown tokenizer"):
        rouge_l("a", "a", tokenizer="nltk")  # type: ignore[arg-type]


def test_rouge_tokenizer_equals_the_library_on_the_seed() -> None:
    for answer in (ANSWER_A, ANSWER_B, ANSWER_C):
        expected = LIBRARY.score(REFERENCE, answer)["rougeL"].fmeasure
        assert rouge_l(answer, REFERENCE, tokenizer="rouge") == pytest.approx(expected, abs=1e-12)


WORDS = st.sampled_from(["le", "la", "rapport", "Partager", "client", "é", "l'", "3", "x"])
PIECES = st.sampled_from(
    [
        "état",
        "É",
        "ΣΑΣ",
        "ß",
        "Ǆ",
        "l'",
        "l’",
        "« ",
        " »",
        "—",
        ", ",
        ". ",
        " ",
        "\u00a0",
        "\x85",
        "\u2028",
        "n\u0308",
        "e\u0301",
        "İ",
        "K",
        "ﬁ",
        "३",
        "_",
        "3,5",
        "%",
    ]
)
TEXT = st.one_of(
    st.lists(WORDS, max_size=40).map(" ".join),
    st.lists(st.one_of(WORDS, PIECES), max_size=40).map("".join),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=60),
)


@settings(max_examples=300, deadline=None)
@given(response=TEXT, reference=TEXT)
def test_fast_path_equals_rouge_score_on_any_text(response: str, reference: str) -> None:
    ours_rouge = rouge_l(response, reference, tokenizer="rouge")
    theirs_rouge = LIBRARY.score(reference, response)["rougeL"].fmeasure
    assert ours_rouge == theirs_rouge  # same tokens, same LCS, same float expressions
    ours_unicode = rouge_l(response, reference)
    theirs_unicode = LIBRARY_UNICODE.score(reference, response)["rougeL"].fmeasure
    assert ours_unicode == theirs_unicode


@settings(max_examples=300, deadline=None)
@given(text=TEXT)
def test_rouge_tokenizer_gives_the_library_tokens(text: str) -> None:
    assert rouge_words(text) == rouge_tokenize.tokenize(text, None)


TOKENS = st.lists(st.sampled_from("abcdefg"), max_size=150)  # > 64: multi-word bit vectors


@settings(max_examples=300, deadline=None)
@given(a=TOKENS, b=TOKENS)
def test_lcs_equals_the_library_dynamic_programming(a: list[str], b: list[str]) -> None:
    table = rouge_scorer._lcs_table(a, b)
    assert lcs_length(a, b) == table[-1][-1]
    theirs = rouge_scorer._score_lcs(b, a).fmeasure  # (target, prediction)
    assert lcs_length_bytes(as_bytes(a), as_bytes(b)) == table[-1][-1]
    assert abs(rouge_l_tokens(as_bytes(a), as_bytes(b)) - theirs) <= 1e-9


class CollidingToken(bytes):
    """A token type whose values all share one hash, as a hash collision would."""

    def __hash__(self) -> int:
        return 7


def test_hash_collisions_fall_back_to_the_exact_lcs() -> None:
    a = [CollidingToken(t) for t in (b"ouvrez", b"le", b"rapport")]
    b = [CollidingToken(t) for t in (b"fermez", b"la", b"porte")]
    assert lcs_length_bytes(a, b) == 0
    assert lcs_length_bytes(a, [CollidingToken(b"le")]) == 1


def test_separators_replaced_early_are_never_word_characters() -> None:
    assert not any(_WORD.match(sep) for sep in NON_ASCII_SEPARATORS)


@settings(max_examples=300, deadline=None)
@given(text=TEXT)
def test_fast_unicode_tokens_equal_the_regex_definition(text: str) -> None:
    assert unicode_bytes(text) == as_bytes(unicode_words(text))


def test_fast_unicode_tokens_on_tricky_text() -> None:
    for text in (
        "l’État « réglé » — 3,5 % … n\u0308 e\u0301 x\u0085y a\u2028b 𝔸 ﬁ İK",
        "mot_composé peut-être\x1cfin",
        "ऋषि हिन्दी",  # combining vowel signs stay inside words
    ):
        assert unicode_bytes(text) == as_bytes(unicode_words(text))
