from __future__ import annotations

import threading
from datetime import UTC, datetime
from decimal import Decimal

from uth.server.ports import Debit
from uth.server.storage import SqlStore

T0 = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
THREADS = 2
DEBITS = 50


def _hammer(store: SqlStore, work: list[tuple[int, list[Debit]]]) -> list[BaseException]:
    barrier = threading.Barrier(len(work))
    errors: list[BaseException] = []

    def run(round_id: int, debits: list[Debit]) -> None:
        barrier.wait()
        for i in range(DEBITS):
            # A wager kind of its own each time: a round debits each wager once.
            again = [Debit(d.player_id, f"{d.kind}-{i}", d.amount) for d in debits]
            try:
                store.debit(round_id, again, T0)
            except Exception as exc:  # reported by the test
                errors.append(exc)

    threads = [threading.Thread(target=run, args=item) for item in work]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    return errors


def _assert_chain(store: SqlStore, pid: int) -> None:
    running = Decimal("0")
    for entry in store.ledger(pid):
        running += entry.amount
        assert entry.balance_after == running
    assert store.player(pid).balance == running


def test_concurrent_debits_lose_no_update(store: SqlStore) -> None:
    pid = store.create_player("alice", "a", Decimal("1000"), T0).id
    rounds = [store.open_round("t", f"G-{i}", "standard", T0) for i in range(THREADS)]
    errors = _hammer(store, [(rid, [Debit(pid, "ante", Decimal("1"))]) for rid in rounds])
    assert errors == []
    assert store.player(pid).balance == Decimal("1000") - THREADS * DEBITS
    assert len(store.ledger(pid)) == 1 + THREADS * DEBITS
    _assert_chain(store, pid)


def test_concurrent_debits_of_two_players_in_opposite_order(store: SqlStore) -> None:
    a = store.create_player("alice", "a", Decimal("500"), T0).id
    b = store.create_player("bob", "b", Decimal("500"), T0).id
    r1 = store.open_round("t", "G-1", "standard", T0)
    r2 = store.open_round("t", "G-2", "standard", T0)
    one = Decimal("1")
    errors = _hammer(
        store,
        [
            (r1, [Debit(a, "ante", one), Debit(b, "ante", one)]),
            (r2, [Debit(b, "ante", one), Debit(a, "ante", one)]),
        ],
    )
    assert errors == []
    for pid in (a, b):
        assert store.player(pid).balance == Decimal("500") - 2 * DEBITS
        _assert_chain(store, pid)


def test_concurrent_debits_never_overdraw(store: SqlStore) -> None:
    pid = store.create_player("alice", "a", Decimal("30"), T0).id
    rounds = [store.open_round("t", f"G-{i}", "standard", T0) for i in range(THREADS)]
    errors = _hammer(store, [(rid, [Debit(pid, "ante", Decimal("1"))]) for rid in rounds])
    assert len(errors) == THREADS * DEBITS - 30
    assert {type(e).__name__ for e in errors} == {"InsufficientFundsError"}
    assert store.player(pid).balance == Decimal("0.00")
    _assert_chain(store, pid)
