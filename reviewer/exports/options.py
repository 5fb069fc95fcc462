"""What each corpus export is asked for: the dataset's and the preference pairs' options.

Kept apart from the exports themselves because those may run compiled
(``reviewer.exports.compiled``): the command line, the app's Export dialog and the tests
build these options, and the compiled and the pure exports must both accept them.
"""

from __future__ import annotations

from dataclasses import dataclass

from reviewer.errors import BadInputError

FORMATS = ("chat", "sharegpt", "prompt-completion")
PER = ("turn", "conversation")
PICKS = ("all", "first", "last")
PREFERENCE_FORMATS = ("dpo", "openai-dpo", "kto")
# The cause of a rejected side that a reviewer rejected with no rule reason behind it.
REVIEWER_CAUSE = "reviewer"


@dataclass(frozen=True)
class DatasetOptions:
    """What goes into the dataset and how it is written."""

    per: str = "turn"
    fmt: str = "chat"
    pick: str = "all"
    keep_tainted: bool = False
    weight_context: int | None = None
    reviewer: str | None = None
    runs: list[str] | None = None

    def check(self) -> None:
        """BadInputError for an unknown value or a combination that means nothing."""
        if self.per not in PER:
            raise BadInputError(f"--per must be turn or conversation, not {self.per!r}")
        if self.fmt not in FORMATS:
            raise BadInputError(f"--format must be one of {', '.join(FORMATS)}, "
                                f"not {self.fmt!r}")
        if self.pick not in PICKS:
            raise BadInputError(f"--per-turn-pick must be all, first or last, "
                                f"not {self.pick!r}")
        if self.weight_context is not None:
            if self.weight_context not in (0, 1):
                raise BadInputError("--weight-context must be 0 or 1")
            if self.fmt != "chat" or self.per != "turn":
                raise BadInputError("--weight-context is for --format chat --per turn (the "
                                    "answers of a context are weighted in OpenAI's format)")
        if self.fmt == "prompt-completion" and self.per != "turn":
            raise BadInputError("--format prompt-completion is one answer per example: "
                                "use --per turn")


@dataclass(frozen=True)
class PreferenceOptions:
    """Which pairs (or labels) go into the preference export, and in which format."""

    fmt: str = "dpo"
    include_filter_refusals: bool = False
    causes: frozenset[str] | None = None
    keep_tainted: bool = False
    reviewer: str | None = None
    runs: list[str] | None = None

    def check(self) -> None:
        """BadInputError for an unknown format."""
        if self.fmt not in PREFERENCE_FORMATS:
            raise BadInputError(f"--format must be one of {', '.join(PREFERENCE_FORMATS)} "
                                f"for a preference export, not {self.fmt!r}")

    @property
    def dataset(self) -> DatasetOptions:
        """The dataset options that say which answers are exported (the chosen sides)."""
        return DatasetOptions(keep_tainted=self.keep_tainted, reviewer=self.reviewer,
                              runs=self.runs)


def parse_causes(text: str | None) -> frozenset[str] | None:
    """``D-COMMERCE,G-TON`` as a set of ids (None: every cause)."""
    if not text:
        return None
    causes = frozenset(c.strip() for c in text.split(",") if c.strip())
    if not causes:
        raise BadInputError("--cause: give check or criterion ids, separated by commas")
    return causes
