from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from sqlalchemy import select, text

from uth.engine.events import RoundOpened
from uth.engine.table import effects as fx
from uth.errors import UthError
from uth.server import records, round_books
from uth.server.ports import (
    Debit,
    InsufficientFundsError,
    NotFoundError,
    PlayerRound,
    RoundRecord,
    Store,
)
from uth.server.storage import DuplicateError, RoundNotOpenError, SqlStore
from uth.server.storage.models import LedgerEntry as LedgerRow
from uth.server.storage.models import Round, RoundPlayer

D = Decimal
T0 = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
DECK = [r + s for s in "shdc" for r in "AKQJT98765432"]


def _check(s: SqlStore) -> Store:
    return s


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def wagers(ante: str, blind: str, trips: str, play: str = "0") -> dict[str, dict[str, object]]:
    return {
        "ante": {"stake": D(ante), "result": "win", "net": D(ante)},
        "blind": {"stake": D(blind), "result": "win", "net": D(blind) * 3},
        "trips": {"stake": D(trips), "result": "win", "net": D(trips) * 8},
        "bad_beat": {"stake": D("0"), "result": "none", "net": D("0")},
        "play": {"stake": D(play), "result": "none", "net": D("0")},
    }


def player_round(pid: int, **kw: object) -> PlayerRound:
    fields: dict[str, object] = {
        "player_id": pid,
        "hole": ["As", "Ah"],
        "decisions": ["check", "auto:check", "fold"],
        "wagers": wagers("10", "10", "5"),
        "category": "flush",
        "best_five": ["As", "Ks", "Qs", "Js", "9s"],
        "outcome": "win",
    }
    fields.update(kw)
    return PlayerRound(**fields)  # type: ignore[arg-type]


def record(players: list[PlayerRound], minutes: int = 5) -> RoundRecord:
    return RoundRecord(
        settled_at=at(minutes),
        deck=DECK,
        board=DECK[4:9],
        dealer=DECK[2:4],
        dealer_category="pair",
        dealer_qualifies=True,
        players=players,
        events=[RoundOpened(game_id="G-0001", rules="casino", bank=D("1.50"))],
    )


def ledger_rows(store: SqlStore, pid: int) -> list[tuple[object, ...]]:
    return [(e.kind, e.wager, e.amount, e.balance_after, e.round_id) for e in store.ledger(pid)]


def assert_ledger_consistent(store: SqlStore, pid: int) -> None:
    entries = store.ledger(pid)
    running = D("0")
    for entry in entries:
        running += entry.amount
        assert entry.balance_after == running
        assert entry.balance_after >= 0
    assert store.player(pid).balance == running == sum(e.amount for e in entries)


# -- accounts --------------------------------------------------------------------


def test_the_store_takes_the_table_machines_records_as_they_are() -> None:
    # One definition each (data flows engine -> server): the storage ports take the
    # records the table machine builds, with no copy of the classes to convert into.
    assert (PlayerRound, RoundRecord, Debit) == (fx.PlayerRound, fx.RoundRecord, fx.Debit)
    assert not hasattr(records, "PlayerRound") and not hasattr(records, "RoundRecord")


def test_signup_credit(store: SqlStore) -> None:
    alice = store.create_player("alice", "tok-alice", D("1000"), T0)
    assert alice.name == "alice"
    assert alice.balance == D("1000.00")
    assert store.player(alice.id) == alice
    [entry] = store.ledger(alice.id)
    assert (entry.kind, entry.wager, entry.amount, entry.balance_after) == (
        "signup",
        None,
        D("1000.00"),
        D("1000.00"),
    )
    assert entry.round_id is None
    assert entry.created_at == T0
    assert entry.created_at.tzinfo is not None
    assert_ledger_consistent(store, alice.id)


def test_times_are_returned_in_utc(store: SqlStore) -> None:
    local = datetime(2025, 3, 1, 22, 0, tzinfo=timezone(timedelta(hours=2)))
    pid = store.create_player("alice", "t", D("1"), local).id
    [entry] = store.ledger(pid)
    assert entry.created_at == local
    assert entry.created_at.utcoffset() == timedelta(0)


