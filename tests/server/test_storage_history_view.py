"""``round_detail`` (``GET /api/history/{game_number}``): the cards and decisions are
the player's seat view (uth.engine.views) of the round replayed from its kept
record, not the stored columns; only the detail replays (storage/seen.py).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import text

from uth.cards import parse_cards, stacked_deck
from uth.engine import Round
from uth.engine.history import record_of
from uth.rules import preset
from uth.server import round_books
from uth.server.ports import Debit, PlayerRound, RoundRecord
from uth.server.storage import SqlStore
from uth.server.storage.seen import replayed

D = Decimal
T0 = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
# Seat 1 As Ad, seat 2 8h 8d, the dealer Qc Qd, the board Ah Kc 9s 4h 3c.
TOP = stacked_deck(tuple(parse_cards("As Ad 8h 8d Qc Qd Ah Kc 9s 4h 3c")))
BOARD = ["Ah", "Kc", "9s", "4h", "3c"]


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def dealt(a: int, b: int) -> Round:
    rnd = Round(preset("casino"), game_id="G-1")
    rnd.place_wagers(str(a), ante=10, seat=1)
    rnd.place_wagers(str(b), ante=10, seat=2)
    rnd.close_betting(TOP)
    return rnd


def columns(pid: int) -> PlayerRound:
    """A stored part unlike the round: the detail must not read it."""
    lost = {"stake": D("10"), "result": "lose", "net": D("-10")}
    nothing = {"stake": D("0"), "result": "no_action", "net": D("0")}
    return PlayerRound(
        player_id=pid,
        hole=["2c", "2d"],
        decisions=["stored"],
        wagers={
            "ante": lost,
            "blind": lost,
            "play": nothing,
            "trips": nothing,
            "bad_beat": nothing,
        },
        category="high_card",
        best_five=["2c", "2d", "3d", "4d", "6s"],
        outcome="lose",
    )


def stored_columns(a: int, b: int) -> RoundRecord:
    """The stored round's columns, unlike its kept record (the detail reads the record)."""
    return RoundRecord(
        settled_at=at(3),
        deck=["2h"] * 52,
        board=["2s", "3s", "4s", "5s", "6s"],
        dealer=["7s", "8s"],
        dealer_category="flush",
        dealer_qualifies=False,
        players=[columns(a), columns(b)],
    )


def opened(store: SqlStore) -> tuple[int, int, int]:
    """Players amy and bob (100 each) in round G-1, Ante and Blind 10 each debited:
    (amy's id, bob's id, the round's id).
    """
    a = store.create_player("amy", "a", D("100"), T0).id
    b = store.create_player("bob", "b", D("100"), T0).id
    rid = store.open_round("t", "G-1", "casino", at(1))
    store.debit(rid, [Debit(a, "ante", D("10")), Debit(a, "blind", D("10"))], at(1))
    store.debit(rid, [Debit(b, "ante", D("10")), Debit(b, "blind", D("10"))], at(1))
    return a, b, rid


def test_a_settled_round_detail_is_the_seat_view_of_its_kept_record(store: SqlStore) -> None:
    a, b, rid = opened(store)
    rnd = dealt(a, b)
    rnd.act(str(a), "check")
    rnd.act(str(b), "play_4x")
    store.debit(rid, [Debit(b, "play", D("40"))], at(2))
    rnd.act(str(a), "check")
    rnd.act(str(a), "fold")  # amy's hand is folded face down
    round_books.settle_round(store, store, rid, stored_columns(a, b), {}, kept=record_of(rnd))

    replayed.cache_clear()
    assert [h.game_number for h in store.history(a)] == ["G-1"]
    assert replayed.cache_info().misses == 0  # the list does not replay

    amy = store.round_detail(a, "G-1")
    assert (list(amy.hole), list(amy.board), list(amy.dealer)) == (
        ["As", "Ad"],
        BOARD,
        ["Qc", "Qd"],
    )
    assert (amy.dealer_category, amy.dealer_qualifies) == ("pair", True)
    assert list(amy.decisions) == ["check", "check", "fold"]
    assert (amy.category, amy.outcome) == ("three_of_a_kind", "fold")
    assert list(amy.best_five) == ["As", "Ah", "Ad", "Kc", "9s"]
    assert (amy.behind, amy.back_line) == (None, None)
    assert amy.wagers["ante"] == {"stake": D("10"), "result": "lose", "net": D("-10")}  # stored

    bob = store.round_detail(b, "G-1")
    assert (list(bob.hole), list(bob.board), list(bob.dealer)) == (
        ["8h", "8d"],
        BOARD,
        ["Qc", "Qd"],
    )
    assert (list(bob.decisions), bob.category, bob.outcome) == (["play_4x"], "pair", "lose")
    assert list(bob.best_five) == ["8h", "8d", "Ah", "Kc", "9s"]
    assert replayed.cache_info().misses == 1  # replayed once for both


def test_a_voided_round_detail_shows_the_decisions_and_no_card(store: SqlStore) -> None:
    a, b, rid = opened(store)
    rnd = dealt(a, b)
    rnd.act(str(a), "play_4x")
    rnd.void("card exposed")
    round_books.void_round(store, store, rid, "card exposed", "op", at(2), kept=record_of(rnd))

    amy = store.round_detail(a, "G-1")
    assert (amy.status, amy.void_reason) == ("voided", "card exposed")
    assert (list(amy.hole), list(amy.board), list(amy.dealer)) == ([], [], [])
    assert (amy.dealer_category, amy.dealer_qualifies) == (None, None)
    assert list(amy.decisions) == ["play_4x"]
    assert (amy.category, list(amy.best_five), amy.outcome) == (None, [], None)
    bob = store.round_detail(b, "G-1")
    assert (list(bob.hole), list(bob.decisions)) == ([], [])  # amy's decision is hers


def test_a_record_that_no_longer_replays_falls_back_on_the_stored_columns(
    store: SqlStore, caplog: pytest.LogCaptureFixture
) -> None:
    """A kept record altered in the database (``uth replay`` reports it): the detail
    is still served, its cards and decisions from the stored columns, and logged.
    """
    a, b, rid = opened(store)
    rnd = dealt(a, b)
    for action in ("check", "check", "fold"):
        for pid in (a, b):
            rnd.act(str(pid), action)
    round_books.settle_round(store, store, rid, stored_columns(a, b), {}, kept=record_of(rnd))
    with store.engine.begin() as conn:
        conn.execute(
            text("UPDATE rounds SET record = '{\"version\": 99}' WHERE id = :r"), {"r": rid}
        )
    replayed.cache_clear()
    with caplog.at_level(logging.ERROR, logger="uth.storage"):
        amy = store.round_detail(a, "G-1")
    assert (list(amy.hole), list(amy.decisions), list(amy.board)) == (
        ["2c", "2d"],
        ["stored"],
        ["2s", "3s", "4s", "5s", "6s"],
    )
    assert (amy.dealer_category, amy.outcome) == ("flush", "lose")
    assert amy.wagers["ante"] == {"stake": D("10"), "result": "lose", "net": D("-10")}
    assert [r.getMessage() for r in caplog.records] == [
        "round G-1: its kept record does not replay (format: missing)"
    ]
