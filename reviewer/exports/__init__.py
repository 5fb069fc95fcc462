"""Exports of the corrected data: dataset, catalog, golden set, resume list, audit trail.

Every export is written to a temporary file in the destination folder and renamed, so a
failed export never leaves a half file (``reviewer.atomic``). ``KINDS`` lists them.
"""

from __future__ import annotations

KINDS = ("dataset", "catalog", "golden", "resume", "decisions", "calibration")
