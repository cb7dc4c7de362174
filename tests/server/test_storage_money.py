"""Money is stored exactly, as integer cents, on SQLite and PostgreSQL, within one
stated maximum balance and amount (``uth.server.ports.MAX_BALANCE``, ``MAX_AMOUNT``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from uth.errors import UthError
from uth.server import round_books
from uth.server.ports import MAX_AMOUNT, MAX_BALANCE, BalanceLimitError, Debit, RoundRecord
from uth.server.storage import SqlStore, current_revision, downgrade, make_engine, upgrade

D = Decimal
T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _raw(url: str, sql: str) -> list[tuple[object, ...]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(sql)).all()]
    finally:
        engine.dispose()


def test_the_stated_maximum() -> None:
    assert (D("999999999999.99"), D("999999999999.99")) == (MAX_BALANCE, MAX_AMOUNT)
    # 14 significant digits: a JSON number (a double) carries every amount up to it exactly.
    assert D(repr(float(MAX_BALANCE))) == MAX_BALANCE
    assert D(repr(float(MAX_BALANCE - D("0.01")))) == D("999999999999.98")


def test_money_is_stored_as_integer_cents(store: SqlStore, store_url: str) -> None:
    pid = store.create_player("alice", "tok-a", D("0.29"), T0).id
    assert store.adjust_balance(pid, D("999999999999.70"), "top up", "op", T0) == MAX_BALANCE
    assert store.player(pid).balance == D("999999999999.99")
    rows = _raw(store_url, "SELECT amount, balance_after FROM ledger_entries ORDER BY id")
    assert rows == [(29, 29), (99999999999970, 99999999999999)]
    assert _raw(store_url, "SELECT balance FROM players") == [(99999999999999,)]
    if store_url.startswith("sqlite"):
        assert _raw(store_url, "SELECT typeof(balance) FROM players") == [("integer",)]
    entries = store.ledger(pid)
    assert [(e.amount, e.balance_after) for e in entries] == [
        (D("0.29"), D("0.29")),
        (D("999999999999.70"), D("999999999999.99")),
    ]
    assert str(entries[1].balance_after) == "999999999999.99"


def test_a_balance_above_the_maximum_is_refused_and_nothing_changes(store: SqlStore) -> None:
    pid = store.create_player("alice", "tok-a", D("1000"), T0).id
    assert store.adjust_balance(pid, D("999999998999.99"), "top up", "op", T0) == MAX_BALANCE
    with pytest.raises(BalanceLimitError) as info:
        store.adjust_balance(pid, D("0.01"), "one cent more", "op", T0)
    assert info.value.field == "amount"
    assert info.value.player_id == pid
    assert str(info.value) == (
        f"amount: a credit of 0.01 would take the balance of player {pid} to "
        "1000000000000.00, above the maximum balance 999,999,999,999.99"
    )
    # A payout that would pass the maximum fails the whole settlement: the round stays open.
    store.adjust_balance(pid, D("-100"), "room for a wager", "op", T0)
    rid = store.open_round("t1", "20261130-120000-0001", "live", T0)
    store.debit(rid, [Debit(pid, "ante", D("10"))], T0)
    rec = RoundRecord(T0, [], [], [], "pair", True, [])
    with pytest.raises(BalanceLimitError):
        round_books.settle_round(store, store, rid, rec, {pid: {"ante": D("120")}})
    assert store.player(pid).balance == D("999999999889.99")
    assert len(store.ledger(pid)) == 4
    assert round_books.void_round(store, store, rid, "test", "op", T0) == {
        pid: D("999999999899.99")
    }


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (
            D("1000000000000.00"),
            "must be at most 999,999,999,999.99 either way, got 1000000000000.00",
        ),
        (D("-1000000000000"), "must be at most 999,999,999,999.99 either way, got -1000000000000"),
        (D("1e30"), "must be at most 999,999,999,999.99 either way, got 1E+30"),
    ],
)
def test_an_amount_above_the_maximum_is_refused(store: SqlStore, amount: D, message: str) -> None:
    pid = store.create_player("alice", "tok-a", D("1000"), T0).id
    with pytest.raises(UthError) as info:
        store.adjust_balance(pid, amount, "too much", "op", T0)
    assert (info.value.field, str(info.value)) == ("amount", f"amount: {message}")
    with pytest.raises(UthError) as info:
        store.create_player("bob", "tok-b", abs(amount), T0)
    assert info.value.field == "starting_balance"
    assert store.player(pid).balance == D("1000.00")
    assert len(store.ledger(pid)) == 1


def test_the_database_refuses_money_out_of_range(store: SqlStore, store_url: str) -> None:
    """The CHECK constraints hold even for a writer that skips the store's checks."""
    pid = store.create_player("alice", "tok-a", D("1"), T0).id
    engine = make_engine(store_url)
    try:
        for sql in (
            f"UPDATE players SET balance = 100000000000000 WHERE id = {pid}",
            "UPDATE ledger_entries SET balance_after = 100000000000000",
            "UPDATE ledger_entries SET amount = -100000000000000",
        ):
            with pytest.raises(IntegrityError, match=r"(?i)check"), engine.begin() as conn:
                conn.execute(text(sql))
    finally:
        engine.dispose()
    assert store.player(pid).balance == D("1.00")