def test_naive_times_and_bad_amounts_are_refused(store: SqlStore) -> None:
    with pytest.raises(UthError, match="timezone-aware"):
        store.create_player("a", "t", D("1"), datetime(2025, 1, 1))
    with pytest.raises(UthError, match="whole cents"):
        store.create_player("a", "t", D("1.005"), T0)
    with pytest.raises(UthError, match="negative"):
        store.create_player("a", "t", D("-1"), T0)
    with pytest.raises(UthError, match="name"):
        store.create_player("  ", "t", D("1"), T0)


def test_token_lookup_by_hash_and_raw_token_not_stored(store: SqlStore) -> None:
    token = "s3cret-session-token-0123456789"
    alice = store.create_player("alice", token, D("100"), T0)
    store.create_player("bob", "other-token", D("100"), T0)
    assert store.player_by_token(token) == alice
    assert store.player_by_token("nope") is None
    assert store.player_by_token(token.upper()) is None
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT * FROM players")).mappings().all()
        everything = [
            conn.execute(text(f"SELECT * FROM {t}")).all()
            for t in ("players", "ledger_entries", "audit_log", "rounds", "round_players")
        ]
    assert token not in repr(everything)
    assert token not in repr(rows)
    hashes = {row["name"]: row["token_hash"] for row in rows}
    assert hashes["alice"] == hashlib.sha256(token.encode()).hexdigest()
    with pytest.raises(DuplicateError):
        store.create_player("mallory", token, D("5"), T0)
    assert [p["name"] for p in rows] == ["alice", "bob"]


def test_unknown_player(store: SqlStore) -> None:
    with pytest.raises(NotFoundError):
        store.player(404)
    with pytest.raises(NotFoundError):
        store.ledger(404)
    with pytest.raises(NotFoundError):
        store.history(404)


# -- rounds ----------------------------------------------------------------------


def test_debit_settle_round_trip(store: SqlStore) -> None:
    pid = store.create_player("alice", "t", D("1000"), T0).id
    rid = store.open_round("table-1", "G-0001", "standard", at(1))
    assert store.round_id("G-0001") == rid
    balances = store.debit(
        rid,
        [Debit(pid, "ante", D("10")), Debit(pid, "blind", D("10")), Debit(pid, "trips", D("5"))],
        at(2),
    )
    assert balances == {pid: D("975.00")}
    assert store.player(pid).balance == D("975.00")

    credits = {pid: {"ante": D("20"), "blind": D("40"), "trips": D("45"), "bad_beat": D("0")}}
    assert round_books.settle_round(store, store, rid, record([player_round(pid)]), credits) == {
        pid: D("1080.00")
    }
    assert store.player(pid).balance == D("1080.00")
    assert ledger_rows(store, pid) == [
        ("signup", None, D("1000.00"), D("1000.00"), None),
        ("wager", "ante", D("-10.00"), D("990.00"), rid),
        ("wager", "blind", D("-10.00"), D("980.00"), rid),
        ("wager", "trips", D("-5.00"), D("975.00"), rid),
        ("payout", "ante", D("20.00"), D("995.00"), rid),
        ("payout", "blind", D("40.00"), D("1035.00"), rid),
        ("payout", "trips", D("45.00"), D("1080.00"), rid),
    ]
    assert_ledger_consistent(store, pid)

    detail = store.round_detail(pid, "G-0001")
    assert detail.status == "settled"
    assert (detail.table_id, detail.rules) == ("table-1", "standard")
    assert detail.started_at == at(1)
    assert detail.settled_at == at(5)
    assert detail.settled_at is not None
    assert detail.settled_at.tzinfo is not None
    assert (detail.balance_before, detail.balance_after) == (D("1000.00"), D("1080.00"))
    assert list(detail.board) == DECK[4:9]
    assert list(detail.dealer) == DECK[2:4]
    assert (detail.dealer_category, detail.dealer_qualifies) == ("pair", True)
    assert list(detail.hole) == ["As", "Ah"]
    assert list(detail.decisions) == ["check", "auto:check", "fold"]
    assert (detail.category, detail.outcome) == ("flush", "win")
    assert list(detail.best_five) == ["As", "Ks", "Qs", "Js", "9s"]
    assert detail.wagers == wagers("10", "10", "5")
    assert detail.void_reason is None

    [summary] = store.history(pid)
    assert (summary.game_number, summary.status, summary.table_id) == (
        "G-0001",
        "settled",
        "table-1",
    )
    assert (summary.total_stake, summary.net) == (D("25.00"), D("80.00"))

    with store.engine.connect() as conn:
        rnd = conn.execute(select(Round.deck, Round.events, Round.status)).one()
        stored_wagers = conn.execute(select(RoundPlayer.wagers)).scalar_one()
    assert rnd.deck == DECK
    assert rnd.status == "settled"
    assert rnd.events == [
        {"type": "round_opened", "game_id": "G-0001", "rules": "casino", "bank": 1.5}
    ]
    assert stored_wagers["ante"] == {"stake": "10", "result": "win", "net": "10"}


