#!/usr/bin/env bash
# Refresh the French catalogue from the UI sources, then compile it. New strings come out
# as "unfinished": translate them in assets/translations/reviewer_fr.ts (any editor, or
# .venv/bin/pyside6-linguist), then run this script again to rebuild the .qm.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every module of every ui package (ui/review, ui/tools, …); strings no longer in the
# sources are dropped.
.venv/bin/pyside6-lupdate -no-obsolete $(find ui -name '*.py' | sort) -ts assets/translations/reviewer_fr.ts
.venv/bin/pyside6-lrelease assets/translations/reviewer_fr.ts -qm assets/translations/reviewer_fr.qm
