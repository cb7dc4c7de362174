"""Tests for uth.rules: presets, the RuleSet model, Odds, and loading TOML rule files."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from uth.errors import InvalidRulesError, UthError
from uth.evaluator import Category
from uth.rules import (
    PRESET_NAMES,
    Limit,
    Odds,
    PayoutCap,
    PlayMultiples,
    RuleSet,
    load_rules,
    preset,
    resolve,
    rules_from_data,
)
from uth.rules.model import OddsField

BLIND = {
    "royal_flush": "500:1",
    "straight_flush": "50:1",
    "four_of_a_kind": "10:1",
    "full_house": "3:1",
    "flush": "3:2",
    "straight": "1:1",
}
TRIPS = {
    "royal_flush": "50:1",
    "straight_flush": "40:1",
    "four_of_a_kind": "30:1",
    "full_house": "8:1",
    "flush": "7:1",
    "straight": "4:1",
    "three_of_a_kind": "3:1",
}
BAD_BEAT = {
    "straight_flush": "7500:1",
    "four_of_a_kind": "500:1",
    "full_house": "50:1",
    "flush": "30:1",
    "straight": "20:1",
    "three_of_a_kind": "9:1",
}


def table(pays: dict[Category, Odds]) -> dict[str, str]:
    return {category.key: str(odds) for category, odds in pays.items()}


def minimal(**over: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "custom", "blind_pays": dict(BLIND), "trips_pays": dict(TRIPS)}
    data.update(over)
    return data


# --------------------------------------------------------------------------- presets


def test_preset_names() -> None:
    assert PRESET_NAMES == ("casino", "california", "california-bad-beat", "live")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_pay_tables_and_limits(name: str) -> None:
    rules = preset(name)
    assert isinstance(rules, RuleSet)
    assert rules.name == name
    assert table(rules.blind_pays) == BLIND
    assert table(rules.trips_pays) == TRIPS
    assert rules.ante == Limit(min=Decimal("5.00"), max=Decimal("1000.00"))
    assert rules.ante.min == Decimal("5") and str(rules.ante.min) == "5.00"
    assert str(rules.ante.max) == "1000.00"
    assert rules.trips is not None
    assert (rules.trips.min, rules.trips.max) == (Decimal("5.00"), Decimal("1000.00"))
    assert str(rules.trips) == "5.00-1000.00"
    assert rules.offers_trips is True
    assert rules.play_multiples == PlayMultiples()
    assert rules.play_multiples.pre_flop == (4, 3)
    assert rules.play_multiples.flop == (2,)
    assert rules.play_multiples.river == (1,)
    assert rules.dealer_qualifier is Category.PAIR
    assert rules.max_consecutive_banks == 2
    assert rules.notes  # each preset documents its choices
    again = preset(name)
    assert again == rules and again is not rules  # a fresh copy each call
    again.blind_pays.clear()
    assert preset(name).blind_pays == rules.blind_pays  # the preset is unchanged


def test_blind_and_trips_odds_exact() -> None:
    rules = preset("casino")
    assert rules.blind_pays[Category.FLUSH] == Odds(win=3, per=2)
    assert rules.blind_pays[Category.ROYAL_FLUSH].ratio == Fraction(500)
    assert Category.THREE_OF_A_KIND not in rules.blind_pays
    assert Category.PAIR not in rules.trips_pays
    assert rules.trips_pays[Category.THREE_OF_A_KIND] == Odds(win=3, per=1)
    # Ordered as in RULES.md, highest category first.
    assert list(rules.blind_pays) == [
        Category.ROYAL_FLUSH,
        Category.STRAIGHT_FLUSH,
        Category.FOUR_OF_A_KIND,
        Category.FULL_HOUSE,
        Category.FLUSH,
        Category.STRAIGHT,
    ]


@pytest.mark.parametrize(
    ("name", "banking", "deck", "folded", "seats", "back_line", "seed"),
    [
        ("casino", "house", "single_deck", "player_hand", 7, False, "001"),
        ("california", "player_dealer", "two_alternating_decks", "player_hand", 7, True, "000"),
        (
            "california-bad-beat",
            "player_dealer",
            "two_alternating_decks",
            "board_only",
            7,
            True,
            "002",
        ),
        ("live", "house", "single_deck", "player_hand", None, False, "004"),
    ],
)
def test_preset_options(
    name: str,
    banking: str,
    deck: str,
    folded: str,
    seats: int | None,
    back_line: bool,
    seed: str,
) -> None:
    rules = preset(name)
    assert rules.banking == banking
    assert rules.deck_procedure == deck
    assert rules.folded_trips == folded
    assert rules.seats == seats
    assert rules.back_line_bets is back_line
    assert rules.seed == seed


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_bank_only_for_player_dealer(name: str) -> None:
    rules = preset(name)
    if rules.banking == "player_dealer":
        assert rules.bank == Limit(min=Decimal(100), max=Decimal(100000))
        assert str(rules.bank) == "100.00-100000.00"
    else:
        assert rules.bank is None
    assert [n for n in PRESET_NAMES if preset(n).bank is not None] == [
        "california",
        "california-bad-beat",
    ]


def test_bad_beat_only_in_california_bad_beat() -> None:
    cbb = preset("california-bad-beat")
    assert cbb.offers_bad_beat is True
    assert cbb.bad_beat == Limit(min=Decimal(5), max=Decimal(1000))
    assert table(cbb.bad_beat_pays) == BAD_BEAT
    assert Category.ROYAL_FLUSH not in cbb.bad_beat_pays
    assert cbb.bad_beat_pays[Category.STRAIGHT_FLUSH].pay(Decimal(5)) == Decimal(37500)
    assert cbb.side_bets_not_above_ante is True
    for name in ("casino", "california", "live"):
        rules = preset(name)
        assert rules.bad_beat is None
        assert rules.bad_beat_pays == {}
        assert rules.offers_bad_beat is False
        assert rules.side_bets_not_above_ante is False


def test_payout_cap_only_in_casino() -> None:
    casino = preset("casino")
    assert casino.payout_cap == PayoutCap(amount=Decimal("50000.00"), min_bettor_rule=True)
    # Minimum bettor: 5 + 5*500 + 5*4 = 2525, below 50,000.
    assert casino.cap_amount() == Decimal("50000.00")
    for name in ("california", "california-bad-beat", "live"):
        assert preset(name).payout_cap is None
        assert preset(name).cap_amount() is None


def test_cap_min_bettor_rule_above_amount() -> None:
    rules = rules_from_data({"extends": "casino", "ante": {"min": 100}})
    assert rules.ante == Limit(min=Decimal(100), max=Decimal(1000))
    # 100 (Ante 1:1) + 100 * 500 (Blind royal) + 100 * 4 (Play 4x): 100 * (1 + 500 + 4).
    assert rules.cap_amount() == Decimal("50500.00")
    assert rules.cap_amount() == Decimal(100) * (1 + 500 + 4)


def test_cap_without_min_bettor_rule_and_custom_amount() -> None:
    rules = rules_from_data(
        {
            "extends": "casino",
            "ante": {"min": 100},
            "payout_cap": {"amount": 20000, "min_bettor_rule": False},
        }
    )
    assert rules.cap_amount() == Decimal("20000.00")
    rules = rules_from_data(
        {"extends": "casino", "ante": {"min": 10}, "payout_cap": {"amount": 1000}}
    )
    # 10 + 5000 + 40 = 5050 > 1000.
    assert rules.cap_amount() == Decimal("5050.00")


def test_cap_uses_largest_blind_odds_and_play_multiple() -> None:
    rules = rules_from_data(
        minimal(
            ante={"min": 10, "max": 100},
            payout_cap={"amount": 1},
            blind_pays={"flush": "3:2", "straight": "1:1"},
            play_multiples={"pre_flop": [3], "flop": [2], "river": [1]},
        )
    )
    # 10 + 10 * 3/2 + 10 * 3 = 55.
    assert rules.cap_amount() == Decimal("55.00")


def test_unknown_preset() -> None:
    with pytest.raises(InvalidRulesError) as info:
        preset("vegas")
    assert info.value.field == "rules"
    assert str(info.value) == (
        "rules: unknown preset 'vegas' (one of casino, california, california-bad-beat, live)"
    )


def test_rule_set_is_frozen() -> None:
    rules = preset("casino")
    with pytest.raises(ValidationError):
        rules.name = "other"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        rules.ante.min = Decimal(1)  # type: ignore[misc]
    with pytest.raises(ValidationError):
        rules.blind_pays[Category.FLUSH].win = 2  # type: ignore[misc]
    assert preset("casino").name == "casino"
    assert preset("casino").blind_pays[Category.FLUSH] == Odds(win=3, per=2)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_presets_round_trip_through_json(name: str) -> None:
    rules = preset(name)
    dumped = rules.model_dump(mode="json")
    assert dumped["blind_pays"] == BLIND
    assert rules_from_data(dumped) == rules


def test_presets_are_valid_rule_sets_from_scratch() -> None:
    # A rule set built by hand equals the live preset where it should.
    rules = rules_from_data(
        minimal(
            name="live",
            seats="unlimited",
            shared_hand=True,
            title=preset("live").title,
            seed="004",
        )
    )
    assert rules.seats is None
    assert rules.shared_hand is True
    assert rules.blind_pays == preset("live").blind_pays
    assert rules.trips_pays == preset("live").trips_pays


# --------------------------------------------------------------------------- Odds


@pytest.mark.parametrize(
    ("text", "win", "per"),
    [
        ("3:2", 3, 2),
        ("500:1", 500, 1),
        ("7,500:1", 7500, 1),
        ("3 to 2", 3, 2),
        (" 1 : 1 ", 1, 1),
        ("8", 8, 1),
        (9, 9, 1),
    ],
)
def test_odds_parse(text: object, win: int, per: int) -> None:
    odds = TypeAdapter(OddsField).validate_python(text)
    assert (odds.win, odds.per) == (win, per)
    assert str(odds) == f"{win}:{per}"


@pytest.mark.parametrize("text", ["x", "3:x", "3:2:1", "", ":", True, "1.5:1"])
def test_odds_parse_rejects(text: object) -> None:
    with pytest.raises(ValidationError):
        TypeAdapter(OddsField).validate_python(text)


@pytest.mark.parametrize(("win", "per"), [(0, 1), (1, 0), (-3, 2)])
def test_odds_must_be_positive(win: int, per: int) -> None:
    with pytest.raises(ValidationError):
        Odds(win=win, per=per)


def test_odds_pay() -> None:
    three_two = Odds(win=3, per=2)
    assert three_two.pay(Decimal(5)) == Decimal("7.5")
    assert three_two.pay(Decimal("5.00")) == Decimal("7.5")
    assert three_two.pay(Decimal("0.05")) == Decimal("0.075")  # exact; the caller rounds
    assert three_two.ratio == Fraction(3, 2)
    assert str(three_two) == "3:2"
    assert Odds(win=500, per=1).pay(Decimal(5)) == Decimal(2500)
    assert Odds(win=1, per=1).pay(Decimal("12.34")) == Decimal("12.34")
    with pytest.raises(ValidationError):
        three_two.win = 4  # type: ignore[misc]


# --------------------------------------------------------------------------- models


def test_limit() -> None:
    limit = Limit(min=5, max="1000")
    assert limit.min == Decimal("5.00")
    assert limit.max == Decimal("1000.00")
    assert str(limit) == "5.00-1000.00"
    assert Limit(min=Decimal(5), max=Decimal(5)).max == Decimal(5)  # equal is fine
    with pytest.raises(ValidationError, match="min must be positive"):
        Limit(min=0, max=10)
    with pytest.raises(ValidationError, match=r"max \(4\.00\) is below min \(5\.00\)"):
        Limit(min=5, max=4)
    with pytest.raises(ValidationError, match="at most two decimal places"):
        Limit(min="5.001", max=10)


def test_play_multiples() -> None:
    pm = PlayMultiples(pre_flop=(3, 4), flop=(2,), river=(1,))
    assert pm.pre_flop == (4, 3)  # sorted, largest first
    assert pm.all == frozenset({1, 2, 3, 4})
    assert pm.largest == 4
    with pytest.raises(ValidationError, match="must be 1 to 10"):
        PlayMultiples(pre_flop=(4, 0))
    with pytest.raises(ValidationError, match="must not repeat"):
        PlayMultiples(pre_flop=(3, 3))


def test_rules_from_data_does_not_change_its_input() -> None:
    data = {"extends": "casino", "ante": {"min": 100}, "trips_pays": {"flush": "7:1"}}
    rules_from_data(data)
    assert data == {"extends": "casino", "ante": {"min": 100}, "trips_pays": {"flush": "7:1"}}


def test_money_in_rules_is_a_plain_decimal() -> None:
    # issue 7, item 5: "1e30" is not a plain decimal; amounts above the maximum are refused.
    with pytest.raises(InvalidRulesError) as info:
        rules_from_data(minimal(ante={"min": 5, "max": "1e30"}))
    assert info.value.field == "ante.max"
    assert str(info.value) == (
        "rules: ante.max: expected a plain decimal amount such as 10 or 12.50, got '1e30'"
    )
    with pytest.raises(InvalidRulesError) as info:
        rules_from_data(minimal(ante={"min": 5, "max": 10**13}))
    assert str(info.value) == (
        "rules: ante.max: amounts are at most 999999999999.99, got 10000000000000"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("ante = { min = 1e1, max = 100 }", "ante.min: expected a plain decimal amount such as "
         "10 or 12.50, got 1E+1"),
        ("ante = { min = 5.005, max = 100 }", "ante.min: amounts have at most two decimal places, "
         "got 5.005"),
        ('ante = { min = " 5 ", max = 100 }', "ante.min: expected a plain decimal amount such as "
         "10 or 12.50, got ' 5 '"),
        ("ante = { min = true, max = 100 }", "ante.min: expected an amount such as 10 or 12.50, "
         "got True"),
    ],
)  # fmt: skip
def test_rule_set_files_read_amounts_as_plain_decimals(
    tmp_path: Path, line: str, message: str
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(f'extends = "casino"\n{line}\n')
    with pytest.raises(InvalidRulesError) as info:
        load_rules(path)
    assert str(info.value) == f"{path}: {message}"


def test_rule_set_files_keep_decimal_amounts_exact(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('extends = "casino"\nante = { min = 2.5, max = 100.10 }\n')
    rules = load_rules(path)
    assert (str(rules.ante.min), str(rules.ante.max)) == ("2.50", "100.10")


# --------------------------------------------------------------------------- files


def write(tmp_path: Path, text: str, name: str = "rules.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_load_rules_full_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
name = "club"
banking = "player_dealer"
deck_procedure = "two_alternating_decks"
seats = 6
folded_trips = "board_only"
ante = { min = 10, max = 500 }
trips = { min = "5", max = 250.50 }
bank = { min = 200, max = 5000 }

[blind_pays]
royal_flush = "500:1"
flush = "3:2"

[trips_pays]
three_of_a_kind = 3
""",
    )
    rules = load_rules(path)
    assert rules.name == "club"
    assert rules.banking == "player_dealer"
    assert rules.deck_procedure == "two_alternating_decks"
    assert rules.seats == 6
    assert rules.folded_trips == "board_only"
    assert rules.ante == Limit(min=Decimal(10), max=Decimal(500))
    assert rules.trips == Limit(min=Decimal(5), max=Decimal("250.50"))
    assert rules.bank == Limit(min=Decimal(200), max=Decimal(5000))
    assert table(rules.blind_pays) == {"royal_flush": "500:1", "flush": "3:2"}
    assert table(rules.trips_pays) == {"three_of_a_kind": "3:1"}
    assert rules.payout_cap is None
    assert rules.cap_amount() is None
    # A str path works too.
    assert load_rules(str(path)) == rules


