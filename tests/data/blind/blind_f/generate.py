"""Write blind set F next to this file: one base-rate run in a new judge's voice.

Uses ``scripts/make_baserate.py`` unchanged (its Profile, its bad and flip rates, its
filter replay); only the pools (``pools_blind_f.py``, kept here and not in
``scripts/baserate_data`` so no later session tunes on them) and the sloppiness are new.
``verdicts.jsonl`` (the labelled-item format a trainer could pick up) is not written
unless ``--verdicts`` is given.

Usage: ``.venv/bin/python tests/data/blind/blind_f/generate.py [--verdicts]``
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
import pools_blind_f  # noqa: E402
from demo_data import catalog as demo  # noqa: E402


def sloppy_f(text: str, rng: random.Random) -> str:
    """This judge's habits: lower-case starts, missing full stops, dropped accents, and
    now and then a « Justification : » or "Rationale:" label in front."""
    if rng.random() < 0.15:
        text = text[:1].lower() + text[1:]
    if rng.random() < 0.15 and text.endswith("."):
        text = text[:-1]
    if rng.random() < 0.06:
        text = mb.strip_accents(text)
    if rng.random() < 0.05 and not text.lower().startswith(("justification", "rationale")):
        text = rng.choice(("Justification : ", "Rationale: ", "justif: ")) + text
    return text


PROFILE = mb.Profile("blind_f", "2026-11-20-granite-mixed", "granite3.3:8b", 66, 135,
                     list(demo.CRITERIA), list(demo.CHECKS), pools_blind_f.POOLS,
                     "oui", "non", "fr", sloppy_f)


def main() -> None:
    files = mb.render(PROFILE)
    if "--verdicts" not in sys.argv[1:]:
        del files["verdicts.jsonl"]
    for name, text in files.items():
        (HERE / name).write_text(text, encoding="utf-8")
    print(mb.summary(PROFILE.name, files))


if __name__ == "__main__":
    main()
