"""Where the bundled assets (demo data, translations, icons) live."""

from __future__ import annotations

import os
from pathlib import Path


def assets_dir() -> Path:
    """``$REVIEWER_ASSETS`` if set, else the ``assets/`` folder of the source tree."""
    env = os.environ.get("REVIEWER_ASSETS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "assets"


def demo_run() -> Path:
    """The bundled demo run file."""
    return assets_dir() / "demo" / "run.jsonl"


def demo_catalog() -> Path:
    """The bundled demo catalog."""
    return assets_dir() / "demo" / "catalog.json"
