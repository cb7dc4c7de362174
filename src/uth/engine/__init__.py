"""The pure game engine: wagers, settlement and the round state machine (its betting
phase included: verify / can / do, the deck at ``close_betting``, the action log);
:mod:`uth.engine.views` (who sees what) and :mod:`uth.engine.history` (round records
that replay).

Imports only ``uth.cards``, ``uth.evaluator`` and ``uth.rules``; nothing here does
I/O, reads a clock or draws a random number (STYLE.md, "What that means here").
"""

from uth.engine.round import CHECK, FOLD, Action, ActionRecord, Phase, Round, replay
from uth.engine.settlement import (
    DealerResult,
    HandEntry,
    HandResult,
    Settlement,
    WagerResult,
    settle,
)
from uth.engine.wagers import LAYOUT_ORDER, Wagers, validate_wagers

__all__ = [
    "CHECK",
    "FOLD",
    "LAYOUT_ORDER",
    "Action",
    "ActionRecord",
    "DealerResult",
    "HandEntry",
    "HandResult",
    "Phase",
    "Round",
    "Settlement",
    "WagerResult",
    "Wagers",
    "replay",
    "settle",
    "validate_wagers",
]
