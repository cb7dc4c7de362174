"""``uth replay`` checks a card-room table's rounds against each other (issue 13,
items 5 and 7): the deck colours alternate from one round dealt to the next, nobody
banks a third round in a row, and each offer starts where the rotation says.

One live run per database (SQLite and PostgreSQL) stores three settled rounds at
a California table, alice at seat 1, bob at seat 2, carol at seat 3:

- round 1 (blue deck): the offer starts at seat 1; alice banks 500, bob plays;
- round 2 (red deck): alice has banked one round, the offer starts with her again;
  she banks 500, bob plays;
- round 3 (blue deck): alice has banked two in a row, the offer starts at seat 2;
  bob banks 500, carol plays.

The stored records are then altered with SQL, as a forger would.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from helpers import CARD_ROOM_TABLE, START, Conn, LiveServer, Player, live_server, sql
from typer.testing import CliRunner

from uth.cli.main import app
from uth.server.replay import check_all, check_round
from uth.server.storage import SqlStore, make_engine

TABLE = CARD_ROOM_TABLE
runner = CliRunner()


def _record(url: str, game_number: str) -> dict[str, Any]:
    [(record,)] = sql(url, "SELECT record FROM rounds WHERE game_number = :g", g=game_number)
    data: dict[str, Any] = json.loads(record)
    return data


def _store_record(url: str, game_number: str, data: dict[str, Any]) -> None:
    text_ = json.dumps(data, sort_keys=True, separators=(",", ":"))
    sql(url, "UPDATE rounds SET record = :r WHERE game_number = :g", r=text_, g=game_number)


def _messages(url: str) -> list[str]:
    engine = make_engine(url)
    try:
        store = SqlStore(engine)
        return [c.message() for c in check_all(store, store)]
    finally:
        engine.dispose()


def _play_round(
    srv: LiveServer, offered: list[tuple[Conn, bool]], banker: Conn, bettor: Conn
) -> None:
    """The offer answered in turn (accepting with a bank of 500), the bettor's Ante
    10 and Play 4x, up to the pause after the round.
    """
    for conn, accept in offered:
        assert conn.recv_until("offer")["to_you"] is True
        if accept:
            conn.ok("answer_offer", accept=True, bank=500)
        else:
            conn.ok("answer_offer", accept=False)
    opened = offered[-1][0].recv_until("betting_open")
    while bettor.recv_until("betting_open") != opened:  # the bettor reads up to it
        pass
    bettor.ok("place_bet", spot="ante", amount=10)
    srv.advance_to(opened)
    bettor.recv_until("decision_required")
    bettor.ok("decide", action="play_4x")
    srv.advance_to(banker.recv_until("pause"))


def _three_rounds(url: str, tmp_path: Path) -> tuple[Player, Player, Player]:
    with live_server(url, tmp_path, seed=6, tables=[TABLE]) as srv:
        alice, bob, carol = srv.sign_in("alice"), srv.sign_in("bob"), srv.sign_in("carol")
        with srv.connect(alice) as a, srv.connect(bob) as b, srv.connect(carol) as c:
            a.ok("sit", seat=1)
            b.ok("sit", seat=2)
            c.ok("sit", seat=3)
            srv.advance_to(a.snapshot)
            _play_round(srv, [(a, True)], a, b)
            _play_round(srv, [(a, True)], a, b)
            _play_round(srv, [(b, True)], b, c)
    return alice, bob, carol


def test_a_card_room_tables_rounds_are_checked_in_sequence(store_url: str, tmp_path: Path) -> None:
    alice, bob, _carol = _three_rounds(store_url, tmp_path)
    games = [g for (g,) in sql(store_url, "SELECT game_number FROM rounds ORDER BY id")]
    assert len(games) == 3
    g1, g2, g3 = games
    records = [_record(store_url, g) for g in games]
    assert [r["deck_colour"] for r in records] == ["blue", "red", "blue"]
    accepted = {"outcome": "accepted", "bank": "500.00"}
    assert [(r["player_dealer"], r["offers"]) for r in records] == [
        (str(alice.id), [{"player": str(alice.id), "seat": 1, **accepted}]),
        (str(alice.id), [{"player": str(alice.id), "seat": 1, **accepted}]),
        (str(bob.id), [{"player": str(bob.id), "seat": 2, **accepted}]),
    ]
    # Each round: the bank debited and credited back, the bettor's Ante, Blind and
    # Play debited, and their payouts (bob loses all three in round 2).
    counts = sql(
        store_url,
        "SELECT count(*) FROM ledger_entries WHERE round_id IS NOT NULL "
        "GROUP BY round_id ORDER BY round_id",
    )
    assert [n for (n,) in counts] == [8, 5, 8]
    # Untouched: every round matches, alone and in sequence.
    assert runner.invoke(app, ["replay", "--all", "--database", store_url]).output == (
        f"game {g1}: replayed, result and 8 ledger entries match\n"
        f"game {g2}: replayed, result and 5 ledger entries match\n"
        f"game {g3}: replayed, result and 8 ledger entries match\n"
        "3 rounds: 3 replayed and matched, 0 voided before a record was kept "
        "(net zero), 0 open (skipped), 0 differ\n"
    )

    # Round 2 said to be dealt from the blue deck again: replaying it alone cannot
    # tell (it rebuilds from the stored colour); the sequence does.
    records[1]["deck_colour"] = "blue"
    _store_record(store_url, g2, records[1])
    line = f"game {g2}: differs: deck_colour: stored blue, expected red (game {g1} before it took the blue deck)"
    assert _messages(store_url) == [
        f"game {g1}: replayed, result and 8 ledger entries match",
        line,
        f"game {g3}: replayed, result and 8 ledger entries match",
    ]
    result = runner.invoke(app, ["replay", g2, "--database", store_url, "--json"])
    assert result.exit_code == 1
    assert json.loads(result.output) == {
        "game_number": g2,
        "status": "settled",
        "outcome": "differs",
        "entries": 5,
        "difference": None,
        "table_differences": [
            f"deck_colour: stored blue, expected red (game {g1} before it took the blue deck)"
        ],
        "message": line,
    }
    records[1]["deck_colour"] = "red"
    _store_record(store_url, g2, records[1])

    # Round 3 said to be banked by alice, a third round in a row: the record's
    # player-dealer and offer, and the bank's ledger entries moved to her so that the
    # round alone still replays and its ledger matches.
    records[2]["player_dealer"] = str(alice.id)
    records[2]["offers"] = [{"player": str(alice.id), "seat": 1, **accepted}]
    _store_record(store_url, g3, records[2])
    sql(
        store_url,
        "UPDATE ledger_entries SET player_id = :a WHERE wager = 'bank' "
        "AND round_id = (SELECT id FROM rounds WHERE game_number = :g)",
        a=alice.id,
        g=g3,
    )
    engine = make_engine(store_url)
    try:
        store = SqlStore(engine)
        check = check_round(store, store, g3)
    finally:
        engine.dispose()
    assert (check.outcome, check.difference) == ("differs", None)
    assert check.table_differences == (
        f"player_dealer: stored player {alice.id} banking 3 rounds in a row "
        f"(games {g1}, {g2} and this one), expected another player: at most 2 in a row",
        # bob declined nothing and bet nothing: the first seat known to be taken
        # clockwise from seat 2 is carol's.
        f"offers[0]: stored seat 1 (player {alice.id}), expected seat 3 first: "
        f"the offer starts at seat 2 after game {g2}",
    )
    result = runner.invoke(app, ["replay", "--all", "--database", store_url])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"game {g1}: replayed, result and 8 ledger entries match",
        f"game {g2}: replayed, result and 5 ledger entries match",
        *(f"game {g3}: differs: {d}" for d in check.table_differences),
        "3 rounds: 2 replayed and matched, 0 voided before a record was kept "
        "(net zero), 0 open (skipped), 1 differ",
    ]


def test_the_rotation_goes_on_after_a_server_restart(store_url: str, tmp_path: Path) -> None:
    """alice banks two settled rounds; the server starts again; alice (now at seat 2,
    where the restored offer starts) is passed over at its first offer (000: two
    consecutive rounds of play, whatever the server does in between); bob banks,
    carol plays, and the sequence replays; a record altered to give alice a third
    round in a row across the restart is reported.
    """
    with live_server(store_url, tmp_path, seed=6, tables=[TABLE]) as srv:
        alice, bob = srv.sign_in("alice"), srv.sign_in("bob")
        with srv.connect(alice) as a, srv.connect(bob) as b:
            a.ok("sit", seat=1)
            b.ok("sit", seat=2)
            srv.advance_to(a.snapshot)
            _play_round(srv, [(a, True)], a, b)
            _play_round(srv, [(a, True)], a, b)
    later = START + timedelta(hours=1)
    with live_server(store_url, tmp_path, seed=7, tables=[TABLE], start=later) as srv:
        carol = srv.sign_in("carol")
        with srv.connect(alice) as a, srv.connect(bob) as b, srv.connect(carol) as c:
            assert a.snapshot["seats"] == []  # players sit again after a restart
            a.ok("sit", seat=2)
            b.ok("sit", seat=3)
            c.ok("sit", seat=4)
            srv.advance_to(a.snapshot)
            deadline = datetime.fromisoformat(a.snapshot["deadline"]) + timedelta(seconds=5)
            offer = {
                "type": "offer",
                "player_id": bob.id,
                "name": "bob",
                "seat": 3,
                "deadline": deadline.isoformat(),
                "min_bank": 100,
                "max_bank": 100000,
            }
            # The offer starts at seat 2, alice's: she is passed over; bob is offered.
            assert a.recv_until("offer") == {**offer, "to_you": False}
            assert b.recv_until("offer") == {**offer, "to_you": True}
            assert c.recv_until("offer") == {**offer, "to_you": False}
            assert a.cmd("answer_offer", accept=True, bank=500)["code"] == "not_offered"
            b.ok("answer_offer", accept=True, bank=500)
            banker = {"type": "banker", "player_id": bob.id, "name": "bob", "seat": 3}
            for conn in (a, b, c):
                assert conn.recv_until("banker") == {**banker, "bank": 500, "declined": ["alice"]}
            opened = c.recv_until("betting_open")
            c.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(opened)
            c.recv_until("decision_required")
            c.ok("decide", action="play_4x")
            srv.advance_to(b.recv_until("pause"))
    games = [g for (g,) in sql(store_url, "SELECT game_number FROM rounds ORDER BY id")]
    g1, g2, g3 = games
    records = [_record(store_url, g) for g in games]
    # The colours go on alternating across the restart.
    assert [r["deck_colour"] for r in records] == ["blue", "red", "blue"]
    accepted = {"outcome": "accepted", "bank": "500.00"}
    assert records[2]["offers"] == [
        {"player": str(alice.id), "seat": 2, "outcome": "passed_over", "bank": None},
        {"player": str(bob.id), "seat": 3, **accepted},
    ]
    # The server's start is in the audit log, with what the table went on from.
    [(details,)] = sql(
        store_url,
        "SELECT details FROM audit_log WHERE action = 'server_started' ORDER BY id DESC LIMIT 1",
    )
    started = details if isinstance(details, dict) else json.loads(details)
    [(g2_id,)] = sql(store_url, "SELECT id FROM rounds WHERE game_number = :g", g=g2)
    restored = {"last": str(alice.id), "streak": 2, "start": 2, "first_colour": "blue"}
    assert started == {"last_round_id": g2_id, "card_rooms": {"t1": restored}}
    result = runner.invoke(app, ["replay", "--all", "--database", store_url])
    assert result.exit_code == 0
    assert result.output == (
        f"game {g1}: replayed, result and 8 ledger entries match\n"
        f"game {g2}: replayed, result and 5 ledger entries match\n"
        f"game {g3}: replayed, result and 8 ledger entries match\n"
        "3 rounds: 3 replayed and matched, 0 voided before a record was kept "
        "(net zero), 0 open (skipped), 0 differ\n"
    )

    # Round 3 said to be banked by alice from seat 2: a third round in a row.
    records[2]["player_dealer"] = str(alice.id)
    records[2]["offers"] = [{"player": str(alice.id), "seat": 2, **accepted}]
    _store_record(store_url, g3, records[2])
    sql(
        store_url,
        "UPDATE ledger_entries SET player_id = :a WHERE wager = 'bank' "
        "AND round_id = (SELECT id FROM rounds WHERE game_number = :g)",
        a=alice.id,
        g=g3,
    )
    result = runner.invoke(app, ["replay", "--all", "--database", store_url])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"game {g1}: replayed, result and 8 ledger entries match",
        f"game {g2}: replayed, result and 5 ledger entries match",
        f"game {g3}: differs: player_dealer: stored player {alice.id} banking 3 rounds in "
        f"a row (games {g1}, {g2} and this one), expected another player: at most 2 in a row",
        "3 rounds: 2 replayed and matched, 0 voided before a record was kept "
        "(net zero), 0 open (skipped), 1 differ",
    ]


def test_a_round_cut_by_a_restart_neither_counts_nor_breaks_a_streak(
    store_url: str, tmp_path: Path
) -> None:
    """alice banks two settled rounds; bob banks the third, cut short by the server
    stopping mid-round (voided at the next start, without a record); after the
    restart bob (seat 2, where the offer starts) declines and alice is passed over:
    nobody banks.
    """
    with live_server(store_url, tmp_path, seed=6, tables=[TABLE]) as srv:
        alice, bob = srv.sign_in("alice"), srv.sign_in("bob")
        with srv.connect(alice) as a, srv.connect(bob) as b:
            a.ok("sit", seat=1)
            b.ok("sit", seat=2)
            srv.advance_to(a.snapshot)
            _play_round(srv, [(a, True)], a, b)
            _play_round(srv, [(a, True)], a, b)
            assert b.recv_until("offer")["to_you"] is True
            b.ok("answer_offer", accept=True, bank=500)
            opened = a.recv_until("betting_open")
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(opened)
            a.recv_until("decision_required")  # the server stops here
    later = START + timedelta(hours=1)
    with (
        live_server(store_url, tmp_path, seed=7, tables=[TABLE], start=later) as srv,
        srv.connect(alice) as a,
        srv.connect(bob) as b,
    ):
        a.ok("sit", seat=1)
        b.ok("sit", seat=2)
        srv.advance_to(a.snapshot)
        offer = b.recv_until("offer")
        assert (offer["player_id"], offer["seat"], offer["to_you"]) == (bob.id, 2, True)
        b.ok("answer_offer", accept=False)
        nobody = {
            "type": "no_banker",
            "code": "all_declined",
            "message": "Nobody accepted the bank: no round is dealt.",
            "declined": ["bob", "alice"],
        }
        assert a.recv_until("no_banker") == nobody
        assert [m for m in a.log if m["type"] == "offer"] == [{**offer, "to_you": False}]
    g1, g2, g3 = [g for (g,) in sql(store_url, "SELECT game_number FROM rounds ORDER BY id")]
    assert [s for (s,) in sql(store_url, "SELECT status FROM rounds ORDER BY id")] == [
        "settled",
        "settled",
        "voided",
    ]
    result = runner.invoke(app, ["replay", "--all", "--database", store_url])
    assert result.exit_code == 0
    assert result.output == (
        f"game {g1}: replayed, result and 8 ledger entries match\n"
        f"game {g2}: replayed, result and 5 ledger entries match\n"
        f"game {g3}: voided before its record was kept; its 6 ledger entries net to zero\n"
        "3 rounds: 2 replayed and matched, 1 voided before a record was kept "
        "(net zero), 0 open (skipped), 0 differ\n"
    )