# Data as the 0001 schema (Numeric(14, 2)) held it, including amounts whose binary
# floating-point value is not exact (0.29 is 0.28999999999999998 as a double).
_OLD_ROWS = [
    "INSERT INTO players (id, name, token_hash, created_at, balance) VALUES "
    "(1, 'max', 'h1', '2026-11-30 12:00:00+00:00', 999999999999.99), "
    "(2, 'cents', 'h2', '2026-11-30 12:00:00+00:00', 0.29), "
    "(3, 'mid', 'h3', '2026-11-30 12:00:00+00:00', 1234567.89)",
    "INSERT INTO rounds (id, game_number, table_id, rules, status, started_at) VALUES "
    "(1, '20261130-120000-0001', 't1', 'live', 'settled', '2026-11-30 12:00:00+00:00')",
    "INSERT INTO ledger_entries (id, player_id, amount, balance_after, kind, reason, created_at)"
    " VALUES (1, 1, 999999999999.99, 999999999999.99, 'signup', 's', '2026-11-30 12:00:00+00:00'),"
    " (2, 2, 1.00, 1.00, 'signup', 's', '2026-11-30 12:00:00+00:00'),"
    " (3, 2, -0.71, 0.29, 'wager', 'w', '2026-11-30 12:00:00+00:00'),"
    " (4, 3, 1234567.89, 1234567.89, 'signup', 's', '2026-11-30 12:00:00+00:00')",
    "INSERT INTO round_players (round_id, player_id, hole, decisions, wagers, category,"
    " best_five, outcome, balance_before, balance_after) VALUES"
    " (1, 2, '[]', '[]', '{}', 'pair', '[]', 'lose', 1.00, 0.29)",
]


def test_migration_0002_converts_existing_money_to_the_cent(store_url: str) -> None:
    upgrade(store_url, "0001")
    engine = make_engine(store_url)
    try:
        with engine.begin() as conn:
            for sql in _OLD_ROWS:
                conn.execute(text(sql))
    finally:
        engine.dispose()

    upgrade(store_url, "0002")
    assert current_revision(store_url) == "0002"
    assert _raw(store_url, "SELECT id, balance FROM players ORDER BY id") == [
        (1, 99999999999999),
        (2, 29),
        (3, 123456789),
    ]
    assert _raw(store_url, "SELECT amount, balance_after FROM ledger_entries ORDER BY id") == [
        (99999999999999, 99999999999999),
        (100, 100),
        (-71, 29),
        (123456789, 123456789),
    ]
    assert _raw(store_url, "SELECT balance_before, balance_after FROM round_players") == [(100, 29)]
    upgrade(store_url)
    engine = make_engine(store_url)
    try:
        store = SqlStore(engine)
        assert [store.player(i).balance for i in (1, 2, 3)] == [
            D("999999999999.99"),
            D("0.29"),
            D("1234567.89"),
        ]
        assert [e.amount for e in store.ledger(2)] == [D("1.00"), D("-0.71")]
    finally:
        engine.dispose()

    downgrade(store_url, "0001")
    assert current_revision(store_url) == "0001"
    rows = _raw(store_url, "SELECT id, balance FROM players ORDER BY id")
    assert [(i, D(str(b)).quantize(D("0.01"))) for i, b in rows] == [
        (1, D("999999999999.99")),
        (2, D("0.29")),
        (3, D("1234567.89")),
    ]
    rows = _raw(store_url, "SELECT amount FROM ledger_entries ORDER BY id")
    assert [D(str(a)).quantize(D("0.01")) for (a,) in rows] == [
        D("999999999999.99"),
        D("1.00"),
        D("-0.71"),
        D("1234567.89"),
    ]
