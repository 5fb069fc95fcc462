"""Graders: score an answer in [0, 1] (or None when the row is ignored). No Qt here.

Rule-based: :func:`exact`, :func:`regex`, :func:`json_valid`, :func:`label`,
:func:`rouge_l`, :func:`numeric`. Model-based: :class:`Judge`. Mixes: :mod:`.combine`.
Choosing and linting: :func:`lint`, :func:`recommend`. See docs/graders.md.
"""

from reviewer.graders.combine import judge_plus_numbers, judge_plus_similarity, weighted
from reviewer.graders.exact import exact, json_valid, label
from reviewer.graders.exact import regex_match as regex
from reviewer.graders.judge import Judge, JudgeConfig, JudgeNotes
from reviewer.graders.lint import LintWarning, lint, recommend
from reviewer.graders.numbers import figures, numeric
from reviewer.graders.similarity import rouge_l

__all__ = [
    "Judge",
    "JudgeConfig",
    "JudgeNotes",
    "LintWarning",
    "exact",
    "figures",
    "json_valid",
    "judge_plus_numbers",
    "judge_plus_similarity",
    "label",
    "lint",
    "numeric",
    "recommend",
    "regex",
    "rouge_l",
    "weighted",
]
