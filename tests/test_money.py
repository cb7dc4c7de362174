"""Tests for uth.money: Decimal amounts with two decimal places."""

from __future__ import annotations

from decimal import Decimal

import pytest

from uth.errors import InvalidWagerError, UthError
from uth.money import CENT, ZERO, cents, money_json, to_money


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (5, "5.00"),
        (0, "0.00"),
        (1000, "1000.00"),
        ("5", "5.00"),
        ("7.5", "7.50"),
        ("0.01", "0.01"),
        ("12.340", "12.34"),
        (" 5 ", "5.00"),
        ("1e2", "100.00"),
        (Decimal("2.5"), "2.50"),
        (Decimal("3"), "3.00"),
        (0.1, "0.10"),
        (0.3, "0.30"),
        (2.67, "2.67"),
        (1e20, "100000000000000000000.00"),
    ],
)
def test_to_money_valid(value: object, expected: str) -> None:
    got = to_money(value)
    assert isinstance(got, Decimal)
    assert got == Decimal(expected)
    # Always exactly two decimal places.
    assert str(got) == expected
    assert got.as_tuple().exponent == -2


def test_float_tenth_stays_exact() -> None:
    # Decimal(0.1) would be 0.1000000000000000055511151231257827...; through str it is 0.1.
    assert to_money(0.1) == Decimal("0.10")
    assert to_money(0.1) + to_money(0.2) == Decimal("0.30")
    assert to_money(0.1) * 3 == to_money(0.3)


@pytest.mark.parametrize("value", ["0.001", "1.005", 1.005, 0.001, Decimal("5.001"), "10.999"])
def test_fraction_of_a_cent_is_rejected(value: object) -> None:
    with pytest.raises(InvalidWagerError, match=r"^amount: amounts are in whole cents") as info:
        to_money(value)
    assert info.value.field == "amount"


@pytest.mark.parametrize("value", [-1, "-0.01", Decimal("-5"), -2.5])
def test_negative_is_rejected_by_default(value: object) -> None:
    with pytest.raises(InvalidWagerError, match=r"^stake: must not be negative") as info:
        to_money(value, field="stake")
    assert info.value.field == "stake"


def test_negative_allowed_when_asked() -> None:
    assert to_money(-5, allow_negative=True) == Decimal("-5.00")
    assert str(to_money("-0.01", allow_negative=True)) == "-0.01"
    assert str(to_money(-2.5, allow_negative=True)) == "-2.50"


def test_negative_fraction_of_cent_still_rejected_when_negative_allowed() -> None:
    with pytest.raises(InvalidWagerError, match="whole cents"):
        to_money("-0.005", allow_negative=True)


def test_negative_zero_is_plain_zero() -> None:
    got = to_money("-0")
    assert got == ZERO
    assert str(got) == "0.00"
    assert str(to_money("-0.00", allow_negative=True)) == "0.00"


@pytest.mark.parametrize("value", [True, False])
def test_bool_is_not_an_amount(value: bool) -> None:
    with pytest.raises(InvalidWagerError, match=r"^wagers\.ante: expected an amount, got") as info:
        to_money(value, field="wagers.ante")
    assert info.value.field == "wagers.ante"
    assert repr(value) in str(info.value)


@pytest.mark.parametrize(
    "value",
    [
        float("nan"),
        float("inf"),
        float("-inf"),
        "NaN",
        "inf",
        "-Infinity",
        Decimal("NaN"),
        Decimal("sNaN"),
        Decimal("Infinity"),
        "abc",
        "",
        "5 dollars",
        "1,000",
        None,
        [5],
        {"amount": 5},
        b"5",
    ],
)
def test_not_a_finite_number(value: object) -> None:
    with pytest.raises(InvalidWagerError, match=r"^amount: expected an amount, got ") as info:
        to_money(value)
    assert info.value.field == "amount"
    assert info.value.code == "invalid_wager"


@pytest.mark.parametrize("value", ["1e30", 1e30, Decimal("1E+40"), "99999999999999999999999999999"])
def test_huge_amount_is_a_clear_error(value: object) -> None:
    # Regression: these used to escape as a raw decimal.InvalidOperation from quantize().
    with pytest.raises(InvalidWagerError, match=r"^amount: amount too large") as info:
        to_money(value)
    assert info.value.field == "amount"


def test_errors_are_value_errors() -> None:
    assert issubclass(InvalidWagerError, UthError)
    assert issubclass(InvalidWagerError, ValueError)
    with pytest.raises(ValueError):
        to_money("x")


def test_constants() -> None:
    assert str(CENT) == "0.01"
    assert str(ZERO) == "0.00"


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (Decimal("7.509"), "7.50"),
        (Decimal("7.5"), "7.50"),
        (Decimal("0.009"), "0.00"),
        (Decimal("-7.509"), "-7.50"),
        (Decimal("3"), "3.00"),
    ],
)
def test_cents_rounds_down(amount: Decimal, expected: str) -> None:
    assert str(cents(amount)) == expected


@pytest.mark.parametrize(
    ("amount", "expected", "kind"),
    [
        (Decimal("10.00"), 10, int),
        (Decimal("0"), 0, int),
        (Decimal("7.50"), 7.5, float),
        (Decimal("-2.25"), -2.25, float),
    ],
)
def test_money_json(amount: Decimal, expected: object, kind: type) -> None:
    got = money_json(amount)
    assert got == expected
    assert type(got) is kind