def test_deck_is_stored_only_when_settled(store: SqlStore) -> None:
    store.open_round("table-1", "G-1", "standard", at(1))
    with store.engine.connect() as conn:
        assert conn.execute(select(Round.deck, Round.status)).one() == (None, "open")


def test_balance_before_counts_from_the_first_debit_of_the_round(store: SqlStore) -> None:
    a = store.create_player("alice", "a", D("100"), T0).id
    r1 = store.open_round("t", "G-1", "standard", at(1))
    store.debit(r1, [Debit(a, "ante", D("10")), Debit(a, "blind", D("10"))], at(2))
    store.adjust_balance(a, D("7.50"), "goodwill", "op", at(3))  # between the debits
    store.debit(r1, [Debit(a, "play", D("30"))], at(4))
    round_books.settle_round(store, store, r1, record([player_round(a)]), {a: {"play": D("60")}})
    detail = store.round_detail(a, "G-1")
    assert (detail.balance_before, detail.balance_after) == (D("100.00"), D("117.50"))
    assert_ledger_consistent(store, a)


def test_insufficient_funds_changes_nothing(store: SqlStore) -> None:
    pid = store.create_player("alice", "t", D("20"), T0).id
    rid = store.open_round("table-1", "G-1", "standard", at(1))
    debits = [
        Debit(pid, "ante", D("10")),
        Debit(pid, "blind", D("10")),
        Debit(pid, "trips", D("5")),
    ]
    with pytest.raises(InsufficientFundsError) as err:
        store.debit(rid, debits, at(2))
    message = str(err.value)
    assert f"player {pid}" in message
    assert "alice" in message
    assert "20.00" in message
    assert "25.00" in message
    assert store.player(pid).balance == D("20.00")
    assert ledger_rows(store, pid) == [("signup", None, D("20.00"), D("20.00"), None)]
    assert store.history(pid) == []
    # The exact amount still goes through.
    assert store.debit(rid, debits[:2], at(3)) == {pid: D("0.00")}
    assert_ledger_consistent(store, pid)


def test_debit_is_all_or_none(store: SqlStore) -> None:
    a = store.create_player("alice", "a", D("1000"), T0).id
    b = store.create_player("bob", "b", D("15"), T0).id
    rid = store.open_round("table-1", "G-1", "standard", at(1))
    debits = [
        Debit(a, "ante", D("10")),
        Debit(a, "blind", D("10")),
        Debit(b, "ante", D("10")),
        Debit(b, "blind", D("10")),
    ]
    with pytest.raises(InsufficientFundsError, match=rf"player {b} \(bob\)"):
        store.debit(rid, debits, at(2))
    assert store.player(a).balance == D("1000.00")
    assert store.player(b).balance == D("15.00")
    assert len(store.ledger(a)) == len(store.ledger(b)) == 1
    with pytest.raises(NotFoundError):
        store.debit(rid, [Debit(a, "ante", D("10")), Debit(999, "ante", D("10"))], at(2))
    assert store.player(a).balance == D("1000.00")
    assert store.debit(rid, [*debits[:2], Debit(b, "ante", D("7.5"))], at(3)) == {
        a: D("980.00"),
        b: D("7.50"),
    }
    for pid in (a, b):
        assert_ledger_consistent(store, pid)


