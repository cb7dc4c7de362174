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


def test_a_player_dealer_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    path.write_text('[[tables]]\nid = "cal"\nrules = "california"\n')
    with pytest.raises(InvalidRulesError, match="house-banked rule sets only"):
        load_tables(path)


def test_the_default_tables() -> None:
    tables = load_tables()
    assert tables.starting_balance == Decimal(1000)
    assert [(t.id, t.rules) for t in tables.tables] == [("live-1", "live"), ("casino-1", "casino")]
    live = tables.tables[0]
    assert (live.betting_seconds, live.yellow_seconds, live.decision_seconds) == (15, 5, 10)
