"""Money: ``Decimal`` amounts in currency units with two decimal places.

RULES.md, "Presets": money has two decimal places. Amounts are never floats
inside uth; JSON numbers are read through ``str`` so that ``0.1`` stays 0.1.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal, InvalidOperation

from uth.errors import InvalidWagerError

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def to_money(value: object, *, field: str = "amount", allow_negative: bool = False) -> Decimal:
    """Convert an int, str, Decimal or float to a two-decimal ``Decimal``.

    Raises:
        InvalidWagerError: not a number, not finite, a fraction of a cent, or
            negative (unless ``allow_negative``); the message names ``field``.

    """
    if isinstance(value, bool):
        raise InvalidWagerError(f"{field}: expected an amount, got {value!r}", field=field)
    try:
        amount = Decimal(str(value)) if isinstance(value, int | float | str) else value
    except InvalidOperation:
        amount = None
    if not isinstance(amount, Decimal) or not amount.is_finite():
        raise InvalidWagerError(f"{field}: expected an amount, got {value!r}", field=field)
    try:
        whole = amount.quantize(CENT, rounding=ROUND_DOWN)
    except InvalidOperation:  # more digits than the decimal context holds (e.g. 1e30)
        raise InvalidWagerError(f"{field}: amount too large, got {value!r}", field=field) from None
    if amount != whole:
        raise InvalidWagerError(f"{field}: amounts are in whole cents, got {value!r}", field=field)
    if amount < 0 and not allow_negative:
        raise InvalidWagerError(f"{field}: must not be negative, got {value!r}", field=field)
    return whole if whole else ZERO  # ZERO, not Decimal("-0.00"), for "-0"


def cents(amount: Decimal) -> Decimal:
    """Round an amount down to whole cents (fractions of a cent are never paid; our choice)."""
    return amount.quantize(CENT, rounding=ROUND_DOWN)


def money_json(amount: Decimal) -> int | float:
    """An amount as a JSON number: an int when whole (``10``), else a float (``7.5``)."""
    if amount == amount.to_integral_value():
        return int(amount)
    return float(amount)
