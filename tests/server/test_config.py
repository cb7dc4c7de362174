"""The table configuration file and the server settings."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from uth.errors import InvalidRulesError
from uth.server.config import TableConfig, load_tables


def test_overrides_merge_into_a_preset_key_by_key() -> None:
    rules = TableConfig(id="t", rules="live", overrides={"ante": {"max": 500}}).rule_set()
    assert (rules.ante.min, rules.ante.max) == (Decimal(5), Decimal(500))
    assert rules.seats is None and rules.shared_hand is True


def test_overrides_merge_into_a_rule_set_file_key_by_key(tmp_path: Path) -> None:
    (tmp_path / "house.toml").write_text('extends = "live"\ntrips = { min = 1, max = 100 }\n')
    table = TableConfig(id="t", rules="house.toml", overrides={"ante": {"max": 500}})
    rules = table.rule_set(tmp_path)
    assert rules.name == "house"
    assert (rules.ante.min, rules.ante.max) == (Decimal(5), Decimal(500))
    assert rules.trips is not None and (rules.trips.min, rules.trips.max) == (1, 100)
    assert rules.seats is None and rules.shared_hand is True


def test_a_player_dealer_table_is_a_card_room(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    path.write_text('[[tables]]\nid = "cal"\nrules = "california"\nbacker = "backer"\n')
    (table,) = load_tables(path).tables
    assert (table.backer, table.offer_seconds) == ("backer", 15)
    assert table.rule_set().banking == "player_dealer"


def test_a_backer_at_a_house_banked_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    path.write_text('[[tables]]\nid = "t"\nrules = "casino"\nbacker = "backer"\n')
    with pytest.raises(InvalidRulesError, match=r"tables\.0\.backer: only a table banked"):
        load_tables(path)


def test_the_default_tables() -> None:
    tables = load_tables()
    assert tables.starting_balance == Decimal(1000)
    assert [(t.id, t.rules) for t in tables.tables] == [
        ("live-1", "live"),
        ("casino-1", "casino"),
        ("california-1", "california"),
        ("california-bb-1", "california-bad-beat"),
    ]
    live = tables.tables[0]
    assert (live.betting_seconds, live.yellow_seconds, live.decision_seconds) == (15, 5, 10)


# A TOML float (a number with a fraction or an exponent) is read from its text, never
# through a binary float: the tables file as the rule-set files.


def test_tables_file_reads_numbers_as_exact_decimals(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    path.write_text(
        'starting_balance = 12.34\n[[tables]]\nid = "t"\nbetting_seconds = 12.5\n'
        "chips = [0.5, 2.50]\noverrides = { ante = { min = 2.50, max = 500.25 } }\n"
    )
    tables = load_tables(path)
    assert str(tables.starting_balance) == "12.34"
    table = tables.tables[0]
    assert [str(c) for c in table.chips] == ["0.5", "2.50"]
    assert table.betting_seconds == 12.5
    assert table.overrides == {"ante": {"min": Decimal("2.50"), "max": Decimal("500.25")}}
    rules = table.rule_set()
    assert (str(rules.ante.min), str(rules.ante.max)) == ("2.50", "500.25")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('rules = "casino"\noverrides = { ante = { min = 0.10000000000000001 } }',
         "table t: ante.min: amounts have at most two decimal places, got 0.10000000000000001"),
        ('rules = "casino"\noverrides = { ante = { max = 1e3 } }',
         "table t: ante.max: expected a plain decimal amount such as 10 or 12.50, got 1E+3"),
        ("chips = [0.001]",
         "tables.0.chips.0: Decimal input should have no more than 2 decimal places (got 0.001)"),
        ("chips = [0]", "tables.0.chips.0: Input should be greater than 0 (got 0)"),
    ],
)  # fmt: skip
def test_tables_file_refuses_inexact_amounts(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "tables.toml"
    path.write_text(f'[[tables]]\nid = "t"\n{body}\n')
    with pytest.raises(InvalidRulesError) as info:
        load_tables(path)
    text = str(info.value)
    assert text.removeprefix(f"{path}: ") == message


def test_starting_balance_is_not_rounded(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    path.write_text('starting_balance = 0.10000000000000001\n[[tables]]\nid = "t"\n')
    with pytest.raises(InvalidRulesError) as info:
        load_tables(path)
    assert str(info.value) == (
        f"{path}: starting_balance: Decimal input should have no more than 2 decimal places "
        "(got 0.10000000000000001)"
    )
