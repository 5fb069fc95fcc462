"""The numbers grader: the seed's worked example, French and English notations, units."""

from __future__ import annotations

import pytest

from reviewer.errors import BadInputError
from reviewer.graders import figures, numeric
from reviewer.graders.numbers import detect_locale

SEED_REFERENCE = (
    "WACC ≈ 9,91 % ; coût des capitaux propres 10,34 % ; dette après impôt 4,15 % ; EV ≈ 1 705 M$."
)
SEED_RESPONSE = (
    "Le WACC ressort à 9,95 %, avec un coût des fonds propres de 10,3 % et une dette "
    "après impôt à 4,2 %. La valeur d'entreprise est d'environ 1 700 M."
)


def values(text: str, **kw: str) -> list[float]:
    return [f.value for f in figures(text, **kw)]  # type: ignore[arg-type]


def test_seed_worked_example_scores_exactly_0_875() -> None:
    assert numeric(SEED_RESPONSE, SEED_REFERENCE) == 0.875


def test_seed_wrong_wacc_scores_0() -> None:
    assert numeric("Le WACC est de 1,33 %", SEED_REFERENCE) == 0.0


def test_seed_reference_has_four_key_figures() -> None:
    assert values(SEED_REFERENCE) == [9.91, 10.34, 4.15, 1.705e9]


def test_points_per_gap_band() -> None:
    assert numeric("100", "100") == 1.0
    assert numeric("100,9", "100") == 1.0  # 0.9 %
    assert numeric("101", "100") == 0.5  # exactly 1 %: not under 1 %
    assert numeric("104,9", "100") == 0.5
    assert numeric("105", "100") == 0.0  # exactly 5 %
    assert numeric("95,5", "100") == 0.5  # below the reference too


def test_each_reference_figure_takes_the_closest_response_number() -> None:
    # 12 is matched to 12 even though 40 comes first; 40 to 39.9.
    assert numeric("Sur 39,9 et 12 dossiers", "12 plaintes, 40 %") == 1.0


def test_reference_without_figures_is_ignored_and_response_without_is_zero() -> None:
    assert numeric("42 %", "Ouvrez le rapport et cliquez sur Partager.") is None
    assert numeric("Je ne sais pas.", "Le taux est de 3,5 %.") == 0.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 705 M$", 1.705e9),
        ("1,705 B", 1.705e9),
        ("1\u202f705\u00a0M€", 1.705e9),  # narrow no-break and no-break spaces
        ("1,705 Md€", 1.705e9),
        ("1,705 Mds", 1.705e9),
        ("1,705 milliard", 1.705e9),
        ("1 705 millions d'euros", 1.705e9),
        ("1,705 G€", 1.705e9),
        ("1 705 000 000 €", 1.705e9),
        ("12 k€", 12_000.0),
        ("12 thousand", 12_000.0),
        ("3,5 bn", 3.5e9),
        ("9,91 %", 9.91),
        ("-3,5 %", -3.5),
        ("−4,2 %", -4.2),  # U+2212 minus sign
        ("50 pour cent", 50.0),
    ],
)
def test_french_notation_and_units(text: str, expected: float) -> None:
    assert values(text) == [pytest.approx(expected)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$12,345.6 million", 12_345.6e6),
        ("8.25%", 8.25),
        ("$1,705,000", 1_705_000.0),
        ("1.705 billion", 1.705e9),
        ("USD 3.2bn", 3.2e9),
        ("€ 4,500.50", 4500.5),
    ],
)
def test_english_notation(text: str, expected: float) -> None:
    assert values(text) == [pytest.approx(expected)]


def test_french_and_english_amounts_match_each_other() -> None:
    assert numeric("EV of $1,705 million", "EV ≈ 1 705 M$") == 1.0
    assert numeric("EV ≈ 1,705 Md$", "EV of $1.705 billion") == 1.0
    assert numeric("Le total est de 12 345,6 k€", "Total: €12,345,600") == 1.0


def test_locale_detection_and_forcing() -> None:
    assert detect_locale("Le taux est de 9,91 % et le montant 1 705 €") == "fr"
    assert detect_locale("The rate is 8.25% on $12,345.60") == "en"
    assert detect_locale("1,705") == "fr"  # ambiguous alone: French, the app's language
    assert values("1,705") == [1.705]
    assert values("1,705", locale="en") == [1705.0]
    assert values("Revenue 1,705 and margin 8.25 %") == [1705.0, 8.25]  # English by context
    assert values("1.5", locale="fr") == [1.5]  # a lone point stays a decimal point
    assert values("Revenue of 1,705 units") == [1705.0]  # English words decide a tie
    assert values("Un total de 1,705 unités") == [1.705]


def test_list_numbering_is_not_a_figure() -> None:
    text = "1. Ouvrez le rapport\n2) Cliquez sur Partager\n  3. Envoyez 2 copies\n- 4. fin"
    assert values(text) == [2.0]
    assert numeric("Voici :\n1. d'abord\n2. ensuite", "Étapes :\n1. ouvrir\n2. fermer") is None


