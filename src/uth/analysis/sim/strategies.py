"""Player strategies for the simulation: data where they are rules, a callable otherwise.

A :class:`Strategy` is a pre-flop chart (the Play multiple of each of the 169
starting hands, 0 to check) and a rule for the flop and one for the river, all
run inside the numba kernel. A :class:`CallableStrategy` wraps a Python function
(the slow path: the kernel deals and settles, Python decides).

Presets (:func:`strategy`):

* ``practical``: the well-known simple strategy card (Wizard of Odds, "Ultimate
  Texas Hold 'Em", simple strategy): 4x with 33+, any ace, K2s+, K5o+, Q6s+,
  Q8o+, J8s+, JTo; on the flop 2x with two pair or better, a hidden pair
  (a hole card pairs the flop, or a pocket pair) except pocket deuces, or four
  to a flush with a hidden ten or better of that suit; at the river 1x with a
  hand of a higher category than the board's alone (a hidden pair or better) or
  when fewer than 21 dealer outs beat you: an out is one of the 45 unseen cards
  that, added to the board, makes a six-card hand beating the player's.
* ``always-4x``: the largest pre-flop multiple with every hand.
* ``never-raise``: check pre-flop and on the flop, then the smallest river Play.
* ``optimal``: pre-flop from the exact analysis' table of the 169 starting hands
  (:func:`optimal_pre_flop`); the flop from a table of the exact analysis' flop
  decisions per (canonical flop, hole) (:mod:`uth.analysis.sim.flop_table`; exact
  counting on the spot is the alternative, ``flop="exact"``, a thousand times
  slower); the river by exact counting on the spot (every dealer hole of the 45
  cards the player cannot see; card removal of the player's own cards only, as
  each player sees only their own hand).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from uth.analysis.sim import kernel as k
from uth.errors import UthError
from uth.rules import RuleSet

RANKS = "23456789TJQKA"
#: The practical card's 4x hands (Wizard of Odds' simple strategy).
PRACTICAL_RAISES: tuple[str, ...] = (
    "33+",
    "A2s+",
    "A2o+",
    "K2s+",
    "K5o+",
    "Q6s+",
    "Q8o+",
    "J8s+",
    "JTo",
)
#: The practical card's river threshold: Play when fewer dealer outs beat you.
PRACTICAL_OUTS = 21
#: The practical card's flop flush draw needs a hidden ten or better (rank index).
PRACTICAL_FLUSH_KICKER = RANKS.index("T")

FlopRule = Literal["never", "always", "practical", "exact", "table"]
RiverRule = Literal["fold", "always", "practical", "exact"]
_FLOP = {"never": k.FLOP_NEVER, "always": k.FLOP_ALWAYS, "practical": k.FLOP_PRACTICAL}
_FLOP["exact"] = k.FLOP_EXACT
_FLOP["table"] = k.FLOP_TABLE
_RIVER = {"fold": k.RIVER_FOLD, "always": k.RIVER_ALWAYS, "practical": k.RIVER_PRACTICAL}
_RIVER["exact"] = k.RIVER_EXACT

#: Names of the preset strategies.
STRATEGY_NAMES: tuple[str, ...] = ("optimal", "practical", "always-4x", "never-raise")


class StrategyError(UthError):
    """A strategy that cannot be built or used (unknown name, bad chart)."""


def _cell(hand: str) -> tuple[int, int]:
    """The chart cell of a starting hand ``AKs``, ``AKo`` or ``QQ`` (see kernel.pre_flop_index)."""
    if len(hand) == 2 and hand[0] == hand[1] and hand[0] in RANKS:
        r = RANKS.index(hand[0])
        return r, r
    if len(hand) == 3 and hand[0] in RANKS and hand[1] in RANKS and hand[2] in "so":
        hi, lo = RANKS.index(hand[0]), RANKS.index(hand[1])
        if hi > lo:
            return (hi, lo) if hand[2] == "s" else (lo, hi)
    raise StrategyError(f"strategy: not a starting hand such as AKs, AKo or QQ: {hand!r}")


def expand_range(item: str) -> list[str]:
    """The starting hands of one range item: ``33+`` (pairs from 33 up), ``K5o+``
    (K5o to KQo), ``JTo`` (one hand).

    Raises:
        StrategyError: not a starting hand or range.

    """
    if item.endswith("+"):
        base = item[:-1]
        _cell(base)
        if len(base) == 2:
            r = RANKS.index(base[0])
            return [RANKS[x] * 2 for x in range(r, 13)]
        hi, lo = RANKS.index(base[0]), RANKS.index(base[1])
        return [f"{base[0]}{RANKS[x]}{base[2]}" for x in range(lo, hi)]
    _cell(item)
    return [item]


def chart(raises: Mapping[str, int]) -> npt.NDArray[np.int64]:
    """The kernel's pre-flop chart (13, 13) from ``{starting hand: multiple}``; other
    hands check.
    """
    pre = np.zeros((13, 13), dtype=np.int64)
    for hand, multiple in raises.items():
        pre[_cell(hand)] = multiple
    return pre


@dataclass(frozen=True)
class Strategy:
    """A strategy the kernel plays: pre-flop chart, flop rule, river rule.

    Attributes:
        name: the strategy's name.
        pre_flop: ``{starting hand: Play multiple}`` of the hands that raise
            pre-flop (``"AKs": 4``); the others check.
        flop: ``never``, ``always`` (the largest flop multiple), ``practical``,
            ``exact`` (counting on the spot) or ``table`` (the exact analysis'
            decisions, :mod:`uth.analysis.sim.flop_table`).
        river: ``fold``, ``always`` (the largest river multiple), ``practical`` or
            ``exact``.
        outs: the practical river rule's threshold of dealer outs.
        flush_kicker: the practical flop rule's lowest hidden flush card (rank
            index, 0 deuce .. 12 ace).

    """

    name: str
    pre_flop: Mapping[str, int] = field(default_factory=dict)
    flop: FlopRule = "never"
    river: RiverRule = "always"
    outs: int = PRACTICAL_OUTS
    flush_kicker: int = PRACTICAL_FLUSH_KICKER

    def arrays(self, rules: RuleSet) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The kernel's ``pre`` chart and ``rule`` array for this rule set.

        Raises:
            StrategyError: a pre-flop multiple the rule set does not offer.

        """
        offered = rules.play_multiples.pre_flop
        for hand, multiple in self.pre_flop.items():
            if multiple not in offered:
                raise StrategyError(
                    f"strategy {self.name!r}: {hand} raises {multiple}x, rule set "
                    f"{rules.name!r} offers {', '.join(f'{m}x' for m in offered)} pre-flop"
                )
        rule = np.zeros(k.RULE_COUNT, dtype=np.int64)
        rule[k.RULE_FLOP] = _FLOP[self.flop]
        rule[k.RULE_RIVER] = _RIVER[self.river]
        rule[k.RULE_OUTS] = self.outs
        rule[k.RULE_FLUSH_KICKER] = self.flush_kicker
        return chart(self.pre_flop), rule


