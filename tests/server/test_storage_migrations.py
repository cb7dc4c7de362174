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

from uth.errors import UthError
from uth.server.ports import Debit, NotFoundError
from uth.server.storage import (
    SqlStore,
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
    assert current_revision(store_url) == "0006"
    assert not is_empty(store_url)
    assert _tables(store_url) >= TABLES
    assert _diff(store_url) == []

    downgrade(store_url, "base")
    assert is_empty(store_url)
    assert current_revision(store_url) is None
    assert not (_tables(store_url) & TABLES)

    upgrade(store_url)
    assert current_revision(store_url) == "0006"
    assert _diff(store_url) == []


def test_upgrade_is_idempotent(store_url: str) -> None:
    upgrade(store_url)
    upgrade(store_url)
    assert current_revision(store_url) == "0006"


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


def test_migration_0004_keeps_the_rounds_and_adds_their_records(store_url: str) -> None:
    """Upgraded over data, a round keeps everything and has no record yet (NULL);
    downgraded, the records go and the rest of the round stays."""
    upgrade(store_url, "0003")
    at = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    engine = make_engine(store_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO rounds (game_number, table_id, rules, status, started_at)"
                    " VALUES ('G-1', 't1', 'live', 'settled', :t), ('G-2', 't1', 'live', 'open', :t)"
                ),
                {"t": at},
            )
        upgrade(store_url, "0004")
        assert current_revision(store_url) == "0004"
        store = SqlStore(engine)
        first = store.stored_round("G-1")
        assert (first.status, first.record, first.rules_fingerprint) == ("settled", None, None)
        store.save_record(store.round_id("G-2"), '{"game":"G-2"}', "ab" * 32)
        second = store.stored_round("G-2")
        assert (second.record, second.rules_fingerprint) == ('{"game":"G-2"}', "ab" * 32)
        assert store.game_numbers() == ["G-1", "G-2"]
        with engine.connect() as conn:
            found = conn.execute(
                text("SELECT game_number FROM rounds WHERE rules_fingerprint = :f"),
                {"f": "ab" * 32},
            ).all()
        assert [tuple(r) for r in found] == [("G-2",)]
    finally:
        engine.dispose()

    downgrade(store_url, "0003")
    assert current_revision(store_url) == "0003"
    engine = make_engine(store_url)
    try:
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("rounds")}
            rows = conn.execute(text("SELECT game_number, status FROM rounds ORDER BY id")).all()
    finally:
        engine.dispose()
    assert not columns & {"record", "rules_fingerprint"}
    assert [tuple(r) for r in rows] == [("G-1", "settled"), ("G-2", "open")]
    upgrade(store_url)
    assert _diff(store_url) == []


