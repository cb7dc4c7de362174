"""Wagers of one hand and their validation against a rule set."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from uth.errors import InvalidWagerError
from uth.money import ZERO, parse_amount
from uth.rules import Limit, RuleSet

WagerKind = Literal["ante", "blind", "play", "trips", "bad_beat"]
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
    for amount, limit, name, label in (
        (t, rules.trips, "trips", "Trips"),
        (bb, rules.bad_beat, "bad_beat", "the Bad Beat Bonus"),
    ):
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
