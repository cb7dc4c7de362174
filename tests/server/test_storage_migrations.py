from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import insert, inspect, select, text
from sqlalchemy.exc import IntegrityError

from uth.server.storage import (
    current_revision,
    downgrade,
    is_empty,
    make_engine,
    normalize_url,
    upgrade,
)
from uth.server.storage.migrate import MIGRATIONS_DIR, alembic_config
from uth.server.storage.models import Base, Player

TABLES = {"players", "ledger_entries", "rounds", "round_players", "audit_log"}


def _diff(url: str) -> list[object]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            mc = MigrationContext.configure(conn, opts={"compare_type": True})
            return list(compare_metadata(mc, Base.metadata))
    finally:
        engine.dispose()


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_matches_models_and_downgrade_is_reversible(store_url: str) -> None:
    assert is_empty(store_url)
    assert current_revision(store_url) is None

    upgrade(store_url)
    assert current_revision(store_url) == "0003"
    assert not is_empty(store_url)
    assert _tables(store_url) >= TABLES
    assert _diff(store_url) == []

    downgrade(store_url, "base")
    assert is_empty(store_url)
    assert current_revision(store_url) is None
    assert not (_tables(store_url) & TABLES)

    upgrade(store_url)
    assert current_revision(store_url) == "0003"
    assert _diff(store_url) == []


def test_upgrade_is_idempotent(store_url: str) -> None:
    upgrade(store_url)
    upgrade(store_url)
    assert current_revision(store_url) == "0003"


def test_database_refuses_a_negative_balance(store_url: str) -> None:
    upgrade(store_url)
    engine = make_engine(store_url)
    try:
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(
                insert(Player).values(
                    name="x", token_hash="h" * 64, created_at=datetime.now(UTC), balance=-1
                )
            )
        with pytest.raises(IntegrityError), engine.begin() as conn:  # foreign keys are on
            conn.execute(
                text(
                    "INSERT INTO ledger_entries (player_id, amount, balance_after, kind, reason,"
                    " created_at) VALUES (999, 1, 1, 'signup', 'x', :t)"
                ),
                {"t": datetime.now(UTC)},
            )
    finally:
        engine.dispose()


def test_times_read_back_utc_aware(store_url: str) -> None:
    upgrade(store_url)
    engine = make_engine(store_url)
    at = datetime(2025, 6, 1, 14, 30, tzinfo=timezone(timedelta(hours=2)))
    try:
        with engine.begin() as conn:
            conn.execute(
                insert(Player).values(name="x", token_hash="h" * 64, created_at=at, balance=0)
            )
        with engine.connect() as conn:
            created, balance = conn.execute(select(Player.created_at, Player.balance)).one()
    finally:
        engine.dispose()
    assert created == at
    assert created.utcoffset() == timedelta(0)
    assert created.hour == 12
    assert balance == Decimal("0.00")
    assert isinstance(balance, Decimal)


def test_sqlite_engine_pragmas(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("url", "driver"),
    [
        ("postgresql://postgres@127.0.0.1:5432/test", "postgresql+psycopg"),
        ("postgres://postgres@127.0.0.1/test", "postgresql+psycopg"),
        ("postgresql+psycopg://postgres@127.0.0.1/test", "postgresql+psycopg"),
        ("postgresql+psycopg2://postgres@127.0.0.1/test", "postgresql+psycopg2"),
        ("sqlite:///x.db", "sqlite"),
    ],
)
def test_normalize_url(url: str, driver: str) -> None:
    assert normalize_url(url).drivername == driver


def test_make_engine_uses_psycopg_for_plain_postgresql_urls() -> None:
    engine = make_engine("postgresql://postgres@127.0.0.1:5432/test?options=-csearch_path%3Dx")
    try:
        assert engine.dialect.driver == "psycopg"
        assert engine.url.query["options"] == "-csearch_path=x"
    finally:
        engine.dispose()


def test_migrations_ship_inside_the_package() -> None:
    assert (MIGRATIONS_DIR / "env.py").is_file()
    assert (MIGRATIONS_DIR / "versions" / "0001_initial.py").is_file()
    # setuptools' find_packages (pyproject.toml) ships only folders with an __init__.py.
    package_dir = MIGRATIONS_DIR.parent
    for folder in {p.parent for p in package_dir.rglob("*.py")}:
        assert (folder / "__init__.py").is_file(), folder


def test_offline_mode_renders_sql(tmp_path: Path) -> None:
    # PostgreSQL renders without a connection; SQLite's batch migrations (0002 on)
    # reflect the live table, so offline SQLite stops at 0001.
    cfg = alembic_config("postgresql+psycopg://nobody@127.0.0.1:1/nothing")
    cfg.output_buffer = io.StringIO()
    command.upgrade(cfg, "head", sql=True)
    rendered = cfg.output_buffer.getvalue()
    assert "CREATE TABLE players" in rendered
    assert "CREATE TABLE ledger_entries" in rendered
    assert "ALTER TABLE players ALTER COLUMN balance TYPE BIGINT USING (balance * 100)::bigint" in (
        rendered
    )
    cfg = alembic_config(f"sqlite:///{tmp_path / 'offline.db'}")
    cfg.output_buffer = io.StringIO()
    command.upgrade(cfg, "0001", sql=True)
    assert "CREATE TABLE players" in cfg.output_buffer.getvalue()
    assert not (tmp_path / "offline.db").exists()