def test_void_refunds_exactly(store: SqlStore) -> None:
    a = store.create_player("alice", "a", D("1000"), T0).id
    b = store.create_player("bob", "b", D("50"), T0).id
    rid = store.open_round("table-1", "G-7", "standard", at(1))
    store.debit(
        rid,
        [
            Debit(a, "ante", D("10")),
            Debit(a, "blind", D("10")),
            Debit(a, "trips", D("5")),
            Debit(b, "ante", D("5")),
            Debit(b, "blind", D("5")),
        ],
        at(2),
    )
    store.debit(rid, [Debit(a, "play", D("40"))], at(3))  # Play, later
    assert store.player(a).balance == D("935.00")

    refunded = round_books.void_round(store, store, rid, "dealer misdeal", "pit-boss", at(4))
    assert refunded == {a: D("1000.00"), b: D("50.00")}
    assert ledger_rows(store, a)[-4:] == [
        ("refund", "ante", D("10.00"), D("945.00"), rid),
        ("refund", "blind", D("10.00"), D("955.00"), rid),
        ("refund", "trips", D("5.00"), D("960.00"), rid),
        ("refund", "play", D("40.00"), D("1000.00"), rid),
    ]
    assert ledger_rows(store, b)[-2:] == [
        ("refund", "ante", D("5.00"), D("45.00"), rid),
        ("refund", "blind", D("5.00"), D("50.00"), rid),
    ]
    for pid in (a, b):
        assert_ledger_consistent(store, pid)

    [line] = store.audit_log()
    assert (line.actor, line.action, line.reason, line.at) == (
        "pit-boss",
        "void_round",
        "dealer misdeal",
        at(4),
    )
    assert line.details == {"game_number": "G-7", "refunds": {str(a): "65.00", str(b): "10.00"}}

    [summary] = store.history(a)
    assert (summary.status, summary.total_stake, summary.net) == ("voided", D("65.00"), D("0.00"))
    detail = store.round_detail(a, "G-7")
    assert detail.status == "voided"
    assert detail.void_reason == "dealer misdeal"
    assert (detail.balance_before, detail.balance_after) == (D("1000.00"), D("1000.00"))
    assert detail.wagers["play"] == {"stake": D("40.00"), "result": "voided", "net": D("0.00")}
    assert detail.outcome is None
    assert list(detail.hole) == []

    with pytest.raises(RoundNotOpenError, match="G-7 is voided"):
        round_books.void_round(store, store, rid, "again", "pit-boss", at(5))
    with pytest.raises(RoundNotOpenError):
        store.debit(rid, [Debit(a, "ante", D("1"))], at(5))
    with pytest.raises(RoundNotOpenError):
        round_books.settle_round(
            store, store, rid, record([player_round(a)]), {a: {"ante": D("20")}}
        )
    assert store.player(a).balance == D("1000.00")
    assert len(store.audit_log()) == 1


def test_void_of_a_settled_round_is_refused(store: SqlStore) -> None:
    a = store.create_player("alice", "a", D("100"), T0).id
    rid = store.open_round("t", "G-1", "standard", at(1))
    store.debit(rid, [Debit(a, "ante", D("10")), Debit(a, "blind", D("10"))], at(2))
    round_books.settle_round(store, store, rid, record([player_round(a)]), {a: {"ante": D("20")}})
    with pytest.raises(RoundNotOpenError, match="only an open round can be voided") as err:
        round_books.void_round(store, store, rid, "oops", "op", at(3))
    assert isinstance(err.value, UthError)
    with pytest.raises(RoundNotOpenError, match="G-1 is settled"):
        round_books.settle_round(
            store, store, rid, record([player_round(a)]), {a: {"ante": D("20")}}
        )
    assert store.player(a).balance == D("100.00")
    with pytest.raises(UthError, match="reason"):
        round_books.void_round(store, store, rid, " ", "op", at(3))
    with pytest.raises(NotFoundError):
        round_books.void_round(store, store, 12345, "x", "op", at(3))


