"""The figures of an exact analysis and their JSON form.

Every figure is an exact :class:`~fractions.Fraction` (probabilities and returns
as fractions of one, not percent), except the standard deviation (a square
root, float64). Money figures are per unit Ante: the house edge is the
expected loss per Ante, positive for the house.

Definitions (docs/math.md, "Figures"):

- return to player on the initial bet = 1 - house edge: the "initial main bet"
  of seed 004 is the Ante (its 97.82% is 1 - 2.185%);
- average total bet = Ante + Blind + the expected Play (in Antes);
- element of risk = house edge / average total bet; return to player on the
  total bet = 1 - element of risk (seed 004's 99.47%);
- win / tie / loss: the player's hand against the dealer's at showdown; a fold
  is a loss;
- the wagers' figures are the expected result of the Ante, the Blind and the
  Play per Ante; they add up to minus the house edge.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from uth.evaluator import Category


@dataclass(frozen=True)
class PreFlopHand:
    """The exact EV per Ante of each pre-flop action for one starting hand.

    Attributes:
        combos: the number of hole-card combinations of the class (6, 4 or 12
            in the full deck).
        check: EV of checking (then the best flop and river decisions).
        raise_ev: EV of a Play of each pre-flop multiple, by multiple.

    """

    combos: int
    check: Fraction
    raise_ev: dict[int, Fraction]

    @property
    def best(self) -> str:
        """The optimal action: ``raise_4x`` ... or ``check`` (ties: the smaller wager)."""
        best, action = self.check, "check"
        for m in sorted(self.raise_ev):
            if self.raise_ev[m] > best:
                best, action = self.raise_ev[m], f"raise_{m}x"
        return action

    @property
    def raise_minus_check(self) -> Fraction:
        """EV of the largest raise minus EV of checking."""
        return self.raise_ev[max(self.raise_ev)] - self.check


@dataclass(frozen=True)
class AnalysisResult:
    """The exact figures of one rule set (see the module docstring).

    Attributes:
        rules_name: the rule set's name when it was analysed.
        fingerprint: :func:`uth.analysis.params.fingerprint` of the rule set.
        deck: the deck in words (``52 cards``).
        deals: the number of deals enumerated (player hole, flop, turn and
            river, dealer hole).
        ev: the player's expected result per Ante of the main game (Ante, Blind, Play).
        second_moment: E[result^2] per Ante squared.
        average_total_bet: Ante + Blind + expected Play, in Antes.
        frequencies: probability of each raise, by street and multiple:
            ``{"pre_flop": {4: p, 3: p}, "flop": {2: p}, "river": {1: p}}``.
        fold: probability of folding at the river.
        win, tie, loss: outcome probabilities (a fold is a loss).
        ante, blind, play: expected result of each wager per Ante.
        trips: (return to player, hit frequency) of Trips, or None when not offered.
        bad_beat: (return to player, hit frequency) of the Bad Beat Bonus under
            the main game's optimal strategy, or None when not offered.
        categories: deals per category of the player's 7-card hand (index =
            :class:`~uth.evaluator.Category`), a check on the enumeration.
        pre_flop: the pre-flop EV table of the starting hands (169 in the full deck).
        flop_sums: per canonical flop, in deck order, the checksums of its
            per-hole sums (:data:`uth.analysis.kernel.FLOP_SUMS`), for
            recomputing a sample of flops against a stored result.
        elapsed_s: wall-clock seconds the analysis took.

    """

    rules_name: str
    fingerprint: str
    deck: str
    deals: int
    ev: Fraction
    second_moment: Fraction
    average_total_bet: Fraction
    frequencies: dict[str, dict[int, Fraction]]
    fold: Fraction
    win: Fraction
    tie: Fraction
    loss: Fraction
    ante: Fraction
    blind: Fraction
    play: Fraction
    trips: tuple[Fraction, Fraction] | None
    bad_beat: tuple[Fraction, Fraction] | None
    categories: tuple[int, ...]
    pre_flop: dict[str, PreFlopHand]
    flop_sums: tuple[tuple[int, ...], ...] = field(repr=False)
    elapsed_s: float = 0.0

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per Ante (positive for the house)."""
        return -self.ev

    @property
    def element_of_risk(self) -> Fraction:
        """House edge per average total bet."""
        return self.house_edge / self.average_total_bet

    @property
    def rtp_initial_bet(self) -> Fraction:
        """Return to player on the initial main bet (the Ante): 1 - house edge."""
        return 1 - self.house_edge

    @property
    def rtp_total_bet(self) -> Fraction:
        """Return to player on the total main bet: 1 - element of risk."""
        return 1 - self.element_of_risk

    @property
    def std_dev(self) -> float:
        """Standard deviation of the main game's result per Ante."""
        return math.sqrt(self.second_moment - self.ev * self.ev)

    def raise_frequency(self, multiple: int) -> Fraction:
        """Probability of a Play of ``multiple`` Antes at any street."""
        return sum(
            (street.get(multiple, Fraction(0)) for street in self.frequencies.values()),
            start=Fraction(0),
        )

    def summary(self, *, elapsed_s: float | None = None) -> dict[str, Any]:
        """The figures as the JSON object of ``uth analyze --json`` (floats, fractions of one)."""
        multiples = sorted(
            {m for street in self.frequencies.values() for m in street} | {1, 2, 3, 4},
            reverse=True,
        )
        return {
            "house_edge": float(self.house_edge),
            "element_of_risk": float(self.element_of_risk),
            "rtp_initial_bet": float(self.rtp_initial_bet),
            "rtp_total_bet": float(self.rtp_total_bet),
            "average_total_bet": float(self.average_total_bet),
            "std_dev": self.std_dev,
            "frequencies": {
                **{f"raise_{m}x": float(self.raise_frequency(m)) for m in multiples},
                "fold": float(self.fold),
            },
            "outcomes": {"win": float(self.win), "tie": float(self.tie), "loss": float(self.loss)},
            "wagers": {
                "ante": float(self.ante),
                "blind": float(self.blind),
                "play": float(self.play),
            },
            "trips": None
            if self.trips is None
            else {"rtp": float(self.trips[0]), "hit_frequency": float(self.trips[1])},
            "bad_beat": None
            if self.bad_beat is None
            else {"rtp": float(self.bad_beat[0]), "hit_frequency": float(self.bad_beat[1])},
            "elapsed_s": round(self.elapsed_s if elapsed_s is None else elapsed_s, 3),
        }

    def to_json(self) -> dict[str, Any]:
        """The whole result, exact (fractions as ``"num/den"`` strings), for the cache."""

        def fr(x: Fraction) -> str:
            return f"{x.numerator}/{x.denominator}"

        def pair(p: tuple[Fraction, Fraction] | None) -> list[str] | None:
            return None if p is None else [fr(p[0]), fr(p[1])]

        return {
            "rules_name": self.rules_name,
            "fingerprint": self.fingerprint,
            "deck": self.deck,
            "deals": self.deals,
            "ev": fr(self.ev),
            "second_moment": fr(self.second_moment),
            "average_total_bet": fr(self.average_total_bet),
            "frequencies": {
                street: {str(m): fr(p) for m, p in counts.items()}
                for street, counts in self.frequencies.items()
            },
            "fold": fr(self.fold),
            "win": fr(self.win),
            "tie": fr(self.tie),
            "loss": fr(self.loss),
            "ante": fr(self.ante),
            "blind": fr(self.blind),
            "play": fr(self.play),
            "trips": pair(self.trips),
            "bad_beat": pair(self.bad_beat),
            "categories": {Category(c).key: n for c, n in enumerate(self.categories)},
            "pre_flop": {
                name: {
                    "combos": hand.combos,
                    "check": fr(hand.check),
                    **{f"raise_{m}x": fr(ev) for m, ev in hand.raise_ev.items()},
                }
                for name, hand in self.pre_flop.items()
            },
            "flop_sums": [list(row) for row in self.flop_sums],
            "elapsed_s": round(self.elapsed_s, 3),
            "summary": self.summary(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AnalysisResult:
        """Read :meth:`to_json` back.

        Raises:
            KeyError, ValueError: the data is not a stored result.

        """

        def pair(p: list[str] | None) -> tuple[Fraction, Fraction] | None:
            return None if p is None else (Fraction(p[0]), Fraction(p[1]))

        pre_flop = {}
        for name, row in data["pre_flop"].items():
            raises = {
                int(key[len("raise_") : -1]): Fraction(value)
                for key, value in row.items()
                if key.startswith("raise_")
            }
            pre_flop[name] = PreFlopHand(
                combos=int(row["combos"]), check=Fraction(row["check"]), raise_ev=raises
            )
        return cls(
            rules_name=data["rules_name"],
            fingerprint=data["fingerprint"],
            deck=data["deck"],
            deals=int(data["deals"]),
            ev=Fraction(data["ev"]),
            second_moment=Fraction(data["second_moment"]),
            average_total_bet=Fraction(data["average_total_bet"]),
            frequencies={
                street: {int(m): Fraction(p) for m, p in counts.items()}
                for street, counts in data["frequencies"].items()
            },
            fold=Fraction(data["fold"]),
            win=Fraction(data["win"]),
            tie=Fraction(data["tie"]),
            loss=Fraction(data["loss"]),
            ante=Fraction(data["ante"]),
            blind=Fraction(data["blind"]),
            play=Fraction(data["play"]),
            trips=pair(data["trips"]),
            bad_beat=pair(data["bad_beat"]),
            categories=tuple(int(data["categories"][c.key]) for c in Category),
            pre_flop=pre_flop,
            flop_sums=tuple(tuple(int(x) for x in row) for row in data["flop_sums"]),
            elapsed_s=float(data.get("elapsed_s", 0.0)),
        )

    def dumps(self) -> str:
        """:meth:`to_json` as compact JSON text."""
        return json.dumps(self.to_json(), separators=(",", ":"))
