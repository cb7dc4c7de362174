"""Faults around a round: a disconnect after betting closed, a storage failure at
settlement, two tables opening rounds in the same second, a restart within the
same second. Each keeps the balances exact and the ledger consistent.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from helpers import LIVE_TABLE, OPERATOR_TOKEN, entries_of, live_server, write_tables

from uth.errors import InvalidRulesError
from uth.server.app import create_app
from uth.server.config import Settings
from uth.server.storage import SqlStore, make_engine, upgrade


class GatedStore(SqlStore):
    """Holds ``open_round`` until the test opens the gate (betting closed, red light)."""

    def __init__(self, url: str) -> None:
        super().__init__(make_engine(url))
        self.entered = threading.Event()
        self.gate = threading.Event()

    def open_round(self, *args: Any, **kwargs: Any) -> int:
        self.entered.set()
        assert self.gate.wait(10), "the test never opened the gate"
        return super().open_round(*args, **kwargs)


class FlakyStore(SqlStore):
    """``credit`` (the settlement's first write) fails once, as a database that went
    away would."""

    def __init__(self, url: str) -> None:
        super().__init__(make_engine(url))
        self.failures = 1

    def credit(self, round_id: int, credits: Any, now: Any) -> Any:
        if self.failures:
            self.failures -= 1
            raise RuntimeError("database went away")
        return super().credit(round_id, credits, now)


@pytest.fixture
def migrated(store_url: str) -> Iterator[str]:
    upgrade(store_url)
    yield store_url


def test_disconnect_after_betting_closed_keeps_the_hand_in_play(
    migrated: str, tmp_path: Path
) -> None:
    """Bob leaves after the red light while the round is being opened: his bets
    stand (004: only bets declined while betting is open are refunded), the timer
    decides for him, and his reservation is released exactly once.
    """
    store = GatedStore(migrated)
    try:
        with live_server(migrated, tmp_path, store=store) as srv:
            alice, bob = srv.sign_in("alice"), srv.sign_in("bob")
            with srv.connect(alice) as a:
                with srv.connect(bob) as b:
                    a.ok("place_bet", spot="ante", amount=10)
                    b.ok("place_bet", spot="ante", amount=10)
                    srv.advance_to(a.snapshot)
                    assert store.entered.wait(10)
                    b.recv_until("light")
                # Bob is gone; the round is still being opened.
                store.gate.set()
                closed = a.recv_until("betting_closed")
                assert (closed["hands"], closed["in_round"]) == (2, True)
                for _ in ("pre_flop", "flop", "river"):
                    srv.advance_to(a.recv_until("decision_required"))
                a.recv_until("settlement")
                srv.advance_to(a.recv_until("pause"))
                assert a.recv_until("betting_open")["game_number"].endswith("-0002")
            assert srv.me(bob) == 980  # AUTO FOLDED: Ante and Blind lost
            ledger = srv.assert_consistent(bob)
            assert entries_of(ledger)[1:] == [
                ("wager", "ante", -10, 990),
                ("wager", "blind", -10, 980),
            ]
            gn = srv.history(bob)[0]["game_number"]
            d = srv.round_detail(bob, gn)
            assert d["decisions"] == ["auto:check", "auto:check", "auto:fold"]
            # His reservation was released once: he can bet all he has, not more.
            with srv.connect(bob) as b:
                assert b.cmd("place_bet", spot="ante", amount=491)["code"] == ("insufficient_funds")
                assert b.ok("place_bet", spot="ante", amount=490)["state"]["balance"] == 0
    finally:
        store.engine.dispose()


def test_a_storage_error_at_settlement_pauses_then_the_operator_voids(
    migrated: str, tmp_path: Path
) -> None:
    """004, malfunction: on an error the round is paused and every player told it is
    being investigated; the operator cancels it (void, every wager refunded); the
    table goes on.
    """
    store = FlakyStore(migrated)
    try:
        with live_server(migrated, tmp_path, store=store) as srv:
            alice, bob = srv.sign_in("alice"), srv.sign_in("bob")
            with srv.connect(alice) as a, srv.connect(bob) as b:
                a.ok("place_bet", spot="ante", amount=10)
                a.ok("place_bet", spot="trips", amount=5)
                srv.advance_to(a.snapshot)
                a.recv_until("decision_required")
                a.ok("decide", action="play_4x")
                paused = a.recv_until("round_paused")
                game = paused["game_number"]
                assert paused == {
                    "type": "round_paused",
                    "game_number": game,
                    "reason": "storage error: RuntimeError",
                    "message": "The round is paused: the issue is being investigated.",
                }
                assert b.recv_until("round_paused") == paused  # everyone, bettor or not
                assert a.ok("snapshot")["snapshot"]["paused"]["reason"] == paused["reason"]
                r = srv.client.post(
                    f"/api/operator/rounds/{game}/void",
                    json={"reason": "storage fault confirmed"},
                    headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
                )
                assert r.json() == {"game_number": game, "status": "voiding"}
                seen = a.drain_until("round_voided")
                voided = seen[-1]
                assert (voided["reason"], voided["balance"]) == ("storage fault confirmed", 1000)
                types = [m["type"] for m in seen]
                assert "dealer_revealed" not in types and "settlement" not in types
                assert srv.me(alice) == 1000
                # The table goes on: the next round settles.
                srv.advance_to(a.recv_until("pause"))
                opened = a.recv_until("betting_open")
                a.ok("place_bet", spot="ante", amount=10)
                srv.advance_to(opened)
                a.recv_until("decision_required")
                a.ok("decide", action="play_4x")
                settled = a.recv_until("settlement")
                assert settled["balance"] == 1000 + settled["net"]
                assert "wager_returned" not in [m["type"] for m in a.log]
            ledger = srv.assert_consistent(alice)
            assert entries_of(ledger)[1:9] == [
                ("wager", "ante", -10, 990),
                ("wager", "blind", -10, 980),
                ("wager", "trips", -5, 975),
                ("wager", "play", -40, 935),
                ("refund", "ante", 10, 945),
                ("refund", "blind", 10, 955),
                ("refund", "trips", 5, 960),
                ("refund", "play", 40, 1000),
            ]
            first = srv.history(alice)[-1]
            assert (first["status"], first["net"], first["game_number"]) == ("voided", 0, game)
            d = srv.round_detail(alice, game)
            assert d["void_reason"] == "storage fault confirmed"
            assert d["dealer"] == [] and d["hole"] == []
            lines = [
                (x["actor"], x["action"], x["reason"])
                for x in reversed(srv.audit())
                if x["details"].get("game_number") == game
            ]
            assert lines == [
                ("system", "pause_round", "storage error: RuntimeError"),
                ("operator", "void_round", "storage fault confirmed"),
            ]
    finally:
        store.engine.dispose()


def test_a_storage_error_at_settlement_pauses_then_the_operator_resumes(
    migrated: str, tmp_path: Path
) -> None:
    """Resumed, the failed settlement is written again and the round settles."""
    store = FlakyStore(migrated)
    try:
        with live_server(migrated, tmp_path, store=store) as srv:
            alice = srv.sign_in("alice")
            with srv.connect(alice) as a:
                a.ok("place_bet", spot="ante", amount=10)
                srv.advance_to(a.snapshot)
                a.recv_until("decision_required")
                a.ok("decide", action="play_4x")
                game = a.recv_until("round_paused")["game_number"]
                headers = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
                r = srv.client.post(
                    f"/api/operator/rounds/{game}/resume",
                    json={"reason": "db back"},
                    headers=headers,
                )
                assert r.json() == {"game_number": game, "status": "resumed"}
                resumed = a.recv_until("round_resumed")
                assert (resumed["game_number"], resumed["deadline"]) == (game, None)
                settled = a.recv_until("settlement")
                assert settled["game_number"] == game
                assert settled["balance"] == 1000 + settled["net"]
                assert store.failures == 0
                r = srv.client.post(
                    f"/api/operator/rounds/{game}/resume", json={"reason": "again"}, headers=headers
                )
                assert r.status_code == 404  # no longer in play
            srv.assert_consistent(alice)
            assert srv.history(alice)[0]["status"] == "settled"
    finally:
        store.engine.dispose()


def test_two_tables_in_the_same_second_get_different_game_numbers(
    store_url: str, tmp_path: Path
) -> None:
    tables = [LIVE_TABLE, {**LIVE_TABLE, "id": "t2", "name": "Second table"}]
    with live_server(store_url, tmp_path, tables=tables) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice, "t1") as one, srv.connect(alice, "t2") as two:
            assert one.snapshot["game_number"] == "20261129-233015-0001"
            assert two.snapshot["game_number"] == "20261129-233015-0002"
            one.ok("place_bet", spot="ante", amount=10)
            # One wallet for both tables: the second bet sees the first.
            assert two.ok("place_bet", spot="ante", amount=10)["state"]["balance"] == 960
            srv.advance_to(one.snapshot)
            for _ in ("pre_flop", "flop", "river"):  # every decision by time-out
                first, second = (
                    one.recv_until("decision_required"),
                    two.recv_until("decision_required"),
                )
                assert first["deadline"] == second["deadline"]
                srv.advance_to(first)
            s1, s2 = one.recv_until("settlement"), two.recv_until("settlement")
        assert (s1["game_number"], s2["game_number"]) == (
            "20261129-233015-0001",
            "20261129-233015-0002",
        )
        assert (s1["net"], s2["net"]) == (-20, -20)
        assert srv.me(alice) == 960
        srv.assert_consistent(alice)
        assert sorted(h["table_id"] for h in srv.history(alice)) == ["t1", "t2"]


def test_restart_within_the_same_second_renumbers_the_round(store_url: str, tmp_path: Path) -> None:
    """A game number already stored (a restart in the same second) is not reused."""
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(a.snapshot)
            for _ in ("pre_flop", "flop", "river"):
                srv.advance_to(a.recv_until("decision_required"))
            assert a.recv_until("settlement")["game_number"] == "20261129-233015-0001"
    with live_server(store_url, tmp_path) as srv:  # same database, same clock start
        with srv.connect(alice) as a:
            assert a.snapshot["game_number"] == "20261129-233015-0001"  # as announced
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(a.snapshot)
            assert a.recv_until("betting_closed")["game_number"] == "20261129-233015-0002"
            for _ in ("pre_flop", "flop", "river"):
                srv.advance_to(a.recv_until("decision_required"))
            assert a.recv_until("settlement")["game_number"] == "20261129-233015-0002"
        assert [h["game_number"] for h in srv.history(alice)] == [
            "20261129-233015-0002",
            "20261129-233015-0001",
        ]
        assert srv.me(alice) == 960
        srv.assert_consistent(alice)


def test_a_backer_at_a_house_banked_table_is_refused_at_start_up(tmp_path: Path) -> None:
    """Only a card room (a player-dealer rule set) has a third-party backer."""
    tables = write_tables(tmp_path / "tables.toml", [{**LIVE_TABLE, "backer": "bk"}])
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'uth.db'}", tables_file=tables)
    with pytest.raises(InvalidRulesError, match=r"tables\.0\.backer: only a table banked"):
        create_app(settings)


class DrainingStore(SqlStore):
    """Another process takes most of one player's money while betting is open."""

    def __init__(self, url: str) -> None:
        super().__init__(make_engine(url))
        self.drain: int | None = None

    def debit(self, round_id: int, debits: Any, now: Any) -> Any:
        if self.drain is not None:
            player, self.drain = self.drain, None
            super().adjust_balance(player, Decimal(-995), "elsewhere", "other process", now)
        return super().debit(round_id, debits, now)


def test_a_player_short_at_the_debit_is_declined_alone(migrated: str, tmp_path: Path) -> None:
    """If the ledger no longer covers one player's bets when betting closes, that
    player alone is declined, with no detail of the ledger; the others play."""
    store = DrainingStore(migrated)
    try:
        with live_server(migrated, tmp_path, store=store) as srv:
            alice, bob = srv.sign_in("alice"), srv.sign_in("bob")
            with srv.connect(alice) as a, srv.connect(bob) as b:
                a.ok("place_bet", spot="ante", amount=10)
                b.ok("place_bet", spot="ante", amount=10)
                store.drain = bob.id
                srv.advance_to(a.snapshot)
                declined = b.recv_until("bets_declined")
                assert declined["reason"] == "balance: the balance no longer covers these bets"
                assert declined["code"] == "insufficient_funds"
                closed = a.recv_until("betting_closed")
                assert (closed["hands"], closed["in_round"]) == (1, True)
                assert b.recv_until("betting_closed")["in_round"] is False
                # the engine's withdrawal of bob's hand is not a message of the protocol
                assert "wagers_withdrawn" not in {m["type"] for m in b.log}
                for _ in ("pre_flop", "flop", "river"):
                    srv.advance_to(a.recv_until("decision_required"))
                a.recv_until("settlement")
            assert srv.me(bob) == 5  # 1,000 less the 995 taken elsewhere; nothing debited
            assert srv.me(alice) == 980  # AUTO FOLDED
            srv.assert_consistent(alice)
            srv.assert_consistent(bob)
    finally:
        store.engine.dispose()
