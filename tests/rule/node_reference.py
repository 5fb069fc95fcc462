"""Node's own RegExp as a test oracle: one ``node`` process answering line by line.

The ECMAScript dialect must agree with the production filter, which is TypeScript on
Node 20; ``node_regexp.js`` computes ``test()``, every ``matchAll`` span (code point offsets)
or the SyntaxError of a pattern, independently of ``reviewer.rule.ecmascript``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).with_name("node_regexp.js")


class NodeRegExp:
    """``node node_regexp.js`` kept running; ``ask(source, flags, text)`` -> its answer."""

    def __init__(self) -> None:
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("these tests need Node (node --version); it runs the reference")
        self._proc = subprocess.Popen(
            [node, str(SCRIPT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            encoding="utf-8", bufsize=1)

    def version(self) -> str:
        """Node's version string (``v20.…``)."""
        return subprocess.run(["node", "--version"], capture_output=True, text=True,
                              check=True).stdout.strip()

    def ask(self, source: str, flags: str, text: str) -> dict[str, Any]:
        """``{"error": message}`` or ``{"test": bool, "spans": [[start, end], …]}``."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        # ASCII JSON: lone surrogates and astral characters reach Node intact.
        self._proc.stdin.write(json.dumps([source, flags, text]) + "\n")
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError("the Node reference process died")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        """End the Node process."""
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait(timeout=10)
