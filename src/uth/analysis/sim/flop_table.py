"""The optimal flop decisions per (canonical flop, hole), derived from the exact analysis.

The exact analysis (:mod:`uth.analysis.kernel`, issue 10) takes the optimal flop
decision of every player hole on each of the 1,755 canonical flops while it sums
the game's return. :func:`build_flop_table` runs that same kernel and keeps those
decisions: a table ``(1755, 1326)`` of the flop Play multiple (0 = check) by
canonical flop and hole id (:func:`uth.analysis.deck.analysis_deck`). The
simulation maps a dealt flop and hole onto their canonical flop with the suit
permutation that takes one to the other (:class:`FlopLookup`), so a flop decision
is two table reads instead of a million hand evaluations.

Tables are stored per fingerprint of the fields that change the decisions (the
Blind table, the Play multiples, the dealer's qualifier:
:func:`uth.analysis.params.decisions_fingerprint`; the side bets change none), so
every preset reads the one table shipped in the package
(``sim/data/flop-<fingerprint>.npz``, 170 KB, made by ``python -m
uth.analysis.sim.flop_table PRESET``); a custom rule set's table is built on first
use (about as long as ``uth analyze --no-cache``) and kept in the user cache next
to the analysis results.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from uth.analysis import kernel as ak
from uth.analysis.cache import cache_dir
from uth.analysis.deck import analysis_deck
from uth.analysis.exact import flop_sums
from uth.analysis.params import decisions_fingerprint, game_params
from uth.rules import RuleSet, preset

I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class FlopLookup:
    """What the kernel needs to read the table.

    Attributes:
        table: (canonical flops, holes) int64, the flop Play multiple (0 check).
        canon: (52, 52, 52) int64: for a flop's three cards (any order),
            ``canonical flop index * 32 + g``, where suit permutation ``g`` maps the
            canonical flop onto it.
        inverse: (permutations, 52) int64: the inverse of each suit permutation,
            as a map of card indices.
        hole_id: (52, 52) int64: the hole id of two card indices.

    """

    table: I64
    canon: I64
    inverse: I64
    hole_id: I64


def build_flop_table(
    rules: RuleSet, progress: Callable[[int, int], None] | None = None, batch: int = 8
) -> npt.NDArray[np.int8]:
    """The optimal flop decisions of ``rules``, by the exact analysis' kernel.

    Returns:
        int8 array (1755, 1326): the flop Play multiple (0 = check) of each hole id
        on each canonical flop; holes that share a card with the flop are 0.

    """
    params = game_params(rules)
    deck = analysis_deck()
    n_flops = deck.flops.shape[0]
    out = np.zeros((n_flops, deck.n_holes), dtype=np.int8)
    for start in range(0, n_flops, batch):
        chunk = np.arange(start, min(start + batch, n_flops))
        _, check, _ = flop_sums(params, deck, chunk)
        for f, m in enumerate(params.flop):
            raised = check[:, :, ak.CHECK_BASE + f] > 0
            out[chunk] = np.where(raised, m, out[chunk])
        if progress is not None:
            progress(int(chunk[-1]) + 1, n_flops)
    return out


def _file(rules: RuleSet) -> str:
    return f"flop-{decisions_fingerprint(rules)}.npz"


def _load(path: Path | object) -> npt.NDArray[np.int8] | None:
    try:
        with resources.as_file(path) as p, np.load(p) as data:  # type: ignore[arg-type]
            table: npt.NDArray[np.int8] = data["table"]
            return table
    except (OSError, KeyError):
        return None


def flop_table(rules: RuleSet) -> npt.NDArray[np.int8]:
    """The flop table of ``rules``: shipped, cached, or built now and cached."""
    shipped = resources.files("uth.analysis.sim").joinpath("data", _file(rules))
    if shipped.is_file():
        table = _load(shipped)
        if table is not None:
            return table
    cached = cache_dir() / _file(rules)
    if cached.is_file():
        table = _load(cached)
        if table is not None:
            return table
    table = build_flop_table(rules)
    with contextlib.suppress(OSError):
        cached.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(cached, table=table)
    return table


@cache
def _maps() -> tuple[I64, I64, I64]:
    deck = analysis_deck()
    perms = deck.suit_perms  # positions = card indices in the full deck
    inverse = np.argsort(perms, axis=1).astype(np.int64)
    canon = np.full((52, 52, 52), -1, dtype=np.int64)
    for f, flop in enumerate(deck.flops):
        for g in deck.orbits[f]:
            a, b, c = (int(perms[g][p]) for p in flop)
            for x, y, z in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)):
                canon[x, y, z] = f * 32 + int(g)
    return canon, inverse, deck.hole_id


def lookup(rules: RuleSet) -> FlopLookup:
    """The :class:`FlopLookup` of ``rules`` (builds the table if it is not known)."""
    canon, inverse, hole_id = _maps()
    return FlopLookup(flop_table(rules).astype(np.int64), canon, inverse, hole_id)


def main(argv: list[str]) -> None:
    """``python -m uth.analysis.sim.flop_table PRESET [OUT_DIR]``: build and save a table."""
    rules = preset(argv[0])
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).parent / "data"
    out.mkdir(parents=True, exist_ok=True)
    table = build_flop_table(rules, lambda d, n: print(f"\r{d}/{n}", end="", file=sys.stderr))
    np.savez_compressed(out / _file(rules), table=table)
    print(f"\n{out / _file(rules)}: {int((table > 0).sum())} raising (flop, hole) pairs")


if __name__ == "__main__":
    main(sys.argv[1:])