def test_load_rules_extends_preset(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
extends = "casino"
name = "casino-high"
ante = { min = 25 }
seats = 5

[trips_pays]
three_of_a_kind = "4:1"
""",
    )
    rules = load_rules(path)
    casino = preset("casino")
    assert rules.name == "casino-high"
    assert rules.seats == 5
    # Tables merge key by key: the max comes from the preset.
    assert rules.ante == Limit(min=Decimal(25), max=Decimal(1000))
    # A pay table is replaced whole.
    assert table(rules.trips_pays) == {"three_of_a_kind": "4:1"}
    # Everything else is the preset's.
    assert rules.blind_pays == casino.blind_pays
    assert rules.payout_cap == casino.payout_cap
    assert rules.banking == "house"
    assert rules.title == casino.title
    assert rules.cap_amount() == Decimal("50000.00")  # 25 * 505 = 12625 < 50000
    assert casino.ante.min == Decimal(5)  # the cached preset is untouched


def test_extends_only_gives_the_preset(tmp_path: Path) -> None:
    for name in PRESET_NAMES:
        path = write(tmp_path, f'extends = "{name}"\n', name=f"{name}.toml")
        rules = load_rules(path)
        assert rules.title == f"{name}: custom rules based on the {name} preset"
        assert rules.model_copy(update={"title": preset(name).title}) == preset(name)


def test_a_file_that_extends_a_preset_is_named_after_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "casino"\nante = { min = 25 }\n', name="high-roller.toml")
    rules = load_rules(path)
    assert rules.name == "high-roller"
    assert rules.seed == "001"
    assert rules.ante.min == Decimal(25)


def test_extends_switches_to_player_dealer(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'extends = "live"\nbanking = "player_dealer"\nbank = { min = 100, max = 1000 }\n',
    )
    rules = load_rules(path)
    assert rules.banking == "player_dealer"
    assert rules.bank == Limit(min=Decimal(100), max=Decimal(1000))
    assert rules.seats is None


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        (
            'extends = "casino"\n[blind_pays]\nflush = "x"\n',
            "blind_pays.flush",
            "blind_pays.flush: expected odds such as '3:2', got 'x'",
        ),
        (
            'extends = "casino"\nante = { min = -5 }\n',
            "ante.min",
            "ante.min: must not be negative, got -5",
        ),
        (
            'extends = "casino"\nante = { min = 0 }\n',
            "ante",
            "ante: min must be positive, got 0.00",
        ),
        (
            'extends = "casino"\nante = { min = 50, max = 10 }\n',
            "ante",
            "ante: max (10.00) is below min (50.00)",
        ),
        (
            'extends = "casino"\ntrips = { min = 5, max = 4 }\n',
            "trips",
            "trips: max (4.00) is below min (5.00)",
        ),
        (
            'extends = "casino"\nbank = { min = 5.001, max = 10 }\n',
            "bank.min",
            "bank.min: amounts have at most two decimal places, got 5.001",
        ),
        (
            'extends = "casino"\n[trips_pays]\nroyal = "50:1"\n',
            "trips_pays.royal.[key]",
            "trips_pays.royal.[key]: unknown hand category 'royal' (one of high_card, pair, "
            "two_pair, three_of_a_kind, straight, flush, full_house, four_of_a_kind, "
            "straight_flush, royal_flush)",
        ),
        (
            'extends = "casino"\nbanking = "player_dealer"\n',
            "bank",
            "bank: a player_dealer rule set needs bank limits",
        ),
        (
            'extends = "casino"\nbank = { min = 100, max = 1000 }\n',
            "bank",
            "bank: only a player_dealer rule set has bank limits",
        ),
        (
            'extends = "casino"\n[trips_pays]\n',
            "trips_pays",
            "trips_pays: Trips is offered but has no pay table",
        ),
        (
            'extends = "casino"\nbad_beat = { min = 5, max = 10 }\n',
            "bad_beat_pays",
            "bad_beat_pays: Bad Beat is offered but has no pay table",
        ),
        (
            'extends = "casino"\n[bad_beat_pays]\nflush = "30:1"\n',
            "bad_beat",
            "bad_beat: a Bad Beat pay table needs bad_beat limits",
        ),
        (
            'extends = "california-bad-beat"\n[bad_beat_pays]\npair = "1:1"\n',
            "bad_beat_pays",
            "bad_beat_pays: the beaten hand must be three of a kind or better",
        ),
        (
            'extends = "casino"\n[blind_pays]\n',
            "blind_pays",
            "blind_pays: the Blind needs a pay table",
        ),
        (
            'extends = "casino"\n[blind_pays]\npair = "1:1"\n',
            "blind_pays",
            "blind_pays: the Blind pays on a straight or better, got pair",
        ),
        (
            'extends = "casino"\n[trips_pays]\nhigh_card = "1:1"\n',
            "trips_pays",
            "trips_pays: Trips pays on three of a kind or better, got high_card",
        ),
        (
            'extends = "casino"\nseats = 100\n',
            "seats",
            "seats: one deck deals at most 22 hands of their own, got 100; set fewer seats "
            "or shared_hand = true",
        ),
        (
            'extends = "casino"\nplay_multiples = { pre_flop = [] }\n',
            "play_multiples.pre_flop",
            "play_multiples.pre_flop: at least one multiple is required (got [])",
        ),
        (
            'extends = "casino"\nplay_multiples = { pre_flop = [1000000] }\n',
            "play_multiples.pre_flop",
            "play_multiples.pre_flop: multiples must be 1 to 10, got [1000000]",
        ),
    ],
)
def test_load_rules_errors_name_the_field(
    tmp_path: Path, text: str, field: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(InvalidRulesError) as info:
        load_rules(path)
    err = info.value
    assert err.field == field
    assert str(err) == f"{path}: {message}"
    assert err.code == "invalid_rules"
    assert isinstance(err, ValueError)
    assert isinstance(err, UthError)


@pytest.mark.parametrize(
    ("text", "field", "fragments"),
    [
        ('extends = "casino"\nfolded_trips = "never"\n', "folded_trips", ["'never'"]),
        ('extends = "casino"\nbanking = "bank"\n', "banking", ["'bank'"]),
        ('extends = "casino"\ndeck_procedure = "shoe"\n', "deck_procedure", ["'shoe'"]),
        ('extends = "casino"\nfoo = 1\n', "foo", ["Extra inputs are not permitted", "(got 1)"]),
        ('extends = "casino"\nante = { min = 5, max = 10, step = 5 }\n', "ante.step", ["Extra"]),
        ('extends = "casino"\nseats = 0\n', "seats", ["(got 0)"]),
        ('extends = "casino"\nname = ""\n', "name", ["(got '')"]),
        ('blind_pays = { flush = "3:2" }\ntrips_pays = { flush = "3:1" }\n', "name", ["required"]),
        ('name = "x"\n', "blind_pays", ["required"]),
        (
            'name = "x"\nante = { min = 5 }\nblind_pays = { flush = "3:2" }\n',
            "ante.max",
            ["required"],
        ),
    ],
)
def test_load_rules_pydantic_errors_name_the_field(
    tmp_path: Path, text: str, field: str, fragments: list[str]
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(InvalidRulesError) as info:
        load_rules(path)
    assert info.value.field == field
    assert str(info.value).startswith(f"{path}: {field}: ")
    for fragment in fragments:
        assert fragment in str(info.value)


def test_load_rules_bad_toml(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "x"\nante = { min = 5, max = \n')
    with pytest.raises(InvalidRulesError) as info:
        load_rules(path)
    assert info.value.field == "file"
    assert str(info.value).startswith(f"{path}: not valid TOML: ")


def test_load_rules_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(InvalidRulesError) as info:
        load_rules(path)
    assert info.value.field == "file"
    assert str(info.value) == f"{path}: cannot read: No such file or directory"


def test_load_rules_directory_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(InvalidRulesError) as info:
        load_rules(tmp_path)
    assert info.value.field == "file"
    assert str(info.value).startswith(f"{tmp_path}: cannot read: ")


def test_extends_unknown_or_not_a_name(tmp_path: Path) -> None:
    with pytest.raises(InvalidRulesError) as info:
        load_rules(write(tmp_path, 'extends = "vegas"\n'))
    assert info.value.field == "rules"
    assert "unknown preset 'vegas'" in str(info.value)
    with pytest.raises(InvalidRulesError) as info:
        load_rules(write(tmp_path, "extends = 3\n"))
    assert info.value.field == "extends"
    assert str(info.value) == "extends: expected a preset name, got 3"


def test_rules_from_data_not_a_table() -> None:
    with pytest.raises(InvalidRulesError) as info:
        rules_from_data(["casino"], source="api")  # type: ignore[arg-type]
    assert info.value.field == "rules"
    assert str(info.value) == "api: expected a table of rules, got ['casino']"


# --------------------------------------------------------------------------- resolve


def test_resolve_a_preset_by_name_is_a_fresh_copy() -> None:
    rules = resolve("casino")
    assert rules == preset("casino")
    assert rules is not resolve("casino")


def test_resolve_a_file_by_path_relative_to_base_dir(tmp_path: Path) -> None:
    write(tmp_path, 'extends = "live"\nante = { min = 2.50 }\n', "mine.TOML")
    rules = resolve("mine.TOML", base_dir=tmp_path)
    assert rules.name == "mine"
    assert (rules.ante.min, rules.ante.max) == (Decimal("2.50"), Decimal("1000.00"))
    assert resolve(tmp_path / "mine.TOML") == rules


def test_resolve_applies_overrides_key_by_key_exactly() -> None:
    rules = resolve("casino", overrides={"ante": {"max": Decimal("500.25")}}, source="table t")
    assert (rules.ante.min, rules.ante.max) == (Decimal("5.00"), Decimal("500.25"))
    assert rules.name == "casino"
    with pytest.raises(InvalidRulesError) as info:
        resolve("casino", overrides={"ante": {"min": Decimal("0.10000000000000001")}}, source="t")
    assert str(info.value) == (
        "t: ante.min: amounts have at most two decimal places, got 0.10000000000000001"
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("vegas", "rules: unknown preset 'vegas' (one of casino, california, california-bad-beat, live)"),
        ("missing.toml", "missing.toml: cannot read: No such file or directory"),
    ],
)  # fmt: skip
def test_resolve_names_what_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidRulesError) as info:
        resolve(name)
    assert str(info.value) == message
