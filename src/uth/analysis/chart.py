"""The 13x13 pre-flop strategy chart (matplotlib)."""

from __future__ import annotations

from pathlib import Path

from uth.analysis.result import AnalysisResult
from uth.cards.card import RANK_CHARS

#: Ranks from the ace down, the chart's row and column order.
CHART_RANKS = RANK_CHARS[::-1]


def chart_cell(row: int, column: int) -> str:
    """The starting hand in a chart cell: pairs on the diagonal, suited hands above
    it (row = the higher rank), offsuit hands below it (column = the higher rank).
    """
    hi, lo = CHART_RANKS[min(row, column)], CHART_RANKS[max(row, column)]
    if row == column:
        return hi + lo
    return hi + lo + ("s" if row < column else "o")


def draw_chart(result: AnalysisResult, path: Path) -> None:
    """Draw the pre-flop strategy chart of ``result`` into the image file ``path``.

    Colour: EV of the largest raise minus EV of checking, per Ante (diverging
    around 0); each cell names the hand and the optimal decision.

    Raises:
        ValueError: the result is not of the full deck (no 169 starting hands).
        OSError: the file cannot be written.

    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import TwoSlopeNorm

    if len(result.pre_flop) != 169:
        raise ValueError(f"chart: needs the 169 starting hands of a full deck, got {result.deck}")
    grid = [
        [float(result.pre_flop[chart_cell(r, c)].raise_minus_check) for c in range(13)]
        for r in range(13)
    ]
    low = min(min(row) for row in grid)
    high = max(max(row) for row in grid)
    norm = TwoSlopeNorm(vcenter=0.0, vmin=min(low, -1e-9), vmax=max(high, 1e-9))
    fig, ax = plt.subplots(figsize=(10, 9))
    image = ax.imshow(grid, cmap="RdYlGn", norm=norm)
    for r in range(13):
        for c in range(13):
            name = chart_cell(r, c)
            action = result.pre_flop[name].best
            label = "check" if action == "check" else action.removeprefix("raise_")
            ax.text(c, r, f"{name}\n{label}", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(13), list(CHART_RANKS))
    ax.set_yticks(range(13), list(CHART_RANKS))
    ax.set_title(
        f"Pre-flop strategy, {result.rules_name}: suited above the diagonal, offsuit below\n"
        f"colour = EV(raise {max(next(iter(result.pre_flop.values())).raise_ev)}x) - EV(check), per Ante"
    )
    fig.colorbar(image, ax=ax, shrink=0.8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
