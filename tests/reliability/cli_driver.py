"""Run several ``reviewer`` command lines in this one process, as the console script runs
them, and record what each printed: ``python cli_driver.py SPEC.json RESULTS.json``.

The fault tests start this driver under an injected fault (a read-only or full file
system made in a mount namespace, an unprivileged user namespace, a file size limit):
one interpreter per fault instead of one per command keeps the matrix affordable.
Each command's stdout and stderr are its own files (the descriptors 1 and 2 are
redirected, so what a library or a child process writes there is caught too). An
exception that escapes ``main`` is recorded as such: the console script would have
printed its traceback.

SPEC: ``{"commands": [[arg, …], …], "fsize": bytes or null}``.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def run_one(argv: list[str]) -> dict[str, Any]:
    """Run one command line with fd 1 and 2 sent to temporary files."""
    from ui.cli import main

    saved = os.dup(1), os.dup(2)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        escaped = None
        try:
            code: Any = main(argv)
        except SystemExit as exc:  # argparse: usage errors, --help
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException:
            escaped = traceback.format_exc()
            code = None
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
        out.seek(0)
        err.seek(0)
        return {"argv": argv, "code": code, "escaped": escaped,
                "out": out.read().decode("utf-8", "replace"),
                "err": err.read().decode("utf-8", "replace")}


def main() -> int:
    spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    if spec.get("fsize"):
        limit = int(spec["fsize"])
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(
            resource.RLIMIT_FSIZE)[1]))
    results = [run_one(argv) for argv in spec["commands"]]
    # The results may be larger than the fault's file size limit: lift it (up to the
    # hard limit, which was left as it was). They go outside the folder under fault.
    hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
    Path(sys.argv[2]).write_text(json.dumps(results, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
