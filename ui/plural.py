"""Count lines with Qt's plural forms: ``translate(ctx, "%n confirmed hit(s)", None, n)``.

The French catalogue gives each such line its ``<numerusform>`` entries ("1 occurrence
confirmée", "2 occurrences confirmées"). English has no catalogue, so Qt returns the
source with only ``%n`` replaced: ``english`` resolves its "(s)"/"(es)" marks by ``n``
("1 confirmed hit", "2 confirmed hits") instead of showing "1 confirmed hits".
"""

from __future__ import annotations


def english(text: str, n: int) -> str:
    """``text`` with its plural marks resolved for ``n`` (a translation has none)."""
    for mark, many in (("(es)", "es"), ("(s)", "s")):
        text = text.replace(mark, "" if n == 1 else many)
    return text