def test_recover_voids_open_rounds(store: SqlStore) -> None:
    a = store.create_player("alice", "a", D("500"), T0).id
    b = store.create_player("bob", "b", D("500"), T0).id
    settled = store.open_round("t", "G-1", "standard", at(1))
    store.debit(settled, [Debit(a, "ante", D("10")), Debit(a, "blind", D("10"))], at(1))
    round_books.settle_round(store, store, settled, record([player_round(a)]), {a: {}})
    r2 = store.open_round("t", "G-2", "standard", at(2))
    store.debit(r2, [Debit(a, "ante", D("25")), Debit(b, "ante", D("30"))], at(2))
    store.open_round("t", "G-3", "standard", at(3))  # nobody bet yet

    assert round_books.recover(store, store, at(10)) == ["G-2", "G-3"]
    assert store.player(a).balance == D("480.00")
    assert store.player(b).balance == D("500.00")
    lines = store.audit_log()
    assert [(line.actor, line.action, line.details["game_number"]) for line in lines] == [
        ("system", "void_round", "G-3"),
        ("system", "void_round", "G-2"),
    ]
    assert {line.reason for line in lines} == {"server restarted during the round"}
    assert lines[1].details["refunds"] == {str(a): "25.00", str(b): "30.00"}
    assert lines[0].details["refunds"] == {}
    assert [(h.game_number, h.status) for h in store.history(a)] == [
        ("G-2", "voided"),
        ("G-1", "settled"),
    ]
    assert round_books.recover(store, store, at(11)) == []
    for pid in (a, b):
        assert_ledger_consistent(store, pid)


def test_ledger_calls_repeated_move_money_once(store: SqlStore) -> None:
    """A debit, credit or reversal made again (a lost answer, a retry) is skipped: an
    entry is known by its key (round, player, entry kind, wager kind)."""
    a = store.create_player("alice", "a", D("100"), T0).id
    rid = store.open_round("t", "G-1", "standard", at(1))
    debits = [Debit(a, "ante", D("10")), Debit(a, "blind", D("10"))]
    assert store.debit(rid, debits, at(2)) == {a: D("80.00")}
    assert store.debit(rid, debits, at(3)) == {a: D("80.00")}
    assert store.debit(rid, [*debits, Debit(a, "play", D("20"))], at(4)) == {a: D("60.00")}
    with pytest.raises(
        DuplicateError,
        match=r"ante: game G-1 already has a wager of 10\.00 for player \d+, not 15\.00",
    ):
        store.debit(rid, [Debit(a, "ante", D("15"))], at(5))
    with pytest.raises(
        DuplicateError, match=rf"ante: player {a} has two wager entries in one call"
    ):
        store.debit(rid, [Debit(a, "ante", D("10")), Debit(a, "ante", D("10"))], at(5))
    credits = {a: {"ante": D("20"), "play": D("40")}}
    assert store.credit(rid, credits, at(6)) == {a: D("120.00")}
    assert store.credit(rid, credits, at(7)) == {a: D("120.00")}
    with pytest.raises(
        DuplicateError,
        match=r"play: game G-1 already has a payout of 40\.00 for player \d+, not 41\.00",
    ):
        store.credit(rid, {a: {"play": D("41")}}, at(7))
    assert [e[:3] for e in ledger_rows(store, a)] == [
        ("signup", None, D("100.00")),
        ("wager", "ante", D("-10.00")),
        ("wager", "blind", D("-10.00")),
        ("wager", "play", D("-20.00")),
        ("payout", "ante", D("20.00")),
        ("payout", "play", D("40.00")),
    ]
    # Reversed, the round gives back what its entries still hold, once.
    first = store.reverse(rid, "test", at(8))
    assert (first.amounts, first.balances) == ({a: D("-20.00")}, {a: D("100.00")})
    second = store.reverse(rid, "test", at(9))
    assert (second.amounts, second.balances) == ({}, {})
    assert store.player(a).balance == D("100.00")
    assert_ledger_consistent(store, a)


