"""Exports of the corrected data: dataset, preference pairs, catalog, golden set, resume
list, audit trail.

Every destination first goes through the output guard (``reviewer.outputs``: never the
open database, an input or a folder), then is written to a temporary file in its folder
and renamed (``reviewer.atomic``), so a failed export never leaves a half file; a dataset
or preference export and its manifest are one unit (``reviewer.exports.manifest``).
``KINDS`` lists them.
"""

from __future__ import annotations

KINDS = ("dataset", "preference", "catalog", "golden", "resume", "decisions",
         "calibration")
