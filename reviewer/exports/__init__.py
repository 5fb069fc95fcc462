"""Exports of the corrected data: dataset, catalog, golden set, resume list, audit trail.

Every export goes through the output guard (``reviewer.outputs``) and is written to a
temporary file in the destination folder and renamed (``reviewer.atomic``), so a
failed export never leaves a half file (``reviewer.atomic``). ``KINDS`` lists them.
"""

from __future__ import annotations

KINDS = ("dataset", "preference", "catalog", "golden", "resume", "decisions")