def test_a_settlement_cut_short_after_its_payouts_is_voided_at_recovery(store: SqlStore) -> None:
    """The ledger paid, the round log never heard: the round stays open and the next
    start voids it, taking back the payouts and giving back the stakes."""
    a = store.create_player("alice", "a", D("100"), T0).id
    rid = store.open_round("t", "G-1", "standard", at(1))
    store.debit(rid, [Debit(a, "ante", D("10")), Debit(a, "blind", D("10"))], at(2))
    store.credit(rid, {a: {"ante": D("20"), "blind": D("50")}}, at(3))
    assert store.player(a).balance == D("150.00")
    assert round_books.recover(store, store, at(10)) == ["G-1"]
    assert store.player(a).balance == D("100.00")
    assert ledger_rows(store, a)[-2:] == [
        ("refund", "ante", D("-10.00"), D("140.00"), rid),
        ("refund", "blind", D("-40.00"), D("100.00"), rid),
    ]
    [line] = store.audit_log()
    assert line.details == {"game_number": "G-1", "refunds": {str(a): "-50.00"}}
    assert_ledger_consistent(store, a)


def test_a_settlement_retried_after_the_round_log_failed_pays_once(store: SqlStore) -> None:
    """The ledger paid, the round log's write failed: the same settlement made again
    (the server retries when the operator resumes) skips the payouts already made."""
    a = store.create_player("alice", "a", D("100"), T0).id
    rid = store.open_round("t", "G-1", "standard", at(1))
    store.debit(rid, [Debit(a, "ante", D("10")), Debit(a, "blind", D("10"))], at(2))
    credits = {a: {"ante": D("20"), "blind": D("50")}}

    class Failing:
        def __getattr__(self, name: str) -> object:
            return getattr(store, name)

        def settle_round(self, *args: object) -> None:
            raise ConnectionError("database went away")

    with pytest.raises(ConnectionError):
        round_books.settle_round(store, Failing(), rid, record([player_round(a)]), credits)  # type: ignore[arg-type]
    assert store.player(a).balance == D("150.00")
    assert round_books.settle_round(store, store, rid, record([player_round(a)]), credits) == {
        a: D("150.00")
    }
    assert [e[:3] for e in ledger_rows(store, a)][-2:] == [
        ("payout", "ante", D("20.00")),
        ("payout", "blind", D("50.00")),
    ]
    assert store.stored_round("G-1").status == "settled"
    assert_ledger_consistent(store, a)


def test_a_void_with_a_blank_actor_changes_nothing(store: SqlStore) -> None:
    a = store.create_player("alice", "a", D("100"), T0).id
    rid = store.open_round("t", "G-1", "standard", at(1))
    store.debit(rid, [Debit(a, "ante", D("10"))], at(2))
    with pytest.raises(UthError, match="actor: must not be empty"):
        round_books.void_round(store, store, rid, "misdeal", " ", at(3))
    assert store.player(a).balance == D("90.00")
    store.check_open(rid, "voided")


