"""Money: ``Decimal`` amounts in currency units with two decimal places.

RULES.md, "Presets": money has two decimal places. Amounts are never floats
inside uth. Every amount that comes from outside (a WebSocket command, an HTTP
body, ``uth play``, ``uth settle``, a rule-set file) is read by one parser,
:func:`parse_amount`: a plain decimal with at most two places.
"""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, Decimal

from uth.errors import InvalidWagerError

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
#: The largest amount accepted anywhere (a wager, a bank, a balance adjustment):
#: it fits a ``Numeric(14, 2)`` column exactly (our choice).
MAX_AMOUNT = Decimal("999999999999.99")

#: A plain decimal: ASCII digits, an optional minus sign, at most two places.
#: No blanks, no exponent, no ``+``, no ``NaN`` or ``Infinity``, no ``.5`` or ``5.``.
_PLAIN = re.compile(r"-?[0-9]+(?:\.[0-9]{1,2})?")
_PLACES = re.compile(r"-?[0-9]+\.[0-9]+")
_SHOW_MAX = 40


def _shown(value: object) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= _SHOW_MAX else text[: _SHOW_MAX - 3] + "..."


class WrittenNumber(Decimal):
    """A JSON number that keeps the text the client wrote: ``json.loads(text,
    parse_float=WrittenNumber)``.

    It is a ``Decimal`` (``1e3`` equals 1000) whose ``str`` is the text as written,
    so that :func:`parse_amount` refuses ``1e3`` and echoes it as ``1e3``, not as
    ``1E+3`` (issue 8: a user trial). Arithmetic gives plain ``Decimal``.
    """

    __slots__ = ("_text",)

    _text: str

    def __new__(cls, text: str) -> WrittenNumber:
        """The number written as ``text`` (a JSON number with a fraction or an exponent)."""
        number = super().__new__(cls, text)
        number._text = text
        return number

    def __str__(self) -> str:
        return self._text


def parse_amount(value: object, *, field: str = "amount", allow_negative: bool = False) -> Decimal:
    """Read an amount: a plain decimal with at most two places, as a two-place ``Decimal``.

    The one parser of amounts in uth (issue 7, item 5). Accepted: an ``int``; a
    ``str`` or ``Decimal`` written as a plain decimal (``"10"``, ``"12.5"``,
    ``"-3.25"``); a ``float`` whose shortest text is one (``12.5``: JSON numbers
    decoded by a library that gives floats).

    Args:
        value: the amount as given.
        field: the input field's name, for the error message.
        allow_negative: accept a negative amount (an operator's debit).

    Returns:
        The amount with exactly two decimal places (``Decimal("10.00")``).

    Raises:
        InvalidWagerError: a boolean, ``None`` or other type; text with blanks, an
            exponent (``"1e2"``), a sign ``+``, ``NaN`` or ``Infinity``; more than
            two decimal places (``"5.001"``, ``"5.000"``); a negative amount unless
            ``allow_negative``; more than :data:`MAX_AMOUNT`. The message names
            ``field`` and the value.

    """
    if isinstance(value, bool) or not isinstance(value, int | str | Decimal | float):
        raise InvalidWagerError(
            f"{field}: expected an amount such as 10 or 12.50, got {_shown(value)}", field=field
        )
    text = repr(value).removesuffix(".0") if isinstance(value, float) else str(value)
    if not _PLAIN.fullmatch(text):
        if _PLACES.fullmatch(text):
            raise InvalidWagerError(
                f"{field}: amounts have at most two decimal places, got {_shown(value)}",
                field=field,
            )
        raise InvalidWagerError(
            f"{field}: expected a plain decimal amount such as 10 or 12.50, got {_shown(value)}",
            field=field,
        )
    amount = Decimal(text)
    if amount < 0 and not allow_negative:
        raise InvalidWagerError(f"{field}: must not be negative, got {_shown(value)}", field=field)
    if abs(amount) > MAX_AMOUNT:
        raise InvalidWagerError(
            f"{field}: amounts are at most {MAX_AMOUNT}, got {_shown(value)}", field=field
        )
    amount = amount.quantize(CENT)
    return amount if amount else ZERO  # ZERO, not Decimal("-0.00"), for "-0"


def cents(amount: Decimal) -> Decimal:
    """Round an amount down to whole cents (fractions of a cent are never paid; our choice)."""
    return amount.quantize(CENT, rounding=ROUND_DOWN)


def money_json(amount: Decimal) -> int | float:
    """An amount as a JSON number: an int when whole (``10``), else a float (``7.5``)."""
    if amount == amount.to_integral_value():
        return int(amount)
    return float(amount)