def _all_hands() -> list[str]:
    out = [r * 2 for r in RANKS]
    for hi in range(13):
        for lo in range(hi):
            out += [f"{RANKS[hi]}{RANKS[lo]}s", f"{RANKS[hi]}{RANKS[lo]}o"]
    return out


#: The 169 starting hands.
STARTING_HANDS: tuple[str, ...] = tuple(_all_hands())


def _raising(items: Iterable[str], multiple: int) -> dict[str, int]:
    return {hand: multiple for item in items for hand in expand_range(item)}


def practical_strategy(rules: RuleSet) -> Strategy:
    """The practical card (module docstring) with the rule set's largest multiples."""
    top = rules.play_multiples.pre_flop[0]
    return Strategy("practical", _raising(PRACTICAL_RAISES, top), "practical", "practical")


def optimal_strategy(
    pre_flop: Mapping[str, int], name: str = "optimal", flop: FlopRule = "table"
) -> Strategy:
    """The optimal strategy: the given pre-flop table (``{starting hand: multiple}``
    of the raising hands, from the exact analysis); the flop from the exact
    analysis' table of flop decisions (``flop="table"``) or by exact counting on the
    spot (``"exact"``, about 3 ms a decision); the river by exact counting.
    """
    return Strategy(name, dict(pre_flop), flop, "exact")


