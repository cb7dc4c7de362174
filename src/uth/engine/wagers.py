"""Wagers of one hand and their validation against a rule set."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from uth.errors import InvalidWagerError
from uth.money import ZERO, parse_amount
from uth.rules import Limit, RuleSet

WagerKind = Literal["ante", "blind", "play", "trips", "bad_beat"]
#: The spots a player puts chips on before the deal (the Blind follows the Ante).
BetSpot = Literal["ante", "trips", "bad_beat"]
#: The layout order of a seat's wagers, which is also their settlement order
#: (RULES.md, "Who banks").
LAYOUT_ORDER: tuple[WagerKind, ...] = ("ante", "blind", "play", "trips", "bad_beat")
#: The wagers placed before the deal (Play comes later).
INITIAL_WAGERS: tuple[WagerKind, ...] = ("ante", "blind", "trips", "bad_beat")


@dataclass(frozen=True, slots=True)
class Wagers:
    """The wagers placed before the deal, in currency units.

    Attributes:
        ante: the Ante (required).
        blind: the Blind, equal to the Ante (required).
        trips: the optional Trips wager, 0 when not placed.
        bad_beat: the optional Bad Beat Bonus wager (002), 0 when not placed.

    """

    ante: Decimal
    blind: Decimal
    trips: Decimal = ZERO
    bad_beat: Decimal = ZERO

    @property
    def total(self) -> Decimal:
        """The sum of the four wagers."""
        return self.ante + self.blind + self.trips + self.bad_beat

    def get(self, kind: WagerKind) -> Decimal:
        """The amount of one initial wager (``play`` is not one: it raises KeyError)."""
        if kind == "play":
            raise KeyError(kind)
        amount: Decimal = getattr(self, kind)
        return amount


def spot_limit(rules: RuleSet, spot: BetSpot) -> Limit | None:
    """The limits of a betting spot (currency units), or None when the rule set does
    not offer it (Trips and the Bad Beat Bonus are optional; 002).
    """
    return {"ante": rules.ante, "trips": rules.trips, "bad_beat": rules.bad_beat}[spot]


def spot_max(rules: RuleSet, spot: BetSpot, ante: Decimal) -> Decimal | None:
    """The most a spot may take beside an Ante of ``ante``: its maximum, and for Trips
    and the Bad Beat Bonus no more than the Ante where the rule set says so
    (``side_bets_not_above_ante``, 002). None when the spot is not offered.
    """
    limit = spot_limit(rules, spot)
    if limit is None:
        return None
    if spot != "ante" and rules.side_bets_not_above_ante:
        return min(limit.max, ante)
    return limit.max


def least_play(rules: RuleSet, ante: Decimal) -> Decimal:
    """The smallest Play wager the river offers a hand with this Ante (1x in every
    seed): a player whose funds do not cover it may only fold at the river
    (RULES.md, "Online table"; see ``Round.legal_actions``).
    """
    return ante * min(rules.play_multiples.river)


def _check_limit(amount: Decimal, limit: Limit, field: str, label: str) -> None:
    if not limit.min <= amount <= limit.max:
        raise InvalidWagerError(
            f"{field}: {label} must be between {limit.min} and {limit.max}, got {amount}",
            field=field,
        )


def validate_wagers(
    rules: RuleSet,
    *,
    ante: object,
    blind: object | None = None,
    trips: object = 0,
    bad_beat: object = 0,
    field: str = "wagers",
) -> Wagers:
    """Check a hand's initial wagers against a rule set and return them as :class:`Wagers`.

    Args:
        rules: the table's rule set.
        ante, blind, trips, bad_beat: amounts (int, str, Decimal or float) in currency
            units; ``blind=None`` means "equal to the Ante" (placed automatically, 004).
        field: prefix for the field names in error messages.

    Raises:
        InvalidWagerError: an amount is negative or a fraction of a cent; the Ante is
            outside its limits; the Blind differs from the Ante; Trips or Bad Beat is
            not offered, outside its limits, or above the Ante where the rule set
            forbids it (002). The message names the field and the value.

    """
    a = parse_amount(ante, field=f"{field}.ante")
    b = a if blind is None else parse_amount(blind, field=f"{field}.blind")
    t = parse_amount(trips, field=f"{field}.trips")
    bb = parse_amount(bad_beat, field=f"{field}.bad_beat")
    _check_limit(a, rules.ante, f"{field}.ante", "the Ante")
    if b != a:
        raise InvalidWagerError(
            f"{field}.blind: the Blind must equal the Ante ({a}), got {b}", field=f"{field}.blind"
        )
    side: tuple[tuple[Decimal, BetSpot, str], ...] = (
        (t, "trips", "Trips"),
        (bb, "bad_beat", "the Bad Beat Bonus"),
    )
    for amount, name, label in side:
        limit = spot_limit(rules, name)
        if amount == 0:
            continue
        if limit is None:
            raise InvalidWagerError(
                f"{field}.{name}: {label} is not offered by rule set {rules.name!r}, got {amount}",
                field=f"{field}.{name}",
            )
        _check_limit(amount, limit, f"{field}.{name}", label)
        if rules.side_bets_not_above_ante and amount > a:
            raise InvalidWagerError(
                f"{field}.{name}: {label} may not exceed the Ante ({a}), got {amount}",
                field=f"{field}.{name}",
            )
    return Wagers(a, b, t, bb)
