"""Exact game math: the optimal strategy and return to player of any rule set.

:func:`analyze` enumerates every deal (player hole cards, flop, turn and river,
dealer hole cards) with the player deciding optimally at each decision on what
they see, and returns an :class:`AnalysisResult` of exact figures: house edge,
element of risk, return to player, decision frequencies, outcome probabilities,
the return of each wager, Trips and Bad Beat, and the pre-flop EV table of the
169 starting hands. :func:`result_for` returns a stored result when one is known
(the presets' results ship with the package). Method, cost and sources of the
published figures: docs/math.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from uth.analysis.cache import cache_dir, cached_result, result_for, store_result
from uth.analysis.deck import AnalysisDeck, analysis_deck, reduced_deck
from uth.analysis.params import fingerprint
from uth.analysis.result import AnalysisResult, PreFlopHand

if TYPE_CHECKING:
    from uth.analysis.chart import draw_chart
    from uth.analysis.exact import analyze

__all__ = [
    "AnalysisDeck",
    "AnalysisResult",
    "PreFlopHand",
    "analysis_deck",
    "analyze",
    "cache_dir",
    "cached_result",
    "draw_chart",
    "fingerprint",
    "reduced_deck",
    "result_for",
    "store_result",
]


def __getattr__(name: str) -> Any:
    # numba (the kernels) and matplotlib load on first use, so that reading a
    # stored result (uth rules show, the server) does not load them.
    if name == "analyze":
        from uth.analysis.exact import analyze

        return analyze
    if name == "draw_chart":
        from uth.analysis.chart import draw_chart

        return draw_chart
    raise AttributeError(f"module 'uth.analysis' has no attribute {name!r}")