def test_adjust_balance(store: SqlStore) -> None:
    a = store.create_player("alice", "a", D("100"), T0).id
    assert store.adjust_balance(a, D("50"), "promo credit", "op-1", at(1)) == D("150.00")
    with pytest.raises(InsufficientFundsError, match=r"150\.00"):
        store.adjust_balance(a, D("-150.01"), "correction", "op-1", at(2))
    assert store.player(a).balance == D("150.00")
    assert store.adjust_balance(a, D("-150"), "correction", "op-1", at(3)) == D("0.00")
    for bad in ("", "   "):
        with pytest.raises(UthError, match="reason"):
            store.adjust_balance(a, D("5"), bad, "op-1", at(4))
    with pytest.raises(UthError, match="zero"):
        store.adjust_balance(a, D("0"), "nothing", "op-1", at(4))
    with pytest.raises(NotFoundError):
        store.adjust_balance(999, D("5"), "x", "op-1", at(4))
    assert ledger_rows(store, a) == [
        ("signup", None, D("100.00"), D("100.00"), None),
        ("adjustment", None, D("50.00"), D("150.00"), None),
        ("adjustment", None, D("-150.00"), D("0.00"), None),
    ]
    assert [e.reason for e in store.ledger(a)][1:] == ["promo credit", "correction"]
    lines = store.audit_log()
    assert [(x.action, x.actor, x.reason, x.details) for x in lines] == [
        (
            "adjust_balance",
            "op-1",
            "correction",
            {"player_id": a, "amount": "-150.00", "balance_after": "0.00"},
        ),
        (
            "adjust_balance",
            "op-1",
            "promo credit",
            {"player_id": a, "amount": "50.00", "balance_after": "150.00"},
        ),
    ]
    assert_ledger_consistent(store, a)


def test_history_and_detail_belong_to_their_player(store: SqlStore) -> None:
    a = store.create_player("alice", "a", D("100"), T0).id
    b = store.create_player("bob", "b", D("100"), T0).id
    r1 = store.open_round("t", "G-A", "standard", at(1))
    store.debit(r1, [Debit(a, "ante", D("5")), Debit(a, "blind", D("5"))], at(1))
    round_books.settle_round(
        store, store, r1, record([player_round(a)]), {a: {"ante": D("10"), "blind": D("10")}}
    )
    r2 = store.open_round("t", "G-AB", "standard", at(2))
    store.debit(
        r2,
        [Debit(a, "ante", D("5")), Debit(a, "blind", D("5")), Debit(b, "ante", D("1"))],
        at(2),
    )
    store.debit(r2, [Debit(b, "blind", D("1"))], at(2))
    round_books.settle_round(
        store,
        store,
        r2,
        record([player_round(a), player_round(b, outcome="lose")], minutes=6),
        {a: {"ante": D("10")}, b: {}},
    )

    assert [h.game_number for h in store.history(a)] == ["G-AB", "G-A"]
    assert [h.game_number for h in store.history(a, limit=1)] == ["G-AB"]
    assert [h.game_number for h in store.history(b)] == ["G-AB"]
    with pytest.raises(NotFoundError, match="G-A"):
        store.round_detail(b, "G-A")
    with pytest.raises(NotFoundError):
        store.round_detail(a, "G-missing")
    detail_b = store.round_detail(b, "G-AB")
    assert detail_b.outcome == "lose"
    assert (detail_b.balance_before, detail_b.balance_after) == (D("100.00"), D("98.00"))
    [hb] = store.history(b)
    assert (hb.total_stake, hb.net) == (D("2.00"), D("-2.00"))
    detail_a = store.round_detail(a, "G-AB")
    assert (detail_a.balance_before, detail_a.balance_after) == (D("110.00"), D("110.00"))
    with pytest.raises(UthError):
        store.history(a, limit=0)


def test_open_round_in_history(store: SqlStore) -> None:
    a = store.create_player("alice", "a", D("100"), T0).id
    rid = store.open_round("t", "G-1", "standard", at(1))
    assert store.history(a) == []
    store.debit(rid, [Debit(a, "ante", D("5")), Debit(a, "blind", D("5"))], at(1))
    [h] = store.history(a)
    assert (h.status, h.total_stake, h.net) == ("open", D("10.00"), D("-10.00"))
    detail = store.round_detail(a, "G-1")
    assert (detail.balance_before, detail.balance_after) == (D("100.00"), D("90.00"))


def test_game_numbers_are_unique(store: SqlStore) -> None:
    store.open_round("t", "G-1", "standard", at(1))
    with pytest.raises(DuplicateError, match="G-1"):
        store.open_round("t2", "G-1", "standard", at(2))
    with pytest.raises(NotFoundError):
        store.round_id("G-2")
    with pytest.raises(NotFoundError):
        store.debit(999, [], at(1))


