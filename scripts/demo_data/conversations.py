"""All conversation scripts of the demo run, in the order they get their ids."""

from __future__ import annotations

from .conv_a import CONVERSATIONS_A
from .conv_b import CONVERSATIONS_B
from .conv_c import CONVERSATIONS_C
from .conv_d import CONVERSATIONS_D
from .script import Turn

CONVERSATIONS: list[list[Turn]] = [
    *CONVERSATIONS_A,
    *CONVERSATIONS_B,
    *CONVERSATIONS_C,
    *CONVERSATIONS_D,
]
