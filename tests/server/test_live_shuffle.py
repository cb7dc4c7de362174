"""The live table's shuffle is pinned (issue 14, item 1): a table built from the
settings shuffles with the cryptographically secure generator, two server starts
deal different decks, and a seeded shuffle is reachable only from tests and
simulations (``create_app(shuffler=...)``) or an explicit, logged development
setting (``UTH_SHUFFLE_SEED``) that production settings refuse.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from helpers import OPERATOR_TOKEN, decks, write_tables
from pydantic import ValidationError

from uth.cards import SecureShuffler, SeededShuffler
from uth.server.app import create_app
from uth.server.config import Settings
from uth.server.table import LiveTable

CASINO = {"id": "c1", "rules": "casino", "betting_seconds": 10, "yellow_seconds": 3}


def _first_decks(settings: Settings) -> dict[str, tuple[str, ...]]:
    """Start the server; each table's shuffler and the first deck it prepares."""
    app = create_app(settings)
    with TestClient(app):
        tables: dict[str, LiveTable] = app.state.runtime.tables
        out = {}
        for table_id, table in tables.items():
            out[table_id] = tuple(str(c) for c in table.decks.next_deck().order)  # type: ignore[attr-defined]
            out[f"{table_id}:shuffler"] = (type(table.decks.shuffler).__name__,)  # type: ignore[attr-defined]
        return out


def test_tables_built_from_settings_shuffle_securely_and_differ_per_start(
    tmp_path: Path,
) -> None:
    tables = write_tables(tmp_path / "tables.toml", [{"id": "t1", "rules": "live"}, CASINO])
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'uth.db'}", tables_file=tables)
    first = _first_decks(settings)
    second = _first_decks(settings)
    for table_id in ("t1", "c1"):
        assert first[f"{table_id}:shuffler"] == (SecureShuffler.__name__,)
        assert second[f"{table_id}:shuffler"] == (SecureShuffler.__name__,)
        assert len(set(first[table_id])) == 52
        # Equal by chance with probability 1/52!.
        assert first[table_id] != second[table_id]
    assert first["t1"] != first["c1"]


def test_a_seeded_shuffle_is_refused_in_production() -> None:
    with pytest.raises(ValidationError) as info:
        Settings(environment="production", operator_token=OPERATOR_TOKEN, shuffle_seed=7)
    assert (
        "UTH_SHUFFLE_SEED: a seeded (predictable) shuffle is for development only; "
        "unset it in production"
    ) in str(info.value)


def test_a_seeded_shuffle_in_development_is_logged_and_deals_the_seeded_decks(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    tables = write_tables(tmp_path / "tables.toml")
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'uth.db'}", tables_file=tables, shuffle_seed=6
    )
    with caplog.at_level(logging.WARNING, logger="uth.server"):
        first = _first_decks(settings)
    assert first["t1:shuffler"] == (SeededShuffler.__name__,)
    assert first["t1"] == decks(6, 1)[0]
    assert "UTH_SHUFFLE_SEED=6: every deck is predictable (development only)" in caplog.messages
