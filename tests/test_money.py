"""Tests for uth.money: Decimal amounts with two decimal places, one parser."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from uth.errors import InvalidWagerError, UthError
from uth.money import CENT, MAX_AMOUNT, ZERO, WrittenNumber, cents, money_json, parse_amount


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (5, "5.00"),
        (0, "0.00"),
        (1000, "1000.00"),
        ("5", "5.00"),
        ("7.5", "7.50"),
        ("0.01", "0.01"),
        ("12.34", "12.34"),
        ("007", "7.00"),
        (Decimal("2.5"), "2.50"),
        (Decimal("3"), "3.00"),
        (Decimal("3.00"), "3.00"),
        (0.1, "0.10"),
        (0.3, "0.30"),
        (2.67, "2.67"),
        (100.0, "100.00"),
        ("999999999999.99", "999999999999.99"),
    ],
)
def test_parse_amount_valid(value: object, expected: str) -> None:
    got = parse_amount(value)
    assert isinstance(got, Decimal)
    assert got == Decimal(expected)
    # Always exactly two decimal places.
    assert str(got) == expected
    assert got.as_tuple().exponent == -2


def test_float_tenth_stays_exact() -> None:
    # Decimal(0.1) would be 0.1000000000000000055511151231257827...; through repr it is 0.1.
    assert parse_amount(0.1) == Decimal("0.10")
    assert parse_amount(0.1) + parse_amount(0.2) == Decimal("0.30")
    assert parse_amount(0.1) * 3 == parse_amount(0.3)


@pytest.mark.parametrize(
    "value",
    [
        "0.001",
        "1.005",
        1.005,
        0.001,
        Decimal("5.001"),
        "10.999",
        "12.340",
        "5.000",
        Decimal("5.000"),
    ],
)
def test_more_than_two_places_is_rejected(value: object) -> None:
    with pytest.raises(InvalidWagerError) as info:
        parse_amount(value, field="wagers.trips")
    assert str(info.value) == (
        f"wagers.trips: amounts have at most two decimal places, got {value!r}"
        if isinstance(value, str)
        else f"wagers.trips: amounts have at most two decimal places, got {value}"
    )
    assert info.value.field == "wagers.trips"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        # issue 7, item 5: exponents, blanks, NaN and Infinity, signs are not plain decimals
        ("1e2", "'1e2'"),
        ("1e3", "'1e3'"),
        ("1E2", "'1E2'"),
        (" 5 ", "' 5 '"),
        ("5 ", "'5 '"),
        ("\t5", "'\\t5'"),
        ("+5", "'+5'"),
        (".5", "'.5'"),
        ("5.", "'5.'"),
        ("1_000", "'1_000'"),
        ("1,000", "'1,000'"),
        ("\u0665", "'\u0665'"),  # an Arabic-Indic digit five
        ("NaN", "'NaN'"),
        ("nan", "'nan'"),
        ("Infinity", "'Infinity'"),
        ("-Infinity", "'-Infinity'"),
        ("inf", "'inf'"),
        ("", "''"),
        ("abc", "'abc'"),
        ("5 dollars", "'5 dollars'"),
        (Decimal("1E+2"), "1E+2"),
        (Decimal("NaN"), "NaN"),
        (Decimal("Infinity"), "Infinity"),
        (float("nan"), "nan"),
        (float("inf"), "inf"),
        (float("-inf"), "-inf"),
        (1e30, "1e+30"),
        (1e16, "1e+16"),
        (1e-05, "1e-05"),
    ],
)
def test_not_a_plain_decimal(value: object, shown: str) -> None:
    with pytest.raises(InvalidWagerError) as info:
        parse_amount(value, field="amount")
    assert str(info.value) == (
        f"amount: expected a plain decimal amount such as 10 or 12.50, got {shown}"
    )
    assert info.value.field == "amount"
    assert info.value.code == "invalid_wager"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (True, "True"),
        (False, "False"),
        (None, "None"),
        ([5], "[5]"),
        ({"a": 5}, "{'a': 5}"),
        (b"5", "b'5'"),
    ],
)
def test_not_an_amount_at_all(value: object, shown: str) -> None:
    with pytest.raises(InvalidWagerError) as info:
        parse_amount(value, field="wagers.ante")
    assert str(info.value) == f"wagers.ante: expected an amount such as 10 or 12.50, got {shown}"
    assert info.value.field == "wagers.ante"


@pytest.mark.parametrize("value", [-1, "-0.01", Decimal("-5"), -2.5])
def test_negative_is_rejected_by_default(value: object) -> None:
    with pytest.raises(InvalidWagerError, match=r"^stake: must not be negative, got ") as info:
        parse_amount(value, field="stake")
    assert info.value.field == "stake"


def test_negative_allowed_when_asked() -> None:
    assert parse_amount(-5, allow_negative=True) == Decimal("-5.00")
    assert str(parse_amount("-0.01", allow_negative=True)) == "-0.01"
    assert str(parse_amount(-2.5, allow_negative=True)) == "-2.50"


def test_negative_with_three_places_still_rejected_when_negative_allowed() -> None:
    with pytest.raises(InvalidWagerError, match="at most two decimal places"):
        parse_amount("-0.005", allow_negative=True)


def test_negative_zero_is_plain_zero() -> None:
    got = parse_amount("-0")
    assert got == ZERO
    assert str(got) == "0.00"
    assert str(parse_amount("-0.00", allow_negative=True)) == "0.00"


@pytest.mark.parametrize(
    "value", ["1000000000000", 10**12, "99999999999999999999999999999", -(10**13)]
)
def test_above_the_maximum_is_a_clear_error(value: object) -> None:
    assert Decimal("999999999999.99") == MAX_AMOUNT
    with pytest.raises(InvalidWagerError) as info:
        parse_amount(value, allow_negative=True)
    shown = repr(value) if isinstance(value, str) else str(value)
    assert str(info.value) == f"amount: amounts are at most 999999999999.99, got {shown}"


def test_long_values_are_cut_short_in_the_message() -> None:
    with pytest.raises(InvalidWagerError) as info:
        parse_amount("9" * 100 + "x")
    assert str(info.value) == (
        "amount: expected a plain decimal amount such as 10 or 12.50, got '" + "9" * 36 + "..."
    )


def test_errors_are_value_errors() -> None:
    assert issubclass(InvalidWagerError, UthError)
    assert issubclass(InvalidWagerError, ValueError)
    with pytest.raises(ValueError):
        parse_amount("x")


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


def test_a_written_number_is_refused_and_echoed_as_written() -> None:
    raw = json.loads('{"a": 1e3, "b": 12.50, "c": 1E+2}', parse_float=WrittenNumber)
    assert raw["a"] == 1000 and str(raw["a"]) == "1e3"
    assert parse_amount(raw["b"]) == Decimal("12.50")
    for key, shown in (("a", "1e3"), ("c", "1E+2")):
        with pytest.raises(InvalidWagerError) as info:
            parse_amount(raw[key], field=key)
        assert str(info.value) == (
            f"{key}: expected a plain decimal amount such as 10 or 12.50, got {shown}"
        )
    assert type(raw["a"] + 1) is Decimal
