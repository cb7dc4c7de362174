"""The part of a rule set that changes the game's math, as exact integers.

Only these fields of a :class:`~uth.rules.RuleSet` change the return to player:
the Blind, Trips and Bad Beat pay tables, the Play multiples at each decision,
the dealer's qualifier and ``folded_trips``. Limits, seats, banking, the deck
procedure and the payout cap do not (the figures are per unit Ante with one
deck shuffled every round; a player-dealer's bank limit and the payout cap are
ignored, see docs/math.md). :func:`fingerprint` hashes exactly these fields;
:func:`decisions_fingerprint` only those that change the optimal decisions.

Amounts are kept as integers: every Blind payout is scaled by ``blind_scale``
(the least common multiple of the Blind table's odds denominators, 2 for the
default 3:2 flush), every Trips amount by ``trips_scale`` and every Bad Beat
amount by ``bad_beat_scale``, so that every sum in the analysis is an exact
integer and decisions compare exact integers.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from uth.evaluator import CATEGORY_SHIFT, Category
from uth.rules import RuleSet
from uth.rules.model import PayTable

#: Bumped whenever the analysis method or its result layout changes, so that
#: cached results of an older version are not reused.
ANALYSIS_VERSION = 1

IntArray = npt.NDArray[np.int64]


def _scale(table: PayTable) -> int:
    return math.lcm(1, *(odds.per for odds in table.values()))


def _wins(table: PayTable, scale: int) -> IntArray:
    """Winnings per category (10 entries), times ``scale``; 0 where the table does not pay."""
    out = np.zeros(len(Category), dtype=np.int64)
    for category, odds in table.items():
        out[int(category)] = int(odds.ratio * scale)
    return out


@dataclass(frozen=True, eq=False)
class GameParams:
    """The math-relevant rules as integer arrays for the numba kernels.

    Attributes:
        blind_scale: S, the unit of every main-game amount (1 Ante = S).
        blind_win: Blind winnings per player category, times S, shape (10,);
            0 means a push on a win (below a straight by default).
        pre_flop, flop, river: the Play multiples allowed at each decision,
            descending (RULES.md, "Wagers").
        qualify_value: the smallest hand value that qualifies the dealer
            (``dealer_qualifier << CATEGORY_SHIFT``; a pair by default).
        trips_scale: T, the unit of Trips amounts.
        trips_net: Trips result per category of the hand it is settled on, times
            T: the winnings, or -T where the table does not pay; shape (10,).
        board_only: ``folded_trips == "board_only"`` (002): a folded hand's Trips
            is settled on the board alone.
        bad_beat: whether the rule set offers the Bad Beat Bonus.
        bad_beat_scale: B, the unit of Bad Beat amounts.
        bad_beat_win: Bad Beat winnings per category of the beaten hand, times B,
            0 where the table does not pay; shape (10,).

    """

    blind_scale: int
    blind_win: IntArray
    pre_flop: tuple[int, ...]
    flop: tuple[int, ...]
    river: tuple[int, ...]
    qualify_value: int
    trips_scale: int
    trips_net: IntArray
    board_only: bool
    bad_beat: bool
    bad_beat_scale: int
    bad_beat_win: IntArray
    math_fields: dict[str, Any]

    @property
    def blind_pays(self) -> dict[Category, Fraction]:
        """The Blind table as exact fractions per category (only paying categories)."""
        return {
            Category(c): Fraction(int(w), self.blind_scale)
            for c, w in enumerate(self.blind_win)
            if w
        }


def game_params(rules: RuleSet) -> GameParams:
    """The math-relevant part of ``rules`` (see the module docstring)."""
    blind_scale = _scale(rules.blind_pays)
    trips_scale = _scale(rules.trips_pays)
    trips_net = _wins(rules.trips_pays, trips_scale)
    trips_net[trips_net == 0] = -trips_scale
    bad_beat_scale = _scale(rules.bad_beat_pays)
    fields = rules.model_dump(
        mode="json",
        include={
            "blind_pays",
            "trips_pays",
            "bad_beat_pays",
            "play_multiples",
            "dealer_qualifier",
            "folded_trips",
        },
    )
    fields["trips_offered"] = rules.offers_trips
    fields["bad_beat_offered"] = rules.offers_bad_beat
    return GameParams(
        blind_scale=blind_scale,
        blind_win=_wins(rules.blind_pays, blind_scale),
        pre_flop=rules.play_multiples.pre_flop,
        flop=rules.play_multiples.flop,
        river=rules.play_multiples.river,
        qualify_value=int(rules.dealer_qualifier) << CATEGORY_SHIFT,
        trips_scale=trips_scale,
        trips_net=trips_net,
        board_only=rules.folded_trips == "board_only",
        bad_beat=bool(rules.bad_beat_pays),
        bad_beat_scale=bad_beat_scale,
        bad_beat_win=_wins(rules.bad_beat_pays, bad_beat_scale),
        math_fields=fields,
    )


def fingerprint(rules: RuleSet) -> str:
    """A 16-hex-digit hash of the fields of ``rules`` that change the math.

    Rule sets with the same fingerprint have the same figures (the presets
    ``casino``, ``california`` and ``live`` share one). The analysis version is
    part of the hash.
    """
    fields = game_params(rules).math_fields
    text = json.dumps({"version": ANALYSIS_VERSION, **fields}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def decisions_fingerprint(rules: RuleSet) -> str:
    """A 16-hex-digit hash of the fields of ``rules`` that change the optimal
    decisions: the Blind table, the Play multiples and the dealer's qualifier.

    The side bets never change a decision (docs/math.md, "The game the figures
    describe"), so ``california-bad-beat`` shares the decisions of ``casino``.
    """
    fields = rules.model_dump(
        mode="json", include={"blind_pays", "play_multiples", "dealer_qualifier"}
    )
    text = json.dumps({"version": ANALYSIS_VERSION, "decisions": fields}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