def test_migration_0005_keys_ledger_entries_by_hand(store_url: str) -> None:
    """Upgraded over data, the entries keep their amounts and are players' own hands
    (NULL); a player then has two hands in one round (their seat, and behind seat 3)
    without the keys colliding, each refunded on its own; downgraded, the column goes
    and every entry and balance stays.
    """
    upgrade(store_url, "0004")
    at = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    engine = make_engine(store_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO players (id, name, name_key, token_hash, created_at, balance)"
                    " VALUES (7, 'p7', 'p7', :h, :t, 98000)"
                ),
                {"h": "a" * 64, "t": at},
            )
            conn.execute(
                text(
                    "INSERT INTO rounds (id, game_number, table_id, rules, status, started_at)"
                    " VALUES (1, 'G-1', 't1', 'california', 'open', :t)"
                ),
                {"t": at},
            )
            conn.execute(
                text(
                    "INSERT INTO ledger_entries (player_id, amount, balance_after, kind, wager,"
                    " round_id, reason, created_at) VALUES"
                    " (7, 100000, 100000, 'signup', NULL, NULL, 'signup', :t),"
                    " (7, -1000, 99000, 'wager', 'ante', 1, 'ante wager, game G-1', :t),"
                    " (7, -1000, 98000, 'wager', 'blind', 1, 'blind wager, game G-1', :t)"
                ),
                {"t": at},
            )
        upgrade(store_url, "0005")
        assert current_revision(store_url) == "0005"
        store = SqlStore(engine)
        assert [(e.kind, e.wager, e.amount, e.hand) for e in store.ledger(7)] == [
            ("signup", None, Decimal("1000.00"), None),
            ("wager", "ante", Decimal("-10.00"), None),
            ("wager", "blind", Decimal("-10.00"), None),
        ]
        # The same wagers of the player's back-line hand: new keys, not duplicates;
        # the own hand's repeated debit is skipped as before.
        debits = [
            Debit(7, "ante", Decimal(10)),
            Debit(7, "ante", Decimal(5), "7@3"),
            Debit(7, "blind", Decimal(5), "7@3"),
        ]
        assert store.debit(1, debits, at) == {7: Decimal("970.00")}
        assert store.debit(1, debits, at) == {7: Decimal("970.00")}
        refunds = store.reverse(1, "void", at)
        assert refunds.amounts == {7: Decimal("30.00")}
        assert [(e.kind, e.wager, e.amount, e.hand) for e in store.ledger(7)][3:] == [
            ("wager", "ante", Decimal("-5.00"), "7@3"),
            ("wager", "blind", Decimal("-5.00"), "7@3"),
            ("refund", "ante", Decimal("10.00"), None),
            ("refund", "blind", Decimal("10.00"), None),
            ("refund", "ante", Decimal("5.00"), "7@3"),
            ("refund", "blind", Decimal("5.00"), "7@3"),
        ]
    finally:
        engine.dispose()

    downgrade(store_url, "0004")
    assert current_revision(store_url) == "0004"
    engine = make_engine(store_url)
    try:
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("ledger_entries")}
            rows = conn.execute(
                text("SELECT kind, wager, amount FROM ledger_entries ORDER BY id")
            ).all()
            balance = conn.execute(text("SELECT balance FROM players WHERE id = 7")).scalar()
    finally:
        engine.dispose()
    assert "hand" not in columns
    assert [tuple(r) for r in rows] == [
        ("signup", None, 100000),
        ("wager", "ante", -1000),
        ("wager", "blind", -1000),
        ("wager", "ante", -500),
        ("wager", "blind", -500),
        ("refund", "ante", 1000),
        ("refund", "blind", 1000),
        ("refund", "ante", 500),
        ("refund", "blind", 500),
    ]
    assert balance == 100000
    upgrade(store_url)
    assert _diff(store_url) == []


def test_a_record_must_be_text_with_a_fingerprint_of_64_hex_digits(store_url: str) -> None:
    upgrade(store_url)
    engine = make_engine(store_url)
    try:
        store = SqlStore(engine)
        rid = store.open_round("t1", "G-1", "live", datetime(2026, 11, 30, tzinfo=UTC))
        with pytest.raises(UthError, match="record: must not be empty"):
            store.save_record(rid, " ", "ab" * 32)
        with pytest.raises(UthError, match="rules_fingerprint: expected 64 hex digits, got 'AB'"):
            store.save_record(rid, "{}", "AB")
        with pytest.raises(NotFoundError, match="round_id: no round 99"):
            store.save_record(99, "{}", "ab" * 32)
        with pytest.raises(NotFoundError, match="game_number: no round G-9"):
            store.stored_round("G-9")
        assert store.stored_round("G-1").record is None
    finally:
        engine.dispose()


def test_migration_0006_indexes_rounds_by_table(store_url: str) -> None:
    """Revision 0006 adds the index a card room's restore reads by; the downgrade to
    0005 drops it.
    """

    def indexes() -> dict[str, list[str | None]]:
        engine = make_engine(store_url)
        try:
            with engine.connect() as conn:
                found = inspect(conn).get_indexes("rounds")
            return {i["name"]: list(i["column_names"]) for i in found if i["name"]}
        finally:
            engine.dispose()

    upgrade(store_url, "0005")
    assert "ix_rounds_table_game" not in indexes()
    upgrade(store_url)
    assert current_revision(store_url) == "0006"
    assert indexes()["ix_rounds_table_game"] == ["table_id", "game_number"]
    downgrade(store_url, "0005")
    assert "ix_rounds_table_game" not in indexes()
