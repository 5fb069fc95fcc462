"""The ``reviewer`` console script's module (``[project.scripts]``): Ctrl-C is ours from its
first line.

The script pip writes imports this module, then calls :func:`main`. Until ``ui.cli.main``
handles Ctrl-C (its one line, exit 130), Python's own handler raised KeyboardInterrupt
wherever the modules being imported were, and the script died with its traceback (exit
-2; ninth hostile pass, T9). So the first thing here is a handler that says the one line
and exits 130; ``ui.cli.main`` puts Python's back before the command runs (commands catch
KeyboardInterrupt to roll back and say what was kept).

Before this module runs, the interpreter is starting (``site``, the ``.pth`` files of
the environment): a Ctrl-C then is Python's, see docs/reliability.md "Known limits".
Nothing is imported before the handler is in: ``_signal``, the C module under ``signal``,
is loaded by the interpreter itself (``signal`` would first build its enums: a millisecond
in which a Ctrl-C was still a traceback). Tests and tools import ``ui.cli``, never this
module: its handler is for the console script's process only.
"""

import _signal  # type: ignore[import-not-found,unused-ignore]  # no stubs: signal's own C part
import sys

# ui.cli.INTERRUPTED_LINE, repeated: nothing is imported before the handler is in.
INTERRUPTED_LINE = ("reviewer: interrupted; the step in progress was not saved (what was "
                    "saved before is kept)")


def _before_main(_number: int, _frame: object) -> None:
    """Ctrl-C before ``ui.cli.main`` handles it: the one line, exit 130."""
    try:
        sys.stderr.write(INTERRUPTED_LINE + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # a closed stderr: the code says it
        pass
    raise SystemExit(130)


# An ignored SIGINT (a job started in the background by a script) stays ignored.
if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _before_main)


def main() -> int:
    """Run the console script (``ui.cli.main`` on the process's own command line)."""
    from ui.cli import main as run

    return run()