def strategy(name: str, rules: RuleSet, pre_flop: Mapping[str, int] | None = None) -> Strategy:
    """A preset strategy by name (:data:`STRATEGY_NAMES`).

    Args:
        name: ``optimal``, ``practical``, ``always-4x`` or ``never-raise``.
        rules: the rule set (its Play multiples).
        pre_flop: for ``optimal``, the pre-flop table from the exact analysis
            (``{starting hand: multiple}`` of the raising hands).

    Raises:
        StrategyError: an unknown name, or ``optimal`` without a pre-flop table.

    """
    if name == "practical":
        return practical_strategy(rules)
    if name == "always-4x":
        top = rules.play_multiples.pre_flop[0]
        return Strategy(name, dict.fromkeys(STARTING_HANDS, top), "never", "always")
    if name == "never-raise":
        return Strategy(name, {}, "never", "always")
    if name == "optimal":
        if pre_flop is None:
            raise StrategyError(
                "strategy: 'optimal' needs the exact analysis' pre-flop table (uth.analysis)"
            )
        return optimal_strategy(pre_flop)
    raise StrategyError(f"strategy: unknown strategy {name!r} (one of {', '.join(STRATEGY_NAMES)})")


#: A Python strategy: ``(street, hole, board) -> Play multiple`` (0 = check, or
#: fold at the river). ``street`` is ``pre_flop``, ``flop`` or ``river``; ``hole``
#: the two card indices; ``board`` the community cards the player sees (0, 3 or 5
#: card indices).
Decider = Callable[[str, tuple[int, int], tuple[int, ...]], int]


@dataclass(frozen=True)
class CallableStrategy:
    """A user-supplied Python strategy (the slow path: one call per decision).

    Attributes:
        name: a name for reports.
        decide: the :data:`Decider`.

    """

    name: str
    decide: Decider

    def decisions(
        self, cards: npt.NDArray[np.int64], seats: int, rules: RuleSet
    ) -> npt.NDArray[np.int64]:
        """The kernel's ``given`` array (rounds, 2 * seats) of (street, multiple) per
        seat for the dealt ``cards`` (rounds, 2 * dealt + 7), as the kernel deals them.

        Raises:
            StrategyError: a multiple the rule set does not offer at that street.

        """
        dealt = (cards.shape[1] - 7) // 2
        streets = (
            ("pre_flop", rules.play_multiples.pre_flop, 0),
            ("flop", rules.play_multiples.flop, 3),
            ("river", rules.play_multiples.river, 5),
        )
        out = np.zeros((cards.shape[0], 2 * seats), dtype=np.int64)
        for i, row in enumerate(cards.tolist()):
            board = tuple(row[2 * dealt + 2 :])
            for s in range(seats):
                c = s if dealt > 1 else 0
                hole = (row[2 * c], row[2 * c + 1])
                for st, (street, offered, seen) in enumerate(streets):
                    m = int(self.decide(street, hole, board[:seen]))
                    if m and m not in offered:
                        raise StrategyError(
                            f"strategy {self.name!r}: {m}x is not offered on the {street} "
                            f"(one of {', '.join(map(str, offered))}, or 0)"
                        )
                    if m or street == "river":
                        out[i, 2 * s] = st
                        out[i, 2 * s + 1] = m
                        break
        return out


def optimal_pre_flop(rules: RuleSet) -> dict[str, int]:
    """The exact analysis' optimal pre-flop table of ``rules`` (issue 10,
    ``uth.analysis``): ``{starting hand: Play multiple}`` of the hands that raise.

    The table is the shipped or cached result when the rule set's math is known,
    otherwise :func:`uth.analysis.cache.result_for` computes it (about half a
    minute).
    """
    from uth.analysis.cache import result_for

    result = result_for(rules)
    out: dict[str, int] = {}
    for hand, entry in result.pre_flop.items():
        best = str(entry.best)
        if best != "check":
            out[hand] = int(best.removeprefix("raise_").removesuffix("x"))
    return out
