"""Write blind set G next to this file: one base-rate run in a new judge's voice.

Uses ``scripts/make_baserate.py`` unchanged (its Profile, its bad and flip rates, its
filter replay); only the pools (``pools_blind_g.py``, kept here and not in
``scripts/baserate_data`` so no later session tunes on them) and the sloppiness are new.
``verdicts.jsonl`` (the labelled-item format a trainer could pick up) is not written
unless ``--verdicts`` is given.

Usage: ``.venv/bin/python tests/data/blind/blind_g/generate.py [--verdicts]``
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(HERE))

import make_baserate as mb  # noqa: E402
import pools_blind_g  # noqa: E402
from demo_data import catalog as demo  # noqa: E402


def sloppy_g(text: str, rng: random.Random) -> str:
    """This judge's habits: a bullet dash in front now and then, typographic apostrophes,
    no space before a colon (the Swiss/English way), a lower-case start, a missing full
    stop, and once in a while a « Commentaire : » label."""
    if rng.random() < 0.10 and not text.startswith("-"):
        text = "- " + text
    if rng.random() < 0.12:
        text = text.replace("'", "\u2019")
    if rng.random() < 0.06:
        text = text.replace(" : ", ": ")
    if rng.random() < 0.08 and not text.startswith("-"):
        text = text[:1].lower() + text[1:]
    if rng.random() < 0.12 and text.endswith("."):
        text = text[:-1]
    if rng.random() < 0.04 and not text.startswith(("-", "Commentaire")):
        text = "Commentaire : " + text
    return text


PROFILE = mb.Profile("blind_g", "2026-12-01-aya-expanse-tutoiement", "aya-expanse:32b", 123,
                     150, list(demo.CRITERIA), list(demo.CHECKS), pools_blind_g.POOLS,
                     "Oui", "Non", "fr", sloppy_g)


def main() -> None:
    files = mb.render(PROFILE)
    if "--verdicts" not in sys.argv[1:]:
        del files["verdicts.jsonl"]
    for name, text in files.items():
        (HERE / name).write_text(text, encoding="utf-8")
    print(mb.summary(PROFILE.name, files))


if __name__ == "__main__":
    main()