def test_audit_log(store: SqlStore) -> None:
    store.audit("op", "kick", "abuse", {"player_id": 3, "amount": D("1.25")}, at(1))
    store.audit("op", "ban", "abuse", {}, at(2))
    lines = store.audit_log()
    assert [x.action for x in lines] == ["ban", "kick"]
    assert lines[1].details == {"player_id": 3, "amount": "1.25"}
    assert lines[1].at == at(1)
    assert [x.action for x in store.audit_log(limit=1)] == ["ban"]


def test_audit_lines_of_one_action_oldest_first(store: SqlStore) -> None:
    store.audit("op", "kick", "abuse", {}, at(1))
    store.audit("system", "server_started", "server started", {"last_round_id": 0}, at(2))
    store.audit("system", "server_started", "server started", {"last_round_id": 4}, at(3))
    lines = store.audit_lines("server_started")
    assert [(x.at, x.details) for x in lines] == [
        (at(2), {"last_round_id": 0}),
        (at(3), {"last_round_id": 4}),
    ]
    assert store.audit_lines("ban") == []


def test_a_tables_rounds_newest_first_a_page_at_a_time(store: SqlStore) -> None:
    assert store.last_round_id() == 0
    for n in (3, 1, 4, 2):
        store.open_round("t1", f"G-{n}", "california", at(n))
    last = store.open_round("t2", "G-5", "standard", at(5))
    assert store.last_round_id() == last
    assert [r.game_number for r in store.table_rounds("t1")] == ["G-4", "G-3", "G-2", "G-1"]
    page = store.table_rounds("t1", limit=2)
    assert [(r.game_number, r.table_id, r.status) for r in page] == [
        ("G-4", "t1", "open"),
        ("G-3", "t1", "open"),
    ]
    assert [r.game_number for r in store.table_rounds("t1", before="G-3")] == ["G-2", "G-1"]
    assert store.table_rounds("t3") == []


def test_ledger_json_is_plain(store: SqlStore) -> None:
    a = store.create_player("alice", "a", D("100"), T0).id
    rid = store.open_round("t", "G-1", "standard", at(1))
    store.debit(rid, [Debit(a, "ante", D("0.10")), Debit(a, "blind", D("0.20"))], at(1))
    with store.engine.connect() as conn:
        amounts = conn.execute(select(LedgerRow.amount).order_by(LedgerRow.id)).scalars().all()
    assert amounts == [D("100.00"), D("-0.10"), D("-0.20")]
    assert store.player(a).balance == D("99.70")


@pytest.mark.parametrize(
    ("back", "result", "net"),
    [("325", "lose", "-175.00"), ("640", "win", "140.00"), ("500", "push", "0.00")],
)
def test_player_dealer_detail_nets_the_banks_result(
    store: SqlStore, back: str, result: str, net: str
) -> None:
    """The player-dealer has no part of their own in the record: the detail's
    ``bank`` line is the bank less what it paid back (issue 13), not the stake lost.
    """
    alice = store.create_player("alice", "a", D("100"), T0).id
    bob = store.create_player("bob", "b", D("1000"), T0).id
    rid = store.open_round("california-1", "G-CR", "california", at(1))
    store.debit(rid, [Debit(bob, "bank", D("500")), Debit(alice, "ante", D("10"))], at(1))
    credits = {bob: {"bank": D(back)}}
    round_books.settle_round(store, store, rid, record([player_round(alice)]), credits)
    detail = store.round_detail(bob, "G-CR")
    assert detail.wagers == {"bank": {"stake": D("500.00"), "result": result, "net": D(net)}}
    assert (detail.balance_before, detail.balance_after) == (
        D("1000.00"),
        D("500.00") + D(back),
    )
    [summary] = store.history(bob)
    assert (summary.total_stake, summary.net) == (D("500.00"), D(net))