def test_a_bullet_dash_is_not_a_minus_sign() -> None:
    assert values("- 12 % de hausse\n- 3 pommes\n-4 °C") == [12.0, 3.0, -4.0]


def test_list_numbering_does_not_hide_decimals_at_line_start() -> None:
    assert values("2.5 % de hausse\n3,75 € de plus") == [2.5, 3.75]


def test_dates_times_years_ordinals_and_identifiers_are_not_figures() -> None:
    text = (
        "En 2023, le 12/03/2024 à 14h30 (ou 09:15), au T1, COVID-19, le 1er et le 2e rang, "
        "fichier mp3, le 2024-03-12"
    )
    assert values(text) == []


def test_phone_numbers_are_not_figures_but_short_numbers_are() -> None:
    text = "Appelez le 01 23 45 67 89, le +33 6 12 34 56 78 ou le 06.12.34.56.78, sinon le 3114."
    assert values(text) == [3114.0]


def test_years_with_unit_or_currency_are_amounts() -> None:
    assert values("2024 €, 1999 k$, 2000 %") == [2024.0, 1.999e6, 2000.0]


def test_lowercase_m_is_metres_not_millions() -> None:
    assert values("10 m de haut et 10 M€ de budget") == [10.0, 1e7]
    assert values("5 mn de trajet") == [5.0]  # minutes, not millions


def test_unknown_locale_is_a_bad_input() -> None:
    with pytest.raises(BadInputError, match="unknown locale"):
        numeric("1", "1", locale="de")  # type: ignore[arg-type]


# -- issue 20: exact gaps, a leading $/£, inline enumerations ---------------------------


@pytest.mark.parametrize(
    ("response", "reference", "points"),
    [
        ("10,0091 %", "9,91 %", 0.5),  # exactly 1 % above (under 1 % in floats)
        ("9,8109 %", "9,91 %", 0.5),  # exactly 1 % below
        ("10,4055 %", "9,91 %", 0.0),  # exactly 5 % above: nothing
        ("9,4145 %", "9,91 %", 0.0),  # exactly 5 % below
        ("10,00909 %", "9,91 %", 1.0),  # just under 1 %
        ("10,40549 %", "9,91 %", 0.5),  # just under 5 %
        ("0,3 %", "0,1 %", 0.0),
        ("1 722,05 M$", "1 705 M$", 0.5),  # 1 % of 1 705 M, with a multiplier
        ("1,79025 Md€", "1 705 M€", 0.0),  # 5 % of 1 705 M in another unit
    ],
)
def test_boundary_gaps_are_exact(response: str, reference: str, points: float) -> None:
    assert numeric(response, reference) == points


def test_every_boundary_case_of_a_grid_lands_on_the_documented_side() -> None:
    # The measure: references with 2 decimals, answers exactly 1 % or 5 % away.
    from decimal import Decimal

    wrong = 0
    for cents in range(101, 1101):  # 1,01 … 11,00
        ref = Decimal(cents) / 100
        for factor, points in ((Decimal("1.01"), 0.5), (Decimal("0.99"), 0.5),
                               (Decimal("1.05"), 0.0), (Decimal("0.95"), 0.0)):
            answer = str(ref * factor).replace(".", ",")
            reference = str(ref).replace(".", ",")
            wrong += numeric(f"{answer} %", f"{reference} %") != points
    assert wrong == 0


def test_a_leading_dollar_or_pound_decides_the_amounts_notation() -> None:
    # One French decimal makes the sentence French; "$1,705" is still English.
    assert values("Le prix est de $1,705 et la marge de 3,5 %.") == [1705.0, 3.5]
    assert values("Le coût est de £2,400 pour 1,5 jour.") == [2400.0, 1.5]
    assert values("Un montant de US$ 3,250 soit 2,5 %") == [3250.0, 2.5]
    # Written after the amount, the sign is French style: the text's notation decides.
    assert values("Le prix est de 1,705 $ et la marge de 3,5 %.") == [1.705, 3.5]
    assert numeric("Comptez $1,705 au total, soit 2,5 % de plus.", "Total : 1 705 $") == 1.0


def test_inline_enumerations_are_list_numbering() -> None:
    assert values("Étapes : 1) ouvrir le rapport 2) cliquer sur Partager 3) envoyer 2 copies") \
        == [2.0]
    assert values("(1) ouvrir le rapport, (2) choisir 3 destinataires") == [3.0]
    assert values("Deux options : 1) appeler le 3114, 2) écrire") == [3114.0]
    assert numeric("1) ouvrir 2) cliquer", "1) ouvrir 2) cliquer 3) partager") is None


def test_a_lone_parenthesised_number_is_still_a_figure() -> None:
    assert values("Le taux (3) est de 4 %") == [3.0, 4.0]
    assert values("Ils sont 12) puis 40)") == [12.0, 40.0]  # not consecutive: figures
