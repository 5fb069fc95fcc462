"""commit-msg hook: the subject line is at most 72 characters, and a blank line separates it
from the body (the reasoning). ``python3 scripts/check_commit_message.py MSGFILE``."""

from __future__ import annotations

import sys
from pathlib import Path

LIMIT = 72


def problems(message: str) -> list[str]:
    """What is wrong with a commit message (empty when it is fine)."""
    lines = [line for line in message.splitlines() if not line.startswith("#")]
    if not lines or not lines[0].strip():
        return ["the subject line is empty"]
    found = []
    if len(lines[0]) > LIMIT:
        found.append(f"the subject has {len(lines[0])} characters (at most {LIMIT})")
    if len(lines) > 1 and lines[1].strip():
        found.append("the second line must be blank (subject, blank line, body)")
    return found


def main(argv: list[str]) -> int:
    """Exit 1 with one line per problem."""
    found = problems(Path(argv[1]).read_text(encoding="utf-8"))
    for line in found:
        print(f"commit message: {line}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
