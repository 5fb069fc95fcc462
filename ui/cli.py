"""The ``reviewer`` console script: the domain CLI plus the ``gui`` command.

It lives in ``ui`` so that ``reviewer`` never imports Qt; ``ui.commands.gui`` imports
PySide6 only when the GUI actually starts, so the other commands stay light.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from reviewer.cli.main import main as reviewer_main
from ui.commands import gui


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``reviewer`` with the GUI command available."""
    return reviewer_main(argv, extra=[gui.register], extra_commands=frozenset({"gui"}))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
